import { drive, type drive_v3 } from "@googleapis/drive";
import { parseRetryAfter, ProviderError, type RetryPolicy, withRetries } from "@engram/provider-http";
import { ConnectorError } from "../../../domain/errors";
import type { ProviderAuth } from "../../../app/sync-ports";
import { withAccessToken } from "../provider-auth";

/**
 * The Drive v3 calls the Google Drive connector makes, through the official
 * client (`@googleapis/drive`, rootUrl from configuration): the account
 * (about), the start page token, the full listing, the change feed, content
 * (download and export), and change-watch channels.
 *
 * Written around the client rather than left to it: the access token is the
 * connection's (ProviderAuth: refreshed once after a 401, rotation handled by
 * the OAuth flow), so no OAuth2Client refreshes on its own — and
 * google-auth-library would also "refresh" on a 403, which Drive answers for
 * rate limits. Retries are provider-http's, with gaxios' own turned off:
 * gaxios 7 does not read `Retry-After` (it backs off on a fixed formula) and
 * does not retry Drive's 403 `rateLimitExceeded`/`userRateLimitExceeded`,
 * which Google documents as retryable with backoff.
 */

export const DRIVE_API_URL = "https://www.googleapis.com/";
const RETRIES: RetryPolicy = { maxRetries: 4, initialBackoffMs: 500, maxBackoffMs: 60_000 };
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded", "sharingRateLimitExceeded"]);

/** The fields of a file the connector reads (listing and change feed alike). */
export const FILE_FIELDS = "id,name,mimeType,trashed,size,md5Checksum,modifiedTime,version,webViewLink,driveId";

export type DriveFile = drive_v3.Schema$File;
export type DriveChange = drive_v3.Schema$Change;
export interface DriveChannel {
  channelId: string;
  resourceId: string;
  /** Epoch milliseconds. */
  expiration: number;
}

export class DriveHttpError extends ProviderError {
  override name = "DriveHttpError";
  /** Google's error reason (`exportSizeLimitExceeded`, `rateLimitExceeded`, ...), when it gave one. */
  reason?: string;
  /** The request parameter the error is about (`pageToken`), when Google names one. */
  location?: string;
}

/** A Drive failure as the sync run reports it. */
export function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (e instanceof ProviderError) {
    if (e.status === 401) return new ConnectorError("auth_expired", "Google refused the connection's token", { cause: e });
    if (e.status === 429 || RATE_LIMIT_REASONS.has(reasonOf(e) ?? ""))
      return new ConnectorError("rate_limited", "Google Drive is rate limiting", { retryAfterMs: e.retryAfterMs, cause: e });
    if (e.retryable) return new ConnectorError("provider_unavailable", e.message, { cause: e });
  }
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

/** Google's error reason of a Drive failure, also after retries gave up (the last attempt's error is the cause). */
export function reasonOf(e: unknown): string | undefined {
  if (e instanceof DriveHttpError && e.reason) return e.reason;
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  return cause instanceof DriveHttpError ? cause.reason : undefined;
}

interface GaxiosLikeError {
  message?: string;
  status?: number;
  code?: string | number;
  response?: { status: number; headers: Headers | Record<string, string>; data?: unknown };
}

function headerGetter(h: Headers | Record<string, string> | undefined): { get(name: string): string | null } {
  if (!h) return { get: () => null };
  if (typeof (h as Headers).get === "function") return h as Headers;
  const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]));
  return { get: (n) => lower[n.toLowerCase()] ?? null };
}

/** Google's JSON error body: `{ error: { code, message, errors: [{ reason, location }] } }` (arraybuffer answers decoded first). */
function googleError(data: unknown): { message?: string; reason?: string; location?: string } {
  let body = data;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) body = Buffer.from(body as ArrayBuffer).toString("utf8");
  if (typeof body === "string") {
    const text = body;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return { message: text.slice(0, 300) };
    }
  }
  const err = (body as { error?: { message?: unknown; errors?: { reason?: unknown; location?: unknown }[] } } | undefined)?.error;
  if (!err || typeof err !== "object") return {};
  const first = Array.isArray(err.errors) ? err.errors[0] : undefined;
  return {
    ...(typeof err.message === "string" ? { message: err.message } : {}),
    ...(typeof first?.reason === "string" ? { reason: first.reason } : {}),
    ...(typeof first?.location === "string" ? { location: first.location } : {}),
  };
}

/** A gaxios failure as a ProviderError: retryable for network errors, 429, 5xx and 403 rate limits; with Google's Retry-After. */
function fromGaxios(e: unknown, what: string): unknown {
  if (e instanceof ProviderError || e instanceof ConnectorError) return e;
  const g = e as GaxiosLikeError;
  if ((e as { name?: string })?.name === "AbortError") return e;
  if (!g || typeof g !== "object" || !g.response) {
    return new DriveHttpError(`${what} failed: ${g?.message ?? String(e)}`, { retryable: true, cause: e });
  }
  const status = g.response.status;
  const info = googleError(g.response.data);
  const rateLimited = status === 403 && RATE_LIMIT_REASONS.has(info.reason ?? "");
  const err = new DriveHttpError(`${what} failed with HTTP ${status}: ${info.message ?? "(no message)"}`, {
    retryable: status === 429 || status >= 500 || rateLimited,
    status,
    retryAfterMs: parseRetryAfter(headerGetter(g.response.headers)),
    serverMessage: info.message,
  });
  err.reason = info.reason;
  err.location = info.location;
  return err;
}

export class DriveApi {
  private readonly client: drive_v3.Drive;
  constructor(
    private readonly auth: ProviderAuth,
    rootUrl: string,
    private readonly o: { timeoutMs?: number; signal?: AbortSignal; retries?: RetryPolicy } = {},
  ) {
    this.client = drive({ version: "v3", rootUrl: rootUrl.endsWith("/") ? rootUrl : `${rootUrl}/` });
  }

  async about(): Promise<{ email?: string; permissionId?: string; displayName?: string }> {
    const r = await this.call("about.get", (opts) => this.client.about.get({ fields: "user(emailAddress,permissionId,displayName)" }, opts));
    const u = r.data.user ?? {};
    return { email: u.emailAddress ?? undefined, permissionId: u.permissionId ?? undefined, displayName: u.displayName ?? undefined };
  }

  async startPageToken(): Promise<string> {
    const r = await this.call("changes.getStartPageToken", (opts) => this.client.changes.getStartPageToken({ supportsAllDrives: true }, opts));
    if (!r.data.startPageToken) throw new DriveHttpError("changes.getStartPageToken answered no token", { retryable: false });
    return r.data.startPageToken;
  }

  /** One page of every non-trashed file the account can see, shared drives included. */
  async listFiles(pageToken: string | undefined): Promise<{ files: DriveFile[]; nextPageToken?: string; incompleteSearch: boolean }> {
    const r = await this.call("files.list", (opts) =>
      this.client.files.list(
        {
          corpora: "allDrives",
          includeItemsFromAllDrives: true,
          supportsAllDrives: true,
          q: "trashed = false",
          pageSize: 1000,
          fields: `nextPageToken,incompleteSearch,files(${FILE_FIELDS})`,
          ...(pageToken ? { pageToken } : {}),
        },
        opts,
      ),
    );
    return { files: r.data.files ?? [], nextPageToken: r.data.nextPageToken ?? undefined, incompleteSearch: r.data.incompleteSearch === true };
  }

  /** One page of the change feed from `pageToken`: either a next page token or the new start page token. */
  async listChanges(pageToken: string): Promise<{ changes: DriveChange[]; nextPageToken?: string; newStartPageToken?: string }> {
    const r = await this.call("changes.list", (opts) =>
      this.client.changes.list(
        {
          pageToken,
          includeItemsFromAllDrives: true,
          supportsAllDrives: true,
          includeRemoved: true,
          pageSize: 1000,
          fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,driveId,file(${FILE_FIELDS}))`,
        },
        opts,
      ),
    );
    return { changes: r.data.changes ?? [], nextPageToken: r.data.nextPageToken ?? undefined, newStartPageToken: r.data.newStartPageToken ?? undefined };
  }

  /** A file's bytes (alt=media); at most `maxBytes` (a longer declared Content-Length fails the call). */
  async download(fileId: string, maxBytes: number): Promise<Buffer> {
    const r = await this.call("files.get", (opts) =>
      this.client.files.get({ fileId, alt: "media", supportsAllDrives: true }, { ...opts, responseType: "arraybuffer", maxContentLength: maxBytes }),
    );
    return Buffer.from(r.data as unknown as ArrayBuffer);
  }

  /** A Google Docs editors file converted to `mimeType` (Google refuses exports over 10 MB: exportSizeLimitExceeded). */
  async export(fileId: string, mimeType: string): Promise<Buffer> {
    const r = await this.call("files.export", (opts) => this.client.files.export({ fileId, mimeType }, { ...opts, responseType: "arraybuffer" }));
    return Buffer.from(r.data as unknown as ArrayBuffer);
  }

  /** Opens a channel delivering change notifications to `address`, signed with `token`. */
  async watch(p: { pageToken: string; id: string; address: string; token: string; expiration: number }): Promise<DriveChannel> {
    const r = await this.call("changes.watch", (opts) =>
      this.client.changes.watch(
        {
          pageToken: p.pageToken,
          includeItemsFromAllDrives: true,
          supportsAllDrives: true,
          includeRemoved: true,
          requestBody: { id: p.id, type: "web_hook", address: p.address, token: p.token, expiration: String(p.expiration) },
        },
        opts,
      ),
    );
    const c = r.data;
    if (!c.resourceId) throw new DriveHttpError("changes.watch answered no resourceId", { retryable: false });
    return { channelId: c.id ?? p.id, resourceId: c.resourceId, expiration: Number(c.expiration ?? p.expiration) || p.expiration };
  }

  /** Stops a channel; false when Google no longer knows it (already stopped or expired). */
  async stop(channel: Pick<DriveChannel, "channelId" | "resourceId">): Promise<boolean> {
    try {
      await this.call("channels.stop", (opts) => this.client.channels.stop({ requestBody: { id: channel.channelId, resourceId: channel.resourceId } }, opts));
      return true;
    } catch (e) {
      if (e instanceof DriveHttpError && e.status === 404) return false;
      throw e;
    }
  }

  /** One call with retries (Retry-After honoured); a 401 gets one fresh token and one more try. */
  private async call<T>(
    what: string,
    f: (opts: { headers: Record<string, string>; retry: false; timeout: number; fetchImplementation: typeof fetch; signal?: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    return withAccessToken(this.auth, (token) =>
      withRetries(
        async () => {
          this.o.signal?.throwIfAborted();
          try {
            return await f({
              headers: { authorization: `Bearer ${token}` },
              retry: false,
              // Node's own fetch: gaxios would otherwise import node-fetch on first use.
              fetchImplementation: fetch,
              timeout: this.o.timeoutMs ?? 60_000,
              ...(this.o.signal ? { signal: this.o.signal } : {}),
            });
          } catch (e) {
            throw fromGaxios(e, `Drive ${what}`);
          }
        },
        this.o.retries ?? RETRIES,
        { errorClass: DriveHttpError, what: `Drive ${what}` },
      ),
    );
  }
}
