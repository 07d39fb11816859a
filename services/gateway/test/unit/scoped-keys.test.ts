import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqlite } from "@engram/storage";
import { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { generateApiKey, newKeyRecord } from "../../src/auth/api-key";
import { KeyService } from "../../src/auth/keys.service";
import { exceedsRights, FULL_RIGHTS, rightsOf } from "../../src/auth/scopes";
import { namedTags, ROUTE_SCOPES, ruleFor } from "../../src/http/authorize";
import { toolsFor } from "../../src/mcp/engram-tools";
import { startOfflineGateway } from "./offline-gateway";

interface Layer {
  name?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every route of the app behind the scope check, as "METHOD /path" (the express router walked). */
function routesBehindScopeCheck(app: { router: { stack: Layer[] } }): string[] {
  const stack = app.router.stack;
  const from = stack.findIndex((l) => l.name === "authorizeScopes");
  expect(from).toBeGreaterThan(0);
  const out: string[] = [];
  const walk = (layers: Layer[]) => {
    for (const l of layers) {
      if (l.route) {
        for (const m of Object.keys(l.route.methods)) if (m !== "_all") out.push(`${m.toUpperCase()} ${l.route.path}`);
      } else if (l.handle.stack) walk(l.handle.stack);
    }
  };
  walk(stack.slice(from + 1));
  return out;
}

describe("the route → scope table", () => {
  let gw: Awaited<ReturnType<typeof startOfflineGateway>>;
  beforeAll(async () => {
    gw = await startOfflineGateway("engram-scoped-table-");
  });
  afterAll(() => gw.close());

  it("has an entry for every route behind the key check, and that route's own path resolves to it (first match wins)", () => {
    const routes = routesBehindScopeCheck(gw.app as unknown as { router: { stack: Layer[] } });
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((r) => !(r in ROUTE_SCOPES));
    expect(missing).toEqual([]);
    for (const r of routes) {
      const [method, template] = r.split(" ") as [string, string];
      // Each parameter as a value that is no literal segment of any route.
      const sample = template.replace(/:[A-Za-z]+/g, "zz_sample");
      expect([r, ruleFor(method, sample)?.key]).toEqual([r, r]);
    }
    // No stale entries either.
    expect(Object.keys(ROUTE_SCOPES).filter((k) => !routes.includes(k))).toEqual([]);
  });

  it("gives key management and the organisation's settings to admin only, content changes to write, reads to read", () => {
    for (const k of ["GET /v3/keys", "POST /v3/keys", "DELETE /v3/keys/:id", "PATCH /v3/settings", "POST /v3/settings/reset", "POST /v3/connections/list"])
      expect([k, ROUTE_SCOPES[k]!.scope]).toEqual([k, "admin"]);
    for (const k of [
      "POST /v3/documents",
      "DELETE /v3/documents/:id",
      "POST /v4/memories",
      "POST /v4/memories/forget-matching",
      "POST /v3/container-tags/merge",
    ])
      expect([k, ROUTE_SCOPES[k]!.scope]).toEqual([k, "write"]);
    for (const k of ["POST /v4/search", "POST /v3/search", "GET /v3/documents/:id", "POST /v4/memories/list", "GET /v3/settings"])
      expect([k, ROUTE_SCOPES[k]!.scope]).toEqual([k, "read"]);
  });

  it("finds the container tags a request names in its path, query, body and batch items", () => {
    expect(namedTags({ namespace: "a%3Ab" }, {}, { containerTag: "c", containerTags: ["d"], documents: [{ containerTag: "e" }, "x"] })).toEqual([
      "a:b",
      "c",
      "d",
      "e",
    ]);
    expect(namedTags({}, { containerTags: "q" }, { targetContainerTag: "t" })).toEqual(["q", "t"]);
  });
});

describe("key rights", () => {
  it("reads stored keys without scopes (legacy) as every scope and every tag", () => {
    expect(rightsOf({})).toEqual(FULL_RIGHTS);
    expect(rightsOf({ scopes: ["read", "bogus"], containerTags: ["a"] })).toEqual({ scopes: ["read"], containerTags: ["a"] });
  });

  it("never lets a key grant more than its own: scopes and container tags are subsets", () => {
    expect(exceedsRights(FULL_RIGHTS, { scopes: ["read"], containerTags: ["a"] })).toBeUndefined();
    expect(exceedsRights({ scopes: ["read", "admin"] }, { scopes: ["write"] })).toMatch(/scope write/);
    expect(exceedsRights({ scopes: ["admin", "read"], containerTags: ["a"] }, { scopes: ["read"] })).toMatch(/limited to container tags/);
    expect(exceedsRights({ scopes: ["admin", "read"], containerTags: ["a"] }, { scopes: ["read"], containerTags: ["a", "b"] })).toMatch(/tag b/);
    expect(exceedsRights({ scopes: ["admin", "read"], containerTags: ["a", "b"] }, { scopes: ["read"], containerTags: ["b"] })).toBeUndefined();
  });

  it("offers MCP tools by scope: a read key sees no write tools; a tag-limited key no tenant-wide tool", () => {
    expect(toolsFor({ scopes: ["read"] })).toEqual(["search", "get_profile", "list_memories", "list_container_tags"]);
    expect(toolsFor({ scopes: ["read", "write"], containerTags: ["a"] })).toEqual([
      "add_memory",
      "add_document",
      "search",
      "get_profile",
      "list_memories",
      "forget_memories",
    ]);
    expect(toolsFor()).toHaveLength(7);
  });

  it("keeps keys stored by the store's first schema (no scopes column) with full rights after the migration", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-scoped-migrate-"));
    // The store as the release before scoped keys left it: its one migration applied.
    const db = openSqlite({
      dataDir: dir,
      name: "gateway",
      migrations: [
        `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, name TEXT NOT NULL, prefix TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, revoked_at TEXT);`,
      ],
    });
    const key = generateApiKey();
    const rec = newKeyRecord(key, "acme", "old", new Date());
    db.prepare("INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, NULL)").run(rec.id, rec.tenantId, rec.name, rec.prefix, rec.hash, rec.createdAt);
    db.close();
    const store = new SqliteApiKeyStore(dir);
    try {
      const keys = new KeyService(store, 0);
      expect((await keys.authenticate(key)).rights).toEqual(FULL_RIGHTS);
      const scoped = await keys.create("acme", "reader", { scopes: ["read"], containerTags: ["u1"] });
      expect((await keys.authenticate(scoped.key)).rights).toEqual({ scopes: ["read"], containerTags: ["u1"] });
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Through the gateway with backends that do not answer: a request the key may make answers 503, a refused one 403. */
describe("scoped keys through the gateway", () => {
  let gw: Awaited<ReturnType<typeof startOfflineGateway>>;
  let full: string;
  let reader: string;
  let writer: string;
  let tagged: string;

  beforeAll(async () => {
    gw = await startOfflineGateway("engram-scoped-gw-");
    full = (await gw.keys.create("t", "legacy")).key;
    reader = (await gw.keys.create("t", "reader", { scopes: ["read"] })).key;
    writer = (await gw.keys.create("t", "writer", { scopes: ["read", "write"] })).key;
    tagged = (await gw.keys.create("t", "tagged", { scopes: ["read", "write", "admin"], containerTags: ["u1", "u2"] })).key;
  });
  afterAll(() => gw.close());

  const call = async (key: string | undefined, method: string, url: string, body?: unknown) => {
    const res = await fetch(gw.base + url, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as { error?: string; details?: string; key?: string; scopes?: string[] }, res };
  };

  it("answers 401 with a Bearer challenge: bare without a key, invalid_token for an unknown one", async () => {
    const none = await call(undefined, "POST", "/v4/search", { q: "x" });
    expect(none.status).toBe(401);
    expect(none.res.headers.get("www-authenticate")).toBe('Bearer realm="engram"');
    const bad = await call("sk_engram_nope", "POST", "/v4/search", { q: "x" });
    expect(bad.status).toBe(401);
    expect(bad.res.headers.get("www-authenticate")).toMatch(/^Bearer realm="engram", error="invalid_token"/);
  });

  it("lets a read key search and read, and refuses adds, deletes and key management with 403 naming the scope", async () => {
    expect((await call(reader, "POST", "/v4/search", { q: "x" })).status).toBe(503);
    expect((await call(reader, "GET", "/v3/documents/d_1")).status).toBe(503);
    const add = await call(reader, "POST", "/v3/documents", { content: "x" });
    expect(add.status).toBe(403);
    expect(add.body).toEqual({ error: "Forbidden", details: expect.stringContaining("'write' scope") });
    expect((await call(reader, "DELETE", "/v3/documents/d_1")).body.details).toContain("'write' scope");
    const keys = await call(reader, "POST", "/v3/keys", { name: "more" });
    expect(keys.status).toBe(403);
    expect(keys.body.details).toContain("'admin' scope");
    expect((await call(reader, "GET", "/v3/keys")).status).toBe(403);
  });

  it("lets a write key add but not create keys nor reset the organisation", async () => {
    expect((await call(writer, "POST", "/v3/documents", { content: "x" })).status).toBe(503);
    expect((await call(writer, "POST", "/v3/keys", { name: "more" })).body.details).toContain("'admin' scope");
    expect((await call(writer, "POST", "/v3/settings/reset", {})).status).toBe(403);
  });

  it("never lets a key create a key with more rights than its own", async () => {
    const wider = await call(tagged, "POST", "/v3/keys", { name: "wider", containerTags: ["u1", "u3"] });
    expect(wider.status).toBe(403);
    expect(wider.body.details).toContain("u3");
    const unlimited = await call(tagged, "POST", "/v3/keys", { name: "all", containerTags: undefined, scopes: ["read"] });
    // Without containerTags the new key inherits the caller's limit.
    expect(unlimited.status).toBe(201);
    expect(unlimited.body).toMatchObject({ scopes: ["read"], containerTags: ["u1", "u2"] });
    const narrower = await call(tagged, "POST", "/v3/keys", { name: "n", scopes: ["read"], containerTags: ["u2"] });
    expect(narrower.status).toBe(201);
    // A read-only key made by an admin key cannot mint keys.
    expect((await call(narrower.body.key, "POST", "/v3/keys", { name: "x", scopes: ["read"] })).status).toBe(403);
    const badScope = await call(full, "POST", "/v3/keys", { name: "x", scopes: ["root"] });
    expect(badScope.status).toBe(400);
  });

  it("refuses a tag-limited admin key revoking the organisation's full key", async () => {
    const list = (await call(full, "GET", "/v3/keys")).body as unknown as { keys: { id: string; name: string }[] };
    const legacyId = list.keys.find((k) => k.name === "legacy")!.id;
    const res = await call(tagged, "DELETE", `/v3/keys/${legacyId}`);
    expect(res.status).toBe(403);
    // Nor does it see the keys with more rights than its own.
    const seen = (await call(tagged, "GET", "/v3/keys")).body as unknown as { keys: { name: string }[] };
    expect(seen.keys.map((k) => k.name)).not.toContain("legacy");
    expect(seen.keys.map((k) => k.name)).toContain("tagged");
  });

  it("confines a tag-limited key to its tags: other tags 403, untagged searches confined, tenant-wide routes refused", async () => {
    expect((await call(tagged, "POST", "/v4/search", { q: "x", containerTag: "u1" })).status).toBe(503);
    expect((await call(tagged, "POST", "/v4/search", { q: "x" })).status).toBe(503);
    const other = await call(tagged, "POST", "/v4/search", { q: "x", containerTags: ["u1", "other"] });
    expect(other.status).toBe(403);
    expect(other.body.details).toContain("other");
    expect((await call(tagged, "GET", "/ns/other/document/d_1")).status).toBe(403);
    expect((await call(tagged, "POST", "/v4/memories/list", { containerTags: ["other"] })).status).toBe(403);
    expect((await call(tagged, "POST", "/v3/documents", { content: "x" })).status).toBe(403);
    expect((await call(tagged, "POST", "/v3/documents/batch", { containerTag: "u1", documents: [{ content: "a", containerTag: "other" }] })).status).toBe(403);
    expect((await call(tagged, "POST", "/v3/documents/batch", { documents: [{ content: "a", containerTag: "u1" }, "b"] })).status).toBe(403);
    expect((await call(tagged, "DELETE", "/v3/documents/bulk", { ids: ["d_1"] })).status).toBe(403);
    // The tag list is let through (503 here: no backends), to be answered with the key's own tags (scoped-keys e2e).
    expect((await call(tagged, "GET", "/v3/container-tags/list")).status).toBe(503);
    expect((await call(tagged, "GET", "/v3/documents/processing")).status).toBe(403);
    expect((await call(tagged, "POST", "/v3/settings/reset", {})).status).toBe(403);
  });

  it("checks a v3 file upload's container-tag parts for a tag-limited key", async () => {
    const upload = async (parts: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(parts)) form.append(k, v);
      form.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt");
      return (await fetch(`${gw.base}/v3/documents/file`, { method: "POST", headers: { authorization: `Bearer ${tagged}` }, body: form })).status;
    };
    expect(await upload({ containerTag: "other" })).toBe(403);
    expect(await upload({ containerTags: JSON.stringify(["u1", "other"]) })).toBe(403);
    expect(await upload({})).toBe(403);
    expect(await upload({ containerTag: "u1" })).toBe(503);
    const v5 = new FormData();
    v5.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt");
    expect((await fetch(`${gw.base}/ns/other/document/file`, { method: "POST", headers: { authorization: `Bearer ${tagged}` }, body: v5 })).status).toBe(403);
  });

  it("keeps full rights for keys stored without scopes", async () => {
    expect((await call(full, "GET", "/v3/keys")).status).toBe(200);
    expect((await call(full, "POST", "/v3/connections/list", {})).status).toBe(503);
    expect((await call(full, "GET", "/v3/container-tags/list")).status).toBe(503);
  });
});
