import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import path from "node:path/posix";
import type { JsonObject } from "@engram/kernel";
import { ProviderError } from "@engram/provider-http";
import type { Connection, ConnectionItem } from "../../../domain/connection";
import { ConnectorError } from "../../../domain/errors";
import type { TokenSet } from "../../../domain/oauth";
import type { AccountIdentity, Connector, ConnectorChange, ProviderAuth, WebhookNotification, WebhookTarget, WebhookVerdict } from "../../../app/sync-ports";
import { type DriveChange, type DriveChannel, type DriveFile, DriveApi, DriveHttpError, reasonOf, toConnectorError } from "./drive-api";

/**
 * The Google Drive connector: every file the account can read — My Drive,
 * shared with it, and the shared drives it belongs to (`corpora=allDrives`,
 * `supportsAllDrives`, `includeItemsFromAllDrives`).
 *
 * - Initial sync: `changes.getStartPageToken` first (changes made during the
 *   listing are replayed next time), then the full listing (`files.list`,
 *   trashed excluded), then that token as the cursor.
 * - Incremental: `changes.list` from the cursor, page by page, to
 *   `newStartPageToken`; each page's token becomes the cursor once its
 *   changes are applied. `removed` or `trashed` deletes; a file is imported
 *   again only when its version (content checksum or modification time, and
 *   name) moved; a shared drive that is gone removes its files.
 * - An expired or invalid page token (404, 410, or 400 about `pageToken`):
 *   a fresh start token, a full listing that deletes every known file no
 *   longer listed, then the fresh token.
 * - Content: Google Docs exported as Markdown (plain text when Google
 *   refuses), Sheets as xlsx (every sheet), Slides as plain text; Google
 *   exports at most 10 MB. Other files are downloaded as they are, up to
 *   50 MB. Folders, shortcuts, Forms, Maps, Sites, Drawings... are skipped.
 * - Real time: a `changes.watch` channel (web_hook, ≤ 7 days, not
 *   renewable): `renew` opens a new one when none exists or the current one
 *   ends within 48 h, then stops the old one. Notifications carry no change
 *   data: they ask for a sync, verified by the channel token (the
 *   connection's webhook secret) and the channel id.
 */

export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_EXPORT_BYTES = 10 * 1024 * 1024;
/** The longest a changes channel may live (Google caps it at one week). */
export const WATCH_TTL_MS = 7 * 24 * 3_600_000;
/** A channel ending sooner than this is replaced at the next renewal (renewals run about daily). */
export const WATCH_RENEW_BEFORE_MS = 48 * 3_600_000;

const GOOGLE_APPS = "application/vnd.google-apps.";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** How a file's content is read: exported from a Google format, downloaded, or not at all. */
export type ContentPlan =
  { kind: "export"; mimeType: string; extension: string; fallback?: { mimeType: string; extension: string } } | { kind: "download" } | { kind: "skip" };

export function contentPlan(mimeType: string | null | undefined): ContentPlan {
  if (!mimeType) return { kind: "download" };
  switch (mimeType) {
    case `${GOOGLE_APPS}document`:
      return { kind: "export", mimeType: "text/markdown", extension: ".md", fallback: { mimeType: "text/plain", extension: ".txt" } };
    case `${GOOGLE_APPS}spreadsheet`:
      return { kind: "export", mimeType: XLSX, extension: ".xlsx" };
    case `${GOOGLE_APPS}presentation`:
      return { kind: "export", mimeType: "text/plain", extension: ".txt" };
  }
  // Folders, shortcuts, Forms, Maps, Sites, Drawings, Apps Script, third-party shortcuts: nothing to read.
  return mimeType.startsWith(GOOGLE_APPS) ? { kind: "skip" } : { kind: "download" };
}

/** What decides a re-import: the content (checksum, else modification time, else Drive's version) and the name (the title). */
export function versionOf(f: Pick<DriveFile, "md5Checksum" | "modifiedTime" | "version" | "name">): string {
  const content = f.md5Checksum ? `md5:${f.md5Checksum}` : f.modifiedTime ? `t:${f.modifiedTime}` : `v:${f.version ?? ""}`;
  return `${content}:${createHash("sha256")
    .update(f.name ?? "")
    .digest("hex")
    .slice(0, 12)}`;
}

/** Whether Drive refused a page token as expired or invalid. */
export function isExpiredPageToken(e: unknown): boolean {
  if (!(e instanceof DriveHttpError)) return false;
  if (e.status === 404 || e.status === 410) return true;
  return e.status === 400 && (e.location === "pageToken" || /page ?token/i.test(e.serverMessage ?? ""));
}

/** The connection's watch channels as its config keeps them. */
interface WatchState {
  watch?: DriveChannel;
  /** The channel replaced last; `stopped` once Google confirmed it (or no longer knew it). */
  previousWatch?: DriveChannel & { stopped: boolean };
}

function channelOf(v: unknown): DriveChannel | undefined {
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  return typeof o.channelId === "string" && typeof o.resourceId === "string" && typeof o.expiration === "number"
    ? { channelId: o.channelId, resourceId: o.resourceId, expiration: o.expiration }
    : undefined;
}

function watchState(conn: Pick<Connection, "config">): WatchState {
  const watch = channelOf(conn.config?.watch);
  const prev = channelOf(conn.config?.previousWatch);
  const stopped = (conn.config?.previousWatch as { stopped?: unknown } | undefined)?.stopped === true;
  return { ...(watch ? { watch } : {}), ...(prev ? { previousWatch: { ...prev, stopped } } : {}) };
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();

/** Whether the failure belongs to this one file (the sync goes on) rather than to Drive as a whole. */
function itemFailure(e: unknown): string | undefined {
  if (!(e instanceof ProviderError) || e.retryable || e.status === 401) return undefined;
  if (reasonOf(e) === "exportSizeLimitExceeded") return "Google exports at most 10 MB of a Google Docs, Sheets or Slides file";
  if (e.status === 404) return "the file is no longer available";
  return e.message;
}

export interface GoogleDriveConnectorOptions {
  /** Drive's root URL (the client's rootUrl): https://www.googleapis.com/, a local fake in tests. */
  apiUrl: string;
  authOf: (c: Connection) => ProviderAuth;
}

export class GoogleDriveConnector implements Connector {
  constructor(readonly o: GoogleDriveConnectorOptions) {}

  /** The account behind a fresh token: its email, and its permission id as the provider-side account. */
  async identify(tokens: Pick<TokenSet, "accessToken">): Promise<AccountIdentity> {
    const { accessToken } = tokens;
    const api = new DriveApi(
      {
        token: async () => accessToken,
        refreshed: async () => {
          throw new ConnectorError("auth_expired", "Google refused the fresh access token");
        },
      },
      this.o.apiUrl,
    );
    try {
      const me = await api.about();
      return { ...(me.email ? { email: me.email } : {}), ...(me.permissionId ? { account: me.permissionId } : {}) };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const api = this.api(conn, signal);
    /** Versions imported in this run (a file listed twice is read once). */
    const done = new Map<string, string>();
    try {
      if (!conn.cursor) {
        yield* this.fullSync(api, known, done);
        return;
      }
      let token = conn.cursor;
      for (;;) {
        signal.throwIfAborted();
        let page: Awaited<ReturnType<DriveApi["listChanges"]>>;
        try {
          page = await api.listChanges(token);
        } catch (e) {
          if (!isExpiredPageToken(e)) throw e;
          yield* this.fullSync(api, known, done);
          return;
        }
        for (const change of page.changes) yield* this.change(api, change, known, done);
        const next = page.nextPageToken ?? page.newStartPageToken;
        if (!next) throw new DriveHttpError("changes.list answered neither a next page nor a new start page token", { retryable: false });
        if (next !== conn.cursor) yield { kind: "cursor", cursor: next };
        if (!page.nextPageToken) return;
        token = next;
      }
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  /** Everything listed now; known files no longer listed are deleted; the cursor is a start token taken before the listing. */
  private async *fullSync(api: DriveApi, known: ReadonlyMap<string, ConnectionItem>, done: Map<string, string>): AsyncIterable<ConnectorChange> {
    const start = await api.startPageToken();
    const seen = new Set<string>();
    let incomplete = false;
    let pageToken: string | undefined;
    do {
      const page = await api.listFiles(pageToken);
      incomplete ||= page.incompleteSearch;
      for (const file of page.files) {
        const id = file.id;
        if (!id) continue;
        seen.add(id);
        yield* this.file(api, { ...file, id }, known, done);
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    if (incomplete)
      yield { kind: "failure", itemKey: "listing", reason: "Google Drive answered an incomplete listing: files that are gone were not removed this time" };
    else for (const key of known.keys()) if (!seen.has(key)) yield { kind: "delete", itemKey: key, reason: "the file is no longer in Google Drive" };
    yield { kind: "cursor", cursor: start };
  }

  private async *change(
    api: DriveApi,
    change: DriveChange,
    known: ReadonlyMap<string, ConnectionItem>,
    done: Map<string, string>,
  ): AsyncIterable<ConnectorChange> {
    if (change.changeType === "drive") {
      // A shared drive the account left or that was deleted: its files go (their state is their drive id).
      if (change.removed && change.driveId)
        for (const [key, item] of known)
          if (item.state === change.driveId) yield { kind: "delete", itemKey: key, reason: "the shared drive is no longer accessible" };
      return;
    }
    const id = change.fileId ?? change.file?.id;
    if (!id) return;
    if (change.removed || !change.file) {
      done.delete(id);
      yield { kind: "delete", itemKey: id, reason: "the file was deleted or is no longer shared" };
      return;
    }
    yield* this.file(api, { ...change.file, id }, known, done);
  }

  /** One file: deleted when trashed, skipped when it has no readable content, imported when its version moved. */
  private async *file(
    api: DriveApi,
    file: DriveFile & { id: string },
    known: ReadonlyMap<string, ConnectionItem>,
    done: Map<string, string>,
  ): AsyncIterable<ConnectorChange> {
    const key = file.id;
    if (file.trashed) {
      done.delete(key);
      if (known.has(key)) yield { kind: "delete", itemKey: key, reason: "the file is in the trash" };
      return;
    }
    const plan = contentPlan(file.mimeType);
    if (plan.kind === "skip") return;
    const version = versionOf(file);
    if ((done.get(key) ?? known.get(key)?.version) === version) return;
    if (plan.kind === "download" && Number(file.size ?? 0) > MAX_FILE_BYTES) {
      yield { kind: "failure", itemKey: key, reason: `${file.name ?? key}: larger than 50 MB, skipped` };
      return;
    }
    let content: { bytes: Buffer; mimeType: string; fileName: string };
    try {
      content = await this.content(api, file, plan);
    } catch (e) {
      const reason = itemFailure(e);
      if (reason === undefined) throw e;
      yield { kind: "failure", itemKey: key, reason: `${file.name ?? key}: ${reason}`.slice(0, 500) };
      return;
    }
    const name = file.name ?? key;
    yield {
      kind: "upsert",
      itemKey: key,
      title: name,
      filepath: name,
      ...(file.webViewLink ? { url: file.webViewLink } : {}),
      metadata: { ...(file.mimeType ? { mimeType: file.mimeType } : {}), ...(file.driveId ? { driveId: file.driveId } : {}) },
      content,
      version,
      ...(file.driveId ? { state: file.driveId } : {}),
    };
    done.set(key, version);
  }

  private async content(api: DriveApi, file: DriveFile & { id: string }, plan: Exclude<ContentPlan, { kind: "skip" }>) {
    const name = file.name ?? file.id;
    if (plan.kind === "download") {
      const bytes = await api.download(file.id, MAX_FILE_BYTES);
      if (bytes.length > MAX_FILE_BYTES) throw new DriveHttpError("larger than 50 MB, skipped", { retryable: false });
      return { bytes, mimeType: file.mimeType ?? "application/octet-stream", fileName: name };
    }
    let format: { mimeType: string; extension: string } = plan;
    let bytes: Buffer;
    try {
      bytes = await api.export(file.id, plan.mimeType);
    } catch (e) {
      // Google refused this conversion (not the file's size): the plainer one.
      if (!plan.fallback || itemFailure(e) === undefined || reasonOf(e) === "exportSizeLimitExceeded") throw e;
      format = plan.fallback;
      bytes = await api.export(file.id, format.mimeType);
    }
    if (bytes.length > MAX_EXPORT_BYTES) throw new DriveHttpError("the export is larger than 10 MB", { retryable: false });
    const fileName = path.extname(name).toLowerCase() === format.extension ? name : `${name}${format.extension}`;
    return { bytes, mimeType: format.mimeType, fileName };
  }

  /**
   * Opens a changes channel when there is none or the current one ends
   * within 48 hours (first the new one, then the old one is stopped); also
   * stops a replaced channel an earlier renewal could not. The config with
   * the channels, or undefined when nothing changed.
   */
  async renew(conn: Connection, ctx: { now: Date; webhook: WebhookTarget }): Promise<JsonObject | undefined> {
    const api = this.api(conn);
    let { watch, previousWatch } = watchState(conn);
    let changed = false;
    try {
      if (!watch || watch.expiration - ctx.now.getTime() < WATCH_RENEW_BEFORE_MS) {
        const opened = await api.watch({
          pageToken: await api.startPageToken(),
          id: randomUUID(),
          address: ctx.webhook.url,
          token: ctx.webhook.secret,
          expiration: ctx.now.getTime() + WATCH_TTL_MS,
        });
        // An older replaced channel still running is stopped here too; the one replaced now is kept until stopped.
        if (previousWatch && !previousWatch.stopped) await api.stop(previousWatch).catch(() => undefined);
        previousWatch = watch ? { ...watch, stopped: false } : undefined;
        watch = opened;
        changed = true;
      }
      if (previousWatch && !previousWatch.stopped) {
        try {
          await api.stop(previousWatch);
          previousWatch = { ...previousWatch, stopped: true };
          changed = true;
        } catch (e) {
          if (e instanceof ConnectorError && e.code === "auth_expired") throw e;
          // Kept as not stopped: the next renewal tries again; it ends by itself at its expiration anyway.
        }
      }
    } catch (e) {
      throw toConnectorError(e);
    }
    if (!changed) return undefined;
    const { watch: _w, previousWatch: _p, ...rest } = conn.config ?? {};
    return {
      ...rest,
      ...(watch ? { watch: { ...watch } } : {}),
      ...(previousWatch ? { previousWatch: { ...previousWatch } } : {}),
    };
  }

  /** Stops the connection's channels (best effort: the connection is going). */
  async unsubscribe(conn: Connection): Promise<void> {
    const api = this.api(conn);
    const { watch, previousWatch } = watchState(conn);
    for (const c of [watch, previousWatch && !previousWatch.stopped ? previousWatch : undefined]) if (c) await api.stop(c).catch(() => undefined);
  }

  readonly webhooks = {
    /**
     * A channel notification: the echoed `X-Goog-Channel-Token` must be the
     * connection's webhook secret and `X-Goog-Channel-ID` its current channel
     * (or the one it just replaced); the first message (`sync`) is acknowledged.
     */
    read: (conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict => {
      const given = n.headers["x-goog-channel-token"] ?? "";
      // Compared as digests: constant time whatever the lengths.
      if (!timingSafeEqual(sha256(given), sha256(secret))) return { kind: "reject", status: 401, reason: "the X-Goog-Channel-Token does not match" };
      const channelId = n.headers["x-goog-channel-id"] ?? "";
      const { watch, previousWatch } = watchState(conn);
      const current = watch?.channelId === channelId || (previousWatch?.channelId === channelId && previousWatch.expiration > Date.now());
      if (!channelId || !current) return { kind: "reject", status: 401, reason: "not a channel this connection watches" };
      const state = n.headers["x-goog-resource-state"] ?? "";
      if (state === "sync") return { kind: "acknowledge", reason: "the channel is open" };
      const number = n.headers["x-goog-message-number"];
      return { kind: "sync", ...(number ? { deliveryId: `${channelId}:${number}` } : {}) };
    },
  };

  private api(conn: Connection, signal?: AbortSignal): DriveApi {
    return new DriveApi(this.o.authOf(conn), this.o.apiUrl, { timeoutMs: 120_000, ...(signal ? { signal } : {}) });
  }
}
