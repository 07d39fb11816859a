import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeGraph, readRequestBody } from "@engram/testing";
import {
  drivePath,
  OneDriveConnector,
  parseSite,
  RENEW_WITHIN_MS,
  sharepointSites,
  SUBSCRIPTION_TTL_MS,
} from "../../src/adapters/connectors/onedrive/onedrive-connector";
import type { ConnectorChange, WebhookNotification } from "../../src/app/sync-ports";
import { type Connection, type ConnectionItem, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { collectChanges } from "./sync-helpers";

type Upsert = Extract<ConnectorChange, { kind: "upsert" }>;
const DAY = 86_400_000;

/** The OneDrive connector against a local fake of Microsoft Graph and the identity platform (tokens refreshed with real refresh_token grants). */
describe("OneDrive connector", () => {
  const fake = new FakeGraph();
  let base = "";
  let connector: OneDriveConnector;
  let tokens = { access: "", refresh: "" };
  let refreshes = 0;
  /** The webhook endpoint the fake's subscription handshakes and notifications reach: the connector's reader for `hookConn`. */
  let hookConn: Connection | undefined;
  const secret = "webhook-secret-of-the-connection";
  const hooks = http.createServer((req, res) => {
    void (async () => {
      const body = await readRequestBody(req);
      const url = new URL(req.url!, "http://x");
      const n: WebhookNotification = { headers: {}, query: Object.fromEntries(url.searchParams), body };
      const v = await connector.webhooks.read(hookConn!, n, secret);
      if (v.kind === "respond") {
        res.writeHead(200, { "content-type": v.contentType });
        res.end(v.body);
      } else {
        res.writeHead(v.kind === "reject" ? v.status : v.kind === "sync" ? 202 : 200, { "content-type": "text/plain" });
        res.end(v.kind);
      }
    })();
  });
  let hookUrl = "";

  const refresh = async (): Promise<string> => {
    const res = await fetch(`${base}/common/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh, client_id: fake.clientId, client_secret: fake.clientSecret }),
    });
    if (res.status !== 200) throw new ConnectorError("auth_expired", "the refresh token was refused");
    const t = (await res.json()) as { access_token: string; refresh_token: string };
    tokens = { access: t.access_token, refresh: t.refresh_token };
    refreshes++;
    return tokens.access;
  };

  beforeAll(async () => {
    base = await fake.start();
    await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/v3/connections/webhooks/onedrive?connection=n_1&tenant=acme`;
    connector = new OneDriveConnector({ graphUrl: `${base}/v1.0`, authOf: () => ({ token: async () => tokens.access, refreshed: refresh }) });
  });
  beforeEach(() => {
    const t = fake.issueTokens() as { access_token: string; refresh_token: string };
    tokens = { access: t.access_token, refresh: t.refresh_token };
    fake.pageSize = 200;
    fake.now = () => Date.now();
  });
  afterAll(async () => {
    hooks.closeAllConnections();
    await new Promise<void>((r) => hooks.close(() => r()));
    await fake.stop();
  });

  const conn = (p: { config?: Connection["config"]; cursor?: string; metadata?: Record<string, string> } = {}): Connection => ({
    ...newConnection({ tenantId: "acme", provider: "onedrive", namespace: "files", config: p.config, metadata: p.metadata }, "2026-05-01T00:00:00.000Z"),
    ...(p.cursor ? { cursor: p.cursor } : {}),
  });
  const collect = (c: Connection, known?: Map<string, ConnectionItem>) => collectChanges(connector, c, known);
  /** The ledger after applying changes, as the sync engine keeps it. */
  const apply = (changes: ConnectorChange[], known = new Map<string, ConnectionItem>()) => {
    for (const c of changes) {
      if (c.kind === "upsert")
        known.set(c.itemKey, {
          connectionId: "n_1",
          itemKey: c.itemKey,
          documentId: `d-${c.itemKey}`,
          version: c.version,
          updatedAt: "2026-05-01T00:00:00.000Z",
        });
      if (c.kind === "delete") known.delete(c.itemKey);
    }
    return known;
  };
  const lastCursor = (changes: ConnectorChange[]) => (changes.filter((c) => c.kind === "cursor").at(-1) as { cursor: string } | undefined)?.cursor;
  const upserts = (changes: ConnectorChange[]) => changes.filter((c): c is Upsert => c.kind === "upsert");
  const kinds = (changes: ConnectorChange[]) => changes.map((c) => c.kind);

  describe("parsing", () => {
    it("splits sharepointSites on commas, but not inside a site id", () => {
      const id = "contoso.sharepoint.com,2C712604-1370-44E7-A1F5-426573FDA80A,2D2244C3-251A-49EA-93A8-39E1C3A060FE";
      expect(sharepointSites({ metadata: { sharepointSites: `contoso.sharepoint.com:/sites/eng, ${id};https://contoso.sharepoint.com/sites/hr/` } })).toEqual([
        "contoso.sharepoint.com:/sites/eng",
        id,
        "https://contoso.sharepoint.com/sites/hr/",
      ]);
      expect(sharepointSites({ metadata: {} })).toEqual([]);
      expect(parseSite("contoso.sharepoint.com:/sites/eng/")).toEqual({ hostname: "contoso.sharepoint.com", path: "/sites/eng" });
      expect(parseSite("https://contoso.sharepoint.com/sites/hr/")).toEqual({ hostname: "contoso.sharepoint.com", path: "/sites/hr" });
      expect(parseSite(id)).toEqual({ id });
    });
    it("reads the folder path of a parentReference.path", () => {
      expect(drivePath("/drive/root:")).toBe("");
      expect(drivePath("/drives/b!x/root:/Team%20Docs/2026")).toBe("/Team Docs/2026");
      expect(drivePath("/drive/root:/A/")).toBe("/A");
    });
  });

  it("identifies the account: email, drive id as the account, the OneDrive in the config", async () => {
    const who = await connector.identify({ accessToken: tokens.access });
    expect(who).toEqual({
      email: "adele@contoso.example",
      account: fake.myDrive.id,
      config: { drives: [{ id: fake.myDrive.id, name: "OneDrive", kind: "onedrive" }] },
    });
    fake.account.mail = null;
    expect((await connector.identify({ accessToken: tokens.access })).email).toBe("adele@contoso.onmicrosoft.example");
    fake.account.mail = "adele@contoso.example";
    await expect(connector.identify({ accessToken: "msft_at_not_a_token" })).rejects.toMatchObject({ code: "auth_expired" });
  });

  describe("sync", () => {
    const config = () => ({ drives: [{ id: fake.myDrive.id, name: "OneDrive", kind: "onedrive" }] });
    beforeAll(() => {
      fake.addFile("Team Docs/guide.md", "# Guide\n\nDeploys happen on Thursdays.");
      fake.addFile("Team Docs/2026/plan.txt", "The plan.");
      fake.addFile("notes.md", "# Notes");
      fake.addFile("video.mp4", "not really a video", { size: 60 * 1024 * 1024 });
    });

    it("imports files (not folders) with their path, link, version and metadata; skips files over 50 MB; the cursor last", async () => {
      const downloads = fake.downloads.length;
      const out = await collect(conn({ config: config() }));
      const files = upserts(out);
      expect(files.map((f) => f.filepath).sort()).toEqual(["/Team Docs/2026/plan.txt", "/Team Docs/guide.md", "/notes.md"]);
      const guide = files.find((f) => f.title === "guide.md")!;
      const item = fake.item("Team Docs/guide.md");
      expect(guide).toMatchObject({
        itemKey: `${fake.myDrive.id}/${item.id}`,
        url: `${fake.myDrive.webUrl}/Team%20Docs/guide.md`,
        metadata: { driveId: fake.myDrive.id, mimeType: "text/markdown" },
        version: `"{${item.guid}},${item.itemVersion}"`,
      });
      expect(Buffer.from(guide.content.bytes).toString()).toContain("Thursdays");
      expect(guide.content).toMatchObject({ mimeType: "text/markdown", fileName: "guide.md" });
      // The pre-authenticated download refuses an Authorization header: every file came through it.
      expect(fake.downloads.length - downloads).toBe(3);
      expect(out.filter((c) => c.kind === "failure")).toEqual([
        { kind: "failure", itemKey: expect.stringContaining(fake.myDrive.id), reason: expect.stringMatching(/video\.mp4 is larger than 50 MB/) },
      ]);
      expect(out.at(-1)!.kind).toBe("cursor");
      expect(Object.keys(JSON.parse(lastCursor(out)!) as object)).toEqual([fake.myDrive.id]);
      expect(fake.deltaPrefer.at(-1)).toBe("deltashowremovedasdeleted, deltatraversepermissiongaps, deltashowsharingchanges");
    });

    it("follows next links to the delta link, then reports only what changed: modified, deleted, unshared", async () => {
      fake.pageSize = 2;
      const first = await collect(conn({ config: config() }));
      const known = apply(first);
      expect(upserts(first)).toHaveLength(3);
      expect(fake.requests.filter((r) => r.includes("/root/delta?token=")).length).toBeGreaterThan(0);

      const calls = fake.requests.length;
      const quiet = await collect(conn({ config: config(), cursor: lastCursor(first) }), known);
      expect(kinds(quiet)).toEqual(["cursor"]);
      expect(fake.requests.length - calls).toBe(1);

      fake.modifyFile("Team Docs/guide.md", "# Guide\n\nDeploys happen on Fridays now.");
      fake.deleteItem("notes.md");
      fake.removePermission("Team Docs/2026");
      const next = await collect(conn({ config: config(), cursor: lastCursor(first) }), known);
      const guideKey = `${fake.myDrive.id}/${fake.item("Team Docs/guide.md").id}`;
      expect(upserts(next).map((u) => [u.itemKey, u.filepath])).toEqual([[guideKey, "/Team Docs/guide.md"]]);
      expect(Buffer.from(upserts(next)[0]!.content.bytes).toString()).toContain("Fridays");
      expect(next.filter((c) => c.kind === "delete")).toHaveLength(2);
      expect(next.at(-1)!.kind).toBe("cursor");
      apply(next, known);
      expect(known.size).toBe(1);
      fake.addFile("notes.md", "# Notes again");
      fake.addFile("Team Docs/2026/plan.txt", "A new plan.");
    });

    it("re-enumerates a drive whose delta link expired (410) and deletes what it no longer lists, without downloading unchanged files again", async () => {
      const first = await collect(conn({ config: config() }));
      const known = apply(first);
      const stale = `${fake.myDrive.id}/01GONEGONEGONE`;
      known.set(stale, { connectionId: "n_1", itemKey: stale, documentId: "d-stale", version: "v", updatedAt: "2026-05-01T00:00:00.000Z" });
      fake.expireDeltaTokens();
      fake.modifyFile("notes.md", "# Notes, edited while the link expired");
      const downloads = fake.downloads.length;
      const out = await collect(conn({ config: config(), cursor: lastCursor(first) }), known);
      expect(upserts(out).map((u) => u.title)).toEqual(["notes.md"]);
      expect(out.filter((c) => c.kind === "delete")).toEqual([{ kind: "delete", itemKey: stale, reason: expect.stringContaining("full resync") }]);
      expect(fake.downloads.length - downloads).toBe(1);
      const again = await collect(conn({ config: config(), cursor: lastCursor(out) }), apply(out, known));
      expect(kinds(again)).toEqual(["cursor"]);
    });

    it("waits out a 429 with Retry-After and imports each file once", async () => {
      fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/v1.0/drives" });
      const started = Date.now();
      const out = await collect(conn({ config: config() }));
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const keys = upserts(out).map((u) => u.itemKey);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(3);
    });

    it("gives up on a Graph that keeps failing as provider_unavailable", async () => {
      for (let i = 0; i < 4; i++) fake.failNext.push({ status: 503, headers: { "retry-after": "0" }, pathPrefix: "/v1.0/drives" });
      await expect(collect(conn({ config: config() }))).rejects.toMatchObject({ code: "provider_unavailable" });
    });

    it("refreshes an expired access token once (the refresh token rotates) and goes on; a revoked consent is auth_expired", async () => {
      const before = refreshes;
      const oldRefresh = tokens.refresh;
      fake.expireAccessTokens();
      expect(upserts(await collect(conn({ config: config() })))).toHaveLength(3);
      expect(refreshes).toBe(before + 1);
      expect(tokens.refresh).not.toBe(oldRefresh);
      fake.expireAccessTokens();
      expect(upserts(await collect(conn({ config: config() })))).toHaveLength(3);
      expect(refreshes).toBe(before + 2);
      fake.revoke();
      const err = await collect(conn({ config: config() })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorError);
      expect((err as ConnectorError).code).toBe("auth_expired");
    });

    it("reads the user's drive from Graph when the config names none, and deletes the items of drives no longer synced", async () => {
      const gone = "b!gone-drive/01ITEM";
      const known = new Map([[gone, { connectionId: "n_1", itemKey: gone, documentId: "d-gone", version: "v", updatedAt: "2026-05-01T00:00:00.000Z" }]]);
      const out = await collect(conn(), known);
      expect(out[0]).toEqual({ kind: "delete", itemKey: gone, reason: "the drive is no longer synced" });
      expect(upserts(out)).toHaveLength(3);
    });
  });

  describe("SharePoint document libraries", () => {
    it("syncs the libraries of the sites in metadata.sharepointSites, and reports a site it cannot find", async () => {
      const site = fake.addSite("contoso.sharepoint.example", "/sites/eng", "Engineering");
      const docs = fake.drives.get(site.driveIds[0]!)!;
      const specs = fake.addLibrary(site, "Specs");
      fake.addFile("Runbooks/restart.md", "# Restart\n\nRestart the queue first.", { drive: docs });
      fake.addFile("api.md", "# API", { drive: specs });
      const c = conn({
        config: { drives: [{ id: fake.myDrive.id, name: "OneDrive", kind: "onedrive" }] },
        metadata: { sharepointSites: "contoso.sharepoint.example:/sites/eng, contoso.sharepoint.example:/sites/missing" },
      });
      const out = await collect(c);
      const fromSites = upserts(out).filter((u) => u.metadata?.driveId !== fake.myDrive.id);
      expect(fromSites.map((u) => [u.metadata?.driveId, u.filepath])).toEqual([
        [docs.id, "/Runbooks/restart.md"],
        [specs.id, "/api.md"],
      ]);
      expect(out.filter((x) => x.kind === "failure" && x.itemKey.startsWith("site:"))).toEqual([
        { kind: "failure", itemKey: "site:contoso.sharepoint.example:/sites/missing", reason: expect.stringContaining("does not exist") },
      ]);
      expect(Object.keys(JSON.parse(lastCursor(out)!) as object).sort()).toEqual([fake.myDrive.id, docs.id, specs.id].sort());
      // Renewal keeps the resolved libraries in the config.
      fake.now = () => Date.now();
      hookConn = c;
      const renewed = await connector.renew(c, { now: new Date(), webhook: { url: hookUrl, secret } });
      expect((renewed!.drives as { id: string; kind: string; site?: string }[]).filter((d) => d.kind === "sharepoint")).toEqual([
        expect.objectContaining({ id: docs.id, name: "Engineering/Documents", site: "contoso.sharepoint.example:/sites/eng", siteId: site.id }),
        expect.objectContaining({ id: specs.id, name: "Engineering/Specs", site: "contoso.sharepoint.example:/sites/eng", siteId: site.id }),
      ]);
      expect((renewed!.subscriptions as unknown[]).length).toBe(3);
      await connector.unsubscribe({ ...c, config: renewed! });
      expect(fake.subscriptionsOf(docs)).toHaveLength(0);
    });
  });

  describe("subscriptions", () => {
    it("creates one per drive after the validation handshake, renews it only when it expires within 72 h, recreates one Graph forgot, and deletes them", async () => {
      let clock = Date.parse("2026-06-01T00:00:00.000Z");
      fake.now = () => clock;
      const c0 = conn({ config: { drives: [{ id: fake.myDrive.id, name: "OneDrive", kind: "onedrive" }] } });
      hookConn = c0;
      const webhook = { url: hookUrl, secret };
      const validations = fake.validations.length;
      const first = (await connector.renew(c0, { now: new Date(clock), webhook }))!;
      const subs = first.subscriptions as { driveId: string; id: string; expirationDateTime: string }[];
      expect(subs).toHaveLength(1);
      expect(subs[0]).toMatchObject({ driveId: fake.myDrive.id, expirationDateTime: new Date(clock + SUBSCRIPTION_TTL_MS).toISOString() });
      expect(fake.validations.slice(validations)).toEqual([{ url: expect.stringContaining("validationToken=Validation"), ok: true }]);
      const sub = fake.subscriptions.get(subs[0]!.id)!;
      expect(sub).toMatchObject({ resource: `/drives/${fake.myDrive.id}/root`, changeType: "updated", clientState: secret, notificationUrl: hookUrl });

      // A day later: nothing to do.
      clock += DAY;
      const calls = fake.requests.filter((r) => r.includes("/subscriptions")).length;
      const c1 = { ...c0, config: first };
      expect((await connector.renew(c1, { now: new Date(clock), webhook }))!.subscriptions).toEqual(subs);
      expect(fake.requests.filter((r) => r.includes("/subscriptions")).length).toBe(calls);

      // Within 72 h of expiry: PATCHed, same id.
      clock = Date.parse(subs[0]!.expirationDateTime) - RENEW_WITHIN_MS + 3_600_000;
      const renewed = (await connector.renew(c1, { now: new Date(clock), webhook }))!.subscriptions as typeof subs;
      expect(renewed).toEqual([{ driveId: fake.myDrive.id, id: subs[0]!.id, expirationDateTime: new Date(clock + SUBSCRIPTION_TTL_MS).toISOString() }]);
      expect(fake.requests.some((r) => r.startsWith(`PATCH /v1.0/subscriptions/${subs[0]!.id}`))).toBe(true);

      // Graph forgot it: a 404 on PATCH creates a new one.
      fake.dropSubscription(subs[0]!.id);
      clock = Date.parse(renewed[0]!.expirationDateTime) - DAY;
      const c2 = { ...c0, config: { ...first, subscriptions: renewed } };
      const recreated = (await connector.renew(c2, { now: new Date(clock), webhook }))!.subscriptions as typeof subs;
      expect(recreated).toHaveLength(1);
      expect(recreated[0]!.id).not.toBe(subs[0]!.id);
      expect(fake.subscriptionsOf()).toHaveLength(1);

      // A notification for it asks for a sync; then the connection goes and so does the subscription.
      const c3 = { ...c0, config: { ...first, subscriptions: recreated } };
      hookConn = c3;
      expect(await fake.notify(recreated[0]!.id)).toEqual({ status: 202, body: "sync" });
      expect(await fake.notify(recreated[0]!.id, { clientState: "forged" })).toEqual({ status: 401, body: "reject" });
      await connector.unsubscribe(c3);
      expect(fake.subscriptionsOf()).toHaveLength(0);
    });

    it("fails the renewal when Graph refuses every subscription (the endpoint does not answer the handshake)", async () => {
      const c = conn({ config: { drives: [{ id: fake.myDrive.id, name: "OneDrive", kind: "onedrive" }] } });
      const err = await connector.renew(c, { now: new Date(), webhook: { url: "http://127.0.0.1:9/nowhere", secret } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorError);
      expect((err as Error).message).toMatch(/validation request failed/);
      expect(fake.validations.at(-1)!.ok).toBe(false);
    });
  });

  describe("webhooks", () => {
    const c = conn({ config: { subscriptions: [{ driveId: "b!d", id: "sub-1", expirationDateTime: "2026-07-01T00:00:00.000Z" }] } });
    const note = (value: unknown[], query: Record<string, string> = {}): WebhookNotification => ({
      headers: {},
      query,
      body: Buffer.from(JSON.stringify({ value })),
    });
    const read = (n: WebhookNotification) => connector.webhooks.read(c, n, secret);

    it("echoes Graph's validation token as text/plain", () => {
      const token = "Validation: Testing client application reachability for subscription Request-Id: 1";
      expect(read({ headers: {}, query: { validationToken: token, connection: "n_1", tenant: "acme" }, body: Buffer.alloc(0) })).toEqual({
        kind: "respond",
        body: token,
        contentType: "text/plain",
      });
    });
    it("asks for a sync when every notification carries the secret and one is the connection's subscription", () => {
      expect(read(note([{ subscriptionId: "sub-1", clientState: secret, changeType: "updated" }]))).toEqual({ kind: "sync" });
      expect(
        read(
          note([
            { subscriptionId: "other", clientState: secret },
            { subscriptionId: "sub-1", clientState: secret },
          ]),
        ),
      ).toEqual({ kind: "sync" });
    });
    it("refuses a wrong or missing clientState in any notification", () => {
      expect(read(note([{ subscriptionId: "sub-1", clientState: "nope" }]))).toMatchObject({ kind: "reject", status: 401 });
      expect(read(note([{ subscriptionId: "sub-1" }]))).toMatchObject({ kind: "reject", status: 401 });
      expect(
        read(
          note([
            { subscriptionId: "sub-1", clientState: secret },
            { subscriptionId: "sub-1", clientState: `${secret}x` },
          ]),
        ),
      ).toMatchObject({
        kind: "reject",
        status: 401,
      });
    });
    it("acknowledges notifications of subscriptions the connection does not have, and refuses what is not a notification", () => {
      expect(read(note([{ subscriptionId: "sub-9", clientState: secret }])).kind).toBe("acknowledge");
      expect(read({ headers: {}, query: {}, body: Buffer.from("not json") })).toMatchObject({ kind: "reject", status: 400 });
      expect(read(note([]))).toMatchObject({ kind: "reject", status: 400 });
    });
  });
});
