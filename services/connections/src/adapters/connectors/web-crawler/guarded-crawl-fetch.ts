/*
 * The crawler's fetch in production: the GuardedFetcher (SSRF guard, redirects
 * re-checked per hop, body bounded, deadline), configured with EngramBot's
 * User-Agent and the 10 MB page limit. The guard's private-address allowance
 * is the fetcher's policy (`allowPrivate`, ENGRAM_ALLOW_PRIVATE_URLS): tests
 * and on-prem sites set it to reach loopback or LAN hosts.
 *
 * The GuardedFetcher throws for every status outside 2xx, except a 304 to a
 * conditional request; the crawler wants those answers (404/410 gone, 5xx
 * retried), so they are turned back into responses here (without headers or
 * body: the fetcher's errors carry only the status and Retry-After).
 *
 * Conditional requests: the crawler's If-None-Match / If-Modified-Since go to
 * the fetcher as request headers. A 304 then comes back as a result with the
 * response headers (the ETag and Last-Modified to keep) and an empty body, so
 * an unchanged page costs no download. The fetcher sends these headers only
 * while a redirect chain stays on the page's origin; a 304 to a request that
 * was not conditional is still its `http_status` refusal, mapped to a 304
 * answer below (the crawler reports that page as failed).
 */
import { GuardedFetcher, UrlFetchError, UrlRefusedError, type FetchedResource, type FetcherDeps, type FetchPolicy } from "@engram/fetch";
import { CrawlFetchError, ENGRAM_BOT_USER_AGENT, MAX_PAGE_BYTES, type CrawlFetch, type CrawlResponse } from "./crawl.types";

/** What the adapter uses of a GuardedFetcher. */
export interface UrlFetcher {
  fetch(input: string, init?: { accept?: string; signal?: AbortSignal; headers?: Record<string, string> }): Promise<FetchedResource>;
}

/** The crawler's fetch over a GuardedFetcher (or anything shaped like one). */
export function crawlFetchFrom(fetcher: UrlFetcher): CrawlFetch {
  return async (req) => {
    try {
      const res = await fetcher.fetch(req.url, { accept: req.accept, headers: req.headers, ...(req.signal ? { signal: req.signal } : {}) });
      return { url: res.url, status: res.status, headers: res.headers, body: res.bytes };
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (err instanceof UrlRefusedError) {
        if (err.code === "http_status" && typeof status === "number") return statusAnswer(err.url ?? req.url, status);
        throw new CrawlFetchError(err.message, { retryable: false, cause: err });
      }
      if (err instanceof UrlFetchError) {
        if (typeof status === "number") return statusAnswer(err.url ?? req.url, status, err.retryAfterMs);
        throw new CrawlFetchError(err.message, {
          retryable: err.retryable,
          ...(err.retryAfterMs === undefined ? {} : { retryAfterMs: err.retryAfterMs }),
          cause: err,
        });
      }
      throw err; // a cancellation, or a bug: not the page's fault
    }
  };
}

export interface CrawlFetchConfig {
  /** Allow private/loopback/link-local hosts (ENGRAM_ALLOW_PRIVATE_URLS): on-prem sites and tests. */
  allowPrivate: boolean;
  /** Bound on one request, redirects and body included (the fetcher's default: 30 s). */
  timeoutMs?: number;
  /** The fetcher's injectable resolver and address check. */
  deps?: FetcherDeps;
}

/** A GuardedFetcher for crawling (EngramBot User-Agent, 10 MB per page) wrapped as the crawler's fetch. */
export function createCrawlFetch(config: CrawlFetchConfig): CrawlFetch {
  const policy: Partial<FetchPolicy> = {
    allowPrivate: config.allowPrivate,
    userAgent: ENGRAM_BOT_USER_AGENT,
    maxBytes: MAX_PAGE_BYTES,
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  };
  return crawlFetchFrom(new GuardedFetcher(policy, config.deps));
}

function statusAnswer(url: string, status: number, retryAfterMs?: number): CrawlResponse {
  return { url, status, headers: {}, body: new Uint8Array(0), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}
