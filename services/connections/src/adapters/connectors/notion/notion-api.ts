import {
  APIErrorCode,
  APIResponseError,
  type BlockObjectResponse,
  Client,
  type DataSourceObjectResponse,
  isFullBlock,
  isFullDataSource,
  isFullPage,
  isNotionClientError,
  LogLevel,
  type PageObjectResponse,
  RequestTimeoutError,
  UnknownHTTPResponseError,
} from "@notionhq/client";
import { backoffDelay, parseRetryAfter, type RetryPolicy } from "@engram/provider-http";
import type { Logger } from "@engram/observability";
import { ConnectorError } from "../../../domain/errors";
import type { ProviderAuth } from "../../../app/sync-ports";

/**
 * The Notion calls of the Notion connector, through the official client
 * (@notionhq/client v5, which sends `Notion-Version: 2025-09-03`: databases
 * are containers of data sources, rows are read with `dataSources.query`,
 * and search returns pages and data sources).
 *
 * Retries: the client itself retries 429 and 529 for every method (it waits
 * the `Retry-After` it was given, capped by maxRetryDelayMs, else
 * exponential backoff with jitter) and 500/503 for GET and DELETE only. What
 * it does not retry but is safe here (every call is a read, search and
 * queries included, although they are POSTs) is retried around it: server
 * errors of POST reads, 502/504, timeouts and network failures. A 401 asks
 * the connection's tokens for a refreshed access token once and tries again.
 * Failures leave here as ConnectorError codes: 401 after the refresh →
 * auth_expired, 429 after the retries → rate_limited, 5xx/network →
 * provider_unavailable; a 404 is `undefined` where an item may be gone.
 */

export interface NotionRetry {
  /** The client's own retries of 429/529 (Retry-After honoured). */
  client: { maxRetries: number; initialRetryDelayMs: number; maxRetryDelayMs: number };
  /** Retries of server and network failures the client does not retry. */
  outer: RetryPolicy;
}

export const NOTION_RETRY: NotionRetry = {
  client: { maxRetries: 4, initialRetryDelayMs: 1000, maxRetryDelayMs: 60_000 },
  outer: { maxRetries: 2, initialBackoffMs: 1000, maxBackoffMs: 30_000 },
};

const PAGE_SIZE = 100;

export type SearchResult =
  { kind: "page"; page: PageObjectResponse } | { kind: "data_source"; dataSource: DataSourceObjectResponse } | { kind: "partial"; id: string; object: string };

/** A page of a listing and whether Notion said the listing was cut short (its result limit). */
export interface ListingPage<T> {
  results: T[];
  incomplete: boolean;
}

/** A Notion failure as the sync run reports it. */
export function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (APIResponseError.isAPIResponseError(e)) {
    if (e.status === 401) return new ConnectorError("auth_expired", "Notion refused the connection's token", { cause: e });
    if (e.status === 429 || e.code === APIErrorCode.RateLimited)
      return new ConnectorError("rate_limited", "Notion is rate limiting", { retryAfterMs: retryAfterOf(e), cause: e });
    if (e.status >= 500) return new ConnectorError("provider_unavailable", `Notion answered ${e.status}: ${e.message}`, { cause: e });
    return new ConnectorError("internal", `Notion answered ${e.status} (${e.code}): ${e.message}`, { cause: e });
  }
  if (UnknownHTTPResponseError.isUnknownHTTPResponseError(e) && e.status >= 500)
    return new ConnectorError("provider_unavailable", `Notion answered ${e.status}`, { cause: e });
  if (RequestTimeoutError.isRequestTimeoutError(e)) return new ConnectorError("provider_unavailable", "Notion did not answer in time", { cause: e });
  if (!isNotionClientError(e) && e instanceof TypeError) return new ConnectorError("provider_unavailable", `Notion is unreachable: ${e.message}`, { cause: e });
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

function retryAfterOf(e: APIResponseError): number | undefined {
  const h = e.headers as unknown;
  if (h && typeof (h as Headers).get === "function") return parseRetryAfter(h as Headers);
  return undefined;
}

/** 404 object_not_found: the object does not exist or is not shared with the integration. */
export const isNotFound = (e: unknown) => APIResponseError.isAPIResponseError(e) && (e.status === 404 || e.code === APIErrorCode.ObjectNotFound);
/** A failure of one item only (the item is restricted or malformed), not of the whole sync. */
export const isItemFailure = (e: unknown) =>
  APIResponseError.isAPIResponseError(e) && (e.status === 403 || e.status === 400 || e.code === APIErrorCode.ValidationError);

/** Failures worth another try that the client did not retry itself. */
function retryableOutside(e: unknown, method: "get" | "post"): boolean {
  if (APIResponseError.isAPIResponseError(e)) {
    if (e.code === APIErrorCode.RateLimited || e.code === APIErrorCode.ServiceOverload) return false;
    if (e.code === APIErrorCode.InternalServerError || e.code === APIErrorCode.ServiceUnavailable) return method === "post";
    return e.status >= 500;
  }
  if (UnknownHTTPResponseError.isUnknownHTTPResponseError(e)) return e.status >= 500;
  if (RequestTimeoutError.isRequestTimeoutError(e)) return true;
  return !isNotionClientError(e) && e instanceof TypeError;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class NotionApi {
  private readonly client: Client;
  private token: string | undefined;

  constructor(
    private readonly auth: ProviderAuth,
    private readonly o: { apiUrl: string; logger: Logger; retry?: NotionRetry; fetch?: typeof fetch; timeoutMs?: number },
  ) {
    const retry = o.retry ?? NOTION_RETRY;
    this.client = new Client({
      baseUrl: o.apiUrl.replace(/\/+$/, ""),
      timeoutMs: o.timeoutMs ?? 30_000,
      retry: retry.client,
      logLevel: LogLevel.WARN,
      // The client's own log lines (each failed attempt) at debug: the run reports what finally failed.
      logger: (level, message, extra) => o.logger.debug({ ...extra, notionLevel: level }, `notion client: ${message}`),
      ...(o.fetch ? { fetch: o.fetch } : {}),
    });
  }

  /** One page of search results, newest edit first. `inTrash`: only trashed objects (Notion excludes them otherwise). */
  async search(p: { object?: "page" | "data_source"; inTrash?: boolean; cursor?: string }): Promise<ListingPage<SearchResult> & { next?: string }> {
    const filter = p.object
      ? { property: "object" as const, value: p.object, ...(p.inTrash ? { in_trash: true } : {}) }
      : p.inTrash
        ? { in_trash: true }
        : undefined;
    const res = await this.call("post", (auth) =>
      this.client.search({
        auth,
        sort: { timestamp: "last_edited_time", direction: "descending" },
        page_size: PAGE_SIZE,
        ...(filter ? { filter } : {}),
        ...(p.cursor ? { start_cursor: p.cursor } : {}),
      }),
    );
    const results: SearchResult[] = res.results.map((r) =>
      isFullPage(r)
        ? { kind: "page", page: r }
        : isFullDataSource(r)
          ? { kind: "data_source", dataSource: r }
          : { kind: "partial", id: r.id, object: r.object },
    );
    return { results, incomplete: res.request_status?.type === "incomplete", ...(res.has_more && res.next_cursor ? { next: res.next_cursor } : {}) };
  }

  /** One page of a data source's rows, newest edit first; `since`: only rows edited at or after it. */
  async queryRows(dataSourceId: string, p: { since?: string; cursor?: string }): Promise<ListingPage<PageObjectResponse> & { next?: string }> {
    const res = await this.call("post", (auth) =>
      this.client.dataSources.query({
        auth,
        data_source_id: dataSourceId,
        sorts: [{ timestamp: "last_edited_time", direction: "descending" }],
        page_size: PAGE_SIZE,
        result_type: "page",
        ...(p.since ? { filter: { timestamp: "last_edited_time", last_edited_time: { on_or_after: p.since } } } : {}),
        ...(p.cursor ? { start_cursor: p.cursor } : {}),
      }),
    );
    return {
      results: res.results.filter((r): r is PageObjectResponse => isFullPage(r)),
      incomplete: res.request_status?.type === "incomplete",
      ...(res.has_more && res.next_cursor ? { next: res.next_cursor } : {}),
    };
  }

  /** The page, or undefined when it is gone or no longer shared (404). */
  async page(id: string): Promise<PageObjectResponse | undefined> {
    try {
      const p = await this.call("get", (auth) => this.client.pages.retrieve({ auth, page_id: id }));
      return isFullPage(p) ? p : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** Every child block of a block, page after page (404: thrown, the caller decides). */
  async children(blockId: string): Promise<BlockObjectResponse[]> {
    const out: BlockObjectResponse[] = [];
    let cursor: string | undefined;
    do {
      const res = await this.call("get", (auth) =>
        this.client.blocks.children.list({ auth, block_id: blockId, page_size: PAGE_SIZE, ...(cursor ? { start_cursor: cursor } : {}) }),
      );
      for (const b of res.results) if (isFullBlock(b)) out.push(b);
      cursor = res.has_more && res.next_cursor ? res.next_cursor : undefined;
    } while (cursor);
    return out;
  }

  /** A call with the connection's token: refreshed once after a 401; server and network failures retried. */
  private async call<T>(method: "get" | "post", f: (auth: string) => Promise<T>): Promise<T> {
    const policy = (this.o.retry ?? NOTION_RETRY).outer;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.authorized(f);
      } catch (e) {
        if (attempt >= policy.maxRetries || !retryableOutside(e, method)) throw e;
        await sleep(backoffDelay(attempt, policy, undefined));
      }
    }
  }

  private async authorized<T>(f: (auth: string) => Promise<T>): Promise<T> {
    this.token ??= await this.auth.token();
    try {
      return await f(this.token);
    } catch (e) {
      if (!APIResponseError.isAPIResponseError(e) || e.status !== 401) throw e;
      this.token = await this.auth.refreshed(this.token);
      return await f(this.token);
    }
  }
}
