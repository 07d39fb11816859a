import { startOfflineGateway } from "./offline-gateway";

interface Key {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  current: boolean;
  key?: string;
}

/** GET/POST /v3/keys and DELETE /v3/keys/{id}: a key manages its own tenant's keys, and only those. */
describe("API key routes", () => {
  let gw: Awaited<ReturnType<typeof startOfflineGateway>>;
  let base: string;
  let keyA: string;
  let keyAId: string;
  let keyB: string;

  beforeAll(async () => {
    // The gateway's own cache time: a revocation through the API still takes effect at once on this gateway.
    gw = await startOfflineGateway("engram-keys-routes-", 10_000);
    base = gw.base;
    const a = await gw.keys.create("tenant-a", "first");
    keyA = a.key;
    keyAId = a.record.id;
    keyB = (await gw.keys.create("tenant-b", "first")).key;
  });

  afterAll(() => gw.close());

  const call = async <T = Record<string, unknown>>(key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  it("lists the caller's tenant's keys only, never a secret, marking the calling key", async () => {
    const res = await call<{ keys: Key[] }>(keyA, "GET", "/v3/keys");
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      {
        id: keyAId,
        name: "first",
        prefix: keyA.slice(0, 14),
        createdAt: expect.any(String),
        revokedAt: null,
        current: true,
        scopes: ["read", "write", "admin"],
        containerTags: null,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(keyA);
    const b = await call<{ keys: Key[] }>(keyB, "GET", "/v3/keys");
    expect(b.body.keys.map((k) => k.id)).not.toContain(keyAId);
    expect(b.body.keys).toHaveLength(1);
  });

  it("creates a key for the caller's tenant, answers its secret once, and the key authenticates", async () => {
    const created = await call<Key>(keyA, "POST", "/v3/keys", { name: "  ci  " });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^k_/),
      name: "ci",
      prefix: created.body.key!.slice(0, 14),
      createdAt: expect.any(String),
      revokedAt: null,
      current: false,
      scopes: ["read", "write", "admin"],
      containerTags: null,
      key: expect.stringMatching(/^sk_engram_[0-9A-Za-z]{32}$/),
    });
    // The new key is tenant a's: it sees a's keys (and is current there), not b's.
    const listed = await call<{ keys: Key[] }>(created.body.key!, "GET", "/v3/keys");
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((k) => [k.id, k.current])).toEqual([
      [keyAId, false],
      [created.body.id, true],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key!);
    // A tenant cannot be chosen.
    expect((await call(keyA, "POST", "/v3/keys", { name: "x", tenantId: "tenant-b" })).status).toBe(400);
    const bad = await call(keyA, "POST", "/v3/keys", { name: " " });
    expect(bad).toEqual({ status: 400, body: { error: "Invalid request", details: expect.stringContaining("name") } });
    expect((await call(keyA, "POST", "/v3/keys", {})).status).toBe(400);
  });

  it("revokes a key of the same tenant: refused with 401 at once; another tenant's key is unknown; a key cannot revoke itself", async () => {
    const { body: made } = await call<Key>(keyA, "POST", "/v3/keys", { name: "to-revoke" });
    expect((await call(made.key!, "GET", "/v3/keys")).status).toBe(200);

    // Tenant b can neither see nor revoke it.
    const fromB = await call(keyB, "DELETE", `/v3/keys/${made.id}`);
    expect(fromB).toEqual({ status: 404, body: { error: "Key not found", details: `no key ${made.id}` } });
    expect((await call(made.key!, "GET", "/v3/keys")).status).toBe(200);

    // The calling key is refused.
    const self = await call(made.key!, "DELETE", `/v3/keys/${made.id}`);
    expect(self.status).toBe(409);
    expect(self.body).toEqual(expect.objectContaining({ error: "Cannot revoke the calling key" }));

    const revoked = await call<Key>(keyA, "DELETE", `/v3/keys/${made.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual(expect.objectContaining({ id: made.id, revokedAt: expect.any(String), current: false }));
    const refused = await call(made.key!, "GET", "/v3/keys");
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(expect.objectContaining({ error: "Invalid API key" }));

    // Again: unchanged, same time.
    const again = await call<Key>(keyA, "DELETE", `/v3/keys/${made.id}`);
    expect(again).toEqual({ status: 200, body: revoked.body });
    // Listed as revoked for a; b still never sees it.
    expect((await call<{ keys: Key[] }>(keyA, "GET", "/v3/keys")).body.keys.find((k) => k.id === made.id)?.revokedAt).toBe(revoked.body.revokedAt);
    expect((await call<{ keys: Key[] }>(keyB, "GET", "/v3/keys")).body.keys.map((k) => k.id)).not.toContain(made.id);
    // Unknown and malformed ids.
    expect((await call(keyA, "DELETE", "/v3/keys/k_nope")).status).toBe(404);
    expect((await call(keyA, "DELETE", "/v3/keys/not%20an%20id")).status).toBe(400);
  });
});
