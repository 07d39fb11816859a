/*
 * robots.txt as RFC 9309 asks a crawler to treat it. The rules themselves
 * (groups, longest match, Allow winning ties, `*` and `$`, percent-encoding,
 * case-insensitive product-token matching, merged groups of one agent) are
 * robots-parser's job; this file adds what the parser cannot know: what the
 * HTTP outcome of fetching robots.txt means (§2.3.1), the 500 KiB parse limit
 * (§2.5), and Crawl-delay in milliseconds. Pure: the crawler fetches.
 */
import robotsParser from "robots-parser";

/** §2.5: crawlers must parse at least 500 KiB; we parse exactly that much. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** connectors.md: a robots.txt is not reused for more than 24 h (RFC 9309 §2.4 says SHOULD NOT beyond 24 h). */
export const ROBOTS_TTL_MS = 24 * 60 * 60 * 1000;

/** What fetching robots.txt gave: an HTTP answer, or no answer at all. */
export type RobotsOutcome = { status: number; body: Uint8Array } | { error: string };

export interface RobotsPolicy {
  readonly status: "ok" | "missing" | "unreachable";
  readonly httpStatus: number | undefined;
  readonly error: string | undefined;
  /** Crawl-delay of the group that matches the token, in ms. */
  readonly crawlDelayMs: number | undefined;
  /** The `Sitemap:` lines, as written. */
  readonly sitemaps: string[];
  /** True when `url` (on the robots.txt's own origin) may be fetched. */
  isAllowed(url: string): boolean;
}

/**
 * The policy for one site from the outcome of fetching `robotsUrl`:
 * 2xx → its rules; 4xx → everything allowed (the file is "unavailable");
 * 5xx, 429 and no answer → nothing allowed (the file is "unreachable").
 * 429 is treated as unreachable, not as a 4xx: it says "not now", and
 * crawling a site that is rate-limiting us would ignore whatever its rules say.
 * Redirects have already been followed by the fetcher (§2.3.1.2).
 */
export function robotsPolicy(robotsUrl: string, outcome: RobotsOutcome, token: string): RobotsPolicy {
  if ("error" in outcome) return denyAll(undefined, outcome.error);
  const { status } = outcome;
  if (status >= 200 && status < 300) {
    const text = new TextDecoder("utf-8").decode(outcome.body.subarray(0, ROBOTS_MAX_BYTES));
    const robots = robotsParser(robotsUrl, text);
    const delay = robots.getCrawlDelay(token);
    return {
      status: "ok",
      httpStatus: status,
      error: undefined,
      crawlDelayMs: delay !== undefined && Number.isFinite(delay) && delay >= 0 ? Math.round(delay * 1000) : undefined,
      sitemaps: robots.getSitemaps(),
      // The parser answers undefined for a URL of another origin: not ours to allow.
      isAllowed: (url) => robots.isAllowed(url, token) === true,
    };
  }
  if (status >= 400 && status < 500 && status !== 429) {
    return { status: "missing", httpStatus: status, error: undefined, crawlDelayMs: undefined, sitemaps: [], isAllowed: () => true };
  }
  return denyAll(status, `robots.txt answered ${status}`);
}

function denyAll(httpStatus: number | undefined, error: string): RobotsPolicy {
  return { status: "unreachable", httpStatus, error, crawlDelayMs: undefined, sitemaps: [], isAllowed: () => false };
}
