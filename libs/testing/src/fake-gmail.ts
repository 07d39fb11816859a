/*
 * A fake of the parts of Google a Gmail connector uses, on 127.0.0.1 (node built-ins only):
 * - Google's OAuth web flow (the shared FakeOAuthServer at /o/oauth2/v2/auth and /token; refresh
 *   tokens do not rotate, as Google's do not);
 * - Gmail API v1 under /gmail/v1/users/me: the profile, labels, threads (list in pages, newest first,
 *   spam and trash left out unless includeSpamTrash; get with format=full and MIME payloads), message
 *   attachments, history (records with real, growing history ids; 404 for a start older than what is
 *   kept, after `expireHistory()`), watch and stop; Google's JSON error shape;
 * - Cloud Pub/Sub's authenticated push: `push(url)` POSTs a push envelope whose data is Gmail's
 *   notification ({ emailAddress, historyId }) with `Authorization: Bearer <OIDC token>`, an RS256 JWT
 *   signed with a key pair of this fake (`kid` header; iss https://accounts.google.com, aud, email,
 *   email_verified, iat, exp), and the certificates to check it with at /oauth2/v1/certs, as Google
 *   publishes them: a JSON map from key id to a PEM X.509 certificate (self-signed here; Node has no
 *   API that writes certificates, so the few DER fields are written below).
 * Messages carry text (and optionally HTML) bodies; replies quote the message they answer the way
 * Gmail does (an "On <date>, <sender> wrote:" line and `>` lines; a gmail_quote div in HTML). As in
 * Gmail, attachment ids differ on every read of a message (they are opaque handles, not identities).
 * Controls: `addThread`, `reply`, `addAttachment` (a new message carrying a file), `deleteMessage`,
 * `deleteThread`, `trashThread`, `maxPageSize`, `consentAs` (the next consents are another user's, whose mailbox is
 * empty), `failNext` (status and headers for the next Gmail request, by path
 * prefix when given), `expireHistory()`, `expireAccessTokens()`, `revoke()`, `issueTokens()`.
 * Logs: `requests`, `certRequests`, `watches`, `stops`, `refreshCount`.
 */
import { createSign, generateKeyPairSync, type KeyObject, randomBytes, sign as signData } from "node:crypto";
import http from "node:http";
import { FakeOAuthProvider } from "./fake-http-server";
import { FakeOAuthServer, readRequestBody } from "./fake-oauth";

type Reply = [status: number, body?: unknown, headers?: Record<string, string>];

export interface FakeGmailAttachment {
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface FakeGmailMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  /** Milliseconds since the epoch. */
  internalDate: number;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  /** The text/plain body (absent: HTML only). */
  text?: string;
  /** The text/html body (absent: plain text only). */
  html?: string;
  attachments: FakeGmailAttachment[];
  historyId: number;
}

export interface FakeGmailThread {
  id: string;
  messages: FakeGmailMessage[];
  historyId: number;
}

interface HistoryRecord {
  id: number;
  messages: { id: string; threadId: string }[];
  messagesAdded?: { message: { id: string; threadId: string; labelIds: string[] } }[];
  messagesDeleted?: { message: { id: string; threadId: string; labelIds: string[] } }[];
  labelsAdded?: { message: { id: string; threadId: string; labelIds: string[] }; labelIds: string[] }[];
  labelsRemoved?: { message: { id: string; threadId: string; labelIds: string[] }; labelIds: string[] }[];
}

export interface FakeGmailNewMessage {
  from?: string;
  to?: string[];
  cc?: string[];
  /** Plain text body; with `html: true` an HTML alternative is written from it. */
  text?: string;
  /** true: an HTML alternative of `text`; a string: that HTML (alone when `text` is absent). */
  html?: boolean | string;
  attachments?: FakeGmailAttachment[];
  labels?: string[];
}

export interface FakeGmailPushOptions {
  /** The payload is altered after signing. */
  tamper?: boolean;
  /** No Authorization header at all. */
  unsigned?: boolean;
  /** Signed by a key whose certificate Google does not publish. */
  foreignKey?: boolean;
  /** The token's email claim (default: the push service account). */
  email?: string;
  emailVerified?: boolean;
  /** The token's audience (default: the push URL, as Pub/Sub does). */
  audience?: string;
  /** The notification's mailbox (default: the account's address). */
  emailAddress?: string;
  messageId?: string;
  /** A raw body instead of a push envelope. */
  body?: string;
}

const SYSTEM_LABELS = ["INBOX", "SENT", "IMPORTANT", "STARRED", "UNREAD", "DRAFT", "SPAM", "TRASH", "CATEGORY_PERSONAL", "CATEGORY_UPDATES"];
const googleError = (code: number, message: string, status: string, reason = status.toLowerCase()): Reply => [
  code,
  { error: { code, message, errors: [{ message, domain: "global", reason }], status } },
];
const NOT_FOUND = googleError(404, "Requested entity was not found.", "NOT_FOUND", "notFound");
const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// --- a self-signed X.509 certificate in DER (the fields verifyIdToken's PEM path needs) ---
const derLength = (n: number) => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const der = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
const utcTime = (d: Date) => der(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-T:]/g, "")}Z`));
function selfSignedCertificate(publicKey: KeyObject, privateKey: KeyObject, commonName: string): string {
  const sha256WithRsa = der(0x30, der(0x06, Buffer.from("2a864886f70d01010b", "hex")), der(0x05));
  const name = der(0x30, der(0x31, der(0x30, der(0x06, Buffer.from("550403", "hex")), der(0x0c, Buffer.from(commonName)))));
  const serial = randomBytes(8);
  serial[0] = serial[0]! & 0x7f;
  const now = Date.now();
  const tbs = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    sha256WithRsa,
    name,
    der(0x30, utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 14 * 86_400_000))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
  );
  const signature = signData("sha256", tbs, privateKey);
  const cert = der(0x30, tbs, sha256WithRsa, der(0x03, Buffer.from([0]), signature));
  return `-----BEGIN CERTIFICATE-----\n${cert.toString("base64").replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`.replace(/\n\n/g, "\n");
}

export class FakeGmail extends FakeOAuthProvider {
  /** Google's OAuth side: hour-long access tokens, refresh tokens that do not rotate. */
  readonly oauth = new FakeOAuthServer({
    clientId: "1234567890-fake.apps.googleusercontent.com",
    clientSecret: "GOCSPX-fake-secret",
    tokenPrefix: "ya29",
    accessTokenTtlS: 3599,
    rotateRefreshTokens: false,
  });
  account = { emailAddress: "Ada.Lovelace@example.com" };
  /** The service account the Pub/Sub push subscription authenticates as. */
  serviceAccountEmail = "gmail-push@engram-test.iam.gserviceaccount.com";
  /** Most threads or history records per page, whatever maxResults asks (Gmail's caps are 500). */
  maxPageSize = 500;
  failNext: { status: number; headers?: Record<string, string>; pathPrefix?: string }[] = [];
  /** "METHOD /path?query" of each Gmail API request. */
  requests: string[] = [];
  /** Fetches of the signing certificates. */
  certRequests = 0;
  watches: { topicName: string; labelIds?: string[]; expiration: number; historyId: number }[] = [];
  stops = 0;
  readonly threads = new Map<string, FakeGmailThread>();
  private readonly history: HistoryRecord[] = [];
  private historyId = 1000;
  /** Starts older than this answer 404 (history expired). */
  private historyFloor = 0;
  private lastTime = 0;
  private nextId = 0x18c0_0000_0000;
  private readonly keys = [this.newKey(), this.newKey()];
  /** Access and refresh tokens of users other than `account` → their address. */
  private readonly tokenOwners = new Map<string, string>();
  private consentAddress: string | undefined;

  /** The mailbox's current history id. */
  get currentHistoryId(): number {
    return this.historyId;
  }

  /** The next consents are given as this user (an empty mailbox), or again as `account` (undefined). */
  consentAs(emailAddress: string | undefined): void {
    this.consentAddress = emailAddress;
  }
  /** Gmail no longer has the history before now: history.list from an older start answers 404. */
  expireHistory(): void {
    this.historyFloor = this.historyId;
  }

  /** A new thread of one message; returns its ids. */
  addThread(subject: string, m: FakeGmailNewMessage = {}): { threadId: string; messageId: string } {
    const threadId = this.newId();
    const thread: FakeGmailThread = { id: threadId, messages: [], historyId: 0 };
    this.threads.set(threadId, thread);
    const msg = this.addMessage(thread, subject, m, threadId);
    return { threadId, messageId: msg.id };
  }

  /** A reply in the thread quoting its last message, as a mail client writes it. */
  reply(threadId: string, m: FakeGmailNewMessage & { quote?: boolean } = {}): { messageId: string } {
    const thread = this.thread(threadId);
    const last = thread.messages.at(-1)!;
    const text = m.text ?? "";
    const quote = m.quote ?? true;
    const when = new Date(last.internalDate).toUTCString().replace(" GMT", "");
    const attribution = `On ${when}, ${last.from} wrote:`;
    const previousText = last.text ?? "";
    const withQuote = quote
      ? `${text}\n\n${attribution}\n${previousText
          .split("\n")
          .map((l) => (l.startsWith(">") ? `>${l}` : `> ${l}`))
          .join("\n")}\n`
      : text;
    const generated = m.html === true || (m.html === undefined && last.html !== undefined);
    const html =
      typeof m.html === "string"
        ? m.html
        : generated
          ? `<div dir="ltr">${escapeHtml(text).replace(/\n/g, "<br>")}</div>` +
            (quote
              ? `<br><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">${escapeHtml(attribution)}<br></div>` +
                `<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${last.html ?? escapeHtml(previousText)}</blockquote></div>`
              : "")
          : undefined;
    const msg = this.addMessage(thread, last.subject.startsWith("Re: ") ? last.subject : `Re: ${last.subject}`, {
      from: m.from ?? last.to[0],
      to: m.to ?? [last.from],
      cc: m.cc ?? last.cc,
      text: m.text === undefined && typeof m.html === "string" ? undefined : withQuote,
      html,
      attachments: m.attachments,
      labels: m.labels,
    });
    return { messageId: msg.id };
  }

  /** A new message in the thread carrying a file (Gmail messages never change: a file comes with a message). */
  addAttachment(threadId: string, attachment: FakeGmailAttachment, text = `Attached: ${attachment.filename}`): { messageId: string } {
    return this.reply(threadId, { text, attachments: [attachment], quote: false, html: false });
  }

  /** Deletes a message for good (not to the trash). */
  deleteMessage(messageId: string): void {
    for (const thread of this.threads.values()) {
      const i = thread.messages.findIndex((m) => m.id === messageId);
      if (i < 0) continue;
      const [msg] = thread.messages.splice(i, 1);
      const id = this.record({ messages: [{ id: msg!.id, threadId: thread.id }], messagesDeleted: [{ message: this.ref(msg!) }] });
      thread.historyId = id;
      if (thread.messages.length === 0) this.threads.delete(thread.id);
      return;
    }
    throw new Error(`no message ${messageId}`);
  }

  /** Deletes every message of the thread for good. */
  deleteThread(threadId: string): void {
    for (const m of [...this.thread(threadId).messages]) this.deleteMessage(m.id);
  }

  /** Moves every message of the thread to the trash. */
  trashThread(threadId: string): void {
    const thread = this.thread(threadId);
    for (const m of thread.messages) {
      m.labelIds = [...m.labelIds.filter((l) => l !== "INBOX"), "TRASH"];
      m.historyId = thread.historyId = this.record({
        messages: [{ id: m.id, threadId }],
        labelsAdded: [{ message: this.ref(m), labelIds: ["TRASH"] }],
        labelsRemoved: [{ message: this.ref(m), labelIds: ["INBOX"] }],
      });
    }
  }

  thread(threadId: string): FakeGmailThread {
    const t = this.threads.get(threadId);
    if (!t) throw new Error(`no thread ${threadId}`);
    return t;
  }

  /** The bearer token a Pub/Sub push subscription would send to `audience`. */
  idToken(audience: string, o: Pick<FakeGmailPushOptions, "email" | "emailVerified" | "foreignKey"> = {}): string {
    const key = o.foreignKey ? this.foreignKey : this.keys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: "RS256", kid: key.kid, typ: "JWT" };
    const claims = {
      aud: audience,
      azp: "113400123456789012345",
      email: o.email ?? this.serviceAccountEmail,
      email_verified: o.emailVerified ?? true,
      exp: now + 3600,
      iat: now,
      iss: "https://accounts.google.com",
      sub: "113400123456789012345",
    };
    const signed = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    return `${signed}.${createSign("RSA-SHA256").update(signed).sign(key.privateKey).toString("base64url")}`;
  }

  /** POSTs Gmail's notification of the mailbox's current history id as Pub/Sub pushes it; answers the response. */
  async push(url: string, o: FakeGmailPushOptions = {}): Promise<{ status: number; body: string; messageId: string }> {
    const messageId = o.messageId ?? String(BigInt(`0x${randomBytes(6).toString("hex")}`));
    const data = { emailAddress: o.emailAddress ?? this.account.emailAddress, historyId: this.historyId };
    const publishTime = new Date().toISOString();
    const envelope = {
      message: { data: Buffer.from(JSON.stringify(data)).toString("base64"), messageId, message_id: messageId, publishTime, publish_time: publishTime },
      subscription: "projects/engram-test/subscriptions/gmail-push",
    };
    let token = o.unsigned ? undefined : this.idToken(o.audience ?? url, o);
    if (token && o.tamper) {
      const [h, p, s] = token.split(".");
      const claims = JSON.parse(Buffer.from(p!, "base64url").toString("utf8")) as Record<string, unknown>;
      token = `${h}.${b64url(JSON.stringify({ ...claims, email: "someone-else@example.com" }))}.${s}`;
    }
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "APIs-Google", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: o.body ?? JSON.stringify(envelope),
    });
    return { status: res.status, body: await res.text(), messageId };
  }

  private readonly foreignKey = this.newKey();

  private newKey() {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return { kid: randomBytes(20).toString("hex"), privateKey, certificate: selfSignedCertificate(publicKey, privateKey, "fake-google-oauth2-certs") };
  }

  private newId(): string {
    return (this.nextId++).toString(16);
  }

  private ref(m: FakeGmailMessage) {
    return { id: m.id, threadId: m.threadId, labelIds: [...m.labelIds] };
  }

  private record(r: Omit<HistoryRecord, "id">): number {
    const id = ++this.historyId;
    this.history.push({ id, ...r });
    return id;
  }

  private addMessage(thread: FakeGmailThread, subject: string, m: FakeGmailNewMessage, id = this.newId()): FakeGmailMessage {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1000);
    const text = m.text ?? (typeof m.html === "string" ? undefined : "");
    const msg: FakeGmailMessage = {
      id,
      threadId: thread.id,
      labelIds: m.labels ?? ["INBOX", "UNREAD"],
      internalDate: this.lastTime,
      from: m.from ?? "Grace Hopper <grace@example.com>",
      to: m.to ?? [this.account.emailAddress],
      cc: m.cc ?? [],
      subject,
      text,
      html: typeof m.html === "string" ? m.html : m.html && text !== undefined ? `<div dir="ltr">${escapeHtml(text).replace(/\n/g, "<br>")}</div>` : undefined,
      attachments: m.attachments ?? [],
      historyId: 0,
    };
    thread.messages.push(msg);
    msg.historyId = thread.historyId = this.record({ messages: [{ id: msg.id, threadId: thread.id }], messagesAdded: [{ message: this.ref(msg) }] });
    return msg;
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    const method = req.method ?? "GET";
    const send = ([status, body, headers]: Reply) => {
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (url.pathname === "/o/oauth2/v2/auth" && method === "GET") return this.oauth.authorize(url.searchParams, res);
    if (url.pathname === "/token" && method === "POST") {
      const body = await readRequestBody(req);
      const reply = this.oauth.token(req, body);
      if (reply[0] === 200) this.bindTokens(body, reply[1] as { access_token?: string; refresh_token?: string });
      return send(reply);
    }
    if (url.pathname === "/oauth2/v1/certs" && method === "GET") {
      this.certRequests++;
      return send([
        200,
        Object.fromEntries(this.keys.map((k) => [k.kid, k.certificate])),
        { "cache-control": "public, max-age=300, must-revalidate, no-transform" },
      ]);
    }
    if (!url.pathname.startsWith("/gmail/v1/")) return send(NOT_FOUND);
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    const i = this.failNext.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (i >= 0) {
      const [fail] = this.failNext.splice(i, 1);
      const status = fail!.status;
      const reply =
        status === 429
          ? googleError(429, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED", "rateLimitExceeded")
          : googleError(status, http.STATUS_CODES[status] ?? "Failure", status >= 500 ? "UNAVAILABLE" : "FAILED_PRECONDITION", "backendError");
      return send([reply[0], reply[1], fail!.headers]);
    }
    const token = this.oauth.bearer(req);
    if (!token)
      return send(
        googleError(
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          "UNAUTHENTICATED",
          "authError",
        ),
      );
    const owner = this.tokenOwners.get(token);
    if (owner !== undefined && owner.toLowerCase() !== this.account.emailAddress.toLowerCase()) return send(this.emptyMailbox(owner, method, url));
    send(this.gmail(method, url, await readRequestBody(req)));
  }

  /** Tokens of a consent given as another user (`consentAs`), and those refreshed from them, read that user's mailbox. */
  private bindTokens(body: Buffer, issued: { access_token?: string; refresh_token?: string }) {
    const form = new URLSearchParams(body.toString("utf8"));
    const owner = form.get("grant_type") === "refresh_token" ? this.tokenOwners.get(form.get("refresh_token") ?? "") : this.consentAddress;
    if (owner === undefined) return;
    for (const t of [issued.access_token, issued.refresh_token]) if (t) this.tokenOwners.set(t, owner);
  }

  /** Another user's mailbox: empty, with the same history ids. */
  private emptyMailbox(emailAddress: string, method: string, url: URL): Reply {
    const p = url.pathname.replace(/^\/gmail\/v1\/users\/me\//, "");
    const historyId = String(this.historyId);
    if (method === "GET" && p === "profile") return [200, { emailAddress, messagesTotal: 0, threadsTotal: 0, historyId }];
    if (method === "GET" && p === "labels") return [200, { labels: SYSTEM_LABELS.map((id) => ({ id, name: id, type: "system" })) }];
    if (method === "GET" && p === "threads") return [200, { resultSizeEstimate: 0 }];
    if (method === "GET" && p === "history") return [200, { historyId }];
    if (method === "POST" && p === "watch") return [200, { historyId, expiration: String(Date.now() + 7 * 86_400_000) }];
    if (method === "POST" && p === "stop") {
      this.stops++;
      return [204];
    }
    return NOT_FOUND;
  }

  private gmail(method: string, url: URL, body: Buffer): Reply {
    const m = /^\/gmail\/v1\/users\/([^/]+)\/(.*)$/.exec(url.pathname);
    if (!m) return NOT_FOUND;
    const user = decodeURIComponent(m[1]!);
    if (user !== "me" && user.toLowerCase() !== this.account.emailAddress.toLowerCase())
      return googleError(403, "Delegation denied for the requested user", "PERMISSION_DENIED", "forbidden");
    const p = m[2]!;
    const q = url.searchParams;
    if (method === "GET" && p === "profile") {
      const messagesTotal = [...this.threads.values()].reduce((n, t) => n + t.messages.length, 0);
      return [200, { emailAddress: this.account.emailAddress, messagesTotal, threadsTotal: this.threads.size, historyId: String(this.historyId) }];
    }
    if (method === "GET" && p === "labels")
      return [200, { labels: [...SYSTEM_LABELS.map((id) => ({ id, name: id, type: "system" })), { id: "Label_1", name: "Projects/Engram", type: "user" }] }];
    if (method === "GET" && p === "threads") return this.listThreads(q);
    let r = /^threads\/([^/]+)$/.exec(p);
    if (method === "GET" && r) {
      const t = this.threads.get(decodeURIComponent(r[1]!));
      if (!t) return NOT_FOUND;
      return [200, { id: t.id, historyId: String(t.historyId), messages: t.messages.map((msg) => this.messageJson(msg, q.get("format") ?? "full")) }];
    }
    r = /^messages\/([^/]+)\/attachments\/([^/]+)$/.exec(p);
    if (method === "GET" && r) return this.attachment(decodeURIComponent(r[1]!), decodeURIComponent(r[2]!));
    if (method === "GET" && p === "history") return this.listHistory(q);
    if (method === "POST" && p === "watch") {
      let input: { topicName?: string; labelIds?: string[] };
      try {
        input = JSON.parse(body.toString("utf8") || "{}") as typeof input;
      } catch {
        return googleError(400, "Invalid JSON payload received.", "INVALID_ARGUMENT", "badRequest");
      }
      if (!input.topicName || !/^projects\/[^/]+\/topics\/[^/]+$/.test(input.topicName))
        return googleError(400, "Invalid topicName does not match projects/PROJECT_ID/topics/TOPIC_ID", "INVALID_ARGUMENT", "invalidArgument");
      const expiration = Date.now() + 7 * 86_400_000;
      this.watches.push({ topicName: input.topicName, ...(input.labelIds ? { labelIds: input.labelIds } : {}), expiration, historyId: this.historyId });
      return [200, { historyId: String(this.historyId), expiration: String(expiration) }];
    }
    if (method === "POST" && p === "stop") {
      this.stops++;
      return [204];
    }
    return NOT_FOUND;
  }

  private listThreads(q: URLSearchParams): Reply {
    const includeSpamTrash = q.get("includeSpamTrash") === "true";
    const maxResults = Math.min(Math.max(Number(q.get("maxResults")) || 100, 1), 500, this.maxPageSize);
    const offset = Number(q.get("pageToken") ?? 0) || 0;
    const visible = [...this.threads.values()]
      .filter((t) => includeSpamTrash || t.messages.some((m) => !m.labelIds.includes("SPAM") && !m.labelIds.includes("TRASH")))
      .sort((a, b) => b.messages.at(-1)!.internalDate - a.messages.at(-1)!.internalDate);
    const page = visible.slice(offset, offset + maxResults);
    const next = offset + maxResults < visible.length ? { nextPageToken: String(offset + maxResults) } : {};
    if (page.length === 0) return [200, { resultSizeEstimate: 0 }];
    return [
      200,
      {
        threads: page.map((t) => ({ id: t.id, snippet: this.snippet(t.messages.at(-1)!), historyId: String(t.historyId) })),
        ...next,
        resultSizeEstimate: visible.length,
      },
    ];
  }

  private listHistory(q: URLSearchParams): Reply {
    const start = Number(q.get("startHistoryId"));
    if (!q.get("startHistoryId") || !Number.isFinite(start)) return googleError(400, "Invalid startHistoryId", "INVALID_ARGUMENT", "invalidArgument");
    if (start < this.historyFloor || start > this.historyId) return NOT_FOUND;
    const types = q.getAll("historyTypes");
    const wanted = (r: HistoryRecord) =>
      types.length === 0 ||
      (types.includes("messageAdded") && r.messagesAdded) ||
      (types.includes("messageDeleted") && r.messagesDeleted) ||
      (types.includes("labelAdded") && r.labelsAdded) ||
      (types.includes("labelRemoved") && r.labelsRemoved);
    const all = this.history.filter((r) => r.id > start && wanted(r));
    const maxResults = Math.min(Math.max(Number(q.get("maxResults")) || 100, 1), 500, this.maxPageSize);
    const offset = Number(q.get("pageToken") ?? 0) || 0;
    const page = all.slice(offset, offset + maxResults).map((r) => ({ ...r, id: String(r.id) }));
    const next = offset + maxResults < all.length ? { nextPageToken: String(offset + maxResults) } : {};
    return [200, { ...(page.length ? { history: page } : {}), ...next, historyId: String(this.historyId) }];
  }

  private attachment(messageId: string, attachmentId: string): Reply {
    let handle: string[];
    try {
      handle = Buffer.from(attachmentId, "base64url").toString("utf8").split(":");
    } catch {
      return googleError(400, "Invalid attachment token", "INVALID_ARGUMENT", "invalidArgument");
    }
    const msg = [...this.threads.values()].flatMap((t) => t.messages).find((x) => x.id === messageId);
    if (!msg) return NOT_FOUND;
    if (handle[0] !== messageId) return googleError(400, "Invalid attachment token", "INVALID_ARGUMENT", "invalidArgument");
    const att = msg.attachments[Number(handle[1])];
    if (!att) return NOT_FOUND;
    return [200, { size: att.data.length, data: att.data.toString("base64url") }];
  }

  private snippet(m: FakeGmailMessage): string {
    return (m.text ?? m.html?.replace(/<[^>]+>/g, " ") ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  }

  /** A message resource with its MIME tree, as format=full answers it. */
  private messageJson(m: FakeGmailMessage, format: string) {
    const date = new Date(m.internalDate).toUTCString().replace("GMT", "+0000");
    const headers = [
      { name: "MIME-Version", value: "1.0" },
      { name: "Date", value: date },
      { name: "Message-ID", value: `<${m.id}@mail.example.com>` },
      { name: "Subject", value: m.subject },
      { name: "From", value: m.from },
      { name: "To", value: m.to.join(", ") },
      ...(m.cc.length ? [{ name: "Cc", value: m.cc.join(", ") }] : []),
    ];
    const leaf = (partId: string, mimeType: string, text: string) => ({
      partId,
      mimeType,
      filename: "",
      headers: [
        { name: "Content-Type", value: `${mimeType}; charset="UTF-8"` },
        { name: "Content-Transfer-Encoding", value: "quoted-printable" },
      ],
      body: { size: Buffer.byteLength(text), data: b64url(text) },
    });
    const bodyPart = (prefix: string) => {
      const pid = (n: number) => (prefix === "" ? String(n) : `${prefix}.${n}`);
      if (m.text !== undefined && m.html !== undefined) {
        const boundary = randomBytes(8).toString("hex");
        return {
          partId: prefix,
          mimeType: "multipart/alternative",
          filename: "",
          headers: [{ name: "Content-Type", value: `multipart/alternative; boundary="${boundary}"` }],
          body: { size: 0 },
          parts: [leaf(pid(0), "text/plain", m.text), leaf(pid(1), "text/html", m.html)],
        };
      }
      return m.html !== undefined ? leaf(prefix, "text/html", m.html) : leaf(prefix, "text/plain", m.text ?? "");
    };
    let payload: Record<string, unknown>;
    if (m.attachments.length === 0) {
      const part = bodyPart("");
      payload = { ...part, headers: [...headers, ...(part.headers as unknown[])] };
    } else {
      const boundary = randomBytes(8).toString("hex");
      payload = {
        partId: "",
        mimeType: "multipart/mixed",
        filename: "",
        headers: [...headers, { name: "Content-Type", value: `multipart/mixed; boundary="${boundary}"` }],
        body: { size: 0 },
        parts: [
          bodyPart("0"),
          ...m.attachments.map((a, i) => ({
            partId: String(i + 1),
            mimeType: a.mimeType,
            filename: a.filename,
            headers: [
              { name: "Content-Type", value: `${a.mimeType}; name="${a.filename}"` },
              { name: "Content-Disposition", value: `attachment; filename="${a.filename}"` },
              { name: "Content-Transfer-Encoding", value: "base64" },
            ],
            // An opaque handle that differs on every read, as Gmail's do.
            body: { attachmentId: b64url(`${m.id}:${i}:${randomBytes(12).toString("hex")}`), size: a.data.length },
          })),
        ],
      };
    }
    const base = {
      id: m.id,
      threadId: m.threadId,
      labelIds: m.labelIds,
      snippet: this.snippet(m),
      historyId: String(m.historyId),
      internalDate: String(m.internalDate),
      sizeEstimate: 1000 + m.attachments.reduce((n, a) => n + a.data.length, 0),
    };
    if (format === "minimal") return base;
    if (format === "metadata") return { ...base, payload: { partId: "", mimeType: payload.mimeType, filename: "", headers, body: { size: 0 } } };
    return { ...base, payload };
  }
}
