import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeGmail, type FakeGmailPushOptions } from "@engram/testing";
import { GmailConnector, MAX_ATTACHMENT_BYTES, threadUrl } from "../../src/adapters/connectors/gmail/gmail-connector";
import { decodeWords, htmlToText, parseAddresses, stripQuoted } from "../../src/adapters/connectors/gmail/gmail-thread";
import type { ConnectorChange, ProviderAuth, WebhookNotification, WebhookRoute } from "../../src/app/sync-ports";
import { type Connection, type ConnectionItem, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { collectChanges } from "./sync-helpers";

type Upsert = Extract<ConnectorChange, { kind: "upsert" }>;
const upserts = (cs: ConnectorChange[]) => cs.filter((c): c is Upsert => c.kind === "upsert");
const text = (u: Upsert) => Buffer.from(u.content.bytes).toString("utf8");
const summary = (cs: ConnectorChange[]) => cs.map((c) => `${c.kind}:${"itemKey" in c ? c.itemKey : c.kind === "cursor" ? c.cursor : ""}`);

describe("Gmail: reading a message's own text", () => {
  it("cuts the quoted history of a plain-text reply", () => {
    const body = [
      "Thursday works for me.",
      "",
      "Ada",
      "",
      "On Tue, 3 Mar 2026 at 10:00, Grace Hopper <grace@example.com>",
      "wrote:",
      "> Shall we meet on Thursday?",
      "> > Earlier history",
    ].join("\r\n");
    expect(stripQuoted(body)).toBe("Thursday works for me.\n\nAda");
    expect(stripQuoted("Top\n> quoted\nbottom")).toBe("Top\nbottom");
    expect(stripQuoted("New text\n\n-----Original Message-----\nFrom: x\nold")).toBe("New text");
    expect(stripQuoted("Le mar. 3 mars 2026 à 10:00, Ada <ada@example.com> a écrit :\n> vieux")).toBe("");
    // "On" that starts an ordinary sentence stays.
    expect(stripQuoted("On Monday we ship.\nThanks")).toBe("On Monday we ship.\nThanks");
  });

  it("reads HTML as text without Gmail's quoted block, scripts or styles", () => {
    const html =
      '<html><head><style>p{color:red}</style></head><body><div dir="ltr">Hello&nbsp;<b>team</b>,<br>the build is <i>green</i>.<ul><li>one</li><li>two</li></ul></div>' +
      '<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Grace wrote:<br></div><blockquote class="gmail_quote">Old &amp; quoted</blockquote></div>' +
      "<script>alert(1)</script></body></html>";
    const out = htmlToText(html);
    expect(out).toContain("Hello team,\nthe build is green.");
    expect(out).toContain("- one\n- two");
    expect(out).not.toMatch(/quoted|Grace|alert|color/);
    expect(htmlToText('<p>Mine</p><blockquote type="cite">theirs</blockquote><div id="divRplyFwdMsg">From: x</div><p>older</p>')).toBe("Mine");
  });

  it("decodes RFC 2047 encoded words", () => {
    expect(decodeWords("=?UTF-8?B?Q2Fmw6k=?= =?UTF-8?Q?_cr=C3=A8me?= and more")).toBe("Café crème and more");
    expect(decodeWords("=?iso-8859-1?Q?Andr=E9?= <andre@example.com>")).toBe("André <andre@example.com>");
    expect(decodeWords("plain =?x")).toBe("plain =?x");
  });

  it("parses address headers with quoted names, comments and groups", () => {
    expect(parseAddresses('"Hopper, Grace" <grace@example.com>, ada@example.com (Ada), undisclosed-recipients:;, Bob <BOB@Example.com>')).toEqual([
      { name: "Hopper, Grace", email: "grace@example.com" },
      { email: "ada@example.com" },
      { name: "Bob", email: "BOB@Example.com" },
    ]);
  });
});

/** The Gmail connector against a local fake of Google (OAuth token endpoint, Gmail API, Pub/Sub push and certificates). */
describe("Gmail connector", () => {
  const fake = new FakeGmail();
  let base = "";
  let tokens: { access: string; refresh: string };
  let refreshes = 0;
  let connector: GmailConnector;
  const auth: ProviderAuth = {
    token: async () => tokens.access,
    // What OAuthFlow does: a refresh_token grant at the token endpoint (Google keeps the refresh token).
    refreshed: async () => {
      refreshes++;
      const res = await fetch(`${base}/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh, client_id: fake.clientId, client_secret: fake.clientSecret }),
      });
      if (!res.ok) throw new ConnectorError("auth_expired", "the refresh token was refused");
      tokens.access = ((await res.json()) as { access_token: string }).access_token;
      return tokens.access;
    },
  };
  const make = (push: Partial<GmailConnector["o"]["push"]> = {}) =>
    new GmailConnector({ apiUrl: `${base}/`, authOf: () => auth, push: { certsUrl: `${base}/oauth2/v1/certs`, ...push } });

  beforeAll(async () => {
    base = await fake.start();
    connector = make();
  });
  beforeEach(() => {
    const t = fake.issueTokens() as { access_token: string; refresh_token: string };
    tokens = { access: t.access_token, refresh: t.refresh_token };
    fake.threads.clear();
    fake.failNext = [];
  });
  afterAll(() => fake.stop());

  const conn = (cursor?: string, config?: Connection["config"]): Connection => ({
    ...newConnection({ tenantId: "acme", provider: "gmail", namespace: "mail", config }, "2026-05-01T00:00:00.000Z"),
    ...(cursor ? { cursor } : {}),
  });
  const collect = (c: Connection, known?: Map<string, ConnectionItem>, via = connector) => collectChanges(via, c, known);
  /** The ledger after applying the changes, as the sync engine keeps it. */
  const apply = (known: Map<string, ConnectionItem>, changes: ConnectorChange[]) => {
    for (const c of changes) {
      if (c.kind === "upsert")
        known.set(c.itemKey, { connectionId: "n", itemKey: c.itemKey, documentId: `d-${c.itemKey}`, version: c.version, state: c.state, updatedAt: "" });
      if (c.kind === "delete") known.delete(c.itemKey);
    }
    const cursor = changes.filter((c) => c.kind === "cursor").at(-1);
    return cursor?.kind === "cursor" ? cursor.cursor : undefined;
  };

  it("identifies the mailbox: its address, and the address lower-cased as the account", async () => {
    expect(await connector.identify({ accessToken: tokens.access } as never)).toEqual({
      email: "Ada.Lovelace@example.com",
      account: "ada.lovelace@example.com",
    });
    await expect(connector.identify({ accessToken: "ya29_wrong" } as never)).rejects.toMatchObject({ code: "auth_expired" });
  });

  it("imports each thread as one document without repeated quoted history, and attachments as their own items", async () => {
    const a = fake.addThread("Launch plan", {
      from: "Grace Hopper <grace@example.com>",
      to: ["Ada.Lovelace@example.com"],
      cc: ['"Babbage, Charles" <charles@example.com>'],
      text: "We launch the analytical engine on Thursday.",
    });
    fake.reply(a.threadId, {
      from: "Ada Lovelace <Ada.Lovelace@example.com>",
      to: ["grace@example.com"],
      text: "Thursday works; I will bring the punch cards.",
    });
    fake.addAttachment(a.threadId, { filename: "plan.pdf", mimeType: "application/pdf", data: Buffer.from("%PDF-1.4 plan") });
    const html = fake.addThread("Newsletter", { text: "The engine now computes Bernoulli numbers.", html: true });
    fake.reply(html.threadId, { text: "Impressive result.", html: true });
    const spam = fake.addThread("You won", { text: "Claim your prize", labels: ["SPAM"] });
    const trashed = fake.addThread("Old news", { text: "obsolete" });
    fake.trashThread(trashed.threadId);

    const changes = await collect(conn());
    const docs = upserts(changes);
    // Newest thread first; a thread's files before the thread (its state is recorded last).
    expect(docs.map((d) => d.itemKey)).toEqual([html.threadId, expect.stringMatching(new RegExp(`^${a.threadId}/att/[^/]+/1/plan\\.pdf$`)), a.threadId]);
    expect(changes.some((c) => "itemKey" in c && (c.itemKey.startsWith(spam.threadId) || c.itemKey.startsWith(trashed.threadId)))).toBe(false);
    expect(changes.at(-1)).toEqual({ kind: "cursor", cursor: String(fake.currentHistoryId) });

    const thread = docs.find((d) => d.itemKey === a.threadId)!;
    expect(thread).toMatchObject({ title: "Launch plan", url: threadUrl(a.threadId), content: { mimeType: "text/markdown" } });
    const body = text(thread);
    expect(body.match(/analytical engine on Thursday/g)).toHaveLength(1);
    expect(body).toContain("Thursday works; I will bring the punch cards.");
    expect(body).not.toContain("wrote:");
    expect(body).toContain("Babbage, Charles <charles@example.com>");
    expect(body).toContain("Attachments: plan.pdf");
    expect(thread.metadata).toMatchObject({ subject: "Launch plan", messageCount: 3 });
    expect(String(thread.metadata!.participants).split(", ").sort()).toEqual(["ada.lovelace@example.com", "charles@example.com", "grace@example.com"]);
    expect(thread.metadata!.labels).toBe("INBOX");

    const htmlBody = text(docs.find((d) => d.itemKey === html.threadId)!);
    expect(htmlBody.match(/Bernoulli/g)).toHaveLength(1);
    expect(htmlBody).toContain("Impressive result.");

    const att = docs.find((d) => d.itemKey.includes("/att/"))!;
    expect(att).toMatchObject({
      title: "plan.pdf (Launch plan)",
      content: { mimeType: "application/pdf", fileName: "plan.pdf" },
      metadata: { filename: "plan.pdf" },
    });
    expect(Buffer.from(att.content.bytes).toString()).toBe("%PDF-1.4 plan");
  });

  it("follows history: replies, deleted messages and threads, trash; unchanged threads are not read again", async () => {
    const a = fake.addThread("Budget", { text: "Draft budget attached." });
    const withFile = fake.addAttachment(a.threadId, { filename: "budget.csv", mimeType: "text/csv", data: Buffer.from("item,cost\ncards,3") });
    const b = fake.addThread("Offsite", { text: "Where shall we go?" });
    const c = fake.addThread("Hiring", { text: "Two openings." });
    const known = new Map<string, ConnectionItem>();
    let cursor = apply(known, await collect(conn()));
    expect(known.size).toBe(4);

    // Nothing changed: nothing read but the history.
    const before = fake.requests.length;
    expect(await collect(conn(cursor), known)).toEqual([]);
    expect(fake.requests.slice(before).map((r) => r.split("?")[0])).toEqual(["GET /gmail/v1/users/me/history"]);

    fake.reply(b.threadId, { text: "The lighthouse, in May." });
    fake.deleteMessage(withFile.messageId);
    fake.deleteThread(c.threadId);
    let changes = await collect(conn(cursor), known);
    expect(summary(changes).sort()).toEqual(
      [
        `upsert:${b.threadId}`,
        `upsert:${a.threadId}`,
        `delete:${[...known.keys()].find((k) => k.includes("/att/"))}`,
        `delete:${c.threadId}`,
        `cursor:${fake.currentHistoryId}`,
      ].sort(),
    );
    expect(changes.at(-1)!.kind).toBe("cursor");
    expect(text(upserts(changes).find((u) => u.itemKey === b.threadId)!)).toContain("The lighthouse, in May.");
    cursor = apply(known, changes);
    // The reply that carried the file is gone: the thread is as before, so its version is too.
    expect(known.get(a.threadId)!.version).toBe(upserts(changes).find((u) => u.itemKey === a.threadId)!.version);

    fake.trashThread(b.threadId);
    changes = await collect(conn(cursor), known);
    expect(summary(changes)).toEqual([`delete:${b.threadId}`, `cursor:${fake.currentHistoryId}`]);
    apply(known, changes);
    expect([...known.keys()]).toEqual([a.threadId]);
  });

  it("reads every page of the thread listing and of the history", async () => {
    fake.maxPageSize = 2;
    try {
      const ids = [1, 2, 3, 4, 5].map((i) => fake.addThread(`Page ${i}`, { text: `thread ${i}` }).threadId);
      const known = new Map<string, ConnectionItem>();
      let calls = fake.requests.length;
      const cursor = apply(known, await collect(conn()));
      expect([...known.keys()].sort()).toEqual([...ids].sort());
      expect(fake.requests.slice(calls).filter((r) => r.startsWith("GET /gmail/v1/users/me/threads?"))).toHaveLength(3);
      for (const id of ids) fake.reply(id, { text: "again" });
      calls = fake.requests.length;
      const changes = await collect(conn(cursor), known);
      expect(
        upserts(changes)
          .map((u) => u.itemKey)
          .sort(),
      ).toEqual([...ids].sort());
      expect(fake.requests.slice(calls).filter((r) => r.startsWith("GET /gmail/v1/users/me/history?"))).toHaveLength(3);
      expect(changes.at(-1)).toEqual({ kind: "cursor", cursor: String(fake.currentHistoryId) });
    } finally {
      fake.maxPageSize = 500;
    }
  });

  it("falls back to a full listing when the history expired, deleting what is gone and skipping what is unchanged", async () => {
    const keep = fake.addThread("Keep", { text: "stays" });
    const gone = fake.addThread("Gone", { text: "will vanish", attachments: [{ filename: "x.txt", mimeType: "text/plain", data: Buffer.from("x") }] });
    const known = new Map<string, ConnectionItem>();
    const cursor = apply(known, await collect(conn()));
    expect(known.size).toBe(3);
    fake.deleteThread(gone.threadId);
    const fresh = fake.addThread("Fresh", { text: "new while nobody looked" });
    fake.expireHistory();
    const before = fake.requests.length;
    const changes = await collect(conn(cursor), known);
    expect(summary(changes).sort()).toEqual(
      [
        `upsert:${fresh.threadId}`,
        `delete:${gone.threadId}`,
        `delete:${[...known.keys()].find((k) => k.includes("/att/"))}`,
        `cursor:${fake.currentHistoryId}`,
      ].sort(),
    );
    expect(changes.at(-1)!.kind).toBe("cursor");
    // The unchanged thread is not read again (its history id is the one imported).
    expect(fake.requests.slice(before).filter((r) => r.includes(`/threads/${keep.threadId}`))).toEqual([]);
  });

  it("refreshes an expired access token once and goes on; a revoked grant is auth_expired", async () => {
    fake.addThread("Tokens", { text: "refresh me" });
    fake.expireAccessTokens();
    const refreshed = refreshes;
    expect(upserts(await collect(conn()))).toHaveLength(1);
    expect(refreshes).toBe(refreshed + 1);
    fake.revoke();
    const err = await collect(conn()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).code).toBe("auth_expired");
  });

  it("waits out a 429 as Retry-After says, and reports a Gmail that stays down as provider_unavailable", async () => {
    const t = fake.addThread("Rate limits", { text: "slow down" });
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/gmail/v1/users/me/threads/" });
    const started = Date.now();
    const changes = await collect(conn());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(summary(upserts(changes))).toEqual([`upsert:${t.threadId}`]);
    expect(fake.requests.filter((r) => r.startsWith(`GET /gmail/v1/users/me/threads/${t.threadId}`))).toHaveLength(2);

    for (let i = 0; i < 4; i++) fake.failNext.push({ status: 503, headers: { "retry-after": "0" } });
    const err = await collect(conn()).catch((e: unknown) => e);
    expect((err as ConnectorError).code).toBe("provider_unavailable");
  });

  it("skips attachments over 50 MB with a reason, without downloading them", async () => {
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 1);
    const before = fake.requests.length;
    const t = fake.addThread("Huge", { text: "see attached", attachments: [{ filename: "video.mp4", mimeType: "video/mp4", data: big }] });
    const changes = await collect(conn());
    expect(summary(upserts(changes))).toEqual([`upsert:${t.threadId}`]);
    const failure = changes.find((c) => c.kind === "failure");
    expect(failure).toMatchObject({ itemKey: expect.stringContaining(`${t.threadId}/att/`), reason: expect.stringContaining("50 MB") });
    expect(fake.requests.slice(before).some((r) => r.includes("/attachments/"))).toBe(false);
  });

  describe("watch renewal", () => {
    const topic = "projects/engram-test/topics/gmail";
    const hook = { url: "https://engram.example.com/v3/connections/webhooks/gmail", secret: "unused" };

    it("does nothing without a topic (the schedule only)", async () => {
      const watches = fake.watches.length;
      expect(await connector.renew(conn(), { now: new Date(), webhook: hook })).toBeUndefined();
      expect(fake.watches.length).toBe(watches);
    });

    it("watches when no watch is known, keeps one that lasts, renews one ending within 48 hours, and stops it on unsubscribe", async () => {
      const watching = make({ topic });
      const t0 = new Date();
      const first = await watching.renew(conn(undefined, { label: "x" }), { now: t0, webhook: hook });
      expect(fake.watches.at(-1)).toMatchObject({ topicName: topic });
      expect(fake.watches.at(-1)!.labelIds).toBeUndefined();
      expect(first).toEqual({
        label: "x",
        watchTopic: topic,
        watchExpiration: new Date(fake.watches.at(-1)!.expiration).toISOString(),
        watchHistoryId: String(fake.currentHistoryId),
      });
      const count = fake.watches.length;
      const day = 86_400_000;
      expect(await watching.renew(conn(undefined, first), { now: new Date(t0.getTime() + day), webhook: hook })).toBeUndefined();
      expect(await watching.renew(conn(undefined, first), { now: new Date(t0.getTime() + 4.9 * day), webhook: hook })).toBeUndefined();
      expect(fake.watches.length).toBe(count);
      const renewed = await watching.renew(conn(undefined, first), { now: new Date(t0.getTime() + 5.5 * day), webhook: hook });
      expect(fake.watches.length).toBe(count + 1);
      expect(renewed!.watchExpiration).toEqual(expect.any(String));
      // Another topic configured: watched again at once.
      await make({ topic: "projects/engram-test/topics/other" }).renew(conn(undefined, renewed), { now: t0, webhook: hook });
      expect(fake.watches.at(-1)!.topicName).toBe("projects/engram-test/topics/other");

      const stops = fake.stops;
      await watching.unsubscribe(conn(undefined, renewed));
      expect(fake.stops).toBe(stops + 1);
      await watching.unsubscribe(conn());
      expect(fake.stops).toBe(stops + 1);
    });
  });

  describe("Pub/Sub push", () => {
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        const n: WebhookNotification = { headers, query: {}, body: Buffer.concat(chunks) };
        void pushed(n).then((r) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(r));
        });
      });
    });
    let url = "";
    let pushed: (n: WebhookNotification) => Promise<WebhookRoute>;
    const serviceAccountEmail = "gmail-push@engram-test.iam.gserviceaccount.com";
    beforeAll(async () => {
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v3/connections/webhooks/gmail`;
      const verifying = make({ audience: url, serviceAccountEmail });
      pushed = (n) => verifying.webhooks.route!(n);
    });
    afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
    const push = async (o: FakeGmailPushOptions = {}) => JSON.parse((await fake.push(url, o)).body) as WebhookRoute;

    it("verifies the OIDC token against the certificates at certsUrl and names the mailbox lower-cased", async () => {
      const certs = fake.certRequests;
      const route = await push({ messageId: "4242" });
      expect(route).toEqual({ kind: "accounts", accounts: ["ada.lovelace@example.com"], deliveryId: "4242" });
      expect(fake.certRequests).toBe(certs + (certs === 0 ? 1 : 0));
      expect(fake.certRequests).toBeGreaterThan(0);
    });

    it("refuses tampered, unsigned, foreign-signed, misaddressed, unverified and other accounts' tokens (401)", async () => {
      for (const o of [
        { tamper: true },
        { unsigned: true },
        { foreignKey: true },
        { audience: "https://elsewhere.example.com/push" },
        { emailVerified: false },
        { email: "intruder@evil-project.iam.gserviceaccount.com" },
      ])
        expect(await push(o)).toMatchObject({ kind: "reject", status: 401 });
    });

    it("refuses a body that is not a Pub/Sub push of a Gmail notification (400)", async () => {
      expect(await push({ body: "not json" })).toMatchObject({ kind: "reject", status: 400 });
      expect(await push({ body: JSON.stringify({ message: { data: Buffer.from("{}").toString("base64") } }) })).toMatchObject({ kind: "reject", status: 400 });
    });

    it("refuses every push (503) until both the audience and the push service account are configured, however well signed", async () => {
      const n: WebhookNotification = {
        headers: { authorization: `Bearer ${fake.idToken(url, { email: "other@p.iam.gserviceaccount.com" })}` },
        query: {},
        body: Buffer.from(
          JSON.stringify({ message: { data: Buffer.from(JSON.stringify({ emailAddress: "X@Y.com", historyId: 5 })).toString("base64"), messageId: "1" } }),
        ),
      };
      const noAccount = await make({ audience: url }).webhooks.route!(n);
      expect(noAccount).toMatchObject({ kind: "reject", status: 503 });
      expect(noAccount.kind === "reject" && noAccount.reason).toMatch(/GMAIL_PUSH_SERVICE_ACCOUNT/);
      const noAudience = await make({ serviceAccountEmail }).webhooks.route!(n);
      expect(noAudience).toMatchObject({ kind: "reject", status: 503 });
      expect(noAudience.kind === "reject" && noAudience.reason).toMatch(/GMAIL_PUSH_AUDIENCE/);
      expect(await make().webhooks.route!(n)).toMatchObject({ kind: "reject", status: 503 });
    });

    it("refuses notifications addressed to a connection's URL", async () => {
      expect(await connector.webhooks.read(conn(), { headers: {}, query: {}, body: Buffer.alloc(0) }, "s")).toEqual({
        kind: "reject",
        status: 400,
        reason: "Gmail notifications arrive through the Pub/Sub push URL",
      });
    });
  });
});
