/*
 * A fake of the parts of Microsoft's cloud a OneDrive connector uses, on 127.0.0.1 (node built-ins only):
 * - the Microsoft identity platform v2 (work and school accounts): GET /common/oauth2/v2.0/authorize
 *   (state, PKCE S256) and POST /common/oauth2/v2.0/token (authorization_code and refresh_token
 *   grants; refresh tokens rotate on every use and the old one stops working, as Microsoft's do);
 * - Microsoft Graph v1.0 with `Bearer` auth: /me, /me/drive, /sites/{hostname}:/{path}, /sites/{id},
 *   /sites/{id}/drives; a drive's delta feed (/drives/{id}/root/delta and /me/drive/root/delta) in
 *   pages (`@odata.nextLink` then `@odata.deltaLink`) with OneDrive for Business' shape (no cTag and no
 *   parentReference.path in delta; deleted items with the `deleted` facet and no name; items removed
 *   from the user's view reported as deleted only with `Prefer: deltashowremovedasdeleted`; 410 Gone
 *   with resyncRequired for links issued before `expireDeltaTokens()`); /drives/{d}/items/{id} (with
 *   parentReference.path and cTag); /drives/{d}/items/{id}/content answering 302 to a pre-authenticated
 *   /download/... URL that refuses requests carrying an Authorization header; change notification
 *   subscriptions: POST /subscriptions (drive root resources, changeType `updated`, at most 42,300
 *   minutes, and the validation handshake against notificationUrl: a POST with `?validationToken=`
 *   that must be echoed as text/plain with 200 within 10 s), PATCH and DELETE /subscriptions/{id}
 *   (expired subscriptions are gone, as Graph deletes them).
 * Controls: `account`, `addFile`, `modifyFile`, `deleteItem`, `removePermission`, `addSite`, `addLibrary`,
 * `expireDeltaTokens()`, `pageSize`, `failNext` (a status and headers for the next Graph request, by
 * path prefix when given), `expireAccessTokens()`, `revoke()`, `issueTokens()`, `now` (the clock that
 * subscription expirations are checked against), `dropSubscription`, and `notify` (a change notification
 * POSTed to a subscription's notificationUrl, with another clientState on demand).
 * Logs: `requests`, `deltaPrefer`, `downloads`, `validations`, `tokenRequests`, `refreshTokensPresented`, `refreshCount`,
 * `authorizeRequests`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { FakeOAuthProvider } from "./fake-http-server";
import { FakeOAuthServer, readRequestBody } from "./fake-oauth";

type Reply = [status: number, body?: unknown, headers?: Record<string, string>];

export interface FakeGraphItem {
  id: string;
  driveId: string;
  name: string;
  /** undefined for the drive root */
  parentId?: string;
  kind: "root" | "folder" | "file";
  content: Buffer;
  mimeType: string;
  /** Size reported instead of the content's (a big file without the bytes). */
  declaredSize?: number;
  /** Content version (cTag) and item version (eTag). */
  contentVersion: number;
  itemVersion: number;
  /** Position in the change log: the last change. */
  seq: number;
  deleted: boolean;
  /** Removed from the user's view (a permission removed). */
  hidden: boolean;
  guid: string;
  createdDateTime: string;
  lastModifiedDateTime: string;
}

export interface FakeGraphDrive {
  id: string;
  name: string;
  driveType: "business" | "documentLibrary";
  webUrl: string;
  siteId?: string;
  rootId: string;
  items: Map<string, FakeGraphItem>;
}

export interface FakeGraphSite {
  id: string;
  hostname: string;
  path: string;
  name: string;
  displayName: string;
  webUrl: string;
  driveIds: string[];
}

export interface FakeGraphSubscription {
  id: string;
  resource: string;
  driveId: string;
  changeType: string;
  notificationUrl: string;
  clientState?: string;
  expirationDateTime: string;
}

/** Where a delta page continues from (nextLink) or a delta link resumes (deltaLink). */
interface DeltaToken {
  k: "n" | "d";
  e: number;
  d: string;
  /** changes after this sequence number (0: a full enumeration) */
  from: number;
  /** up to this one (the snapshot of the enumeration in progress) */
  upto: number;
  /** already listed up to this one */
  after: number;
  full: boolean;
}

const MAX_EXPIRATION_MINUTES = 42_300;
const graphError = (status: number, code: string, message: string): Reply => [status, { error: { code, message, innerError: { "request-id": randomUUID() } } }];
const NOT_FOUND = graphError(404, "itemNotFound", "The resource could not be found.");

export class FakeGraph extends FakeOAuthProvider {
  /** Microsoft's identity platform: rotating refresh tokens, PKCE required. */
  readonly oauth = new FakeOAuthServer({
    clientId: "00000000-aaaa-bbbb-cccc-fake00client",
    clientSecret: "fake~graph~client~secret",
    tokenPrefix: "msft",
    accessTokenTtlS: 3600,
    rotateRefreshTokens: true,
  });
  account = {
    id: randomUUID(),
    displayName: "Adele Vance",
    mail: "adele@contoso.example" as string | null,
    userPrincipalName: "adele@contoso.onmicrosoft.example",
  };
  readonly drives = new Map<string, FakeGraphDrive>();
  readonly sites = new Map<string, FakeGraphSite>();
  readonly subscriptions = new Map<string, FakeGraphSubscription>();
  /** The user's OneDrive. */
  readonly myDrive: FakeGraphDrive;
  /** Items per delta page. */
  pageSize = 200;
  failNext: { status: number; headers?: Record<string, string>; pathPrefix?: string }[] = [];
  /** "METHOD /path?query" of each Graph request (downloads included). */
  requests: string[] = [];
  /** The Prefer header of each delta request. */
  deltaPrefer: string[] = [];
  /** Downloads served: item ids. */
  downloads: string[] = [];
  /** Validation handshakes: the URL called and whether it was answered correctly. */
  validations: { url: string; ok: boolean }[] = [];
  /** The refresh token of each refresh_token grant, in order (rotation: each one used once). */
  refreshTokensPresented: string[] = [];
  /** Query of each authorization request. */
  authorizeRequests: URLSearchParams[] = [];
  /** The clock subscription expirations are checked against. */
  now: () => number = () => Date.now();
  private seq = 0;
  private epoch = 0;
  private readonly downloadTokens = new Map<string, { driveId: string; itemId: string }>();

  constructor() {
    super();
    this.myDrive = this.newDrive("OneDrive", "business", "https://contoso-my.sharepoint.example/personal/adele_contoso/Documents");
  }

  /** Every delta link and next link issued so far answers 410 Gone (resyncRequired). */
  expireDeltaTokens(): void {
    this.epoch++;
  }

  /** A SharePoint site (`hostname`, server-relative `path` such as /sites/eng) with a "Documents" library. */
  addSite(hostname: string, path: string, displayName: string): FakeGraphSite {
    const id = `${hostname},${randomUUID()},${randomUUID()}`;
    const site: FakeGraphSite = {
      id,
      hostname,
      path,
      name: path.split("/").filter(Boolean).pop() ?? hostname,
      displayName,
      webUrl: `https://${hostname}${path}`,
      driveIds: [],
    };
    this.sites.set(id, site);
    this.addLibrary(site, "Documents");
    return site;
  }

  addLibrary(site: FakeGraphSite, name: string): FakeGraphDrive {
    const drive = this.newDrive(name, "documentLibrary", `${site.webUrl}/${encodeURIComponent(name)}`, site.id);
    site.driveIds.push(drive.id);
    return drive;
  }

  /** Adds a file at `path` (folders created as needed) in the user's OneDrive or the given drive. */
  addFile(path: string, content: string | Buffer, opts: { drive?: FakeGraphDrive; mimeType?: string; size?: number } = {}): FakeGraphItem {
    const drive = opts.drive ?? this.myDrive;
    const parts = path.split("/").filter(Boolean);
    const name = parts.pop()!;
    let parent = drive.items.get(drive.rootId)!;
    for (const part of parts) parent = this.child(drive, parent, part) ?? this.newItem(drive, part, parent.id, "folder");
    if (this.child(drive, parent, name)) throw new Error(`${path} exists`);
    const item = this.newItem(drive, name, parent.id, "file");
    item.content = Buffer.isBuffer(content) ? content : Buffer.from(content);
    item.mimeType = opts.mimeType ?? mimeOf(name);
    item.declaredSize = opts.size;
    return item;
  }

  /** The live item at `path`. */
  item(path: string, drive: FakeGraphDrive = this.myDrive): FakeGraphItem {
    let cur = drive.items.get(drive.rootId)!;
    for (const part of path.split("/").filter(Boolean)) {
      const next = this.child(drive, cur, part);
      if (!next) throw new Error(`no ${path} in ${drive.name}`);
      cur = next;
    }
    return cur;
  }

  modifyFile(path: string, content: string | Buffer, drive?: FakeGraphDrive): FakeGraphItem {
    const item = this.item(path, drive);
    item.content = Buffer.isBuffer(content) ? content : Buffer.from(content);
    item.contentVersion++;
    return this.touch(item);
  }

  /** Deletes an item (a folder with everything below it, each reported deleted). */
  deleteItem(path: string, drive?: FakeGraphDrive): void {
    const item = this.item(path, drive);
    for (const it of this.subtree(item)) {
      it.deleted = true;
      this.touch(it);
    }
  }

  /** The user loses access to the item (and what is below it): delta reports it deleted with deltashowremovedasdeleted. */
  removePermission(path: string, drive?: FakeGraphDrive): void {
    const item = this.item(path, drive);
    for (const it of this.subtree(item)) {
      it.hidden = true;
      this.touch(it);
    }
  }

  /** Graph forgets the subscription (it expired, or was removed): PATCH answers 404. */
  dropSubscription(id: string): void {
    this.subscriptions.delete(id);
  }

  /** The live subscriptions on a drive. */
  subscriptionsOf(drive: FakeGraphDrive = this.myDrive): FakeGraphSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.driveId === drive.id && Date.parse(s.expirationDateTime) > this.now());
  }

  /** POSTs a change notification as Graph does (no item data); `clientState` overrides the subscription's. */
  async notify(subscriptionId: string, opts: { clientState?: string } = {}): Promise<{ status: number; body: string }> {
    const s = this.subscriptions.get(subscriptionId);
    if (!s) throw new Error(`no subscription ${subscriptionId}`);
    const note = {
      subscriptionId: s.id,
      subscriptionExpirationDateTime: s.expirationDateTime,
      changeType: "updated",
      resource: s.resource,
      clientState: opts.clientState ?? s.clientState ?? null,
      tenantId: "00000000-0000-0000-0000-0000fa4e7e4a",
      resourceData: null,
    };
    const res = await fetch(s.notificationUrl, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ value: [note] }),
    });
    return { status: res.status, body: await res.text() };
  }

  private newDrive(name: string, driveType: FakeGraphDrive["driveType"], webUrl: string, siteId?: string): FakeGraphDrive {
    const id = `b!${randomBytes(36).toString("base64url")}`;
    const drive: FakeGraphDrive = { id, name, driveType, webUrl, ...(siteId ? { siteId } : {}), rootId: "", items: new Map() };
    this.drives.set(id, drive);
    drive.rootId = this.newItem(drive, "root", undefined, "root").id;
    return drive;
  }

  private newItem(drive: FakeGraphDrive, name: string, parentId: string | undefined, kind: FakeGraphItem["kind"]): FakeGraphItem {
    const at = new Date().toISOString();
    const item: FakeGraphItem = {
      id: `01${randomBytes(16).toString("hex").toUpperCase()}`,
      driveId: drive.id,
      name,
      ...(parentId ? { parentId } : {}),
      kind,
      content: Buffer.alloc(0),
      mimeType: "application/octet-stream",
      contentVersion: 1,
      itemVersion: 1,
      seq: ++this.seq,
      deleted: false,
      hidden: false,
      guid: randomUUID().toUpperCase(),
      createdDateTime: at,
      lastModifiedDateTime: at,
    };
    drive.items.set(item.id, item);
    return item;
  }

  private touch(item: FakeGraphItem): FakeGraphItem {
    item.itemVersion++;
    item.seq = ++this.seq;
    item.lastModifiedDateTime = new Date().toISOString();
    return item;
  }

  private child(drive: FakeGraphDrive, parent: FakeGraphItem, name: string): FakeGraphItem | undefined {
    return [...drive.items.values()].find((i) => i.parentId === parent.id && i.name === name && !i.deleted && !i.hidden);
  }

  private subtree(item: FakeGraphItem): FakeGraphItem[] {
    const drive = this.drives.get(item.driveId)!;
    const out = [item];
    for (let i = 0; i < out.length; i++) for (const c of drive.items.values()) if (c.parentId === out[i]!.id && !c.deleted) out.push(c);
    return out;
  }

  private visible(item: FakeGraphItem): boolean {
    return !item.deleted && !item.hidden;
  }

  /** "/A/B" of the item's folder ("" at the root). */
  private folderPath(drive: FakeGraphDrive, item: FakeGraphItem): string {
    const names: string[] = [];
    let cur = item.parentId ? drive.items.get(item.parentId) : undefined;
    while (cur && cur.kind !== "root") {
      names.unshift(cur.name);
      cur = cur.parentId ? drive.items.get(cur.parentId) : undefined;
    }
    return names.map((n) => `/${encodeURIComponent(n)}`).join("");
  }

  private itemJson(drive: FakeGraphDrive, item: FakeGraphItem, inDelta: boolean): Record<string, unknown> {
    const parentReference = {
      driveId: drive.id,
      driveType: drive.driveType,
      ...(item.parentId ? { id: item.parentId } : {}),
      ...(!inDelta && item.kind !== "root" ? { path: `/drives/${drive.id}/root:${this.folderPath(drive, item)}` } : {}),
    };
    if (inDelta && !this.visible(item)) return { id: item.id, parentReference, deleted: { state: "deleted" } };
    const path = `${this.folderPath(drive, item)}/${encodeURIComponent(item.name)}`;
    const size = item.kind === "file" ? (item.declaredSize ?? item.content.length) : 0;
    return {
      id: item.id,
      name: item.name,
      eTag: `"{${item.guid}},${item.itemVersion}"`,
      ...(inDelta ? {} : { cTag: `"c:{${item.guid}},${item.contentVersion}"` }),
      size,
      createdDateTime: item.createdDateTime,
      lastModifiedDateTime: item.lastModifiedDateTime,
      webUrl: item.kind === "root" ? drive.webUrl : `${drive.webUrl}${path}`,
      parentReference: item.kind === "root" ? { driveId: drive.id, driveType: drive.driveType } : parentReference,
      ...(item.kind === "root" ? { root: {} } : {}),
      ...(item.kind === "file"
        ? { file: { mimeType: item.mimeType, hashes: { quickXorHash: Buffer.from(item.guid + item.contentVersion).toString("base64") } } }
        : { folder: { childCount: [...drive.items.values()].filter((c) => c.parentId === item.id && this.visible(c)).length } }),
    };
  }

  private encodeToken(t: DeltaToken): string {
    return Buffer.from(JSON.stringify(t)).toString("base64url");
  }

  private decodeToken(s: string): DeltaToken | undefined {
    try {
      const t = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as DeltaToken;
      return typeof t.from === "number" && typeof t.d === "string" ? t : undefined;
    } catch {
      return undefined;
    }
  }

  private delta(drive: FakeGraphDrive, q: URLSearchParams, prefer: string): Reply {
    const deltaUrl = `${this.base}/v1.0/drives/${drive.id}/root/delta`;
    const raw = q.get("token");
    let t: DeltaToken;
    if (raw === null) t = { k: "n", e: this.epoch, d: drive.id, from: 0, upto: this.seq, after: 0, full: true };
    else {
      const given = this.decodeToken(raw);
      if (!given || given.d !== drive.id) return graphError(400, "invalidRequest", "Invalid token");
      if (given.e !== this.epoch) {
        const [status, body] = graphError(410, "resyncRequired", "Resync required. Replace any local items with the server's version (including deletes).");
        return [status, body, { location: deltaUrl }];
      }
      t = given.k === "d" ? { k: "n", e: this.epoch, d: drive.id, from: given.from, upto: this.seq, after: given.from, full: false } : given;
    }
    const showRemoved = /deltashowremovedasdeleted/i.test(prefer);
    const changed = [...drive.items.values()]
      .filter((i) => i.seq > t.after && i.seq <= t.upto)
      .filter((i) => (t.full ? this.visible(i) : this.visible(i) || i.deleted || (i.hidden && showRemoved)))
      .sort((a, b) => a.seq - b.seq);
    const page = changed.slice(0, this.pageSize);
    const value = page.map((i) => this.itemJson(drive, i, true));
    if (changed.length > page.length) {
      const next = this.encodeToken({ ...t, after: page.at(-1)!.seq });
      return [
        200,
        { "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Collection(driveItem)", value, "@odata.nextLink": `${deltaUrl}?token=${next}` },
      ];
    }
    const done = this.encodeToken({ k: "d", e: this.epoch, d: drive.id, from: t.upto, upto: t.upto, after: t.upto, full: false });
    return [
      200,
      { "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Collection(driveItem)", value, "@odata.deltaLink": `${deltaUrl}?token=${done}` },
    ];
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    const method = req.method ?? "GET";
    const send = ([status, body, headers]: Reply) => {
      res.writeHead(status, { ...(body === undefined ? {} : { "content-type": "application/json; charset=utf-8" }), ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (url.pathname === "/common/oauth2/v2.0/authorize" && method === "GET") {
      this.authorizeRequests.push(url.searchParams);
      return this.oauth.authorize(url.searchParams, res);
    }
    if (url.pathname === "/common/oauth2/v2.0/token" && method === "POST") {
      const body = await readRequestBody(req);
      const presented = new URLSearchParams(body.toString("utf8")).get("refresh_token");
      if (presented) this.refreshTokensPresented.push(presented);
      return send(this.oauth.token(req, body));
    }
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    if (url.pathname.startsWith("/download/") && method === "GET") return this.download(url, req, res, send);
    if (!url.pathname.startsWith("/v1.0/")) return send(NOT_FOUND);
    const i = this.failNext.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (i >= 0) {
      const [fail] = this.failNext.splice(i, 1);
      const code = fail!.status === 429 ? "activityLimitReached" : fail!.status >= 500 ? "serviceNotAvailable" : "generalException";
      const [status, body] = graphError(fail!.status, code, http.STATUS_CODES[fail!.status] ?? "Failure");
      return send([status, body, fail!.headers]);
    }
    if (!this.oauth.bearer(req)) return send(graphError(401, "InvalidAuthenticationToken", "Access token has expired or is not yet valid."));
    const body = method === "POST" || method === "PATCH" ? (await readRequestBody(req)).toString("utf8") : "";
    send(await this.graph(method, url, body, String(req.headers.prefer ?? "")));
  }

  private download(url: URL, req: http.IncomingMessage, res: http.ServerResponse, send: (r: Reply) => void): void {
    if (req.headers.authorization) return send(graphError(401, "unauthenticated", "Pre-authenticated download URLs do not accept an Authorization header."));
    const t = this.downloadTokens.get(url.pathname.slice("/download/".length));
    const drive = t && this.drives.get(t.driveId);
    const item = t && drive?.items.get(t.itemId);
    if (!item || !this.visible(item)) return send(NOT_FOUND);
    this.downloads.push(item.id);
    res.writeHead(200, { "content-type": item.mimeType, "content-length": String(item.content.length) });
    res.end(item.content);
  }

  private async graph(method: string, url: URL, body: string, prefer: string): Promise<Reply> {
    const p = decodeURIComponent(url.pathname.slice("/v1.0".length));
    const q = url.searchParams;
    if (method === "GET" && p === "/me") return [200, { ...this.account, "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity" }];
    if (method === "GET" && p === "/me/drive") return [200, this.driveJson(this.myDrive)];
    const site = /^\/sites\/([^/]+?)(?::(\/[^:]*))?(\/drives)?$/.exec(p);
    if (method === "GET" && site) {
      const [, ref, path, drives] = site;
      const found = [...this.sites.values()].find((s) => (path !== undefined ? s.hostname === ref && s.path === path.replace(/\/+$/, "") : s.id === ref));
      if (!found) return graphError(404, "itemNotFound", "Requested site could not be found");
      if (drives) return [200, { value: found.driveIds.map((id) => this.driveJson(this.drives.get(id)!)) }];
      return [200, { id: found.id, name: found.name, displayName: found.displayName, webUrl: found.webUrl }];
    }
    const d = /^\/(?:drives\/([^/]+)|me\/drive)\/(root\/delta|items\/([^/]+)(\/content)?)$/.exec(p);
    if (method === "GET" && d) {
      const drive = d[1] === undefined ? this.myDrive : this.drives.get(d[1]);
      if (!drive) return graphError(404, "itemNotFound", "The drive could not be found.");
      if (d[2] === "root/delta") {
        this.deltaPrefer.push(prefer);
        return this.delta(drive, q, prefer);
      }
      const item = drive.items.get(d[3]!);
      if (!item || !this.visible(item)) return NOT_FOUND;
      if (!d[4]) return [200, this.itemJson(drive, item, false)];
      if (item.kind !== "file") return NOT_FOUND;
      const token = randomBytes(24).toString("base64url");
      this.downloadTokens.set(token, { driveId: drive.id, itemId: item.id });
      return [302, undefined, { location: `${this.base}/download/${token}` }];
    }
    if (p === "/subscriptions" && method === "POST") return this.createSubscription(body);
    const s = /^\/subscriptions\/([^/]+)$/.exec(p);
    if (s) {
      const sub = this.subscriptions.get(s[1]!);
      if (!sub || Date.parse(sub.expirationDateTime) <= this.now()) {
        this.subscriptions.delete(s[1]!);
        return graphError(404, "ResourceNotFound", "The object was not found.");
      }
      if (method === "DELETE") {
        this.subscriptions.delete(sub.id);
        return [204];
      }
      if (method === "PATCH") {
        const input = parseJson(body) as { expirationDateTime?: string } | undefined;
        const problem = this.expirationProblem(input?.expirationDateTime);
        if (problem) return graphError(400, "ExtensionError", problem);
        sub.expirationDateTime = new Date(Date.parse(input!.expirationDateTime!)).toISOString();
        return [200, this.subscriptionJson(sub)];
      }
      if (method === "GET") return [200, this.subscriptionJson(sub)];
    }
    return graphError(400, "BadRequest", `Resource not found for the segment '${p.split("/")[1] ?? ""}'.`);
  }

  private expirationProblem(exp: string | undefined): string | undefined {
    const at = exp === undefined ? NaN : Date.parse(exp);
    if (Number.isNaN(at)) return "expirationDateTime is required and must be a date";
    if (at <= this.now()) return "Subscription expiration can only be in the future.";
    if (at > this.now() + MAX_EXPIRATION_MINUTES * 60_000) return `Subscription expiration can only be ${MAX_EXPIRATION_MINUTES} minutes in the future.`;
    return undefined;
  }

  private async createSubscription(body: string): Promise<Reply> {
    const input = parseJson(body) as Partial<FakeGraphSubscription> | undefined;
    if (!input) return graphError(400, "BadRequest", "Empty Payload. JSON content expected.");
    const r = /^\/?(?:drives\/([^/]+)|me\/drive)\/root$/.exec(input.resource ?? "");
    const drive = r && (r[1] === undefined ? this.myDrive : this.drives.get(r[1]));
    if (!drive) return graphError(400, "ExtensionError", "Operation on target failed: the resource is not a drive root.");
    if (input.changeType !== "updated") return graphError(400, "ExtensionError", "Drive root subscriptions support only the 'updated' changeType.");
    if (input.clientState !== undefined && (typeof input.clientState !== "string" || input.clientState.length > 128))
      return graphError(400, "ExtensionError", "clientState is at most 128 characters.");
    const problem = this.expirationProblem(input.expirationDateTime);
    if (problem) return graphError(400, "ExtensionError", problem);
    if (typeof input.notificationUrl !== "string" || !URL.canParse(input.notificationUrl)) return graphError(400, "ExtensionError", "Invalid notificationUrl.");
    // The validation handshake: the endpoint must echo the token, as text/plain, within 10 seconds.
    const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    const target = new URL(input.notificationUrl);
    target.searchParams.set("validationToken", token);
    let ok = false;
    try {
      const res = await fetch(target, { method: "POST", headers: { "content-type": "text/plain; charset=utf-8" }, signal: AbortSignal.timeout(10_000) });
      ok = res.status === 200 && /^text\/plain/i.test(res.headers.get("content-type") ?? "") && (await res.text()) === token;
    } catch {
      ok = false;
    }
    this.validations.push({ url: target.href, ok });
    if (!ok)
      return graphError(
        400,
        "ValidationError",
        "Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.",
      );
    const sub: FakeGraphSubscription = {
      id: randomUUID(),
      resource: input.resource!,
      driveId: drive.id,
      changeType: input.changeType,
      notificationUrl: input.notificationUrl,
      ...(input.clientState !== undefined ? { clientState: input.clientState } : {}),
      expirationDateTime: new Date(Date.parse(input.expirationDateTime!)).toISOString(),
    };
    this.subscriptions.set(sub.id, sub);
    return [201, this.subscriptionJson(sub)];
  }

  private subscriptionJson(s: FakeGraphSubscription) {
    return {
      "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity",
      id: s.id,
      resource: s.resource,
      applicationId: this.clientId,
      changeType: s.changeType,
      clientState: s.clientState ?? null,
      notificationUrl: s.notificationUrl,
      expirationDateTime: s.expirationDateTime,
      creatorId: this.account.id,
      latestSupportedTlsVersion: "v1_2",
    };
  }

  private driveJson(d: FakeGraphDrive) {
    return {
      id: d.id,
      name: d.name,
      driveType: d.driveType,
      webUrl: d.webUrl,
      owner: d.siteId ? { group: { displayName: d.name } } : { user: { id: this.account.id, displayName: this.account.displayName } },
      quota: { total: 1_099_511_627_776, used: 0, state: "normal" },
    };
  }
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

const MIME: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
};

function mimeOf(name: string): string {
  return MIME[name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}
