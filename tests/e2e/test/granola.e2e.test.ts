import { FakeGranola, granolaNote, waitFor } from "@engram/testing";
import { expectErrorBody, finishedRun, lastRun, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-granola-0123456789abcdef";
const KEY_B = "tenant-b-key-granola-0123456789abcdef";

/**
 * A Granola connection through the gateway against a local fake of Granola's
 * API: the key is checked at creation and never shown again, notes become
 * searchable documents, a revoked key fails the next run as auth_expired.
 */
describe("Granola connection end to end", () => {
  const fake = new FakeGranola();
  const env: Record<string, string> = { CRAWL_DEFAULT_DELAY_MS: "0" };
  // Before the stack starts: it reads GRANOLA_API_URL at start.
  beforeAll(async () => {
    env.GRANOLA_API_URL = await fake.start();
  });
  const stack = twoTenantStack(KEY_A, KEY_B, env);
  const { a, b } = stack;
  afterAll(() => fake.stop());

  it("checks the key, imports the notes, hides the key, and reports a revoked key on the next run", async () => {
    fake.notes.set("not_1", granolaNote("not_1", "2026-03-01T00:00:00Z", { title: "Pricing review", summary_markdown: "- raise the Team plan to 12 euros" }));
    fake.notes.set("not_2", granolaNote("not_2", "2026-03-02T00:00:00Z", { title: "Hiring sync" }));

    const refused = await a("POST", "/v3/connections/granola", { containerTag: "meetings", metadata: { apiKey: "grn_wrong" } });
    expect(refused.status).toBe(400);
    expectErrorBody(refused.body);
    expect((await a("POST", "/v3/connections/granola", { containerTag: "meetings" })).status).toBe(400);

    const created = await a("POST", "/v3/connections/granola", { containerTag: "meetings", metadata: { apiKey: fake.key, team: "sales" } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });

    const shown = await a("GET", `/v3/connections/${id}`);
    expect(shown.body).toMatchObject({ provider: "granola", metadata: { team: "sales" } });
    expect(JSON.stringify(shown.body)).not.toContain(fake.key);
    const docs = (await a("POST", "/v3/connections/granola/documents", { containerTags: ["meetings"] })).body as { title: string | null }[];
    expect(docs).toHaveLength(2);
    expect((await b("POST", "/v3/connections/granola/documents", { containerTags: ["meetings"] })).body).toEqual([]);

    await waitFor(async () => ((await a("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing to end",
    });
    const hits = await a("POST", "/v4/search", { q: "Team plan price in euros", containerTag: "meetings", searchMode: "documents" });
    expect(hits.body.results.length).toBeGreaterThan(0);

    // An edited note, read through a 429 (Retry-After honoured): the same document, no duplicate.
    const docsBefore = (await a("POST", "/v3/connections/granola/documents", { containerTags: ["meetings"] })).body as { id: string }[];
    fake.notes.set("not_2", granolaNote("not_2", "2026-03-05T00:00:00Z", { title: "Hiring sync", summary_markdown: "- open a staff designer role in Lisbon" }));
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" } });
    expect((await a("POST", "/v3/connections/granola/import", {})).status).toBe(202);
    expect(await finishedRun(a, id, first.startedAt)).toMatchObject({ status: "succeeded" });
    const docsAfter = (await a("POST", "/v3/connections/granola/documents", { containerTags: ["meetings"] })).body as { id: string }[];
    expect(docsAfter.map((d) => d.id).sort()).toEqual(docsBefore.map((d) => d.id).sort());
    await waitFor(
      async () => {
        const found = await a("POST", "/v4/search", { q: "designer role in Lisbon", containerTag: "meetings", searchMode: "documents", threshold: 0 });
        return (found.body.results as { chunk: string }[]).some((r) => r.chunk.includes("Lisbon")) ? true : undefined;
      },
      { timeoutMs: 60_000, what: "the edited note to be searchable" },
    );
    const edited = (await lastRun(a, id))!;

    fake.key = "grn_revoked";
    try {
      expect((await a("POST", "/v3/connections/granola/import", {})).status).toBe(202);
      expect(await finishedRun(a, id, edited.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });
    } finally {
      fake.key = "grn_good";
    }
    expect((await a("DELETE", `/v3/connections/${id}`)).body).toEqual({ id, provider: "granola" });
    expect((await a("POST", "/v3/connections/granola/documents", {})).body).toEqual([]);
  });
});
