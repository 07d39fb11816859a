import {
  describeNetworkError,
  displayUrl,
  parseRetryAfter,
  ProviderError,
  RETRYABLE_STATUS,
  type RetryPolicy,
  scrub,
  serverMessage,
  withRetries,
} from "@engram/provider-http";
import { z } from "zod";
import { ConnectorError } from "../../../domain/errors";
import type { ProviderAuth } from "../../../app/sync-ports";
import { orMissing, withAccessToken } from "../provider-auth";

/**
 * The few Microsoft Graph calls the OneDrive connector makes: the account
 * (`/me`, `/me/drive`), SharePoint sites and their document libraries, a
 * drive's delta feed (`@odata.nextLink` pages up to an `@odata.deltaLink`;
 * 410 Gone when the link expired), one item, an item's bytes, and change
 * notification subscriptions (create, renew, delete).
 *
 * Hand-written on `fetch` and @engram/provider-http rather than the Graph
 * SDK (`@microsoft/microsoft-graph-client`): the SDK drops the
 * `Authorization` header when its base URL is plain HTTP, so it cannot talk
 * to a local fake (connectors.md), and a second client would bring its own
 * retry handler beside the shared one. Here every call has the retry policy
 * every connector shares (Retry-After honoured, else truncated exponential
 * backoff with jitter), one timeout, one mapping of failures to sync error
 * codes, and a 401 goes through the connection's token path (refresh with
 * rotation, then one more try). The bearer token is only ever sent to the
 * configured Graph origin: links Graph hands back (next and delta links)
 * elsewhere are refused, and an item's content is fetched from the
 * pre-authenticated URL Graph redirects to WITHOUT the Authorization header
 * (such URLs refuse it, and it must not leak to a download host).
 */

export const GRAPH_API_URL = "https://graph.microsoft.com/v1.0";
const RETRIES: RetryPolicy = { maxRetries: 3, initialBackoffMs: 500, maxBackoffMs: 30_000 };
const JSON_TIMEOUT_MS = 30_000;
const DOWNLOAD_TIMEOUT_MS = 180_000;
/** Largest JSON answer read (a delta page of 200 items is a few hundred KB). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;
/**
 * Delta: items removed from the user's view (a permission removed) come back
 * as deleted, folders the user cannot open are traversed for the items below
 * them they can, and items changed only by sharing are annotated. Microsoft
 * requires the first two with the third.
 */
export const DELTA_PREFER = "deltashowremovedasdeleted, deltatraversepermissiongaps, deltashowsharingchanges";

export class GraphHttpError extends ProviderError {
  override name = "GraphHttpError";
}

/** An item's content is larger than the connector imports. */
export class ContentTooLargeError extends Error {
  override name = "ContentTooLargeError";
}

/** A delta link Graph no longer honours (410 Gone, resyncRequired): enumerate the drive again from scratch. */
export class DeltaExpiredError extends Error {
  override name = "DeltaExpiredError";
}

const parentSchema = z.looseObject({ driveId: z.string().optional(), id: z.string().optional(), path: z.string().optional() });
const itemSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  eTag: z.string().optional(),
  cTag: z.string().optional(),
  size: z.number().optional(),
  webUrl: z.string().optional(),
  lastModifiedDateTime: z.string().optional(),
  parentReference: parentSchema.optional(),
  file: z.looseObject({ mimeType: z.string().optional() }).optional(),
  folder: z.looseObject({}).optional(),
  package: z.looseObject({}).optional(),
  root: z.looseObject({}).optional(),
  deleted: z.looseObject({}).optional(),
});
export type DriveItem = z.infer<typeof itemSchema>;
const deltaSchema = z.looseObject({
  value: z.array(itemSchema),
  "@odata.nextLink": z.string().optional(),
  "@odata.deltaLink": z.string().optional(),
});
const meSchema = z.looseObject({ id: z.string().optional(), mail: z.string().nullish(), userPrincipalName: z.string().nullish() });
const driveSchema = z.looseObject({ id: z.string(), name: z.string().optional(), driveType: z.string().optional(), webUrl: z.string().optional() });
export type GraphDrive = z.infer<typeof driveSchema>;
const drivesSchema = z.looseObject({ value: z.array(driveSchema), "@odata.nextLink": z.string().optional() });
const siteSchema = z.looseObject({ id: z.string(), displayName: z.string().nullish(), name: z.string().nullish(), webUrl: z.string().nullish() });
export type GraphSite = z.infer<typeof siteSchema>;
const subscriptionSchema = z.looseObject({ id: z.string(), expirationDateTime: z.string() });
export type GraphSubscription = z.infer<typeof subscriptionSchema>;

/** A Graph failure as the sync run reports it. */
export function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (e instanceof ProviderError) {
    if (e.status === 401) return new ConnectorError("auth_expired", "Microsoft Graph refused the connection's token", { cause: e });
    if (e.status === 429) return new ConnectorError("rate_limited", "Microsoft Graph is throttling", { retryAfterMs: e.retryAfterMs, cause: e });
    if (e.retryable) return new ConnectorError("provider_unavailable", e.message, { cause: e });
  }
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

/** Whether a failure concerns the whole connection (stop the sync) rather than one item. */
export function isConnectionWide(e: unknown): boolean {
  if (e instanceof ConnectorError) return e.code !== "internal";
  return e instanceof ProviderError && (e.status === 401 || e.retryable);
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";
interface Exchange {
  method: Method;
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** 3xx answers are returned rather than followed (Graph's content redirect). */
  manualRedirect?: boolean;
  maxBytes: number;
  timeoutMs: number;
  what: string;
}
interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export class GraphApi {
  private readonly base: string;
  private readonly origin: string;
  private readonly fetch: typeof fetch;
  constructor(
    private readonly auth: ProviderAuth,
    o: { baseUrl?: string; fetch?: typeof fetch } = {},
  ) {
    this.base = (o.baseUrl ?? GRAPH_API_URL).replace(/\/+$/, "");
    this.origin = new URL(this.base).origin;
    this.fetch = o.fetch ?? fetch;
  }

  /** The signed-in user: their email (`mail`, else the user principal name). */
  async me(): Promise<{ id?: string; email?: string }> {
    const me = meSchema.parse(await this.json("GET", "/me"));
    const email = me.mail || me.userPrincipalName || undefined;
    return { ...(me.id ? { id: me.id } : {}), ...(email ? { email } : {}) };
  }

  /** The user's own OneDrive. */
  async myDrive(): Promise<GraphDrive> {
    return driveSchema.parse(await this.json("GET", "/me/drive"));
  }

  /** A SharePoint site by `hostname:/server-relative/path` or site id; undefined when there is none (or it cannot be read). */
  async site(spec: { hostname: string; path: string } | { id: string }): Promise<GraphSite | undefined> {
    const ref = "id" in spec ? encodeURIComponent(spec.id).replace(/%2C/gi, ",") : `${encodeURIComponent(spec.hostname)}:${encodePath(spec.path)}`;
    return orMissing(async () => siteSchema.parse(await this.json("GET", `/sites/${ref}`)));
  }

  /** A site's document libraries. */
  async siteDrives(siteId: string): Promise<GraphDrive[]> {
    const out: GraphDrive[] = [];
    let next: string | undefined = `/sites/${encodeURIComponent(siteId).replace(/%2C/gi, ",")}/drives`;
    for (let pages = 0; next && pages < 50; pages++) {
      const page = drivesSchema.parse(await this.json("GET", next));
      out.push(...page.value);
      next = page["@odata.nextLink"];
    }
    return out;
  }

  /** The first delta request of a drive: a full enumeration from scratch. */
  deltaStart(driveId: string): string {
    return `${this.base}/drives/${encodeURIComponent(driveId)}/root/delta`;
  }

  /** One page of a drive's delta feed; DeltaExpiredError when Graph wants a full resync (410). */
  async deltaPage(link: string): Promise<{ items: DriveItem[]; nextLink?: string; deltaLink?: string }> {
    try {
      const page = deltaSchema.parse(await this.json("GET", link, undefined, { prefer: DELTA_PREFER }));
      return { items: page.value, nextLink: page["@odata.nextLink"], deltaLink: page["@odata.deltaLink"] };
    } catch (e) {
      if (e instanceof ProviderError && e.status === 410)
        throw new DeltaExpiredError("Graph no longer honours the drive's delta link (410 Gone)", { cause: e });
      throw e;
    }
  }

  /** One item (with its parent's path, which delta leaves out); undefined when it is gone. */
  async item(driveId: string, itemId: string): Promise<DriveItem | undefined> {
    return orMissing(async () => itemSchema.parse(await this.json("GET", `/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(itemId)}`)));
  }

  /**
   * An item's bytes: Graph answers 302 to a pre-authenticated download URL,
   * fetched without the Authorization header. ContentTooLargeError past
   * `maxBytes`; undefined when the item is gone.
   */
  async content(driveId: string, itemId: string, maxBytes: number): Promise<Buffer | undefined> {
    const url = `${this.base}/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(itemId)}/content`;
    const what = "Graph GET /drives/{drive}/items/{item}/content";
    return orMissing(() =>
      withAccessToken(this.auth, async (token) =>
        withRetries(
          async () => {
            const first = await this.exchange({ method: "GET", url, token, manualRedirect: true, maxBytes, timeoutMs: DOWNLOAD_TIMEOUT_MS, what });
            if (first.status < 300) return first.body;
            const location = first.headers.get("location");
            if (!location) throw new GraphHttpError(`${what} redirected nowhere`, { retryable: false, status: first.status });
            const download = new URL(location, url).href;
            const res = await this.exchange({ method: "GET", url: download, maxBytes, timeoutMs: DOWNLOAD_TIMEOUT_MS, what: "the pre-authenticated download" });
            return res.body;
          },
          RETRIES,
          { errorClass: GraphHttpError, what },
        ),
      ),
    );
  }

  async createSubscription(s: { resource: string; notificationUrl: string; clientState: string; expirationDateTime: string }): Promise<GraphSubscription> {
    return subscriptionSchema.parse(await this.json("POST", "/subscriptions", { changeType: "updated", ...s }));
  }

  /** The renewed subscription, or undefined when Graph no longer has it. */
  async renewSubscription(id: string, expirationDateTime: string): Promise<GraphSubscription | undefined> {
    return orMissing(async () => subscriptionSchema.parse(await this.json("PATCH", `/subscriptions/${encodeURIComponent(id)}`, { expirationDateTime })));
  }

  async deleteSubscription(id: string): Promise<void> {
    await orMissing(() => this.json("DELETE", `/subscriptions/${encodeURIComponent(id)}`));
  }

  /** A JSON call with retries; a 401 gets one fresh token and one more try. `path`: under the base, or a link Graph gave. */
  private async json(method: Method, path: string, body?: unknown, headers?: Record<string, string>): Promise<unknown> {
    const url = this.resolve(path);
    const what = `Graph ${method} ${displayUrl(url).slice(this.base.length) || "/"}`;
    const res = await withAccessToken(this.auth, (token) =>
      withRetries(
        () =>
          this.exchange({
            method,
            url,
            token,
            body,
            headers: { accept: "application/json", ...headers },
            maxBytes: MAX_JSON_BYTES,
            timeoutMs: JSON_TIMEOUT_MS,
            what,
          }),
        RETRIES,
        { errorClass: GraphHttpError, what },
      ),
    );
    if (res.body.length === 0) return undefined;
    try {
      return JSON.parse(res.body.toString("utf8")) as unknown;
    } catch {
      throw new GraphHttpError(`${what} answered something that is not JSON`, { retryable: false });
    }
  }

  /** An absolute URL on the Graph origin: the token goes nowhere else. */
  private resolve(path: string): string {
    if (path.startsWith("/")) return `${this.base}${path}`;
    const url = new URL(path);
    if (url.origin !== this.origin) throw new GraphHttpError(`Graph handed back a link outside ${this.origin}: ${displayUrl(path)}`, { retryable: false });
    return url.href;
  }

  /** One request: the whole answer read (up to maxBytes); GraphHttpError for anything but 2xx (and 3xx when asked). */
  private async exchange(o: Exchange): Promise<Answer> {
    const headers: Record<string, string> = { ...(o.body !== undefined ? { "content-type": "application/json" } : {}), ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    let res: Response;
    let body: Buffer;
    try {
      res = await this.fetch(o.url, {
        method: o.method,
        headers,
        redirect: o.manualRedirect ? "manual" : "follow",
        signal: controller.signal,
        ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      });
      const ok = (res.status >= 200 && res.status < 300) || (o.manualRedirect === true && res.status >= 300 && res.status < 400);
      const declared = Number(res.headers.get("content-length") ?? NaN);
      if (ok && declared > o.maxBytes) {
        controller.abort();
        throw new ContentTooLargeError(`${o.what}: ${declared} bytes, over the ${o.maxBytes}-byte limit`);
      }
      body = await readCapped(res, ok ? o.maxBytes : 64 * 1024, o.what);
    } catch (e) {
      if (e instanceof ContentTooLargeError) throw e;
      const msg = controller.signal.aborted ? `${o.what} timed out after ${o.timeoutMs} ms` : `${o.what} failed: ${scrub(describeNetworkError(e), [o.token])}`;
      throw new GraphHttpError(msg, { retryable: true, cause: e });
    } finally {
      clearTimeout(timer);
    }
    if ((res.status >= 200 && res.status < 300) || (o.manualRedirect && res.status >= 300 && res.status < 400))
      return { status: res.status, headers: res.headers, body };
    const server = scrub(serverMessage(body.toString("utf8")), [o.token]);
    throw new GraphHttpError(`${o.what} failed with HTTP ${res.status}: ${server || "(empty body)"}`, {
      retryable: RETRYABLE_STATUS.has(res.status),
      status: res.status,
      retryAfterMs: parseRetryAfter(res.headers),
      serverMessage: server,
    });
  }
}

/** The body, refused past `max` bytes (ContentTooLargeError for successes; error bodies are cut). */
async function readCapped(res: Response, max: number, what: string): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      if (res.ok) throw new ContentTooLargeError(`${what}: over the ${max}-byte limit`);
      break;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** A server-relative path with each segment encoded. */
function encodePath(p: string): string {
  return `/${p
    .split("/")
    .filter(Boolean)
    .map((s) => encodeURIComponent(decodeURIComponentSafe(s)))
    .join("/")}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
