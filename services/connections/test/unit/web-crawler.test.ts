/*
 * The web crawler against a real static site: the HTTPX documentation
 * (tests/fixtures/sites/httpx, see its SOURCE.txt) served from 127.0.0.1,
 * fetched through the production GuardedFetcher (allowPrivate, as tests and
 * on-prem sites configure it), with robots.txt, sitemaps and edits served by
 * the test. Delays go through an injected clock and sleep: no test waits.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import {
  ENGRAM_BOT_USER_AGENT,
  SiteCrawler,
  createCrawlFetch,
  crawlSite,
  type CrawledPage,
  type CrawlFetch,
  type CrawlOptions,
  type CrawlRequest,
  type CrawlSummary,
  type PageState,
} from "../../src/adapters/connectors/web-crawler";
import { HTTPX_SITE, answer, startStaticSite, type StaticSite } from "@engram/testing";

// ---- what the fixture holds, computed from its files -------------------------

/**
 * The pages reachable from index.html by `<a href>` links, as URL paths
 * ("/", "/quickstart/"): a breadth-first walk over the fixture files with a
 * plain regular expression, independent of the crawler's parser. A link to a
 * folder without its trailing slash ("/quickstart#streaming-responses": the
 * site has two) reaches the folder's page, as GitHub Pages redirects it.
 * `allowed` prunes what a robots.txt forbids: such pages are neither counted
 * nor walked, and the distinct forbidden link targets are returned.
 */
function walkFixture(allowed: (p: string) => boolean = () => true): { pages: Set<string>; forbidden: Set<string> } {
  const pages = new Set<string>(["/"]);
  const forbidden = new Set<string>();
  const queue = ["/"];
  while (queue.length > 0) {
    const page = queue.shift()!;
    const html = fs.readFileSync(path.join(HTTPX_SITE, page, "index.html"), "utf8");
    for (const m of html.matchAll(/<a\s[^>]*?href="([^"]*)"/gi)) {
      const href = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) continue; // absolute: another site
      const target = new URL(href, `http://site${page}`).pathname;
      const folder = target.endsWith("/") ? target : `${target}/`;
      if (!fs.existsSync(path.join(HTTPX_SITE, folder, "index.html"))) continue;
      if (!allowed(target)) forbidden.add(target);
      else if (!pages.has(folder)) {
        pages.add(folder);
        queue.push(folder);
      }
    }
  }
  return { pages, forbidden };
}

const ALL_PAGES = walkFixture().pages;

// ---- running a crawl ---------------------------------------------------------

let site: StaticSite;
/** Every request the crawler made through its injected fetch. */
let fetched: CrawlRequest[];
const guarded = createCrawlFetch({ allowPrivate: true });
const counting =
  (inner: CrawlFetch): CrawlFetch =>
  (req) => {
    fetched.push(req);
    return inner(req);
  };

/** A fetch on Node's own fetch that forwards the conditional headers: the crawler's logic apart from the GuardedFetcher. */
const forwardingFetch: CrawlFetch = async (req) => {
  const res = await fetch(req.url, {
    headers: { ...req.headers, accept: req.accept, "user-agent": ENGRAM_BOT_USER_AGENT },
    redirect: "follow",
    ...(req.signal ? { signal: req.signal } : {}),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { url: res.url, status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
};

interface CrawlResult {
  pages: CrawledPage[];
  summary: CrawlSummary;
  /** Every wait the crawler asked for, in ms. */
  sleeps: number[];
  byUrl: Map<string, CrawledPage>;
}

async function crawl(options: Partial<CrawlOptions> = {}, fetchImpl: CrawlFetch = guarded): Promise<CrawlResult> {
  let clock = 1_000_000;
  const sleeps: number[] = [];
  const pages: CrawledPage[] = [];
  const summary = await crawlSite(
    {
      startUrl: `${site.origin}/`,
      fetch: counting(fetchImpl),
      defaultDelayMs: 0,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      ...options,
    },
    (page) => void pages.push(page),
  );
  return { pages, summary, sleeps, byUrl: new Map(pages.map((p) => [p.url, p])) };
}

const url = (p: string) => `${site.origin}${p}`;
const paths = (pages: CrawledPage[]) => pages.map((p) => new URL(p.url).pathname + new URL(p.url).search);
const statusOf = (pages: CrawledPage[]) => Object.fromEntries(pages.map((p) => [new URL(p.url).pathname, p.status]));
/** The state a sync engine would store after a crawl. */
const stateOf = (pages: CrawledPage[]): PageState[] =>
  pages.flatMap((p) => (p.status === "new" || p.status === "changed" || p.status === "unchanged" ? [p] : []));
/** Requests for pages (not robots.txt or sitemaps). */
const pageRequests = () => site.requests.filter((r) => r.path !== "/robots.txt" && !r.path.includes("sitemap"));
/** Links to a folder without its slash, which the site answered with a redirect to the folder's page. */
const redirected = () => site.requests.filter((r) => r.status === 301).map((r) => r.path);
const robots = (text: string) => answer(200, text, { "content-type": "text/plain" });
/** Puts `extra` right after the <body …> tag of the start page. */
const injectIntoIndex = (extra: string) => {
  site.transformHtml = (html, p) => (p === "/" ? html.replace(/<body[^>]*>/, (m) => `${m}${extra}`) : html);
};

beforeEach(async () => {
  site = await startStaticSite(HTTPX_SITE);
  fetched = [];
});
afterEach(async () => {
  await site.close();
});

// ---- first crawl -------------------------------------------------------------

describe("web crawler: a first crawl", () => {
  it("imports every page reachable by links exactly once, as the site serves it", async () => {
    expect(ALL_PAGES.size).toBeGreaterThan(10); // the walk above found the site
    const { pages, summary } = await crawl();

    expect(paths(pages).sort()).toEqual([...ALL_PAGES].sort());
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(pages.every((p) => p.status === "new")).toBe(true);
    // Each page requested once, plus once through each slashless link to it (the site redirects those);
    // the page is still recorded once. Nothing but this site was asked for anything.
    expect(redirected().length).toBeGreaterThan(0);
    for (const r of redirected()) expect(ALL_PAGES.has(`${r}/`)).toBe(true);
    for (const p of ALL_PAGES) expect(site.count(p)).toBe(1 + site.count(p.slice(0, -1)));
    expect(fetched.every((r) => r.url.startsWith(`${site.origin}/`))).toBe(true);
    expect(site.requests.every((r) => r.headers.host === `127.0.0.1:${site.port}` && r.headers["user-agent"] === ENGRAM_BOT_USER_AGENT)).toBe(true);

    const quickstart = pages.find((p) => p.url === url("/quickstart/"));
    expect(quickstart).toMatchObject({ status: "new", title: "QuickStart - HTTPX" });
    if (quickstart?.status !== "new") throw new Error("unreachable");
    expect(quickstart.html).toContain("First, start by importing HTTPX:");
    expect(quickstart.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(quickstart.links).toContain(url("/advanced/clients/"));

    expect(summary).toMatchObject({
      pagesFetched: ALL_PAGES.size + redirected().length,
      duplicates: redirected().length,
      new: ALL_PAGES.size,
      changed: 0,
      unchanged: 0,
      gone: 0,
      failed: 0,
      skippedByRobots: 0,
      truncated: false,
      // No robots.txt in the fixture: 404, everything allowed.
      robots: { status: "missing", httpStatus: 404, fetches: 1 },
      // The fixture's sitemap.xml lists its pages under https://www.python-httpx.org: another site.
      sitemaps: { read: 1, failed: 0, urls: 0 },
    });
    expect(summary.offSiteUrls).toBeGreaterThan(10);
    expect(summary.requests).toBe(summary.pagesFetched + 2); // + robots.txt + sitemap.xml
  });

  it("waits for the caller: no request is made until the previous page has been taken", async () => {
    const crawler = new SiteCrawler({ startUrl: `${site.origin}/`, fetch: guarded, defaultDelayMs: 0 });
    const pages = crawler.pages();
    await pages.next();
    const after = site.requests.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(site.requests.length).toBe(after);
    await pages.return(undefined as unknown as CrawlSummary);
  });

  it("stops at maxPages", async () => {
    const { pages, summary } = await crawl({ maxPages: 5 });
    expect(pages).toHaveLength(5);
    expect(pageRequests()).toHaveLength(5);
    expect(summary).toMatchObject({ pagesFetched: 5, truncated: true, new: 5 });
  });

  it("stops when cancelled, with the signal's reason", async () => {
    const controller = new AbortController();
    const seen: CrawledPage[] = [];
    const run = crawlSite({ startUrl: `${site.origin}/`, fetch: guarded, defaultDelayMs: 0, signal: controller.signal }, (p) => {
      seen.push(p);
      if (seen.length === 3) controller.abort(new Error("stop"));
    });
    await expect(run).rejects.toThrow("stop");
    expect(pageRequests()).toHaveLength(3);
  });
});

// ---- robots.txt ----------------------------------------------------------------

describe("web crawler: robots.txt", () => {
  it("obeys the group that names EngramBot: Disallow, Allow and Crawl-delay", async () => {
    site.route(
      "/robots.txt",
      robots(["User-agent: *", "Disallow: /", "", "User-agent: engrambot", "Crawl-delay: 2", "Disallow: /advanced/", "Allow: /advanced/clients/"].join("\n")),
    );
    const allowed = (p: string) => !p.startsWith("/advanced/") || p === "/advanced/clients/";
    const expected = walkFixture(allowed);
    const { pages, summary, sleeps } = await crawl();

    expect(paths(pages).sort()).toEqual([...expected.pages].sort());
    expect(site.requests.filter((r) => r.path.startsWith("/advanced/")).map((r) => r.path)).toEqual(["/advanced/clients/"]);
    expect(expected.forbidden.size).toBeGreaterThan(5);
    expect(summary.skippedByRobots).toBe(expected.forbidden.size);
    expect(summary.robots).toMatchObject({ status: "ok", crawlDelayMs: 2000 });
    expect(summary.delayMs).toBe(2000);
    // One request at a time, 2 s between any two (the first has nothing to wait for).
    expect(sleeps).toEqual(Array(summary.requests - 1).fill(2000));
  });

  it.each([404, 403, 401])("allows everything when robots.txt answers %i", async (status) => {
    site.route("/robots.txt", answer(status));
    const { pages, summary } = await crawl();
    expect(pages).toHaveLength(ALL_PAGES.size);
    expect(summary.robots).toMatchObject({ status: "missing", httpStatus: status });
  });

  it.each([500, 503, 429])("fetches nothing when robots.txt answers %i", async (status) => {
    site.route("/robots.txt", answer(status));
    const { pages, summary } = await crawl({ previous: [{ url: url("/quickstart/"), contentHash: "x" }] });
    expect(pages).toEqual([]);
    expect(site.requests.every((r) => r.path === "/robots.txt")).toBe(true);
    expect(site.count("/robots.txt")).toBe(3); // retried twice
    expect(summary).toMatchObject({ pagesFetched: 0, unvisitedKnown: 1, robots: { status: "unreachable", httpStatus: status } });
  });

  it("fetches nothing when robots.txt is unreachable: no server, or a private address without the allowance", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = await crawl({ startUrl: `http://127.0.0.1:${port}/` });
    expect(down.pages).toEqual([]);
    expect(down.summary.robots.status).toBe("unreachable");
    expect(fetched.every((r) => r.url.endsWith("/robots.txt"))).toBe(true);

    const refused = await crawl({}, createCrawlFetch({ allowPrivate: false }));
    expect(refused.pages).toEqual([]);
    expect(refused.summary.robots).toMatchObject({ status: "unreachable", error: expect.stringContaining("private") });
    expect(site.requests).toEqual([]);
  });

  it("fetches robots.txt again when it is older than 24 h", async () => {
    site.route("/robots.txt", robots("User-agent: *\nCrawl-delay: 43200\n")); // 12 h
    const { summary } = await crawl({ maxPages: 4 });
    expect(summary.robots.fetches).toBeGreaterThanOrEqual(2);
    expect(site.count("/robots.txt")).toBe(summary.robots.fetches);
    expect(summary.pagesFetched).toBe(4);
  });
});

// ---- sitemaps, scope, canonical URLs -------------------------------------------

describe("web crawler: discovery and scope", () => {
  const urlset = (entries: [string, string?][]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries
      .map(([loc, lastmod]) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`)
      .join("")}</urlset>`;

  it("follows a sitemap index from robots.txt (gzipped child included) and keeps lastmod", async () => {
    site.route("/robots.txt", robots(`User-agent: *\nAllow: /\nSitemap: ${url("/maps/index.xml")}\n`));
    site.route(
      "/maps/index.xml",
      answer(
        200,
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<sitemap><loc>${url("/maps/pages.xml.gz")}</loc></sitemap>` +
          `<sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap></sitemapindex>`,
        { "content-type": "application/xml" },
      ),
    );
    const child = urlset([
      [url("/404.html"), "2025-09-11T10:00:00+00:00"], // linked from nowhere
      [url("/quickstart/"), "2025-09-10"],
      ["https://www.python-httpx.org/api/", "2025-09-11"],
    ]);
    site.route("/maps/pages.xml.gz", answer(200, gzipSync(child), { "content-type": "application/gzip" }));

    const { pages, summary, byUrl } = await crawl();
    expect(paths(pages).sort()).toEqual([...ALL_PAGES, "/404.html"].sort());
    expect(byUrl.get(url("/404.html"))).toMatchObject({ status: "new", sitemapLastmod: "2025-09-11T10:00:00+00:00" });
    expect(byUrl.get(url("/quickstart/"))).toMatchObject({ sitemapLastmod: "2025-09-10" });
    // index + gzipped child + the fixture's own /sitemap.xml; the sitemap on another host is not fetched.
    expect(summary.sitemaps).toEqual({ read: 3, failed: 0, urls: 2 });
    expect(fetched.some((r) => r.url.includes("elsewhere"))).toBe(false);
  });

  it("reads /sitemap.xml without a Sitemap line", async () => {
    site.route("/sitemap.xml", answer(200, urlset([[url("/404.html")]]), { "content-type": "application/xml" }));
    const { pages } = await crawl();
    expect(paths(pages)).toContain("/404.html");
    expect(pages).toHaveLength(ALL_PAGES.size + 1);
  });

  it("records a page under its canonical URL and fetches it once", async () => {
    // As deployed at its own origin: the canonical links name this server.
    site.transformHtml = (html, p) => {
      const own = html.replaceAll("https://www.python-httpx.org/", `${site.origin}/`);
      return p === "/" ? own.replace(/<body[^>]*>/, (m) => `${m}<a href="quickstart/index.html">a</a><a href="quickstart/?utm_source=x#top">b</a>`) : own;
    };
    const { pages, summary } = await crawl();

    expect(paths(pages).sort()).toEqual([...ALL_PAGES].sort());
    expect(pages.filter((p) => p.url === url("/quickstart/"))).toHaveLength(1);
    // Reached first through the alias, recorded under the canonical, which is then not fetched again.
    expect(site.count("/quickstart/index.html")).toBe(1);
    expect(site.count("/quickstart/?utm_source=x")).toBe(1);
    // …except behind the site's redirect of "/quickstart#streaming-responses": only the redirect shows it is the same page.
    expect(site.count("/quickstart/")).toBe(site.count("/quickstart"));
    expect(summary.duplicates).toBe(1 + redirected().length);
  });

  it("ignores links to other hosts and ports (the same server under another name included)", async () => {
    const other = await startStaticSite(HTTPX_SITE);
    try {
      injectIntoIndex(
        `<a href="http://localhost:${site.port}/quickstart/">x</a><a href="${other.origin}/">y</a><a href="https://example.org/">z</a><a href="mailto:a@b.c">m</a>`,
      );
      const { pages, summary } = await crawl();
      expect(pages).toHaveLength(ALL_PAGES.size);
      expect(fetched.every((r) => r.url.startsWith(`${site.origin}/`))).toBe(true);
      expect(site.requests.some((r) => r.headers.host !== `127.0.0.1:${site.port}`)).toBe(false);
      expect(other.requests).toEqual([]);
      expect(summary.offSiteUrls).toBeGreaterThanOrEqual(3);
    } finally {
      await other.close();
    }
  });

  it("records nothing a redirect leads to off the site or into a path robots.txt disallows", async () => {
    const other = await startStaticSite(HTTPX_SITE);
    try {
      site.route("/robots.txt", robots("User-agent: *\nDisallow: /api/\n"));
      site.route("/out/", answer(302, "", { location: `${other.origin}/` }));
      site.route("/go/", answer(302, "", { location: "/api/" }));
      injectIntoIndex(`<a href="out/">o</a><a href="go/">g</a>`);
      const { pages, summary } = await crawl();
      expect(paths(pages).sort()).toEqual([...ALL_PAGES].filter((p) => p !== "/api/").sort());
      // GuardedFetcher follows redirects itself, so the target was asked once, and then dropped.
      expect(other.requests.map((r) => r.path)).toEqual(["/"]);
      expect(site.count("/api/")).toBe(1);
      expect(summary.skippedByRobots).toBe(1); // /api/, reached by the redirect first and then not asked for again
    } finally {
      await other.close();
    }
  });

  it("skips what is not HTML: by extension without a request, by Content-Type after one", async () => {
    injectIntoIndex(`<a href="data/">d</a><a href="raw/">r</a><a href="img/logo.jpg">i</a>`);
    site.route("/data/", answer(200, '{"a":1}', { "content-type": "application/json" }));
    site.route("/raw/", answer(200, "<html>plain text really</html>", { "content-type": "text/plain" }));
    const { pages, summary } = await crawl();
    expect(pages).toHaveLength(ALL_PAGES.size);
    expect(paths(pages).some((p) => p.startsWith("/data") || p.startsWith("/raw") || p.startsWith("/img"))).toBe(false);
    expect(site.count("/data/")).toBe(1);
    expect(site.count("/img/logo.jpg")).toBe(0);
    expect(summary.skippedNotHtml).toBe(3);
  });

  it("reports a failing page with its reason and goes on", async () => {
    site.route("/async/", answer(500, "boom"));
    site.route("/exceptions/", (req) => {
      req.socket.destroy();
      return true;
    });
    site.route("/http2/", answer(403, "no"));
    const { pages, summary, sleeps, byUrl } = await crawl();

    expect(byUrl.get(url("/async/"))).toEqual({ status: "failed", url: url("/async/"), error: "the page answered 500 Internal Server Error", httpStatus: 500 });
    expect(byUrl.get(url("/exceptions/"))).toMatchObject({ status: "failed", error: expect.stringContaining("connection") });
    expect(byUrl.get(url("/http2/"))).toMatchObject({ status: "failed", httpStatus: 403 });
    expect(site.count("/async/")).toBe(3); // two retries, with backoff
    expect(site.count("/http2/")).toBe(1); // a 403 is not retried
    expect(sleeps).toEqual(expect.arrayContaining([1000, 2000]));
    expect(pages.filter((p) => p.status === "new")).toHaveLength(ALL_PAGES.size - 3);
    expect(summary).toMatchObject({ failed: 3, new: ALL_PAGES.size - 3 });
  });

  it("waits out a 429 as its Retry-After says, then records the page once", async () => {
    let limited = 0;
    site.route("/async/", (_req, res) => {
      if (limited++ > 0) return false;
      res.writeHead(429, { "retry-after": "1", "content-type": "text/plain" });
      res.end("slow down");
      return true;
    });
    const { pages, sleeps, byUrl } = await crawl();
    expect(byUrl.get(url("/async/"))).toMatchObject({ status: "new" });
    expect(site.count("/async/")).toBe(2);
    expect(sleeps).toContain(1000);
    expect(pages.filter((p) => p.url === url("/async/"))).toHaveLength(1);
    expect(pages.filter((p) => p.status === "new")).toHaveLength(ALL_PAGES.size);
  });
});

// ---- recrawls ------------------------------------------------------------------

describe("web crawler: recrawl", () => {
  const edit = (p: string, from: string, to: string) => {
    const previous = site.transformHtml;
    site.transformHtml = (html, at) => {
      const out = previous ? previous(html, at) : html;
      return at === p ? out.replace(from, to) : out;
    };
  };

  it("with ETags: unchanged pages answer 304, the edited one is changed", async () => {
    site.validators = true;
    const first = await crawl({}, forwardingFetch);
    expect(first.pages.every((p) => p.status === "new" && p.etag && p.lastModified)).toBe(true);

    edit("/quickstart/", "First, start by importing HTTPX:", "First of all, import HTTPX:");
    site.requests.length = 0;
    const second = await crawl({ previous: stateOf(first.pages) }, forwardingFetch);

    expect(second.pages).toHaveLength(ALL_PAGES.size);
    expect(second.pages.filter((p) => p.status === "changed").map((p) => p.url)).toEqual([url("/quickstart/")]);
    const unchanged = second.pages.filter((p) => p.status === "unchanged");
    expect(unchanged).toHaveLength(ALL_PAGES.size - 1);
    expect(unchanged.every((p) => p.status === "unchanged" && p.via === "not_modified")).toBe(true);
    // One conditional request per known page (the slashless links are unknown URLs, asked without validators).
    const conditional = pageRequests().filter((r) => r.headers["if-none-match"] && r.headers["if-modified-since"]);
    expect(conditional.map((r) => r.path).sort()).toEqual([...ALL_PAGES].sort());
    expect(conditional.filter((r) => r.status === 304)).toHaveLength(ALL_PAGES.size - 1);
    expect(second.summary).toMatchObject({ changed: 1, unchanged: ALL_PAGES.size - 1, new: 0, gone: 0 });

    const changed = second.byUrl.get(url("/quickstart/"));
    if (changed?.status !== "changed") throw new Error("expected a changed page");
    expect(changed.html).toContain("First of all, import HTTPX:");
    const before = first.byUrl.get(url("/quickstart/")) as PageState;
    expect(changed.etag).toBeDefined();
    expect(changed.etag).not.toBe(before.etag);
  });

  it("without validators: the main-text hash decides (a footer edit is no change)", async () => {
    const first = await crawl();
    edit("/quickstart/", "First, start by importing HTTPX:", "First of all, import HTTPX:");
    edit("/async/", "Made with", "Built with"); // footer only
    const second = await crawl({ previous: stateOf(first.pages) });

    expect(second.pages.filter((p) => p.status === "changed").map((p) => p.url)).toEqual([url("/quickstart/")]);
    expect(second.pages.filter((p) => p.status === "unchanged")).toHaveLength(ALL_PAGES.size - 1);
    expect(second.byUrl.get(url("/async/"))).toMatchObject({ status: "unchanged", via: "same_hash", html: expect.stringContaining("Built with") });
    expect(second.summary.pagesFetched).toBe(ALL_PAGES.size + 2); // + the two slashless links
  });

  it("through the GuardedFetcher on an ETag site: unchanged pages answer 304, the edited one is changed by hash", async () => {
    site.validators = true;
    const first = await crawl();
    expect(first.pages.every((p) => p.status === "new" && p.etag && p.lastModified)).toBe(true);

    edit("/quickstart/", "First, start by importing HTTPX:", "First of all, import HTTPX:");
    site.requests.length = 0;
    const second = await crawl({ previous: stateOf(first.pages) });

    expect(statusOf(second.pages)).toEqual(Object.fromEntries([...ALL_PAGES].map((p) => [p, p === "/quickstart/" ? "changed" : "unchanged"])));
    const unchanged = second.pages.filter((p) => p.status === "unchanged");
    expect(unchanged.every((p) => p.status === "unchanged" && p.via === "not_modified" && p.html === undefined)).toBe(true);
    // The validators reached the server for every known page, with EngramBot's User-Agent; only the edited page was sent in full.
    const conditional = pageRequests().filter((r) => r.headers["if-none-match"] && r.headers["if-modified-since"]);
    expect(conditional.map((r) => r.path).sort()).toEqual([...ALL_PAGES].sort());
    expect(conditional.every((r) => r.headers["user-agent"] === ENGRAM_BOT_USER_AGENT)).toBe(true);
    expect(conditional.filter((r) => r.status === 304)).toHaveLength(ALL_PAGES.size - 1);
    expect(conditional.filter((r) => r.status === 200).map((r) => r.path)).toEqual(["/quickstart/"]);
    expect(second.summary).toMatchObject({ changed: 1, unchanged: ALL_PAGES.size - 1, new: 0, gone: 0, failed: 0 });

    // The 304s' validators are kept (the server sent them again), the edited page has its new ETag and text.
    const before = first.byUrl.get(url("/async/")) as PageState;
    expect(second.byUrl.get(url("/async/"))).toMatchObject({ etag: before.etag, lastModified: before.lastModified, contentHash: before.contentHash });
    const changed = second.byUrl.get(url("/quickstart/"));
    if (changed?.status !== "changed") throw new Error("expected a changed page");
    expect(changed.html).toContain("First of all, import HTTPX:");
    expect(changed.etag).not.toBe((first.byUrl.get(url("/quickstart/")) as PageState).etag);

    // A third crawl from the second one's state: every page answers 304, the edited one included.
    const third = await crawl({ previous: stateOf(second.pages) });
    expect(third.pages.every((p) => p.status === "unchanged" && p.via === "not_modified")).toBe(true);
    expect(third.summary).toMatchObject({ unchanged: ALL_PAGES.size, changed: 0 });
  });

  it("reports deleted pages as gone (404, 410, a redirect elsewhere, noindex) and ignores new broken links", async () => {
    const first = await crawl();
    site.route("/http2/", answer(404, "gone"));
    site.route("/logging/", answer(410, "gone"));
    site.route("/compatibility/", answer(301, "", { location: "/async/" }));
    site.route(
      "/environment_variables/",
      answer(200, "<html><head><title>x</title></head><body>y</body></html>", { "content-type": "text/html", "x-robots-tag": "engrambot: noindex" }),
    );
    site.route(
      "/troubleshooting/",
      answer(200, "<html><head><title>x</title></head><body>y</body></html>", { "content-type": "text/html", "x-robots-tag": "otherbot: noindex" }),
    );
    injectIntoIndex(`<a href="missing/">m</a>`);
    const second = await crawl({ previous: stateOf(first.pages) });

    const gone = second.pages.filter((p) => p.status === "gone");
    expect(Object.fromEntries(gone.map((p) => [new URL(p.url).pathname, p.status === "gone" ? p.error : ""]))).toEqual({
      "/http2/": "the page answered 404 Not Found",
      "/logging/": "the page answered 410 Gone",
      "/compatibility/": `the page now redirects to ${url("/async/")}`,
      "/environment_variables/": "the page asks not to be indexed (noindex)",
    });
    expect(second.byUrl.get(url("/troubleshooting/"))?.status).toBe("changed");
    expect(second.summary).toMatchObject({ gone: 4, changed: 1, unchanged: ALL_PAGES.size - 5, notFound: 1, failed: 0, unvisitedKnown: 0 });
    expect(second.byUrl.has(url("/missing/"))).toBe(false);
  });
});
