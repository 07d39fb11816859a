import { apiClient, waitFor } from "@engram/testing";
import { type Api, expectErrorBody, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-scoped-0123456789abcdef01";
const KEY_B = "tenant-b-key-scoped-0123456789abcdef01";

/**
 * Scoped keys through the gateway (docs/api-decisions.md, "Scoped keys"):
 * keys created with `POST /v3/keys` carry scopes and container tags; the
 * stack's own key (stored from ENGRAM_API_KEY, without scopes) keeps every right.
 */
describe("scoped keys end to end", () => {
  const stack = twoTenantStack(KEY_A, KEY_B);
  const admin = stack.a;
  const as = (key: string): Api => apiClient(stack.engram.url, key);
  const mint = async (api: Api, body: Record<string, unknown>): Promise<string> => {
    const res = await api("POST", "/v3/keys", body);
    expect(res.status).toBe(201);
    return res.body.key as string;
  };
  const expect403 = (res: { status: number; body: unknown }, scope: string) => {
    expect(res.status).toBe(403);
    expectErrorBody(res.body);
    expect((res.body as { details: string }).details).toContain(`'${scope}' scope`);
  };

  let docId: string;
  beforeAll(async () => {
    const added = await admin("POST", "/v3/documents", { content: "The lighthouse at Ushant is the brightest in Europe.", containerTag: "alice" });
    expect(added.status).toBe(200);
    docId = added.body.id;
    expect((await admin("POST", "/v3/documents", { content: "Bob's lighthouse notes are private to bob.", containerTag: "bob" })).status).toBe(200);
    expect((await admin("POST", "/v4/memories", { containerTag: "alice", memories: [{ content: "Alice keeps lighthouse logs" }] })).status).toBe(201);
    expect((await admin("POST", "/v4/memories", { containerTag: "bob", memories: [{ content: "Bob keeps lighthouse secrets" }] })).status).toBe(201);
    await waitFor(async () => ((await admin("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing to end",
    });
  });

  it("keeps full rights for the key stored without scopes (legacy), and lists its scopes", async () => {
    const keys = await admin("GET", "/v3/keys");
    expect(keys.status).toBe(200);
    expect(keys.body.keys.find((k: { current: boolean }) => k.current)).toMatchObject({ scopes: ["read", "write", "admin"], containerTags: null });
    expect((await admin("GET", "/v3/container-tags/list")).status).toBe(200);
  });

  it("lets a read-only key search and read, but not add, delete or manage keys (403 naming the scope)", async () => {
    const reader = as(await mint(admin, { name: "reader", scopes: ["read"] }));
    const search = await reader("POST", "/v4/search", { q: "lighthouse", containerTag: "alice", searchMode: "hybrid" });
    expect(search.status).toBe(200);
    expect((await reader("GET", `/v3/documents/${docId}`)).status).toBe(200);
    expect((await reader("POST", "/v4/memories/list", { containerTags: ["alice"] })).status).toBe(200);
    expect403(await reader("POST", "/v3/documents", { content: "nope", containerTag: "alice" }), "write");
    expect403(await reader("DELETE", `/v3/documents/${docId}`), "write");
    expect403(await reader("POST", "/v4/memories", { containerTag: "alice", memories: [{ content: "nope" }] }), "write");
    expect403(await reader("POST", "/v3/keys", { name: "escalate" }), "admin");
    expect403(await reader("GET", "/v3/keys"), "admin");
    expect((await admin("GET", `/v3/documents/${docId}`)).status).toBe(200);
  });

  it("lets a write key add content but not create keys", async () => {
    const writer = as(await mint(admin, { name: "writer", scopes: ["read", "write"] }));
    expect((await writer("POST", "/v4/memories", { containerTag: "alice", memories: [{ content: "Alice climbs the tower on Sundays" }] })).status).toBe(201);
    expect403(await writer("POST", "/v3/keys", { name: "escalate", scopes: ["read"] }), "admin");
    expect403(await writer("POST", "/v3/settings/reset", { confirm: true }), "admin");
  });

  it("never lets an admin key mint a key with more rights than its own (a tag-limited admin key)", async () => {
    const aliceAdmin = as(await mint(admin, { name: "alice-admin", scopes: ["read", "admin"], containerTags: ["alice"] }));
    const wider = await aliceAdmin("POST", "/v3/keys", { name: "wider", containerTags: ["alice", "bob"], scopes: ["read"] });
    expect(wider.status).toBe(403);
    expectErrorBody(wider.body);
    expect(wider.body.details).toContain("bob");
    const writeScope = await aliceAdmin("POST", "/v3/keys", { name: "writer", scopes: ["read", "write"] });
    expect(writeScope.status).toBe(403);
    expect(writeScope.body.details).toContain("write");
    // Within its rights it may; the new key inherits its tag limit.
    const ok = await aliceAdmin("POST", "/v3/keys", { name: "alice-reader", scopes: ["read"] });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ scopes: ["read"], containerTags: ["alice"] });
    // And it cannot revoke the organisation's full key.
    const full = (await admin("GET", "/v3/keys")).body.keys.find((k: { current: boolean }) => k.current);
    expect((await aliceAdmin("DELETE", `/v3/keys/${full.id}`)).status).toBe(403);
  });

  it("confines a tag-limited key: another tag's documents and memories are refused, searches without a tag see only its tags", async () => {
    const alice = as(await mint(admin, { name: "alice", scopes: ["read", "write"], containerTags: ["alice"] }));
    const bobDocs = await alice("POST", "/v3/documents/list", { containerTags: ["bob"] });
    expect(bobDocs.status).toBe(403);
    expectErrorBody(bobDocs.body);
    expect((await alice("POST", "/v4/memories/list", { containerTags: ["bob"] })).status).toBe(403);
    expect((await alice("POST", "/ns/bob/list/memories", {})).status).toBe(403);
    expect((await alice("POST", "/v4/search", { q: "lighthouse", containerTag: "bob" })).status).toBe(403);
    expect((await alice("POST", "/v4/memories", { containerTag: "bob", memories: [{ content: "x" }] })).status).toBe(403);
    // A bob document by id answers like an unknown one.
    const bobId = (await admin("POST", "/v3/documents/list", { containerTags: ["bob"] })).body.memories[0].id;
    expect((await alice("GET", `/v3/documents/${bobId}`)).status).toBe(404);
    expect((await alice("GET", `/v3/documents/${docId}`)).status).toBe(200);
    // Without a tag: confined to the key's own tags.
    const docs = await alice("POST", "/v3/documents/list", {});
    expect(docs.status).toBe(200);
    expect(docs.body.memories.length).toBeGreaterThan(0);
    expect(docs.body.memories.every((d: { containerTags: string[] }) => d.containerTags.includes("alice"))).toBe(true);
    for (const searchMode of ["memories", "hybrid"]) {
      const found = await alice("POST", "/v4/search", { q: "lighthouse", searchMode });
      expect(found.status).toBe(200);
      expect(JSON.stringify(found.body)).not.toMatch(/[Bb]ob/);
    }
    const v3 = await alice("POST", "/v3/search", { q: "lighthouse" });
    expect(v3.status).toBe(200);
    expect(JSON.stringify(v3.body)).not.toMatch(/[Bb]ob/);
    // The tag list answers its own tags only (the console's tag picker); tenant-wide routes are refused.
    const tags = await alice("GET", "/v3/container-tags/list");
    expect(tags.status).toBe(200);
    expect(tags.body.map((t: { containerTag: string }) => t.containerTag)).toEqual(["alice"]);
    expect(tags.body[0]).toMatchObject({ documentCount: expect.any(Number), memoryCount: expect.any(Number) });
    expect((await admin("GET", "/v3/container-tags/list")).body.map((t: { containerTag: string }) => t.containerTag)).toEqual(
      expect.arrayContaining(["alice", "bob"]),
    );
    expect((await alice("GET", "/v3/documents/processing")).status).toBe(403);
  });

  it("offers a read key's MCP session no write tools, and its REST calls stay within the key's scope", async () => {
    const reader = as(await mint(admin, { name: "mcp-reader", scopes: ["read"] }));
    const rpc = (api: Api, method: string, params: unknown = {}) =>
      api("POST", "/mcp", { jsonrpc: "2.0", id: 1, method, params }, { accept: "application/json, text/event-stream" });
    const tools = (await rpc(reader, "tools/list")).body.result.tools.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["search", "list_memories"]));
    expect(tools).not.toContain("add_memory");
    expect(tools).not.toContain("forget_memories");
    const all = (await rpc(admin, "tools/list")).body.result.tools.map((t: { name: string }) => t.name);
    expect(all).toContain("add_memory");
    const refused = await rpc(reader, "tools/call", { name: "add_memory", arguments: { content: "x" } });
    expect(JSON.stringify(refused.body)).toMatch(/error|not found/i);
  });

  it("answers 401 with a Bearer challenge", async () => {
    const res = await as("sk_engram_unknownunknownunknownunknown0")("POST", "/v4/search", { q: "x" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });
});
