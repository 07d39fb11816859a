import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { type Api, stopQuietly } from "./helpers";

const KEY = "large-listing-key-0123456789abcdef";
const NS = "big_listing";
const DOCS = 20;
const DOC_BYTES = 5_000_000;
/** INGESTION_LIST_MAX_CONTENT_BYTES's default. */
const CAP = 32 * 1024 * 1024;

/**
 * Issue #33, "no size cliff": 20 documents of 5 MB (100 MB, more than the
 * 64 MiB gRPC message limit) in one namespace of the all-in-one stack. Every
 * listing answers 200: with content, under the 32 MiB content budget, the
 * documents that did not fit marked and the cap stated; reads of a single
 * document stream its content whole. Processing need not finish: listings
 * and reads do not depend on it (superrag keeps it to chunks and vectors).
 */
describe("large listings (issue #33)", () => {
  let engram: EngramProcess;
  let api: Api;
  /** Caller id -> content. */
  const texts = new Map<string, string>();
  /** Caller id -> service id. */
  const serviceIds = new Map<string, string>();

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY, timeoutMs: 60_000 });
    api = apiClient(engram.url, KEY);
    // ASCII text (a byte per character), every document different from its first line on.
    const sentence = "The quarterly report lists revenue by region, the hiring plan and the open risks of the platform team. ";
    const body = sentence.repeat(Math.ceil(DOC_BYTES / sentence.length));
    for (let i = 0; i < DOCS; i++) {
      const id = `big-${String(i).padStart(2, "0")}`;
      const head = `Document ${id}. `;
      const content = head + body.slice(0, DOC_BYTES - head.length);
      texts.set(id, content);
      const res = await api("POST", "/v3/documents", { content, customId: id, containerTag: NS, taskType: "superrag" });
      expect(res.status).toBe(200);
      serviceIds.set(id, res.body.id);
    }
  }, 150_000);
  afterAll(() => stopQuietly(engram));

  const total = () => [...texts.values()].reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0);
  /** How many 5 MB contents the default budget holds. */
  const fitting = Math.floor(CAP / DOC_BYTES);

  it("holds more than 64 MiB of content in the namespace", () => {
    expect(total()).toBeGreaterThan(64 * 1024 * 1024);
    expect(fitting).toBe(6);
  });

  it("POST /ns/{ns}/list/documents {} answers 200: every document listed, content within the budget, the rest marked, the cap stated", async () => {
    const res = await api("POST", `/ns/${NS}/list/documents`, {});
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ currentPage: 1, totalItems: DOCS, totalPages: 1 });
    expect(res.body.chunks).toEqual([]);
    expect(res.body.memories).toEqual([]);
    const docs = res.body.documents as { id: string; content: string; contentOmitted?: true }[];
    expect(docs.map((d) => d.id).sort()).toEqual([...texts.keys()].sort());
    const whole = docs.filter((d) => !d.contentOmitted);
    const omitted = docs.filter((d) => d.contentOmitted);
    expect(whole).toHaveLength(fitting);
    // Newest first: the budget is filled in page order.
    expect(docs.slice(0, fitting).every((d) => !d.contentOmitted)).toBe(true);
    for (const d of whole) expect(d.content === texts.get(d.id)).toBe(true);
    for (const d of omitted) expect(d.content).toBe("");
    expect(res.body.contentLimit).toMatchObject({ maxBytes: CAP, omittedDocuments: DOCS - fitting, details: expect.stringContaining("contentOmitted") });
  }, 90_000);

  it('POST /v3/documents/list {"includeContent":true,"limit":100} answers 200 the same way; without includeContent nothing is cut', async () => {
    const res = await api("POST", "/v3/documents/list", { containerTags: [NS], includeContent: true, limit: 100 });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ currentPage: 1, limit: 100, totalItems: DOCS, totalPages: 1 });
    const items = res.body.memories as { id: string; customId: string; content?: string; contentOmitted?: true }[];
    expect(items).toHaveLength(DOCS);
    const whole = items.filter((d) => "content" in d);
    expect(whole).toHaveLength(fitting);
    for (const d of whole) {
      expect(d.contentOmitted).toBeUndefined();
      expect(d.content === texts.get(d.customId)).toBe(true);
    }
    for (const d of items.filter((x) => !("content" in x))) expect(d.contentOmitted).toBe(true);
    expect(res.body.contentLimit).toMatchObject({ maxBytes: CAP, omittedDocuments: DOCS - fitting });

    const plain = await api("POST", "/v3/documents/list", { containerTags: [NS], limit: 100 });
    expect(plain.status).toBe(200);
    expect(plain.body.memories).toHaveLength(DOCS);
    expect(plain.body.memories.some((d: object) => "content" in d || "contentOmitted" in d)).toBe(false);
    expect(plain.body.contentLimit).toBeUndefined();
    // A smaller page fits whole: the cap is per answer, and the next page is where pagination says (the tenant-wide legacy listing).
    const page = await api("POST", "/v3/documents/list", { includeContent: true, limit: 4, page: 2, order: "asc" });
    expect(page.status).toBe(200);
    expect(page.body.memories.map((d: { customId: string }) => d.customId)).toEqual(["big-04", "big-05", "big-06", "big-07"]);
    expect(page.body.memories.every((d: { content?: string; customId: string }) => d.content === texts.get(d.customId))).toBe(true);
    expect(page.body.contentLimit).toBeUndefined();
    expect(page.body.pagination).toMatchObject({ currentPage: 2, totalPages: DOCS / 4 });
  }, 90_000);

  it("GET of a document (v5 and v3) answers its whole content, read as a stream from ingestion", async () => {
    const id = "big-07";
    const v5 = await api("GET", `/ns/${NS}/document/${id}`);
    expect(v5.status).toBe(200);
    expect(v5.body.id).toBe(id);
    expect(v5.body.content === texts.get(id)).toBe(true);
    const v3 = await api("GET", `/v3/documents/${serviceIds.get(id)}`);
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ id: serviceIds.get(id), customId: id, containerTags: [NS] });
    expect(v3.body.content === texts.get(id)).toBe(true);
    expect((await api("GET", `/ns/${NS}/document/big-missing`)).status).toBe(404);
  });
});
