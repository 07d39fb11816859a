import { FakeGranola, granolaNote, waitFor } from "@engram/testing";
import { type Api, expectErrorBody, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-reset-0123456789abcdef01";
const KEY_B = "tenant-b-key-reset-0123456789abcdef01";

/**
 * The organisation reset (POST /v3/settings/reset) through the gateway:
 * refused without the organisation's slug (nothing removed), then every
 * document, memory, connection and setting of the tenant goes while the
 * other tenant keeps everything; running it again removes nothing more, and
 * the tenant starts over.
 */
describe("organisation reset end to end", () => {
  const fake = new FakeGranola();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.GRANOLA_API_URL = await fake.start();
  });
  const { a, b } = twoTenantStack(KEY_A, KEY_B, env);
  afterAll(() => fake.stop());

  const idle = (api: Api) =>
    waitFor(async () => ((await api("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing to end",
    });
  const documents = async (api: Api) => ((await api("POST", "/v3/documents/list", { limit: 100 })).body.memories as unknown[]).length;
  const memories = async (api: Api, tag: string) =>
    ((await api("POST", "/v4/memories/list", { containerTags: [tag], limit: 100, includeForgotten: true })).body.memoryEntries as unknown[]).length;
  const search = async (api: Api, q: string, tag: string) =>
    ((await api("POST", "/v4/search", { q, containerTag: tag, searchMode: "hybrid", threshold: 0 })).body.results as unknown[]).length;

  it("refuses a wrong confirmation, then removes everything of the tenant and nothing of the other", async () => {
    fake.notes.set("not_1", granolaNote("not_1", "2026-03-01T00:00:00Z", { title: "Pricing review", summary_markdown: "- raise the Team plan price" }));
    // Tenant a: documents in the default tag and in another, a memory, a connection, settings.
    expect((await a("POST", "/v3/documents", { content: "The boiler was serviced in March by Nordheat." })).status).toBe(200);
    expect((await a("POST", "/v3/documents", { content: "Project Kestrel ships in June.", containerTag: "kestrel" })).status).toBe(200);
    expect((await a("POST", "/v4/memories", { containerTag: "kestrel", memories: [{ content: "Mira leads project Kestrel" }] })).status).toBe(201);
    const conn = await a("POST", "/v3/connections/granola", { containerTag: "meetings", metadata: { apiKey: fake.key } });
    expect(conn.status).toBe(200);
    const patched = await a("PATCH", "/v3/settings", { chunkSize: 256, notionClientId: "a-notion", notionClientSecret: "a-secret" });
    const orgSlug = patched.body.orgSlug as string;
    // Tenant b: a document and a memory.
    expect((await b("POST", "/v3/documents", { content: "Tenant b keeps its boiler notes.", containerTag: "kestrel" })).status).toBe(200);
    expect((await b("POST", "/v4/memories", { containerTag: "kestrel", memories: [{ content: "Tenant b owns a kestrel" }] })).status).toBe(201);
    await waitFor(async () => ((await a("GET", `/v3/connections/${conn.body.id as string}`)).body.lastSyncRun?.status === "succeeded" ? true : undefined), {
      timeoutMs: 60_000,
      what: "the Granola sync",
    });
    await idle(a);
    await idle(b);
    expect(await documents(a)).toBe(3);

    // Refused: nothing is touched.
    for (const body of [{}, { confirmation: "" }, { confirmation: `${orgSlug}-not` }]) {
      const refused = await a("POST", "/v3/settings/reset", body);
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
      expectErrorBody(refused.body);
    }
    expect(await documents(a)).toBe(3);
    expect((await a("GET", "/v3/settings")).body.chunkSize).toBe(256);

    const reset = await a("POST", "/v3/settings/reset", { confirmation: orgSlug });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({
      success: true,
      deletedConnections: 1,
      deletedDocumentsApprox: 3,
      deletedExtraSpaces: 2,
      clearedDefaultSpaceContext: true,
      clearedBrainMemoryRegistry: true,
      settingsReset: true,
    });
    expect(reset.body.deletedMemoryRows).toBeGreaterThanOrEqual(1);

    expect(await documents(a)).toBe(0);
    expect(await memories(a, "kestrel")).toBe(0);
    expect(await search(a, "who leads project Kestrel", "kestrel")).toBe(0);
    expect((await a("POST", "/v3/connections/list", {})).body).toEqual([]);
    const settings = (await a("GET", "/v3/settings")).body;
    expect(settings.chunkSize).toBeNull();
    expect(settings.notionClientId).toBeNull();

    // The other tenant keeps everything.
    expect(await documents(b)).toBe(1);
    expect(await memories(b, "kestrel")).toBeGreaterThanOrEqual(1);
    expect(await search(b, "who owns a kestrel", "kestrel")).toBeGreaterThan(0);

    // Again: nothing left to remove.
    const again = await a("POST", "/v3/settings/reset", { confirmation: orgSlug });
    expect(again.body).toMatchObject({ success: true, deletedConnections: 0, deletedDocumentsApprox: 0, deletedMemoryRows: 0, settingsReset: false });

    // The tenant starts over.
    expect((await a("POST", "/v4/memories", { containerTag: "kestrel", memories: [{ content: "Ravi now leads project Kestrel" }] })).status).toBe(201);
    expect(await search(a, "who leads project Kestrel", "kestrel")).toBeGreaterThan(0);
  });
});
