import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Supermemory from "supermemory";
import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { type Api, expectErrorBody, stopQuietly, waitDone } from "./helpers";

const KEY_A = "settings-key-tenant-a-0123456789";
const KEY_B = "settings-key-tenant-b-0123456789";
const KEY_C = "settings-key-tenant-c-0123456789";
const OAUTH_PREFIXES = ["googleDrive", "notion", "onedrive", "github"];

const DEFAULTS = {
  excludeItems: null,
  filterPrompt: null,
  includeItems: null,
  shouldLLMFilter: null,
  chunkSize: null,
  profileBuckets: [],
  workspacePrompt: null,
  allowedRedirectOrigins: [],
  ...Object.fromEntries(OAUTH_PREFIXES.flatMap((p) => [`${p}ClientId`, `${p}ClientSecret`, `${p}CustomKeyEnabled`].map((k) => [k, null]))),
};

/** Every byte of the connections store (the database and its WAL, where recent writes live). */
function connectionsStoreBytes(dataDir: string): Buffer {
  const files = fs.readdirSync(dataDir).filter((f) => f.startsWith("connections.db"));
  expect(files).toContain("connections.db");
  return Buffer.concat(files.map((f) => fs.readFileSync(path.join(dataDir, f))));
}

describe("organisation settings (/v3/settings)", () => {
  let engram: EngramProcess;
  let a: Api;
  let b: Api;

  beforeAll(async () => {
    engram = await startEngram({ env: { ENGRAM_API_KEYS: `${KEY_A}=tenantA,${KEY_B}=tenantB,${KEY_C}=tenantC` } });
    a = apiClient(engram.url, KEY_A);
    b = apiClient(engram.url, KEY_B);
  });
  afterAll(() => stopQuietly(engram));

  it("answers the defaults for an organisation that set nothing: every field null, no buckets", async () => {
    const res = await b("GET", "/v3/settings");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULTS);
  });

  it("PATCH sets the fields sent, answers {orgId, orgSlug, updated} with only those, and GET shows them", async () => {
    const patch = {
      excludeItems: { folders: ["archive"], maxAgeDays: 30 },
      includeItems: ["docs", 7, true, null],
      filterPrompt: "Only engineering content.",
      shouldLLMFilter: true,
      chunkSize: 800,
      profileBuckets: [{ key: "work", description: "Job, projects, colleagues" }, { key: "home" }],
      notionClientId: "notion-client-id",
      notionCustomKeyEnabled: true,
    };
    const res = await a("PATCH", "/v3/settings", patch);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      orgId: "tenantA",
      orgSlug: "tenantA",
      updated: { ...patch, profileBuckets: [patch.profileBuckets[0], { key: "home", description: "" }] },
      // shouldLLMFilter was set and this stack has no model: the answer says the prompt will not act.
      warnings: [expect.stringMatching(/no language model is configured/)],
    });

    const got = await a("GET", "/v3/settings");
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      ...DEFAULTS,
      ...patch,
      profileBuckets: [
        { key: "work", description: "Job, projects, colleagues" },
        { key: "home", description: "" },
      ],
    });

    // A later PATCH keeps everything it does not name.
    const more = await a("PATCH", "/v3/settings", { chunkSize: 1200 });
    expect(more.body.updated).toEqual({ chunkSize: 1200 });
    const after = await a("GET", "/v3/settings");
    expect(after.body).toEqual({ ...got.body, chunkSize: 1200 });
  });

  it("clears a field sent as null and keeps the others", async () => {
    await a("PATCH", "/v3/settings", { filterPrompt: "to be cleared", githubClientId: "gh-id", githubCustomKeyEnabled: false });
    const before = (await a("GET", "/v3/settings")).body;
    const res = await a("PATCH", "/v3/settings", { filterPrompt: null, githubClientId: null, excludeItems: null, chunkSize: null });
    expect(res.status).toBe(200);
    expect(res.body.updated).toEqual({ filterPrompt: null, githubClientId: null, excludeItems: null, chunkSize: null });
    const after = (await a("GET", "/v3/settings")).body;
    expect(after).toEqual({ ...before, filterPrompt: null, githubClientId: null, excludeItems: null, chunkSize: null });
    expect(after.githubCustomKeyEnabled).toBe(false);
    expect(after.includeItems).toEqual(["docs", 7, true, null]);

    // an empty list clears the buckets; an empty body changes nothing
    expect((await a("PATCH", "/v3/settings", { profileBuckets: [] })).body.updated).toEqual({ profileBuckets: [] });
    const empty = await a("PATCH", "/v3/settings", {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ orgId: "tenantA", orgSlug: "tenantA", updated: {} });
    expect((await a("GET", "/v3/settings")).body.profileBuckets).toEqual([]);
  });

  it("refuses unknown fields by name with the error body, and changes nothing", async () => {
    const before = (await a("GET", "/v3/settings")).body;
    const res = await a("PATCH", "/v3/settings", { filterPrompt: "x", unknownThing: 1, gmailClientId: "g" });
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.details).toMatch(/unknown fields 'unknownThing', 'gmailClientId'/);
    expect((await a("GET", "/v3/settings")).body).toEqual(before);

    for (const bad of [[], "text", 5]) {
      const r = await a("PATCH", "/v3/settings", JSON.stringify(bad));
      expect(r.status).toBe(400);
      expectErrorBody(r.body);
    }
  });

  it("refuses values of the wrong type or out of range, and null where OpenAPI does not allow it", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ chunkSize: 1.5 }, /chunkSize/],
      [{ chunkSize: 2 ** 31 }, /chunkSize/],
      [{ shouldLLMFilter: "yes" }, /shouldLLMFilter/],
      [{ notionCustomKeyEnabled: "true" }, /notionCustomKeyEnabled/],
      [{ filterPrompt: 42 }, /filterPrompt/],
      [{ profileBuckets: null }, /profileBuckets/],
      [{ googleDriveClientSecret: "" }, /googleDriveClientSecret.*must not be empty/],
      [{ includeItems: JSON.parse("[".repeat(40) + "]".repeat(40)) }, /nested at most 32 levels deep/],
      [{ allowedRedirectOrigins: ["javascript:alert(1)"] }, /allowedRedirectOrigins\[0\]/],
      [{ allowedRedirectOrigins: ["https://app.example.com/path"] }, /allowedRedirectOrigins\[0\].*without a path/],
      [{ allowedRedirectOrigins: "https://app.example.com" }, /allowedRedirectOrigins/],
    ];
    for (const [body, details] of cases) {
      const res = await a("PATCH", "/v3/settings", body);
      expect(res.status).toBe(400);
      expectErrorBody(res.body);
      expect(res.body.details).toMatch(details);
    }
  });

  it("takes {workspacePrompt} alone, in its own shape, and refuses it mixed with other fields", async () => {
    const res = await a("PATCH", "/v3/settings", { workspacePrompt: "We build warehouse robots." });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ orgId: "tenantA", orgSlug: "tenantA", updated: { workspacePrompt: "We build warehouse robots." } });
    expect((await a("GET", "/v3/settings")).body.workspacePrompt).toBe("We build warehouse robots.");

    const mixed = await a("PATCH", "/v3/settings", { workspacePrompt: "x", filterPrompt: "y" });
    expect(mixed.status).toBe(400);
    expectErrorBody(mixed.body);
    expect(mixed.body.details).toMatch(/workspacePrompt must be sent alone.*'filterPrompt'/);

    const tooLong = await a("PATCH", "/v3/settings", { workspacePrompt: "w".repeat(1501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toMatch(/workspacePrompt.*1500/);
    expect((await a("GET", "/v3/settings")).body.workspacePrompt).toBe("We build warehouse robots.");

    expect((await a("PATCH", "/v3/settings", { workspacePrompt: null })).body.updated).toEqual({ workspacePrompt: null });
    expect((await a("GET", "/v3/settings")).body.workspacePrompt).toBeNull();
  });

  it("validates profile buckets: key pattern and length, duplicates, at most 50, description length", async () => {
    const bad = async (profileBuckets: unknown, details: RegExp) => {
      const res = await a("PATCH", "/v3/settings", { profileBuckets });
      expect(res.status).toBe(400);
      expectErrorBody(res.body);
      expect(res.body.details).toMatch(details);
    };
    await bad([{ key: "Work" }], /profileBuckets\.0\.key: .*lowercase/);
    await bad([{ key: "-lead" }], /profileBuckets\.0\.key/);
    await bad([{ key: "" }], /profileBuckets\.0\.key/);
    await bad([{ key: "k".repeat(65) }], /profileBuckets\.0\.key/);
    await bad([{ description: "no key" }], /profileBuckets\.0\.key/);
    await bad([{ key: "a" }, { key: "b" }, { key: "a" }], /profileBuckets\.2\.key: duplicate bucket key 'a'/);
    await bad(
      Array.from({ length: 51 }, (_, i) => ({ key: `b${i}` })),
      /at most 50/,
    );
    await bad([{ key: "a", description: "d".repeat(2001) }], /description.*2000/);
    await bad([{ key: "a", label: "unknown" }], /profileBuckets\.0: unknown field 'label'/);

    const fifty = Array.from({ length: 50 }, (_, i) => ({ key: `bucket_${i}-x`, description: "d".repeat(2000) }));
    const ok = await a("PATCH", "/v3/settings", { profileBuckets: fifty });
    expect(ok.status).toBe(200);
    expect((await a("GET", "/v3/settings")).body.profileBuckets).toEqual(fifty);
  });

  it("never returns a client secret, never logs it, and keeps it encrypted on disk", async () => {
    const secret = `gd-secret-${randomBytes(12).toString("hex")}`;
    const clientId = `gd-client-${randomBytes(6).toString("hex")}.apps.example.com`;
    const res = await a("PATCH", "/v3/settings", { googleDriveClientId: clientId, googleDriveClientSecret: secret, googleDriveCustomKeyEnabled: true });
    expect(res.status).toBe(200);
    expect(res.body.updated).toEqual({ googleDriveClientId: clientId, googleDriveClientSecret: null, googleDriveCustomKeyEnabled: true });
    const got = await a("GET", "/v3/settings");
    expect(got.body.googleDriveClientId).toBe(clientId);
    expect(got.body.googleDriveClientSecret).toBeNull();
    expect(got.body.googleDriveCustomKeyEnabled).toBe(true);
    expect(JSON.stringify(res.body) + JSON.stringify(got.body)).not.toContain(secret);

    // The client id is stored as is, so the bytes read are where the settings live; the secret is not among them.
    const bytes = connectionsStoreBytes(engram.dataDir);
    expect(bytes.includes(Buffer.from(clientId))).toBe(true);
    expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(engram.output.join("\n")).not.toContain(secret);
    expect(fs.statSync(path.join(engram.dataDir, "secret.key")).mode & 0o777).toBe(0o600);

    // Replacing and removing the secret goes through the same write-only field.
    expect((await a("PATCH", "/v3/settings", { googleDriveClientSecret: null })).body.updated).toEqual({ googleDriveClientSecret: null });
    expect((await a("GET", "/v3/settings")).body.googleDriveClientId).toBe(clientId);
  });

  it("keeps organisations apart", async () => {
    await a("PATCH", "/v3/settings", { filterPrompt: "tenant A only", onedriveClientId: "a-onedrive" });
    await b("PATCH", "/v3/settings", { filterPrompt: "tenant B only", profileBuckets: [{ key: "b-bucket" }] });
    const ga = (await a("GET", "/v3/settings")).body;
    const gb = (await b("GET", "/v3/settings")).body;
    expect(ga.filterPrompt).toBe("tenant A only");
    expect(ga.onedriveClientId).toBe("a-onedrive");
    expect(ga.profileBuckets.map((x: { key: string }) => x.key)).not.toContain("b-bucket");
    expect(gb).toEqual({ ...DEFAULTS, filterPrompt: "tenant B only", profileBuckets: [{ key: "b-bucket", description: "" }] });
    expect((await b("PATCH", "/v3/settings", { chunkSize: 5 })).body.orgId).toBe("tenantB");
    expect((await a("GET", "/v3/settings")).body.chunkSize).not.toBe(5);
  });

  it("says when the filter prompt cannot act: no model is configured", async () => {
    const on = await b("PATCH", "/v3/settings", { shouldLLMFilter: true, filterPrompt: "Only engineering documents" });
    expect(on.status).toBe(200);
    expect(on.body.warnings).toEqual([expect.stringMatching(/no language model is configured/)]);
    expect((await b("PATCH", "/v3/settings", { shouldLLMFilter: false })).body.warnings).toBeUndefined();
  });

  it("suggests 3 to 6 new buckets from the workspace prompt and the memories, and says when there is no context", async () => {
    // A fresh organisation with neither a prompt nor memories: no context.
    const none = await apiClient(engram.url, KEY_C)("POST", "/v3/settings/suggest-buckets", {});
    expect(none.status).toBe(400);
    expectErrorBody(none.body);
    expect(
      (await b("PATCH", "/v3/settings", { workspacePrompt: "A support desk for our SaaS product: agents recall each customer's plan and open tickets." }))
        .status,
    ).toBe(200);
    expect((await b("PATCH", "/v3/settings", { profileBuckets: [{ key: "customers" }] })).status).toBe(200);
    const out = await b("POST", "/v3/settings/suggest-buckets", {});
    expect(out.status).toBe(200);
    const suggestions = out.body.suggestions as { key: string; description: string }[];
    expect(suggestions.length).toBeGreaterThanOrEqual(3);
    expect(suggestions.length).toBeLessThanOrEqual(6);
    for (const s of suggestions) expect(s.key).toMatch(/^[a-z0-9][a-z0-9_-]{0,63}$/);
    const keys = suggestions.map((s) => s.key);
    expect(keys).toEqual(expect.arrayContaining(["support", "products"]));
    // Never a bucket the organisation has.
    expect(keys).not.toContain("customers");
  });

  it("refuses a reset confirmed with another organisation's slug, and 401 without a key", async () => {
    const reset = await b("POST", "/v3/settings/reset", { confirmation: "tenantA" });
    expect(reset.status).toBe(400);
    expectErrorBody(reset.body);
    expect((await a("GET", "/v3/settings")).body.filterPrompt).toBe("tenant A only");
    const anon = await apiClient(engram.url, "not-a-valid-key-000000")("GET", "/v3/settings");
    expect(anon.status).toBe(401);
  });

  it("works through the supermemory SDK", async () => {
    const client = new Supermemory({ apiKey: engram.apiKey, baseURL: engram.url, maxRetries: 0 });
    const before = await client.settings.get();
    expect(before.githubClientId).toBeNull();
    expect(before.shouldLLMFilter).toBeNull();

    const updated = await client.settings.update({
      githubClientId: "sdk-gh-id",
      githubClientSecret: "sdk-gh-secret-value",
      githubCustomKeyEnabled: true,
      shouldLLMFilter: false,
      chunkSize: 640,
      includeItems: { repos: ["engram"] },
    });
    expect(updated.orgId).toBe("default");
    expect(updated.orgSlug).toBe("default");
    expect(updated.updated).toEqual({
      githubClientId: "sdk-gh-id",
      githubClientSecret: null,
      githubCustomKeyEnabled: true,
      shouldLLMFilter: false,
      chunkSize: 640,
      includeItems: { repos: ["engram"] },
    });

    const after = await client.settings.get();
    expect(after).toEqual(expect.objectContaining({ githubClientId: "sdk-gh-id", githubClientSecret: null, githubCustomKeyEnabled: true, chunkSize: 640 }));
    expect(JSON.stringify(after)).not.toContain("sdk-gh-secret-value");

    await client.settings.update({ chunkSize: null, githubClientId: null });
    expect(await client.settings.get()).toEqual(expect.objectContaining({ chunkSize: null, githubClientId: null, shouldLLMFilter: false }));

    await expect(client.settings.update({ bogusField: 1 } as never)).rejects.toMatchObject({ status: 400 });
  });

  it("chunkSize acts: a tenant that set it gets its documents chunked at that size, the other keeps the default", async () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} tells how the harbour pilots guide the ships past the northern breakwater at dawn.`).join(
      " ",
    );
    expect((await b("PATCH", "/v3/settings", { chunkSize: 64 })).status).toBe(200);
    const chunksOf = async (api: Api, ns: string) => {
      const add = await api("POST", "/v3/documents", { content: text, containerTag: ns, customId: "pilots" });
      expect(add.status).toBe(200);
      await waitDone(api, ns, "pilots", 60_000);
      return (await api("POST", `/ns/${ns}/list/chunks?limit=1`, {})).body.pagination.totalItems as number;
    };
    const byDefault = await chunksOf(a, "chunk-default");
    const small = await chunksOf(b, "chunk-small");
    expect(byDefault).toBeLessThanOrEqual(2);
    expect(small).toBeGreaterThanOrEqual(byDefault * 4);
    expect((await b("PATCH", "/v3/settings", { chunkSize: null })).status).toBe(200);
  });
});

describe("settings across restarts and secret keys", () => {
  let engram: EngramProcess | undefined;
  afterEach(() => stopQuietly(engram));

  it("keeps settings and the generated key across a restart, and refuses to start with another key while secrets are stored", async () => {
    engram = await startEngram();
    const { dataDir, apiKey } = engram;
    let api = apiClient(engram.url, apiKey);
    expect((await api("PATCH", "/v3/settings", { notionClientId: "kept-id", notionClientSecret: "kept-secret-value" })).status).toBe(200);
    await engram.stop();

    engram = await startEngram({ dataDir, apiKey });
    api = apiClient(engram.url, apiKey);
    expect((await api("GET", "/v3/settings")).body).toEqual(expect.objectContaining({ notionClientId: "kept-id", notionClientSecret: null }));
    await engram.stop();
    engram = undefined;

    await expect(startEngram({ dataDir, apiKey, env: { ENGRAM_SECRET_KEY: randomBytes(32).toString("base64") } })).rejects.toThrow(
      /secret key differs from the one that sealed the 1 stored client secret/,
    );
    await expect(startEngram({ dataDir, apiKey, env: { ENGRAM_SECRET_KEY: "not-a-key" } })).rejects.toThrow(/ENGRAM_SECRET_KEY: must be 32 bytes/);
  });

  it("uses ENGRAM_SECRET_KEY when set and writes no key file", async () => {
    const key = randomBytes(32).toString("hex");
    engram = await startEngram({ env: { ENGRAM_SECRET_KEY: key } });
    const api = apiClient(engram.url, engram.apiKey);
    expect((await api("PATCH", "/v3/settings", { onedriveClientSecret: "configured-key-secret" })).status).toBe(200);
    expect(fs.existsSync(path.join(engram.dataDir, "secret.key"))).toBe(false);
    expect(connectionsStoreBytes(engram.dataDir).includes(Buffer.from("configured-key-secret"))).toBe(false);
    expect(engram.output.join("\n")).not.toContain(key);
  });
});
