import type { PageAnalysis } from "./page-analysis";
/*
 * The web crawler's contract with its caller (the sync engine) and with the
 * network (a fetch function). Types only: no code, no I/O.
 */

/** The identifying User-Agent sent with every request (the fetcher's policy carries it). */
export const ENGRAM_BOT_USER_AGENT = "EngramBot/0.1 (+https://github.com/engram)";
/** The product token matched against robots.txt `User-agent` lines (RFC 9309 §2.2.1: case-insensitive). */
export const ENGRAM_BOT_TOKEN = "EngramBot";
/** The largest page the crawler reads (connectors.md: ≤ 10 MB per page). */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** What the crawler remembers of one page between crawls; the sync engine stores it and hands it back. */
export interface PageState {
  /** The canonical URL the page was recorded under (normalised). */
  url: string;
  /** sha256 (hex) of the page's title and extracted main text. */
  contentHash: string;
  /** The validators of the last 200 answer, sent back as If-None-Match / If-Modified-Since. */
  etag?: string;
  lastModified?: string;
  /** The page's in-scope links (normalised): followed again when the page answers 304 Not Modified. */
  links?: string[];
}

/** A page read in full: first seen (`new`) or its main text changed (`changed`). */
export interface ContentPage extends PageState {
  status: "new" | "changed";
  title: string;
  /** The raw HTML, decoded to text (the pipeline extracts). */
  html: string;
  links: string[];
  /** The `<lastmod>` a sitemap gave for the page, as written there. */
  sitemapLastmod?: string;
}

/**
 * A known page whose content is the same as last time: the server answered
 * 304 (`via: "not_modified"`, no body) or the main text hashes the same
 * (`via: "same_hash"`, body included). Its state (validators may be new) is
 * still worth storing.
 */
export interface UnchangedPage extends PageState {
  status: "unchanged";
  via: "not_modified" | "same_hash";
  title?: string;
  html?: string;
  links: string[];
  sitemapLastmod?: string;
}

/** A previously known page that no longer exists as an importable page: the sync engine deletes its document. */
export interface GonePage {
  status: "gone";
  url: string;
  /** Why, e.g. "the page answered 404 Not Found" or "the page now redirects to …". */
  error: string;
}

/** A page that could not be read this time (reported on the sync run; the document, if any, is kept). */
export interface FailedPage {
  status: "failed";
  url: string;
  error: string;
  /** The HTTP status, when the failure is the server's answer. */
  httpStatus?: number;
}

export type CrawledPage = ContentPage | UnchangedPage | GonePage | FailedPage;
export type PageStatus = CrawledPage["status"];

export interface CrawlSummary {
  startUrl: string;
  /** Page requests made (robots.txt, sitemaps and retries not counted); bounded by `maxPages`. */
  pagesFetched: number;
  /** Every HTTP request, robots.txt, sitemaps and retries included. */
  requests: number;
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
  failed: number;
  /** URLs not fetched because robots.txt disallows them for EngramBot. */
  skippedByRobots: number;
  /** URLs skipped because they are not HTML (by their extension, or by the Content-Type of the answer). */
  skippedNotHtml: number;
  /** Pages that asked not to be indexed (`<meta name="robots" content="noindex">`, `X-Robots-Tag`). */
  skippedNoindex: number;
  /** Distinct links and sitemap entries to another scheme, host or port: never fetched. */
  offSiteUrls: number;
  /** Pages fetched whose canonical (or redirect target) had already been recorded in this crawl. */
  duplicates: number;
  /** Links to unknown URLs that answered 404/410 (broken links; not reported as pages). */
  notFound: number;
  /** Known pages (from the previous state) not checked in this crawl (maxPages reached, robots, robots unreachable). */
  unvisitedKnown: number;
  /** True when maxPages stopped the crawl with URLs still waiting. */
  truncated: boolean;
  robots: {
    /** `ok`: a robots.txt was read; `missing`: 4xx, all allowed; `unreachable`: 5xx or no answer, nothing crawled (RFC 9309 §2.3.1). */
    status: "ok" | "missing" | "unreachable";
    httpStatus?: number;
    error?: string;
    /** The Crawl-delay of the group that matched EngramBot, in ms. */
    crawlDelayMs?: number;
    /** The `Sitemap:` lines. */
    sitemaps: string[];
    /** How many times robots.txt was fetched (again after 24 h in a long crawl). */
    fetches: number;
  };
  sitemaps: { read: number; failed: number; urls: number };
  /** The wait applied between two requests: Crawl-delay, else the default. */
  delayMs: number;
  durationMs: number;
}

/** One HTTP request of the crawler. */
export interface CrawlRequest {
  url: string;
  /** The Accept header. */
  accept: string;
  /** Extra request headers: the conditional ones (If-None-Match, If-Modified-Since). */
  headers: Record<string, string>;
  signal?: AbortSignal;
}

/** An HTTP answer of any status (redirects already followed). */
export interface CrawlResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Response headers, names lower-case. Empty for error statuses when the fetcher does not keep them. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** Retry-After in ms, for 429 and 503 answers that carry one. */
  retryAfterMs?: number;
}

/**
 * The crawler's only I/O: fetches one URL, following redirects, and resolves
 * with the answer whatever its status. Rejects only when there is no HTTP
 * answer (refused by the URL guard, network error, timeout, body too large),
 * preferably with a {@link CrawlFetchError}.
 */
export type CrawlFetch = (request: CrawlRequest) => Promise<CrawlResponse>;

/** A fetch that produced no HTTP answer; `retryable` for transient causes (timeouts, resets). */
export class CrawlFetchError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, opts: { retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "CrawlFetchError";
    this.retryable = opts.retryable;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** A page's HTML as text and its analysis. */
export interface DecodedPage {
  html: string;
  page: PageAnalysis;
}

export interface CrawlOptions {
  /** Where the crawl starts; its scheme, host and port are the crawl's scope. */
  startUrl: string;
  fetch: CrawlFetch;
  /** The previous crawl's page states (what {@link ContentPage} / {@link UnchangedPage} carried). */
  previous?: Iterable<PageState>;
  /** At most this many page requests (default 1000). */
  maxPages?: number;
  /** Wait between two requests when robots.txt sets no Crawl-delay (default 1000 ms). */
  defaultDelayMs?: number;
  /** Retries of a transient failure (network, 429, 5xx) before the page fails (default 2). */
  maxRetries?: number;
  /** Largest page body read (default {@link MAX_PAGE_BYTES}); the fetcher should enforce it too. */
  maxPageBytes?: number;
  /** At most this many sitemap files read, indexes included (default 50). */
  maxSitemaps?: number;
  /** The robots.txt product token (default {@link ENGRAM_BOT_TOKEN}). */
  robotsToken?: string;
  /** Clock in ms (default `Date.now`): the delay, the robots.txt cache age, the duration. */
  now?: () => number;
  /** Waits `ms` (default a timer); tests inject one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Cancels the crawl: the iterator then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Decodes and analyses a page's HTML (default: on the calling thread). The
   * service passes a worker pool (PageAnalysisPool) so that a large page never
   * stalls the thread that serves requests; a rejection fails that page alone.
   */
  analyse?: (body: Uint8Array, contentType: string | undefined) => Promise<DecodedPage>;
}
