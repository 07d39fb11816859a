/*
 * A fake of the parts of Google a Google Drive connector uses, on 127.0.0.1 (node built-ins only):
 * - Google's OAuth endpoints (FakeOAuthServer): GET /o/oauth2/v2/auth and POST /token; refresh tokens do
 *   not rotate, as at Google;
 * - Drive v3 REST under /drive/v3 with `Bearer` auth: about, files.list (corpora, shared drives only with
 *   supportsAllDrives + includeItemsFromAllDrives, `trashed = false`, pages), files.get (metadata or
 *   alt=media; Google formats are not downloadable), files.export (Docs → text/markdown or text/plain,
 *   Sheets → xlsx (a real workbook, every sheet) or text/csv (first sheet), Slides → text/plain; 403
 *   exportSizeLimitExceeded over `exportLimitBytes`), changes.getStartPageToken, changes.list (a change
 *   log, one entry per file at its latest state, pages), changes.watch and channels.stop.
 * Errors use Google's JSON shape `{ error: { code, message, errors: [{ reason, location }] } }`.
 * Controls: `addFile` / `addDoc` / `addSheet` / `addSlides` / `addFolder`, `modifyFile`, `trashFile`,
 * `deleteFile`, `removeDrive` (the account loses a shared drive), `failNext` (status, headers such as
 * Retry-After, by path prefix), `expirePageTokens()`, `expireAccessTokens()`, `revoke()`, `markdownExport`
 * (false: Docs refuse text/markdown), `pageSizeCap`, and `notify()` (a channel notification POSTed like
 * Google's, the channel token echoed). Logs: `requests`, `channels`, `oauth.tokenRequests`, `oauth.refreshCount`.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { FakeOAuthProvider } from "./fake-http-server";
import { FakeOAuthServer, readRequestBody } from "./fake-oauth";

type Reply = [status: number, body?: unknown, headers?: Record<string, string>];

export const GOOGLE_DOC = "application/vnd.google-apps.document";
export const GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet";
export const GOOGLE_SLIDES = "application/vnd.google-apps.presentation";
export const GOOGLE_FOLDER = "application/vnd.google-apps.folder";
export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  /** Bytes of a stored file; the text of a Doc (markdown) or of Slides. */
  content: Buffer;
  /** A Sheet's cells, sheet name → rows. */
  sheets?: Record<string, string[][]>;
  trashed: boolean;
  driveId?: string;
  modifiedTime: string;
  version: number;
  /** Declared size, when it should differ from the content's (a huge file without huge bytes). */
  declaredSize?: number;
}

export interface FakeDriveChannel {
  id: string;
  resourceId: string;
  address: string;
  token?: string;
  expiration: number;
  stopped: boolean;
  messageNumber: number;
}

interface LogEntry {
  seq: number;
  time: string;
  changeType: "file" | "drive";
  fileId?: string;
  driveId?: string;
  removed: boolean;
}

const isGoogleFormat = (m: string) => m.startsWith("application/vnd.google-apps.");
const gerror = (code: number, message: string, reason: string, extra: Record<string, string> = {}): Reply => [
  code,
  { error: { code, message, errors: [{ domain: "global", reason, message, ...extra }] } },
];
const NOT_FOUND = (id: string): Reply => gerror(404, `File not found: ${id}.`, "notFound", { locationType: "parameter", location: "fileId" });

export class FakeGoogleDrive extends FakeOAuthProvider {
  readonly oauth = new FakeOAuthServer({
    clientId: "engram-test.apps.googleusercontent.com",
    clientSecret: "google-client-secret",
    tokenPrefix: "ya29",
    rotateRefreshTokens: false,
  });
  account = { emailAddress: "ada@example.com", displayName: "Ada Lovelace", permissionId: "04761234567890123456" };
  /** "METHOD /path?query" of each Drive request. */
  requests: string[] = [];
  failNext: { status: number; headers?: Record<string, string>; reason?: string; pathPrefix?: string }[] = [];
  /** Largest export Google makes. */
  exportLimitBytes = 10 * 1024 * 1024;
  /** false: Docs refuse text/markdown (older API behaviour), plain text still works. */
  markdownExport = true;
  /** Caps every page size (forces paging in tests). */
  pageSizeCap = 1000;
  /** Status answered for a page token issued before `expirePageTokens` (400 names the pageToken parameter). */
  expiredTokenStatus = 400;
  /** Sends the `sync` message to a new channel's address, as Google does. */
  sendSyncOnWatch = true;
  readonly files = new Map<string, FakeDriveFile>();
  readonly channels: FakeDriveChannel[] = [];
  /** Answers of the notifications sent (sync messages included). */
  notifications: { channelId: string; state: string; status: number }[] = [];
  private log: LogEntry[] = [];
  private generation = 1;
  private lastTime = 0;

  /** Every page token issued so far becomes invalid (changes.list answers `expiredTokenStatus`). */
  expirePageTokens(status?: number): void {
    if (status !== undefined) this.expiredTokenStatus = status;
    this.generation++;
  }

  addFile(p: {
    name: string;
    mimeType?: string;
    content?: string | Buffer;
    driveId?: string;
    size?: number;
    sheets?: Record<string, string[][]>;
  }): FakeDriveFile {
    const f: FakeDriveFile = {
      id: randomBytes(16).toString("base64url"),
      name: p.name,
      mimeType: p.mimeType ?? "text/plain",
      content: Buffer.from(p.content ?? ""),
      ...(p.sheets ? { sheets: p.sheets } : {}),
      trashed: false,
      ...(p.driveId ? { driveId: p.driveId } : {}),
      modifiedTime: this.now(),
      version: 1,
      ...(p.size !== undefined ? { declaredSize: p.size } : {}),
    };
    this.files.set(f.id, f);
    this.record({ changeType: "file", fileId: f.id, removed: false });
    return f;
  }

  addDoc(name: string, markdown: string, opts: { driveId?: string } = {}): FakeDriveFile {
    return this.addFile({ name, mimeType: GOOGLE_DOC, content: markdown, ...opts });
  }

  addSheet(name: string, sheets: Record<string, string[][]>, opts: { driveId?: string } = {}): FakeDriveFile {
    return this.addFile({ name, mimeType: GOOGLE_SHEET, sheets, ...opts });
  }

  addSlides(name: string, text: string, opts: { driveId?: string } = {}): FakeDriveFile {
    return this.addFile({ name, mimeType: GOOGLE_SLIDES, content: text, ...opts });
  }

  addFolder(name: string): FakeDriveFile {
    return this.addFile({ name, mimeType: GOOGLE_FOLDER });
  }

  modifyFile(id: string, p: { content?: string | Buffer; name?: string; sheets?: Record<string, string[][]> }): FakeDriveFile {
    const f = this.file(id);
    if (p.content !== undefined) f.content = Buffer.from(p.content);
    if (p.name !== undefined) f.name = p.name;
    if (p.sheets !== undefined) f.sheets = p.sheets;
    f.modifiedTime = this.now();
    f.version++;
    this.record({ changeType: "file", fileId: id, removed: false });
    return f;
  }

  trashFile(id: string): void {
    const f = this.file(id);
    f.trashed = true;
    f.version++;
    this.record({ changeType: "file", fileId: id, removed: false });
  }

  /** Deleted for good (or unshared): the change feed reports it removed. */
  deleteFile(id: string): void {
    this.file(id);
    this.files.delete(id);
    this.record({ changeType: "file", fileId: id, removed: true });
  }

  /** The account loses a shared drive: its files disappear with one `drive` change (none per file). */
  removeDrive(driveId: string): void {
    for (const [id, f] of this.files) if (f.driveId === driveId) this.files.delete(id);
    this.record({ changeType: "drive", driveId, removed: true });
  }

  file(id: string): FakeDriveFile {
    const f = this.files.get(id);
    if (!f) throw new Error(`no file ${id}`);
    return f;
  }

  /** The open channel (the newest not stopped nor expired). */
  activeChannel(): FakeDriveChannel | undefined {
    return this.channels.filter((c) => !c.stopped && c.expiration > Date.now()).at(-1);
  }

  /** POSTs a notification to a channel's address as Google does (no body; the channel's token echoed unless `token` says otherwise). */
  async notify(
    channel: FakeDriveChannel | undefined = this.activeChannel(),
    opts: { state?: string; token?: string; channelId?: string } = {},
  ): Promise<{ status: number; body: string }> {
    if (!channel) throw new Error("no open channel");
    const state = opts.state ?? "change";
    channel.messageNumber++;
    const token = opts.token ?? channel.token;
    const headers: Record<string, string> = {
      "x-goog-channel-id": opts.channelId ?? channel.id,
      "x-goog-channel-expiration": new Date(channel.expiration).toUTCString(),
      "x-goog-resource-id": channel.resourceId,
      "x-goog-resource-uri": `${this.base}/drive/v3/changes?alt=json&includeItemsFromAllDrives=true&supportsAllDrives=true`,
      "x-goog-resource-state": state,
      "x-goog-message-number": String(channel.messageNumber),
      ...(token !== undefined ? { "x-goog-channel-token": token } : {}),
    };
    const res = await fetch(channel.address, { method: "POST", headers });
    const out = { status: res.status, body: await res.text() };
    this.notifications.push({ channelId: channel.id, state, status: out.status });
    return out;
  }

  /** A Sheet's xlsx export: a real workbook (zip of SpreadsheetML parts), one worksheet per sheet. */
  static xlsx(sheets: Record<string, string[][]>): Buffer {
    const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    const col = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : col(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));
    const names = Object.keys(sheets);
    const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
    const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    const parts: [string, string][] = [
      [
        "[Content_Types].xml",
        `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${names
          .map(
            (_, i) =>
              `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join("")}</Types>`,
      ],
      [
        "_rels/.rels",
        `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ],
      [
        "xl/workbook.xml",
        `${xml}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets>${names.map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
      ],
      [
        "xl/_rels/workbook.xml.rels",
        `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
          .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
          .join("")}</Relationships>`,
      ],
      ...names.map((n, i): [string, string] => [
        `xl/worksheets/sheet${i + 1}.xml`,
        `${xml}<worksheet xmlns="${main}"><sheetData>${sheets[n]!.map(
          (row, r) =>
            `<row r="${r + 1}">${row.map((v, c) => `<c r="${col(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${esc(v)}</t></is></c>`).join("")}</row>`,
        ).join("")}</sheetData></worksheet>`,
      ]),
    ];
    return zip(parts.map(([name, text]) => [name, Buffer.from(text, "utf8")]));
  }

  private now(): string {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }

  private record(e: Omit<LogEntry, "seq" | "time">): void {
    this.log.push({ ...e, seq: this.log.length + 1, time: this.now() });
  }

  private startToken(): string {
    return `${this.generation}.${this.log.length + 1}`;
  }

  private fileJson(f: FakeDriveFile) {
    const google = isGoogleFormat(f.mimeType);
    const kind = f.mimeType === GOOGLE_DOC ? "document" : f.mimeType === GOOGLE_SHEET ? "spreadsheets" : f.mimeType === GOOGLE_SLIDES ? "presentation" : "";
    return {
      kind: "drive#file",
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      trashed: f.trashed,
      modifiedTime: f.modifiedTime,
      version: String(f.version),
      webViewLink: kind ? `https://docs.google.com/${kind}/d/${f.id}/edit?usp=drivesdk` : `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`,
      ...(f.driveId ? { driveId: f.driveId } : {}),
      ...(google ? {} : { size: String(f.declaredSize ?? f.content.length), md5Checksum: createHash("md5").update(f.content).digest("hex") }),
    };
  }

  /** Whether a request may see the file: shared-drive items only with supportsAllDrives (and includeItemsFromAllDrives for lists). */
  private visible(f: FakeDriveFile, q: URLSearchParams, list: boolean): boolean {
    if (!f.driveId) return true;
    if (q.get("supportsAllDrives") !== "true") return false;
    return !list || q.get("includeItemsFromAllDrives") === "true";
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    const method = req.method ?? "GET";
    const send = ([status, body, headers]: Reply) => {
      const raw = Buffer.isBuffer(body);
      res.writeHead(status, { ...(raw ? {} : { "content-type": "application/json; charset=UTF-8" }), ...headers });
      res.end(body === undefined ? undefined : raw ? body : JSON.stringify(body));
    };
    if (url.pathname === "/o/oauth2/v2/auth" && method === "GET") return this.oauth.authorize(url.searchParams, res);
    if (url.pathname === "/token" && method === "POST") {
      const [status, body, headers] = this.oauth.token(req, await readRequestBody(req));
      return send([status, body, headers]);
    }
    if (!url.pathname.startsWith("/drive/v3/")) return send([404, { error: { code: 404, message: "Not Found" } }]);
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    const i = this.failNext.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (i >= 0) {
      const [fail] = this.failNext.splice(i, 1);
      const reason = fail!.reason ?? (fail!.status === 429 ? "rateLimitExceeded" : fail!.status >= 500 ? "backendError" : "failed");
      const [status, body] = gerror(fail!.status, http.STATUS_CODES[fail!.status] ?? "Failure", reason);
      return send([status, body, fail!.headers]);
    }
    if (!this.oauth.bearer(req))
      return send(
        gerror(401, "Request had invalid authentication credentials. Expected OAuth 2 access token.", "authError", {
          locationType: "header",
          location: "Authorization",
        }),
      );
    const body = method === "POST" ? (await readRequestBody(req)).toString("utf8") : "";
    send(this.drive(method, url.pathname.slice("/drive/v3".length), url.searchParams, body));
  }

  private drive(method: string, p: string, q: URLSearchParams, body: string): Reply {
    if (method === "GET" && p === "/about") return [200, { kind: "drive#about", user: { kind: "drive#user", ...this.account, me: true } }];
    if (method === "GET" && p === "/changes/startPageToken") return [200, { kind: "drive#startPageToken", startPageToken: this.startToken() }];
    if (method === "GET" && p === "/changes") return this.listChanges(q);
    if (method === "POST" && p === "/changes/watch") return this.watch(q, body);
    if (method === "POST" && p === "/channels/stop") {
      const { id, resourceId } = JSON.parse(body || "{}") as { id?: string; resourceId?: string };
      const c = this.channels.find((x) => x.id === id && x.resourceId === resourceId && !x.stopped);
      if (!c) return gerror(404, `Channel '${id}' not found for project`, "notFound");
      c.stopped = true;
      return [204];
    }
    if (method === "GET" && p === "/files") return this.listFiles(q);
    const m = /^\/files\/([^/]+)(\/export)?$/.exec(p);
    if (method !== "GET" || !m) return [404, { error: { code: 404, message: "Not Found" } }];
    const id = decodeURIComponent(m[1]!);
    const f = this.files.get(id);
    // files.export has no supportsAllDrives parameter: it reads shared-drive files as they are.
    if (!f || (!m[2] && !this.visible(f, q, false))) return NOT_FOUND(id);
    if (m[2]) return this.export(f, q.get("mimeType") ?? "");
    if (q.get("alt") !== "media") return [200, this.fileJson(f)];
    if (isGoogleFormat(f.mimeType))
      return gerror(403, "Only files with binary content can be downloaded. Use Export with Docs Editors files.", "fileNotDownloadable", {
        locationType: "parameter",
        location: "alt",
      });
    return [200, f.content, { "content-type": f.mimeType, "content-length": String(f.content.length) }];
  }

  private export(f: FakeDriveFile, mimeType: string): Reply {
    let out: Buffer | undefined;
    if (f.mimeType === GOOGLE_DOC && mimeType === "text/markdown" && this.markdownExport) out = f.content;
    else if (f.mimeType === GOOGLE_DOC && mimeType === "text/plain")
      out = Buffer.from(
        f.content
          .toString("utf8")
          .replace(/^#+\s*/gm, "")
          .replace(/[*_`]/g, ""),
        "utf8",
      );
    else if (f.mimeType === GOOGLE_SHEET && mimeType === XLSX_MIME) out = FakeGoogleDrive.xlsx(f.sheets ?? { Sheet1: [] });
    else if (f.mimeType === GOOGLE_SHEET && mimeType === "text/csv")
      out = Buffer.from((Object.values(f.sheets ?? {})[0] ?? []).map((r) => r.join(",")).join("\n"), "utf8");
    else if (f.mimeType === GOOGLE_SLIDES && mimeType === "text/plain") out = f.content;
    if (!isGoogleFormat(f.mimeType)) return gerror(403, "Export only supports Docs Editors files.", "fileNotExportable");
    if (!out) return gerror(400, "The requested conversion is not supported.", "badRequest", { locationType: "parameter", location: "mimeType" });
    if (out.length > this.exportLimitBytes) return gerror(403, "This file is too large to be exported.", "exportSizeLimitExceeded");
    return [200, out, { "content-type": mimeType }];
  }

  private pageSize(q: URLSearchParams, fallback: number): number {
    return Math.max(1, Math.min(Number(q.get("pageSize")) || fallback, 1000, this.pageSizeCap));
  }

  private listFiles(q: URLSearchParams): Reply {
    const query = q.get("q") ?? "";
    const all = [...this.files.values()]
      .filter((f) => this.visible(f, q, true) && (!/trashed\s*=\s*false/.test(query) || !f.trashed))
      .filter((f) => !f.driveId || ["allDrives", "drive"].includes(q.get("corpora") ?? "user"))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const offset = Number(/^L(\d+)$/.exec(q.get("pageToken") ?? "")?.[1] ?? 0);
    const size = this.pageSize(q, 100);
    const files = all.slice(offset, offset + size).map((f) => this.fileJson(f));
    const next = offset + size < all.length ? { nextPageToken: `L${offset + size}` } : {};
    return [200, { kind: "drive#fileList", incompleteSearch: false, files, ...next }];
  }

  private tokenSeq(token: string | null): number | Reply {
    const m = /^(\d+)\.(\d+)$/.exec(token ?? "");
    if (!m || Number(m[1]) !== this.generation || Number(m[2]) > this.log.length + 1) {
      const status = this.expiredTokenStatus;
      return status === 400
        ? gerror(400, "Invalid Value", "invalid", { locationType: "parameter", location: "pageToken" })
        : gerror(status, "The page token is no longer valid.", status === 404 ? "notFound" : "gone", { locationType: "parameter", location: "pageToken" });
    }
    return Number(m[2]);
  }

  private listChanges(q: URLSearchParams): Reply {
    const seq = this.tokenSeq(q.get("pageToken"));
    if (typeof seq !== "number") return seq;
    const allDrives = q.get("supportsAllDrives") === "true" && q.get("includeItemsFromAllDrives") === "true";
    const tail = this.log.filter((e) => e.seq >= seq);
    // One change per file (or drive): its latest.
    const latest = tail.filter((e, i) => !tail.slice(i + 1).some((l) => (l.fileId ?? l.driveId) === (e.fileId ?? e.driveId) && l.changeType === e.changeType));
    const size = this.pageSize(q, 100);
    const page = latest.slice(0, size);
    const changes = page.flatMap((e): object[] => {
      if (e.changeType === "drive")
        return allDrives ? [{ kind: "drive#change", changeType: "drive", time: e.time, removed: e.removed, driveId: e.driveId }] : [];
      const f = e.fileId ? this.files.get(e.fileId) : undefined;
      if (f && f.driveId && !allDrives) return [];
      return [
        {
          kind: "drive#change",
          changeType: "file",
          time: e.time,
          removed: e.removed || !f,
          fileId: e.fileId,
          ...(f && !e.removed ? { file: this.fileJson(f) } : {}),
        },
      ];
    });
    const more = latest.length > size ? { nextPageToken: `${this.generation}.${latest[size]!.seq}` } : { newStartPageToken: this.startToken() };
    return [200, { kind: "drive#changeList", changes, ...more }];
  }

  private watch(q: URLSearchParams, body: string): Reply {
    const seq = this.tokenSeq(q.get("pageToken"));
    if (typeof seq !== "number") return seq;
    const input = JSON.parse(body || "{}") as { id?: string; type?: string; address?: string; token?: string; expiration?: string };
    if (!input.id || input.type !== "web_hook" || !input.address || !URL.canParse(input.address))
      return gerror(400, "Invalid channel: id, type web_hook and address are required", "invalid");
    if (this.channels.some((c) => c.id === input.id)) return gerror(400, `Channel id ${input.id} not unique`, "channelIdNotUnique");
    const max = Date.now() + 7 * 24 * 3_600_000;
    const expiration = Math.min(Number(input.expiration) || Date.now() + 3_600_000, max);
    const channel: FakeDriveChannel = {
      id: input.id,
      resourceId: randomBytes(12).toString("base64url"),
      address: input.address,
      ...(input.token !== undefined ? { token: input.token } : {}),
      expiration,
      stopped: false,
      messageNumber: 0,
    };
    this.channels.push(channel);
    if (this.sendSyncOnWatch) setTimeout(() => void this.notify(channel, { state: "sync" }).catch(() => undefined), 50);
    return [
      200,
      {
        kind: "api#channel",
        id: channel.id,
        resourceId: channel.resourceId,
        resourceUri: `${this.base}/drive/v3/changes?alt=json&pageToken=${q.get("pageToken")}`,
        expiration: String(expiration),
      },
    ];
  }
}

/** A zip archive of stored (uncompressed) entries. */
function zip(entries: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name, "utf8");
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(33, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(33, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += local.length + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
