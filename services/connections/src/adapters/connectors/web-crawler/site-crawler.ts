/*
 * Crawls one site and reports, page by page, what changed since the previous
 * crawl. The caller pulls pages from an async iterator: the crawler does not
 * send the next request before the caller asked for the next page, so a sync
 * engine applies each page durably before the crawl moves on.
 *
 * Order of work: robots.txt (RFC 9309; nothing is crawled when it is
 * unreachable), sitemaps (robots.txt `Sitemap:` lines and /sitemap.xml,
 * indexes followed), then a breadth-first walk from the start URL over the
 * sitemap URLs, the previously known URLs and every same-origin `<a href>`.
 * One request at a time, a Crawl-delay (or the default delay) between any two.
 *
 * Hand-written: crawling libraries for Node (crawlee, simplecrawler,
 * node-crawler) bring their own HTTP clients, queues and storage, so their
 * requests would bypass the guarded fetcher, and none offers recrawl change
 * detection against a caller's state. The parts that are standard are
 * libraries: robots-parser, fast-xml-parser, htmlparser2.
 */
import { setTimeout as delay } from "node:timers/promises";
import { STATUS_CODES } from "node:http";
import { CrawlScope, hasNonHtmlExtension, normaliseUrl } from "./crawl-url";
import {
  CrawlFetchError,
  ENGRAM_BOT_TOKEN,
  MAX_PAGE_BYTES,
  type CrawledPage,
  type CrawlFetch,
  type CrawlOptions,
  type CrawlRequest,
  type CrawlResponse,
  type CrawlSummary,
  type DecodedPage,
  type PageState,
} from "./crawl.types";
import { decodeAndAnalyse, isHtml, mediaType, type PageAnalysis, robotsTagDirectives } from "./page-analysis";
import { ROBOTS_TTL_MS, robotsPolicy, type RobotsPolicy } from "./robots-policy";
import { parseSitemap } from "./sitemap-parser";

const DEFAULTS = { maxPages: 1000, defaultDelayMs: 1000, maxRetries: 2, maxSitemaps: 50 };
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
const SITEMAP_ACCEPT = "application/xml,text/xml;q=0.9,*/*;q=0.1";
const ROBOTS_ACCEPT = "text/plain,*/*;q=0.1";
/** Backoff of transient failures without Retry-After: 1 s, 2 s, 4 s … capped. */
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** A Retry-After longer than this fails the page instead of stalling the crawl. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Sitemap URLs taken into the queue at most (50 sitemaps of 50,000 would be 2.5 M). */
const MAX_SITEMAP_URLS = 100_000;

type Answer = CrawlResponse | { error: string };

/** Crawls once: `pages()` runs the crawl, `summary` is set when it has finished. */
export class SiteCrawler {
  private started = false;
  private result: CrawlSummary | undefined;

  constructor(private readonly options: CrawlOptions) {
    const start = normaliseUrl(options.startUrl);
    if (!start) throw new RangeError(`web crawler: the start URL ${JSON.stringify(options.startUrl)} is not an http(s) URL`);
    const maxPages = options.maxPages ?? DEFAULTS.maxPages;
    if (!Number.isSafeInteger(maxPages) || maxPages < 0) throw new RangeError(`web crawler: maxPages must be a non-negative integer, not ${maxPages}`);
  }

  /** The crawl's summary, once `pages()` has been iterated to the end. */
  get summary(): CrawlSummary | undefined {
    return this.result;
  }

  /** Runs the crawl, yielding each page as it is decided; returns the summary. Callable once. */
  async *pages(): AsyncGenerator<CrawledPage, CrawlSummary, undefined> {
    if (this.started) throw new Error("web crawler: a SiteCrawler crawls once; create another");
    this.started = true;
    const run = new CrawlRun(this.options);
    yield* run.run();
    this.result = run.summary;
    return run.summary;
  }
}

/** Callback form: `onPage` is awaited before the crawl goes on. */
export async function crawlSite(options: CrawlOptions, onPage: (page: CrawledPage) => Promise<void> | void): Promise<CrawlSummary> {
  const crawler = new SiteCrawler(options);
  const pages = crawler.pages();
  for (;;) {
    const next = await pages.next();
    if (next.done) return next.value;
    await onPage(next.value);
  }
}

class CrawlRun {
  readonly summary: CrawlSummary;
  private readonly startUrl: string;
  private readonly scope: CrawlScope;
  private readonly fetch: CrawlFetch;
  private readonly previous = new Map<string, PageState>();
  private readonly maxPages: number;
  private readonly defaultDelayMs: number;
  private readonly maxRetries: number;
  private readonly maxPageBytes: number;
  private readonly maxSitemaps: number;
  private readonly token: string;
  private readonly now: () => number;
  private readonly analyse: (body: Uint8Array, contentType: string | undefined) => Promise<DecodedPage>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly signal: AbortSignal | undefined;

  private readonly queue: string[] = [];
  private head = 0;
  /** Every URL ever put in the queue. */
  private readonly queued = new Set<string>();
  /** URLs requested as pages, and where they ended up after redirects. */
  private readonly visited = new Set<string>();
  /** Canonical URLs recorded in this crawl (a page each). */
  private readonly recorded = new Set<string>();
  /** URLs a page was reported under, any status. */
  private readonly reported = new Set<string>();
  private readonly offSite = new Set<string>();
  private readonly lastmods = new Map<string, string>();
  private robots!: RobotsPolicy;
  private robotsFetchedAt = 0;
  private lastRequestEnd: number | undefined;

  constructor(options: CrawlOptions) {
    this.startUrl = normaliseUrl(options.startUrl)!;
    this.scope = new CrawlScope(this.startUrl);
    this.fetch = options.fetch;
    for (const p of options.previous ?? []) this.previous.set(normaliseUrl(p.url) ?? p.url, p);
    this.maxPages = options.maxPages ?? DEFAULTS.maxPages;
    this.defaultDelayMs = Math.max(0, options.defaultDelayMs ?? DEFAULTS.defaultDelayMs);
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULTS.maxRetries);
    this.maxPageBytes = options.maxPageBytes ?? MAX_PAGE_BYTES;
    this.maxSitemaps = options.maxSitemaps ?? DEFAULTS.maxSitemaps;
    this.token = options.robotsToken ?? ENGRAM_BOT_TOKEN;
    this.now = options.now ?? Date.now;
    this.analyse = options.analyse ?? (async (body, contentType) => decodeAndAnalyse(body, contentType));
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, signal ? { signal } : undefined));
    this.signal = options.signal;
    this.summary = {
      startUrl: this.startUrl,
      pagesFetched: 0,
      requests: 0,
      new: 0,
      changed: 0,
      unchanged: 0,
      gone: 0,
      failed: 0,
      skippedByRobots: 0,
      skippedNotHtml: 0,
      skippedNoindex: 0,
      offSiteUrls: 0,
      duplicates: 0,
      notFound: 0,
      unvisitedKnown: 0,
      truncated: false,
      robots: { status: "unreachable", sitemaps: [], fetches: 0 },
      sitemaps: { read: 0, failed: 0, urls: 0 },
      delayMs: this.defaultDelayMs,
      durationMs: 0,
    };
  }

  async *run(): AsyncGenerator<CrawledPage, void, undefined> {
    const started = this.now();
    try {
      if (!(await this.loadRobots())) return;
      this.enqueue(this.startUrl);
      await this.readSitemaps();
      for (const url of this.previous.keys()) if (this.scope.contains(url)) this.enqueue(url);

      while (this.head < this.queue.length) {
        this.signal?.throwIfAborted();
        if (this.summary.pagesFetched >= this.maxPages) {
          this.summary.truncated = true;
          break;
        }
        const url = this.queue[this.head++]!;
        if (this.recorded.has(url) || this.visited.has(url)) continue;
        if (this.now() - this.robotsFetchedAt >= ROBOTS_TTL_MS) {
          if (!(await this.loadRobots())) break;
        }
        if (!this.robots.isAllowed(url)) {
          this.summary.skippedByRobots++;
          continue;
        }
        if (!this.previous.has(url) && hasNonHtmlExtension(url)) {
          this.summary.skippedNotHtml++;
          continue;
        }
        for (const page of await this.visit(url)) {
          this.reported.add(page.url);
          this.summary[page.status]++;
          yield page;
        }
      }
    } finally {
      let unvisited = 0;
      for (const url of this.previous.keys()) if (!this.reported.has(url)) unvisited++;
      this.summary.unvisitedKnown = unvisited;
      this.summary.offSiteUrls = this.offSite.size;
      this.summary.durationMs = this.now() - started;
    }
  }

  // ---- robots.txt and sitemaps -------------------------------------------

  /** Fetches robots.txt; false when it is unreachable (then nothing may be fetched). */
  private async loadRobots(): Promise<boolean> {
    const robotsUrl = `${this.scope.origin}/robots.txt`;
    const answer = await this.request({ url: robotsUrl, accept: ROBOTS_ACCEPT, headers: {} });
    this.robots = robotsPolicy(robotsUrl, "error" in answer ? answer : { status: answer.status, body: answer.body }, this.token);
    this.robotsFetchedAt = this.now();
    const r = this.robots;
    this.summary.robots = {
      status: r.status,
      ...(r.httpStatus === undefined ? {} : { httpStatus: r.httpStatus }),
      ...(r.error === undefined ? {} : { error: r.error }),
      ...(r.crawlDelayMs === undefined ? {} : { crawlDelayMs: r.crawlDelayMs }),
      sitemaps: r.sitemaps,
      fetches: this.summary.robots.fetches + 1,
    };
    this.summary.delayMs = r.crawlDelayMs ?? this.defaultDelayMs;
    return r.status !== "unreachable";
  }

  private async readSitemaps(): Promise<void> {
    const pending: { url: string; implicit: boolean }[] = [];
    const seen = new Set<string>();
    const add = (href: string, implicit: boolean) => {
      const url = normaliseUrl(href, this.scope.origin);
      if (!url || seen.has(url)) return;
      seen.add(url);
      // Sitemaps on another host are not read: every request of a crawl goes to the one site.
      if (!this.scope.contains(url)) this.offSite.add(url);
      else if (this.robots.isAllowed(url)) pending.push({ url, implicit });
    };
    for (const s of this.robots.sitemaps) add(s, false);
    add("/sitemap.xml", true);

    let taken = 0;
    for (let i = 0; i < pending.length && i < this.maxSitemaps; i++) {
      this.signal?.throwIfAborted();
      const { url, implicit } = pending[i]!;
      const answer = await this.request({ url, accept: SITEMAP_ACCEPT, headers: {} });
      if ("error" in answer || answer.status < 200 || answer.status > 299) {
        // No /sitemap.xml is the common case, not a failure.
        if (!(implicit && !("error" in answer) && answer.status >= 400 && answer.status < 500)) this.summary.sitemaps.failed++;
        continue;
      }
      let sitemap;
      try {
        sitemap = parseSitemap(answer.body);
      } catch {
        this.summary.sitemaps.failed++;
        continue;
      }
      this.summary.sitemaps.read++;
      if (sitemap.kind === "index") {
        for (const child of sitemap.sitemaps) add(child.loc, false);
        continue;
      }
      for (const entry of sitemap.urls) {
        const pageUrl = normaliseUrl(entry.loc);
        if (!pageUrl) continue;
        if (!this.scope.contains(pageUrl)) {
          this.offSite.add(pageUrl);
          continue;
        }
        if (taken >= MAX_SITEMAP_URLS) break;
        taken++;
        this.summary.sitemaps.urls++;
        if (entry.lastmod) this.lastmods.set(pageUrl, entry.lastmod);
        this.enqueue(pageUrl);
      }
    }
  }

  // ---- one page ------------------------------------------------------------

  private async visit(url: string): Promise<CrawledPage[]> {
    const prev = this.previous.get(url);
    const headers: Record<string, string> = {};
    if (prev?.etag) headers["if-none-match"] = prev.etag;
    if (prev?.lastModified) headers["if-modified-since"] = prev.lastModified;
    this.summary.pagesFetched++;
    this.visited.add(url);
    const answer = await this.request({ url, accept: HTML_ACCEPT, headers });
    if ("error" in answer) return [{ status: "failed", url, error: answer.error }];

    const { status } = answer;
    if (status === 304) {
      if (!prev) return [{ status: "failed", url, error: "the page answered 304 Not Modified to an unconditional request", httpStatus: 304 }];
      this.recorded.add(url);
      const links = prev.links ?? [];
      for (const link of links) if (this.scope.contains(link)) this.enqueue(link);
      const lastmod = this.lastmods.get(url);
      return [
        {
          status: "unchanged",
          via: "not_modified",
          url,
          contentHash: prev.contentHash,
          ...validators(answer.headers["etag"] ?? prev.etag, answer.headers["last-modified"] ?? prev.lastModified),
          links,
          ...(lastmod ? { sitemapLastmod: lastmod } : {}),
        },
      ];
    }
    if (status === 404 || status === 410) {
      if (prev) return [{ status: "gone", url, error: `the page answered ${statusLabel(status)}` }];
      this.summary.notFound++;
      return [];
    }
    if (status < 200 || status > 299) return [{ status: "failed", url, error: `the page answered ${statusLabel(status)}`, httpStatus: status }];

    const finalUrl = normaliseUrl(answer.url) ?? url;
    this.visited.add(finalUrl);
    if (!this.scope.contains(finalUrl)) {
      this.offSite.add(finalUrl);
      return prev ? [{ status: "gone", url, error: `the page now redirects to another site (${finalUrl})` }] : [];
    }
    // The fetcher follows redirects itself: what a redirect led to is used only if robots.txt allows it.
    if (finalUrl !== url && !this.robots.isAllowed(finalUrl)) {
      this.summary.skippedByRobots++;
      return prev ? [{ status: "gone", url, error: `the page now redirects to ${finalUrl}, which robots.txt disallows` }] : [];
    }
    const contentType = answer.headers["content-type"];
    if (!isHtml(contentType, answer.body)) {
      this.summary.skippedNotHtml++;
      return prev ? [{ status: "gone", url, error: `the page is no longer HTML (${mediaType(contentType) ?? "unknown type"})` }] : [];
    }
    if (answer.body.byteLength > this.maxPageBytes)
      return [{ status: "failed", url, error: `the page is larger than the limit of ${this.maxPageBytes} bytes` }];

    let html: string;
    let page: PageAnalysis;
    try {
      ({ html, page } = await this.analyse(answer.body, contentType));
    } catch (err) {
      return [{ status: "failed", url, error: err instanceof Error ? err.message : String(err) }];
    }
    const base = (page.baseHref && normaliseUrl(page.baseHref, finalUrl)) || finalUrl;
    const header = robotsTagDirectives(answer.headers["x-robots-tag"], this.token);
    const links = this.links(page.hrefs, base);
    if (!(page.nofollow || header.nofollow)) for (const link of links) this.enqueue(link);

    // A canonical on this site (and open to us) names the page; one elsewhere is ignored.
    let record = finalUrl;
    const canonical = page.canonicalHref === undefined ? undefined : normaliseUrl(page.canonicalHref, base);
    if (canonical && canonical !== finalUrl && this.scope.contains(canonical) && this.robots.isAllowed(canonical)) record = canonical;

    const out: CrawledPage[] = [];
    // A known URL whose content now lives under another one: its document goes, the other is recorded.
    if (record !== url && prev && !this.reported.has(url))
      out.push({ status: "gone", url, error: `the page now ${finalUrl !== url ? "redirects to" : "names as canonical"} ${record}` });

    if (page.noindex || header.noindex) {
      this.summary.skippedNoindex++;
      this.recorded.add(record);
      if (this.previous.has(record) && !this.reported.has(record))
        out.push({ status: "gone", url: record, error: "the page asks not to be indexed (noindex)" });
      return out;
    }
    if (this.recorded.has(record)) {
      this.summary.duplicates++;
      return out;
    }
    this.recorded.add(record);
    this.queued.add(record);

    const before = this.previous.get(record);
    // Validators belong to the URL that answered; under another URL they would be sent for the wrong resource.
    const own = record === finalUrl;
    const state = {
      url: record,
      contentHash: page.contentHash,
      ...(own ? validators(answer.headers["etag"], answer.headers["last-modified"]) : {}),
      links,
    };
    const lastmod = this.lastmods.get(record) ?? this.lastmods.get(url);
    const extra = { title: page.title || record, html, ...(lastmod ? { sitemapLastmod: lastmod } : {}) };
    if (!before) out.push({ status: "new", ...state, ...extra });
    else if (before.contentHash === page.contentHash) out.push({ status: "unchanged", via: "same_hash", ...state, ...extra });
    else out.push({ status: "changed", ...state, ...extra });
    return out;
  }

  /** The distinct in-scope links of a page, normalised; off-site ones are counted. */
  private links(hrefs: string[], base: string): string[] {
    const links = new Set<string>();
    for (const href of hrefs) {
      const url = normaliseUrl(href, base);
      if (!url) continue; // mailto:, javascript:, tel:, unparsable
      if (this.scope.contains(url)) links.add(url);
      else this.offSite.add(url);
    }
    return [...links];
  }

  private enqueue(url: string): void {
    if (this.queued.has(url)) return;
    this.queued.add(url);
    this.queue.push(url);
  }

  // ---- requests ------------------------------------------------------------

  /** One request with politeness and retries of transient failures; an answer of any status, or why there was none. */
  private async request(req: Omit<CrawlRequest, "signal">): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      let answer: Answer;
      let retryable: boolean;
      let retryAfterMs: number | undefined;
      try {
        const res = await this.politely(req);
        answer = res;
        retryable = res.status === 429 || res.status >= 500;
        retryAfterMs = res.retryAfterMs;
      } catch (err) {
        if (this.signal?.aborted) throw this.signal.reason;
        answer = { error: err instanceof Error ? err.message : String(err) };
        retryable = err instanceof CrawlFetchError && err.retryable;
        retryAfterMs = err instanceof CrawlFetchError ? err.retryAfterMs : undefined;
      }
      if (!retryable || attempt >= this.maxRetries || (retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) return answer;
      await this.sleep(retryAfterMs ?? Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_MAX_MS), this.signal);
    }
  }

  /** Waits until the delay since the previous request's end has passed, then fetches. */
  private async politely(req: Omit<CrawlRequest, "signal">): Promise<CrawlResponse> {
    if (this.lastRequestEnd !== undefined) {
      const wait = this.lastRequestEnd + this.summary.delayMs - this.now();
      if (wait > 0) await this.sleep(wait, this.signal);
    }
    this.signal?.throwIfAborted();
    this.summary.requests++;
    try {
      return await this.fetch(this.signal ? { ...req, signal: this.signal } : req);
    } finally {
      this.lastRequestEnd = this.now();
    }
  }
}

function validators(etag: string | undefined, lastModified: string | undefined): { etag?: string; lastModified?: string } {
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

function statusLabel(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}
