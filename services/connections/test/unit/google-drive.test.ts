import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeGoogleDrive, GOOGLE_SHEET, readRequestBody } from "@engram/testing";
import { contentPlan, GoogleDriveConnector, isExpiredPageToken, versionOf, WATCH_TTL_MS } from "../../src/adapters/connectors/google-drive/drive-connector";
import { DriveHttpError } from "../../src/adapters/connectors/google-drive/drive-api";
import type { ConnectorChange, WebhookNotification } from "../../src/app/sync-ports";
import { type Connection, type ConnectionItem, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { collectChanges } from "./sync-helpers";

type Upsert = Extract<ConnectorChange, { kind: "upsert" }>;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * The Google Drive connector against a local fake of Google (OAuth token
 * endpoint and Drive v3 REST): listing, change feed, content conversion,
 * failures (401 refresh, 429 Retry-After, 5xx, expired page tokens), watch
 * channels renewed on an injected clock, and notification verification.
 */
describe("Google Drive connector", () => {
  const fake = new FakeGoogleDrive();
  let base = "";
  let connector: GoogleDriveConnector;
  let token = "";
  let refreshToken = "";
  let refreshes = 0;
  beforeAll(async () => {
    base = await fake.start();
    fake.sendSyncOnWatch = false;
    connector = new GoogleDriveConnector({
      apiUrl: `${base}/`,
      authOf: () => ({
        token: async () => token,
        // A real refresh at the fake's token endpoint (Google keeps the refresh token).
        refreshed: async () => {
          const res = await fetch(`${base}/token`, {
            method: "POST",
            body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: fake.clientId, client_secret: fake.clientSecret }),
          });
          if (!res.ok) throw new ConnectorError("auth_expired", "Google refused the refresh token");
          refreshes++;
          token = ((await res.json()) as { access_token: string }).access_token;
          return token;
        },
      }),
    });
  });
  beforeEach(() => {
    const t = fake.oauth.issueTokens();
    token = t.access_token;
    refreshToken = t.refresh_token as string;
    fake.files.clear();
    fake.requests = [];
    fake.failNext = [];
    fake.pageSizeCap = 1000;
    fake.markdownExport = true;
    fake.exportLimitBytes = 10 * 1024 * 1024;
  });
  afterAll(() => fake.stop());

  const conn = (cursor?: string, config?: Connection["config"]): Connection => ({
    ...newConnection({ tenantId: "acme", provider: "google-drive", namespace: "drive", config }, "2026-05-01T00:00:00.000Z"),
    ...(cursor ? { cursor } : {}),
  });
  const collect = (c: Connection, known?: Map<string, ConnectionItem>) => collectChanges(connector, c, known);
  const upserts = (cs: ConnectorChange[]) => cs.filter((c): c is Upsert => c.kind === "upsert");
  const ledger = (cs: ConnectorChange[], into = new Map<string, ConnectionItem>()) => {
    for (const c of cs) {
      if (c.kind === "upsert")
        into.set(c.itemKey, { connectionId: "n", itemKey: c.itemKey, documentId: `d-${c.itemKey}`, version: c.version, state: c.state, updatedAt: "x" });
      if (c.kind === "delete") into.delete(c.itemKey);
    }
    return into;
  };
  const cursorOf = (cs: ConnectorChange[]) => (cs.filter((c) => c.kind === "cursor").at(-1) as { cursor: string } | undefined)?.cursor;
  const kinds = (cs: ConnectorChange[]) => cs.map((c) => `${c.kind}:${"itemKey" in c ? c.itemKey : ""}`);

  it("chooses how each file is read", () => {
    expect(contentPlan("application/vnd.google-apps.document")).toMatchObject({
      kind: "export",
      mimeType: "text/markdown",
      fallback: { mimeType: "text/plain" },
    });
    expect(contentPlan(GOOGLE_SHEET)).toMatchObject({ kind: "export", mimeType: XLSX });
    expect(contentPlan("application/vnd.google-apps.presentation")).toMatchObject({ kind: "export", mimeType: "text/plain" });
    for (const m of ["folder", "shortcut", "form", "map", "site", "drawing"]) expect(contentPlan(`application/vnd.google-apps.${m}`).kind).toBe("skip");
    expect(contentPlan("application/pdf").kind).toBe("download");
    const v = versionOf({ md5Checksum: "abc", modifiedTime: "t", name: "a.txt" });
    expect(versionOf({ md5Checksum: "abc", modifiedTime: "t2", name: "a.txt" })).toBe(v);
    expect(versionOf({ md5Checksum: "abc", name: "b.txt" })).not.toBe(v);
    expect(versionOf({ modifiedTime: "t1", name: "Doc" })).not.toBe(versionOf({ modifiedTime: "t2", name: "Doc" }));
    expect(isExpiredPageToken(new DriveHttpError("x", { retryable: false, status: 410 }))).toBe(true);
    expect(isExpiredPageToken(new DriveHttpError("x", { retryable: false, status: 400 }))).toBe(false);
  });

  it("identifies the account by its email and permission id", async () => {
    expect(await connector.identify({ accessToken: token })).toEqual({ email: fake.account.emailAddress, account: fake.account.permissionId });
    await expect(connector.identify({ accessToken: "ya29.not-a-token" })).rejects.toMatchObject({ code: "auth_expired" });
  });

  it("lists everything first (start token taken before), converts Google formats, includes shared drives, skips and reports the rest", async () => {
    const doc = fake.addDoc("Runbook", "# Runbook\n\nRestart the **queue** first.");
    const sheet = fake.addSheet("Budget", {
      Costs: [
        ["Item", "Cost"],
        ["Coffee", "12"],
      ],
      Plan: [["Goal"], ["Ship"]],
    });
    const slides = fake.addSlides("Kickoff", "Kickoff deck: goals for Q3");
    const txt = fake.addFile({ name: "notes.txt", content: "plain notes" });
    const pdf = fake.addFile({ name: "paper.pdf", mimeType: "application/pdf", content: Buffer.from("%PDF-1.4 fake") });
    const shared = fake.addDoc("Team charter", "# Charter\n\nShared drive content.", { driveId: "0AteamDrive" });
    fake.addFolder("Projects");
    const trashed = fake.addFile({ name: "old.txt", content: "old" });
    fake.trashFile(trashed.id);
    const huge = fake.addFile({ name: "video.mp4", mimeType: "video/mp4", content: "tiny", size: 60 * 1024 * 1024 });
    fake.pageSizeCap = 3;
    const out = await collect(conn());
    const first = fake.requests.findIndex((r) => r.startsWith("GET /drive/v3/files?"));
    expect(fake.requests.findIndex((r) => r.startsWith("GET /drive/v3/changes/startPageToken"))).toBeLessThan(first);
    const list = new URL(`http://x${fake.requests[first]!.slice(4)}`).searchParams;
    expect(Object.fromEntries(["corpora", "includeItemsFromAllDrives", "supportsAllDrives", "q"].map((k) => [k, list.get(k)]))).toEqual({
      corpora: "allDrives",
      includeItemsFromAllDrives: "true",
      supportsAllDrives: "true",
      q: "trashed = false",
    });
    expect(fake.requests.filter((r) => r.startsWith("GET /drive/v3/files?")).length).toBeGreaterThan(2);

    const byKey = new Map(upserts(out).map((u) => [u.itemKey, u]));
    expect([...byKey.keys()].sort()).toEqual([doc.id, sheet.id, slides.id, txt.id, pdf.id, shared.id].sort());
    expect(byKey.get(doc.id)).toMatchObject({
      title: "Runbook",
      filepath: "Runbook",
      url: `https://docs.google.com/document/d/${doc.id}/edit?usp=drivesdk`,
      metadata: { mimeType: "application/vnd.google-apps.document" },
      content: { mimeType: "text/markdown", fileName: "Runbook.md" },
    });
    expect(Buffer.from(byKey.get(doc.id)!.content.bytes).toString()).toContain("Restart the **queue** first.");
    const xlsx = byKey.get(sheet.id)!.content;
    expect(xlsx).toMatchObject({ mimeType: XLSX, fileName: "Budget.xlsx" });
    expect(Buffer.from(xlsx.bytes).subarray(0, 2).toString()).toBe("PK");
    expect(fake.requests.some((r) => r.includes(`/files/${sheet.id}/export?mimeType=${encodeURIComponent(XLSX)}`))).toBe(true);
    expect(byKey.get(slides.id)!.content).toMatchObject({ mimeType: "text/plain", fileName: "Kickoff.txt" });
    expect(byKey.get(pdf.id)!.content).toMatchObject({ mimeType: "application/pdf", fileName: "paper.pdf" });
    expect(Buffer.from(byKey.get(txt.id)!.content.bytes).toString()).toBe("plain notes");
    expect(byKey.get(shared.id)).toMatchObject({ metadata: { driveId: "0AteamDrive" }, state: "0AteamDrive" });
    expect(out.filter((c) => c.kind === "failure")).toEqual([expect.objectContaining({ itemKey: huge.id, reason: expect.stringContaining("50 MB") })]);
    expect(fake.requests.some((r) => r.includes(huge.id))).toBe(false);
    expect(out.at(-1)).toEqual({ kind: "cursor", cursor: expect.any(String) });

    // Nothing changed: the change feed is empty and the cursor stays.
    const calls = fake.requests.length;
    expect(await collect(conn(cursorOf(out)), ledger(out))).toEqual([]);
    expect(fake.requests.length - calls).toBe(1);
  });

  it("follows the change feed page by page: edits, renames, trash, deletions and lost shared drives", async () => {
    const a = fake.addDoc("A", "# A\n\nfirst");
    const b = fake.addFile({ name: "b.txt", content: "bee" });
    const c = fake.addFile({ name: "c.txt", content: "sea" });
    const d = fake.addFile({ name: "d.txt", content: "dee" });
    const s = fake.addFile({ name: "s.txt", content: "shared", driveId: "0Alost" });
    const initial = await collect(conn());
    const known = ledger(initial);
    expect(known.size).toBe(5);

    fake.modifyFile(a.id, { content: "# A\n\nsecond" });
    fake.modifyFile(b.id, { name: "b-renamed.txt" });
    fake.trashFile(c.id);
    fake.deleteFile(d.id);
    fake.removeDrive("0Alost");
    const e = fake.addFile({ name: "e.txt", content: "new" });
    fake.pageSizeCap = 2;
    const out = await collect(conn(cursorOf(initial)), known);
    expect(kinds(out.filter((x) => x.kind !== "cursor")).sort()).toEqual(
      [`upsert:${a.id}`, `upsert:${b.id}`, `delete:${c.id}`, `delete:${d.id}`, `delete:${s.id}`, `upsert:${e.id}`].sort(),
    );
    // A cursor after each page, each after the changes it covers; the last one is the new start token.
    const cursors = out.flatMap((x, i) => (x.kind === "cursor" ? [i] : []));
    expect(cursors.length).toBeGreaterThanOrEqual(3);
    expect(cursors.at(-1)).toBe(out.length - 1);
    expect(Buffer.from(upserts(out).find((u) => u.itemKey === a.id)!.content.bytes).toString()).toContain("second");
    expect(upserts(out).find((u) => u.itemKey === b.id)!.title).toBe("b-renamed.txt");
    // Re-reading the same feed imports nothing twice once the ledger has the versions.
    const again = await collect(conn(cursorOf(initial)), ledger(out, known));
    expect(upserts(again)).toEqual([]);
  });

  it("falls back to plain text when Google refuses a Markdown export, and reports exports over 10 MB", async () => {
    fake.markdownExport = false;
    const doc = fake.addDoc("Spec", "# Spec\n\nplain *fallback*");
    const big = fake.addDoc("Big", "x".repeat(300));
    fake.exportLimitBytes = 200;
    const out = await collect(conn());
    expect(upserts(out).map((u) => [u.itemKey, u.content.mimeType, u.content.fileName])).toEqual([[doc.id, "text/plain", "Spec.txt"]]);
    expect(Buffer.from(upserts(out)[0]!.content.bytes).toString()).toContain("plain fallback");
    expect(out.filter((c) => c.kind === "failure")).toEqual([expect.objectContaining({ itemKey: big.id, reason: expect.stringContaining("10 MB") })]);
  });

  it.each([400, 404, 410])("converges by a full listing when the page token is refused (%i)", async (status) => {
    const keep = fake.addFile({ name: "keep.txt", content: "k" });
    const gone = fake.addFile({ name: "gone.txt", content: "g" });
    const initial = await collect(conn());
    const known = ledger(initial);
    fake.files.delete(gone.id); // gone without a change the connector would see
    const added = fake.addFile({ name: "added.txt", content: "a" });
    fake.expirePageTokens(status);
    const out = await collect(conn(cursorOf(initial)), known);
    expect(kinds(out.filter((c) => c.kind !== "cursor"))).toEqual([`upsert:${added.id}`, `delete:${gone.id}`]);
    expect(out.some((c) => "itemKey" in c && c.itemKey === keep.id)).toBe(false);
    const fresh = cursorOf(out)!;
    expect(fresh).not.toBe(cursorOf(initial));
    expect(await collect(conn(fresh), ledger(out, known))).toEqual([]);
  });

  it("refreshes an expired access token once and goes on; a refused refresh is auth_expired", async () => {
    fake.addFile({ name: "one.txt", content: "1" });
    fake.expireAccessTokens();
    const before = refreshes;
    expect(upserts(await collect(conn()))).toHaveLength(1);
    expect(refreshes).toBe(before + 1);
    expect(fake.oauth.tokenRequests.at(-1)).toMatchObject({ grant_type: "refresh_token" });
    fake.revoke();
    const err = await collect(conn()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).code).toBe("auth_expired");
  });

  it("waits out a 429 with Retry-After and imports nothing twice; a Drive that keeps failing is provider_unavailable", async () => {
    const f = fake.addFile({ name: "rate.txt", content: "limited" });
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: `/drive/v3/files/${f.id}` });
    const started = Date.now();
    const out = await collect(conn());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(upserts(out).map((u) => u.itemKey)).toEqual([f.id]);
    expect(fake.requests.filter((r) => r.startsWith(`GET /drive/v3/files/${f.id}?`))).toHaveLength(2);
    // A 403 rate limit is retried like a 429.
    fake.failNext.push({ status: 403, reason: "userRateLimitExceeded", headers: { "retry-after": "0" }, pathPrefix: "/drive/v3/files" });
    expect(upserts(await collect(conn()))).toHaveLength(1);

    for (let i = 0; i < 5; i++) fake.failNext.push({ status: 503, headers: { "retry-after": "0" }, pathPrefix: "/drive/v3/changes" });
    const err = await collect(conn()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "provider_unavailable" });
    fake.failNext = [];
  });

  describe("watch channels", () => {
    const webhook = { url: "https://engram.example.com/v3/connections/webhooks/google-drive?connection=n_1&tenant=acme", secret: "s".repeat(64) };
    const t0 = new Date("2026-06-01T00:00:00.000Z");
    const day = 24 * 3_600_000;

    it("opens a channel, keeps it while it lives 48 h more, then replaces it (new first, old stopped)", async () => {
      const config = await connector.renew(conn(undefined, { keep: "me" }), { now: t0, webhook });
      const first = fake.channels.at(-1)!;
      expect(first).toMatchObject({ address: webhook.url, token: webhook.secret, stopped: false });
      expect(first.expiration).toBe(t0.getTime() + WATCH_TTL_MS);
      expect(config).toEqual({ keep: "me", watch: { channelId: first.id, resourceId: first.resourceId, expiration: first.expiration } });
      expect(fake.requests.some((r) => r.startsWith("POST /drive/v3/changes/watch?") && r.includes("supportsAllDrives=true"))).toBe(true);

      expect(await connector.renew(conn(undefined, config), { now: new Date(t0.getTime() + 4 * day), webhook })).toBeUndefined();
      expect(fake.channels.filter((c) => !c.stopped)).toContain(first);

      const channels = fake.channels.length;
      const renewed = await connector.renew(conn(undefined, config), { now: new Date(t0.getTime() + 5.5 * day), webhook });
      const second = fake.channels.at(-1)!;
      expect(fake.channels.length).toBe(channels + 1);
      expect(first.stopped).toBe(true);
      const watchIdx = fake.requests.findLastIndex((r) => r.startsWith("POST /drive/v3/changes/watch"));
      expect(watchIdx).toBeLessThan(fake.requests.findLastIndex((r) => r.startsWith("POST /drive/v3/channels/stop")));
      expect(renewed).toEqual({
        keep: "me",
        watch: { channelId: second.id, resourceId: second.resourceId, expiration: second.expiration },
        previousWatch: { channelId: first.id, resourceId: first.resourceId, expiration: first.expiration, stopped: true },
      });

      await connector.unsubscribe(conn(undefined, renewed));
      expect(second.stopped).toBe(true);
    });

    it("keeps the replaced channel until Google confirms it stopped", async () => {
      const config = (await connector.renew(conn(), { now: t0, webhook }))!;
      const first = fake.channels.at(-1)!;
      fake.failNext.push({ status: 400, pathPrefix: "/drive/v3/channels/stop" });
      const renewed = (await connector.renew(conn(undefined, config), { now: new Date(t0.getTime() + 6 * day), webhook }))!;
      expect(renewed.previousWatch).toMatchObject({ channelId: first.id, stopped: false });
      expect(first.stopped).toBe(false);
      const later = (await connector.renew(conn(undefined, renewed), { now: new Date(t0.getTime() + 7 * day), webhook }))!;
      expect(first.stopped).toBe(true);
      expect(later.previousWatch).toMatchObject({ channelId: first.id, stopped: true });
    });

    it("verifies notifications as Google sends them: channel token and channel id", async () => {
      const heard: WebhookNotification[] = [];
      const server = http.createServer((req, res) => {
        void readRequestBody(req).then((body) => {
          heard.push({ headers: req.headers as Record<string, string>, query: {}, body });
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const hook = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, secret: webhook.secret };
      try {
        const now = new Date();
        const config = (await connector.renew(conn(), { now, webhook: hook }))!;
        const c = conn(undefined, config);
        const channel = fake.activeChannel()!;
        await fake.notify(channel, { state: "sync" });
        await fake.notify(channel);
        await fake.notify(channel, { token: "forged" });
        await fake.notify(channel, { channelId: "someone-else" });
        const [sync, change, forged, foreign] = heard.map((n) => connector.webhooks.read(c, n, hook.secret));
        expect(sync).toMatchObject({ kind: "acknowledge" });
        expect(change).toEqual({ kind: "sync", deliveryId: `${channel.id}:2` });
        expect(forged).toMatchObject({ kind: "reject", status: 401 });
        expect(foreign).toMatchObject({ kind: "reject", status: 401 });
        const { "x-goog-channel-token": _t, ...unsigned } = heard[1]!.headers;
        expect(connector.webhooks.read(c, { ...heard[1]!, headers: unsigned }, hook.secret)).toMatchObject({ kind: "reject" });
        // The replaced channel's last messages still count; a channel of another connection does not.
        const renewed = (await connector.renew(c, { now: new Date(now.getTime() + 6 * day), webhook: hook }))!;
        expect(connector.webhooks.read(conn(undefined, renewed), heard[1]!, hook.secret)).toMatchObject({ kind: "sync" });
        expect(connector.webhooks.read(conn(), heard[1]!, hook.secret)).toMatchObject({ kind: "reject" });
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  });
});
