import { createHash, timingSafeEqual } from "node:crypto";
import type { JsonObject } from "@engram/kernel";
import type { Connection, ConnectionItem } from "../../../domain/connection";
import { ConnectorError } from "../../../domain/errors";
import type { TokenSet } from "../../../domain/oauth";
import type { AccountIdentity, Connector, ConnectorChange, ProviderAuth, WebhookNotification, WebhookTarget, WebhookVerdict } from "../../../app/sync-ports";
import { ContentTooLargeError, DeltaExpiredError, type DriveItem, GraphApi, GraphHttpError, isConnectionWide, toConnectorError } from "./graph-api";

/**
 * The OneDrive connector (Microsoft Graph, work and school accounts): the
 * files of the user's OneDrive for Business and, when the connection was
 * created with `metadata.sharepointSites`, of those SharePoint sites'
 * document libraries.
 *
 * - Identify: `/me` (email: `mail`, else the user principal name) and
 *   `/me/drive` (the connection's account is the drive id); the config keeps
 *   `drives: [{ id, name, kind: "onedrive" }]`.
 * - SharePoint: `metadata.sharepointSites` lists sites separated by commas
 *   (or semicolons, new lines): `hostname:/sites/path`, a site URL
 *   `https://hostname/sites/path`, or a site id (`hostname,guid,guid`; its
 *   own commas are recognised). Each site's libraries (`/sites/{id}/drives`)
 *   are resolved when the connection first syncs (renewal, then daily, so a
 *   new library is picked up) and kept in `config.drives` with
 *   `kind: "sharepoint"`; a sync that finds a site not resolved yet resolves
 *   it on the spot. A site that cannot be read is a failed item of the run.
 * - Sync, per drive: the delta feed (`/drives/{id}/root/delta` with
 *   `Prefer: deltashowremovedasdeleted, deltatraversepermissiongaps,
 *   deltashowsharingchanges`), page by page to its `@odata.deltaLink`. The
 *   cursor is a JSON map drive id → delta link, yielded after each drive's
 *   changes. Files are imported (folders and packages such as OneNote
 *   notebooks are not) through `/items/{id}/content`, which redirects to a
 *   pre-authenticated URL fetched without the token; version = cTag, else
 *   eTag (OneDrive for Business leaves cTag out of delta); filepath = the
 *   folder path in the drive + name (delta leaves `parentReference.path` out,
 *   so folders are placed from the feed itself, else read once per sync);
 *   metadata `{ driveId, mimeType }`. Files over 50 MB are failed items.
 * - Deletes: an item with the `deleted` facet (deleted, or removed from the
 *   user's view by a permission change, which the Prefer header reports as
 *   deleted) is deleted. A delta link Graph no longer honours (410 Gone)
 *   restarts the drive's enumeration from scratch, which then deletes the
 *   drive's known items it did not list. Drives no longer synced lose their
 *   items.
 * - Real time: one Graph subscription per drive (`/drives/{id}/root`,
 *   changeType `updated`, 29 days; Graph allows 42,300 minutes for
 *   driveItem), clientState = the connection's webhook secret, created and
 *   renewed (PATCH when it expires within 72 h; created again when Graph
 *   forgot it) by `renew`, deleted by `unsubscribe`. Notifications name no
 *   item: a valid one asks for a sync (the endpoint debounces bursts into one).
 */

export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Subscription lifetime asked for: under Graph's 42,300-minute limit for driveItem. */
export const SUBSCRIPTION_TTL_MS = 29 * 24 * 3_600_000;
/** A subscription expiring sooner than this is renewed. */
export const RENEW_WITHIN_MS = 72 * 3_600_000;
/** Longest validationToken echoed back. */
const MAX_VALIDATION_TOKEN = 4096;
const MAX_FOLDER_DEPTH = 64;

/** A drive the connection syncs, as its config keeps it. */
export interface SyncedDrive {
  id: string;
  name: string;
  kind: "onedrive" | "sharepoint";
  /** SharePoint: the site as `metadata.sharepointSites` names it, and its Graph id. */
  site?: string;
  siteId?: string;
}

/** A Graph subscription of the connection, as its config keeps it. */
export interface DriveSubscription {
  driveId: string;
  id: string;
  expirationDateTime: string;
}

type SiteSpec = { hostname: string; path: string } | { id: string };

/** The sites of `metadata.sharepointSites`: split on commas (not those inside a site id), semicolons and new lines. */
export function sharepointSites(conn: Pick<Connection, "metadata">): string[] {
  const raw = conn.metadata?.sharepointSites;
  if (typeof raw !== "string") return [];
  const out = raw
    .split(/[;\n]|,(?!\s*[0-9a-f]{8}-[0-9a-f]{4}-)/i)
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(out)];
}

/** How Graph addresses a site named `hostname:/path`, `https://hostname/path` or by id. */
export function parseSite(spec: string): SiteSpec {
  if (/^https?:\/\//i.test(spec)) {
    const u = new URL(spec);
    return { hostname: u.hostname, path: u.pathname.replace(/\/+$/, "") || "/" };
  }
  const i = spec.indexOf(":/");
  if (i > 0) return { hostname: spec.slice(0, i), path: spec.slice(i + 1).replace(/\/+$/, "") || "/" };
  return { id: spec };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The drives in the connection's config; undefined when it has none recorded (identified before drives were). */
export function configuredDrives(conn: Pick<Connection, "config">): SyncedDrive[] | undefined {
  const list = conn.config?.drives;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((d): SyncedDrive[] =>
    isObject(d) && typeof d.id === "string" && d.id && (d.kind === "onedrive" || d.kind === "sharepoint")
      ? [
          {
            id: d.id,
            name: typeof d.name === "string" ? d.name : d.id,
            kind: d.kind,
            ...(typeof d.site === "string" ? { site: d.site } : {}),
            ...(typeof d.siteId === "string" ? { siteId: d.siteId } : {}),
          },
        ]
      : [],
  );
}

export function configuredSubscriptions(conn: Pick<Connection, "config">): DriveSubscription[] {
  const list = conn.config?.subscriptions;
  if (!Array.isArray(list)) return [];
  return list.flatMap((s): DriveSubscription[] =>
    isObject(s) && typeof s.driveId === "string" && typeof s.id === "string" && typeof s.expirationDateTime === "string"
      ? [{ driveId: s.driveId, id: s.id, expirationDateTime: s.expirationDateTime }]
      : [],
  );
}

function readCursor(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  try {
    const o = JSON.parse(raw) as unknown;
    return isObject(o) ? (Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v === "string")) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

const itemKeyOf = (driveId: string, itemId: string) => `${driveId}/${itemId}`;
const driveOfKey = (key: string) => key.slice(0, key.indexOf("/"));

/** The folder path inside the drive from a `parentReference.path` (`/drive/root:/A/B`, `/drives/{id}/root:/A%20B`): "/A/B", "" at the root. */
export function drivePath(parentPath: string): string {
  const i = parentPath.indexOf("root:");
  if (i < 0) return "";
  const rest = parentPath.slice(i + "root:".length);
  try {
    return decodeURIComponent(rest).replace(/\/+$/, "");
  } catch {
    return rest.replace(/\/+$/, "");
  }
}

/** Equal, in time independent of where they differ (and of their lengths). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

const toJson = (d: SyncedDrive): JsonObject => ({ ...d });

export interface OneDriveConnectorOptions {
  /** Microsoft Graph's base URL (GRAPH_API_URL). */
  graphUrl: string;
  /** The connection's tokens (OAuthFlow). */
  authOf: (c: Connection) => ProviderAuth;
  fetch?: typeof fetch;
}

/** A folder as the delta feed showed it. */
interface FolderSeen {
  name: string;
  parentId?: string;
  root: boolean;
}

export class OneDriveConnector implements Connector {
  constructor(readonly o: OneDriveConnectorOptions) {}

  /** The account behind a fresh token: its email, its OneDrive (the connection's account and first drive). */
  async identify(tokens: Pick<TokenSet, "accessToken">): Promise<AccountIdentity> {
    const { accessToken } = tokens;
    const api = new GraphApi(
      {
        token: async () => accessToken,
        refreshed: async () => {
          throw new ConnectorError("auth_expired", "Microsoft Graph refused a token it just issued");
        },
      },
      { baseUrl: this.o.graphUrl, fetch: this.o.fetch },
    );
    try {
      const me = await api.me();
      const drive = await api.myDrive().catch((e: unknown) => {
        // No OneDrive (an account without the licence): SharePoint libraries only.
        if (e instanceof GraphHttpError && e.status === 404) return undefined;
        throw e;
      });
      const drives: SyncedDrive[] = drive ? [{ id: drive.id, name: drive.name ?? "OneDrive", kind: "onedrive" }] : [];
      const account = drive?.id ?? me.id;
      return { ...(me.email ? { email: me.email } : {}), ...(account ? { account } : {}), config: { drives: drives.map(toJson) } };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const api = this.api(conn);
    try {
      const { drives, problems } = await this.drives(api, conn, false);
      for (const p of problems) yield { kind: "failure", itemKey: `site:${p.site}`, reason: p.reason };
      const listed = new Set(drives.map((d) => d.id));
      const links = readCursor(conn.cursor);
      const next: Record<string, string> = {};
      for (const d of drives) if (links[d.id]) next[d.id] = links[d.id]!;
      // Drives no longer synced lose their items; not while a site could not be read (its libraries are unknown).
      if (problems.length === 0) {
        for (const key of known.keys()) if (!listed.has(driveOfKey(key))) yield { kind: "delete", itemKey: key, reason: "the drive is no longer synced" };
        if (Object.keys(links).some((id) => !listed.has(id))) yield { kind: "cursor", cursor: JSON.stringify(next) };
      }
      for (const drive of drives) {
        signal.throwIfAborted();
        let link: string | undefined;
        try {
          link = yield* this.syncDrive(api, drive, links[drive.id], known, signal);
        } catch (e) {
          if (isConnectionWide(e)) throw e;
          if (e instanceof GraphHttpError && (e.status === 403 || e.status === 404)) {
            yield { kind: "failure", itemKey: `drive:${drive.id}`, reason: `${drive.name} cannot be read (deleted, or access removed)` };
            continue;
          }
          throw e;
        }
        next[drive.id] = link;
        yield { kind: "cursor", cursor: JSON.stringify(next) };
      }
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  /** One drive's changes since `link` (everything without one); returns the drive's new delta link. */
  private async *syncDrive(
    api: GraphApi,
    drive: SyncedDrive,
    link: string | undefined,
    known: ReadonlyMap<string, ConnectionItem>,
    signal: AbortSignal,
  ): AsyncGenerator<ConnectorChange, string> {
    let full = link === undefined;
    let url = link ?? api.deltaStart(drive.id);
    let restarted = false;
    const seen = new Set<string>();
    const folders = new Map<string, FolderSeen>();
    const dirs = new Map<string, string>();
    for (;;) {
      signal.throwIfAborted();
      let page: Awaited<ReturnType<GraphApi["deltaPage"]>>;
      try {
        page = await api.deltaPage(url);
      } catch (e) {
        if (!(e instanceof DeltaExpiredError) || restarted) throw e;
        // The link expired (410 Gone): enumerate the drive again; what it no longer lists goes at the end.
        [full, restarted, url] = [true, true, api.deltaStart(drive.id)];
        seen.clear();
        continue;
      }
      for (const it of page.items)
        if (!it.deleted && (it.folder || it.root || it.package))
          folders.set(it.id, { name: it.name ?? "", parentId: it.parentReference?.id, root: it.root !== undefined });
      for (const it of page.items) yield* this.itemChange(api, drive, it, known, seen, (id) => this.folderPath(api, drive.id, id, folders, dirs));
      if (page.nextLink) {
        url = page.nextLink;
        continue;
      }
      if (!page.deltaLink) throw new GraphHttpError("a delta page of Graph had neither a next link nor a delta link", { retryable: false });
      if (full) {
        const prefix = `${drive.id}/`;
        for (const key of known.keys())
          if (key.startsWith(prefix) && !seen.has(key)) yield { kind: "delete", itemKey: key, reason: "no longer in the drive (full resync)" };
      }
      return page.deltaLink;
    }
  }

  private async *itemChange(
    api: GraphApi,
    drive: SyncedDrive,
    it: DriveItem,
    known: ReadonlyMap<string, ConnectionItem>,
    seen: Set<string>,
    dirOf: (folderId: string | undefined) => Promise<string>,
  ): AsyncGenerator<ConnectorChange> {
    const itemKey = itemKeyOf(drive.id, it.id);
    if (it.deleted) {
      seen.delete(itemKey);
      if (known.has(itemKey)) yield { kind: "delete", itemKey, reason: "deleted in OneDrive, or no longer shared with the account" };
      return;
    }
    // Folders, the drive root, and packages (OneNote notebooks) are not documents.
    if (!it.file || it.package || it.folder) return;
    seen.add(itemKey);
    const version = it.cTag ?? it.eTag ?? `${it.lastModifiedDateTime ?? ""}:${it.size ?? ""}`;
    if (known.get(itemKey)?.version === version) return;
    const name = it.name ?? it.id;
    if ((it.size ?? 0) > MAX_FILE_BYTES) {
      yield { kind: "failure", itemKey, reason: `${name} is larger than 50 MB (${it.size} bytes): skipped` };
      return;
    }
    try {
      const bytes = await api.content(drive.id, it.id, MAX_FILE_BYTES);
      if (!bytes) {
        yield { kind: "failure", itemKey, reason: `${name} is no longer in the drive` };
        return;
      }
      const dir = it.parentReference?.path !== undefined ? drivePath(it.parentReference.path) : await dirOf(it.parentReference?.id);
      const mimeType = it.file.mimeType ?? "application/octet-stream";
      yield {
        kind: "upsert",
        itemKey,
        title: name,
        filepath: `${dir}/${name}`,
        ...(it.webUrl ? { url: it.webUrl } : {}),
        metadata: { driveId: drive.id, mimeType },
        content: { bytes, mimeType, fileName: name },
        version,
      };
    } catch (e) {
      if (e instanceof ContentTooLargeError) yield { kind: "failure", itemKey, reason: `${name} is larger than 50 MB: skipped` };
      else if (isConnectionWide(e)) throw e;
      else yield { kind: "failure", itemKey, reason: `${name} could not be read: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /** "/A/B" for a folder ("" for the root): from the folders the feed showed, else the folder's own record (with its parent's path). */
  private async folderPath(
    api: GraphApi,
    driveId: string,
    folderId: string | undefined,
    folders: Map<string, FolderSeen>,
    dirs: Map<string, string>,
    depth = 0,
  ): Promise<string> {
    if (folderId === undefined || depth > MAX_FOLDER_DEPTH) return "";
    const cached = dirs.get(folderId);
    if (cached !== undefined) return cached;
    let path = "";
    const f = folders.get(folderId);
    if (f) {
      if (!f.root) path = `${await this.folderPath(api, driveId, f.parentId, folders, dirs, depth + 1)}/${f.name}`;
    } else {
      const item = await api.item(driveId, folderId);
      if (item && !item.root) {
        path =
          item.parentReference?.path !== undefined
            ? `${drivePath(item.parentReference.path)}/${item.name ?? ""}`
            : `${await this.folderPath(api, driveId, item.parentReference?.id, folders, dirs, depth + 1)}/${item.name ?? ""}`;
      }
    }
    dirs.set(folderId, path);
    return path;
  }

  /**
   * The drives to sync: the config's OneDrive (`/me/drive` when the config
   * has none recorded), and each SharePoint site's libraries: those kept in
   * the config, resolved with Graph when missing (or always, `refresh`; the
   * kept ones stay when that fails).
   */
  private async drives(api: GraphApi, conn: Connection, refresh: boolean): Promise<{ drives: SyncedDrive[]; problems: { site: string; reason: string }[] }> {
    const config = configuredDrives(conn);
    let personal = config?.filter((d) => d.kind === "onedrive");
    if (config === undefined) {
      const me = await api.myDrive().catch((e: unknown) => {
        if (e instanceof GraphHttpError && e.status === 404) return undefined;
        throw e;
      });
      personal = me ? [{ id: me.id, name: me.name ?? "OneDrive", kind: "onedrive" }] : [];
    }
    const out = new Map<string, SyncedDrive>((personal ?? []).map((d) => [d.id, d]));
    const problems: { site: string; reason: string }[] = [];
    for (const site of sharepointSites(conn)) {
      const kept = (config ?? []).filter((d) => d.kind === "sharepoint" && d.site === site);
      if (kept.length && !refresh) {
        for (const d of kept) if (!out.has(d.id)) out.set(d.id, d);
        continue;
      }
      try {
        const found = await api.site(parseSite(site));
        if (!found) {
          problems.push({ site, reason: `the SharePoint site ${site} does not exist or the account cannot read it` });
          continue;
        }
        const siteName = found.displayName || found.name || site;
        for (const d of await api.siteDrives(found.id))
          if (!out.has(d.id)) out.set(d.id, { id: d.id, name: `${siteName}/${d.name ?? d.id}`, kind: "sharepoint", site, siteId: found.id });
      } catch (e) {
        if (isConnectionWide(e)) throw e;
        // Kept libraries are synced as before; a site never resolved is a failed item.
        if (kept.length === 0) problems.push({ site, reason: `the SharePoint site ${site} could not be read: ${e instanceof Error ? e.message : String(e)}` });
        for (const d of kept) if (!out.has(d.id)) out.set(d.id, d);
      }
    }
    return { drives: [...out.values()], problems };
  }

  /**
   * Keeps one Graph subscription per drive: created when missing, renewed
   * (PATCH) when it expires within 72 hours, created anew when Graph no
   * longer has it; subscriptions of drives no longer synced are deleted.
   * Also refreshes the SharePoint libraries of the connection's sites.
   */
  async renew(conn: Connection, ctx: { now: Date; webhook: WebhookTarget }): Promise<JsonObject | undefined> {
    const api = this.api(conn);
    try {
      const { drives } = await this.drives(api, conn, true);
      const old = configuredSubscriptions(conn);
      const expirationDateTime = new Date(ctx.now.getTime() + SUBSCRIPTION_TTL_MS).toISOString();
      const next: DriveSubscription[] = [];
      const errors: string[] = [];
      for (const drive of drives) {
        const sub = old.find((s) => s.driveId === drive.id);
        try {
          if (sub && Date.parse(sub.expirationDateTime) - ctx.now.getTime() > RENEW_WITHIN_MS) {
            next.push(sub);
            continue;
          }
          const renewed = sub && (await api.renewSubscription(sub.id, expirationDateTime));
          const s =
            renewed ||
            (await api.createSubscription({
              resource: `/drives/${drive.id}/root`,
              notificationUrl: ctx.webhook.url,
              clientState: ctx.webhook.secret,
              expirationDateTime,
            }));
          next.push({ driveId: drive.id, id: s.id, expirationDateTime: s.expirationDateTime });
        } catch (e) {
          if (isConnectionWide(e) && toConnectorError(e).code === "auth_expired") throw e;
          errors.push(`${drive.name}: ${e instanceof Error ? e.message : String(e)}`);
          // A renewal that failed leaves the subscription as it was: it may still run until it expires.
          if (sub && Date.parse(sub.expirationDateTime) > ctx.now.getTime()) next.push(sub);
        }
      }
      for (const s of old) if (!drives.some((d) => d.id === s.driveId)) await api.deleteSubscription(s.id).catch(() => undefined);
      // Nothing registered at all: say so (the run records it); otherwise keep what worked and retry the rest next time.
      if (errors.length && next.length === 0)
        throw new ConnectorError("provider_unavailable", `Graph subscriptions could not be created: ${errors.join("; ")}`);
      return { ...conn.config, drives: drives.map(toJson), subscriptions: next.map((s) => ({ ...s })) };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  /** Deletes the connection's Graph subscriptions (best effort). */
  async unsubscribe(conn: Connection): Promise<void> {
    const api = this.api(conn);
    for (const s of configuredSubscriptions(conn)) await api.deleteSubscription(s.id).catch(() => undefined);
  }

  readonly webhooks: { read(conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict } = {
    read: (conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict => {
      // Graph's handshake when a subscription is created: echo the token as text/plain (the query is already URL-decoded).
      const token = n.query.validationToken;
      if (token !== undefined) {
        if (token.length > MAX_VALIDATION_TOKEN) return { kind: "reject", status: 400, reason: "the validationToken is too long" };
        return { kind: "respond", body: token, contentType: "text/plain" };
      }
      let payload: unknown;
      try {
        payload = JSON.parse(n.body.toString("utf8"));
      } catch {
        return { kind: "reject", status: 400, reason: "the notification is not JSON" };
      }
      const value = isObject(payload) ? payload.value : undefined;
      if (!Array.isArray(value) || value.length === 0 || !value.every(isObject))
        return { kind: "reject", status: 400, reason: "the notification has no value array" };
      if (!value.every((v) => typeof v.clientState === "string" && sameSecret(v.clientState, secret)))
        return { kind: "reject", status: 401, reason: "the notification's clientState does not match" };
      const mine = new Set(configuredSubscriptions(conn).map((s) => s.id));
      if (!value.some((v) => typeof v.subscriptionId === "string" && mine.has(v.subscriptionId)))
        return { kind: "acknowledge", reason: "not a subscription of this connection" };
      // Graph gives no delivery id; a burst of notifications folds into one debounced sync.
      return { kind: "sync" };
    },
  };

  private api(conn: Connection): GraphApi {
    return new GraphApi(this.o.authOf(conn), { baseUrl: this.o.graphUrl, fetch: this.o.fetch });
  }
}
