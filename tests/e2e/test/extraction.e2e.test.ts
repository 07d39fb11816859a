import fs from "node:fs";
import path from "node:path";
import { apiClient, type EngramProcess, REPO_ROOT, startEngram } from "@engram/testing";
import { type Api, stopQuietly, waitDone } from "./helpers";

const FIXTURES = path.resolve(REPO_ROOT, "tests/fixtures/documents");
const KEY = "extract-key-0123456789abcdef";

/** Real files through the whole stack: upload -> durable store -> worker threads -> index -> search. */
describe("file extraction end to end", () => {
  let engram: EngramProcess;
  let api: Api;

  async function upload(name: string, bytes: Uint8Array, id: string) {
    const form = new FormData();
    form.append("id", id);
    form.append("file", new Blob([bytes]), name);
    const res = await fetch(`${engram.url}/ns/files/document/file`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; status: string };
  }

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY });
    api = apiClient(engram.url, KEY);
  });
  afterAll(() => stopQuietly(engram));

  it.each([
    ["pdf/fake-memo.pdf", "20,000 bottles of water", "pdf"],
    ["docx/docx-hdrftr.docx", "First header para", "docx"],
    ["xlsx/stanley-cups.xlsx", "Maple Leafs", "xlsx"],
    ["html/ideas-page.html", "notice anomalies", "html"],
  ])("%s becomes searchable text", async (file, phrase, type) => {
    const id = `fx-${type}`;
    await upload(path.basename(file), new Uint8Array(fs.readFileSync(path.join(FIXTURES, file))), id);
    const done = await waitDone(api, "files", id, 60_000);
    expect(done.system).toEqual(expect.objectContaining({ status: "done" }));
    const v3 = await api("GET", `/v3/documents/${id}`);
    expect(v3.body.title).toBeTruthy();
    const search = await api("POST", "/v4/search", { q: phrase, containerTag: "files", searchMode: "documents", threshold: 0 });
    expect(search.body.results.find((r: { documentId: string }) => r.documentId === v3.body.id)?.chunk).toContain(phrase.split(" ")[0]);
  });

  it("fails a binary file named .pdf and a truncated PDF with readable reasons", async () => {
    const junk = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    await upload("report.pdf", junk, "junk-pdf");
    const failed = await waitDone(api, "files", "junk-pdf");
    expect(failed.system.status).toBe("failed");
    expect(failed.system.failureReason).toMatch(/pdf/i);

    const memo = fs.readFileSync(path.join(FIXTURES, "pdf/fake-memo.pdf"));
    await upload("memo.pdf", new Uint8Array(memo.subarray(0, memo.length >> 1)), "half-pdf");
    const truncated = await waitDone(api, "files", "half-pdf");
    expect(truncated.system.status).toBe("failed");
    expect(truncated.system.failureReason).toMatch(/truncated|not a valid|damaged|corrupt/i);
  });
});
