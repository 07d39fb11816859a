/*
 * The web crawler's pure parts: URL identity, robots.txt semantics (RFC 9309),
 * sitemap parsing, page analysis, and the GuardedFetcher adapter's mapping of
 * the fetcher's errors to HTTP answers.
 */
import { gzipSync } from "node:zlib";
import { UrlFetchError, UrlRefusedError, type FetchedResource } from "@engram/fetch";
import { CrawlFetchError, ENGRAM_BOT_TOKEN, crawlFetchFrom, type UrlFetcher } from "../../src/adapters/connectors/web-crawler";
import { CrawlScope, hasNonHtmlExtension, normaliseUrl } from "../../src/adapters/connectors/web-crawler/crawl-url";
import { analysePage, decodeHtml, isHtml, robotsTagDirectives } from "../../src/adapters/connectors/web-crawler/page-analysis";
import { ROBOTS_MAX_BYTES, robotsPolicy } from "../../src/adapters/connectors/web-crawler/robots-policy";
import { parseSitemap } from "../../src/adapters/connectors/web-crawler/sitemap-parser";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("web crawler: URL normalisation", () => {
  it.each([
    ["HTTP://Example.COM:80/a/./b/../c#frag", "http://example.com/a/c"],
    ["https://example.com:443", "https://example.com/"],
    ["https://example.com:8443/x", "https://example.com:8443/x"],
    ["https://example.com/%7euser/%41b%2fc%3a?q=%7e%2f%aa", "https://example.com/~user/Ab%2Fc%3A?q=~%2F%AA"],
    ["https://example.com/a b/ü", "https://example.com/a%20b/%C3%BC"],
    ["https://example.com/p?", "https://example.com/p"],
    ["https://bücher.example/", "https://xn--bcher-kva.example/"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseUrl(input)).toBe(expected);
  });

  it("resolves against a base and refuses what is not a plain http(s) URL", () => {
    expect(normaliseUrl("../b/", "https://example.com/a/c/")).toBe("https://example.com/a/b/");
    for (const bad of ["mailto:a@b.c", "javascript:void(0)", "ftp://example.com/", "https://user:pw@example.com/", "http://"])
      expect(normaliseUrl(bad, "https://example.com/")).toBeUndefined();
  });

  it("scopes to scheme, host and port", () => {
    const scope = new CrawlScope("https://example.com/docs/");
    expect(scope.contains("https://example.com/other")).toBe(true);
    expect(scope.contains("http://example.com/")).toBe(false);
    expect(scope.contains("https://www.example.com/")).toBe(false);
    expect(scope.contains("https://example.com:8443/")).toBe(false);
  });

  it("knows extensions that are never pages", () => {
    expect(hasNonHtmlExtension("https://e.com/img/logo.JPG")).toBe(true);
    expect(hasNonHtmlExtension("https://e.com/a.pdf?x=1")).toBe(true);
    expect(hasNonHtmlExtension("https://e.com/page.html")).toBe(false);
    expect(hasNonHtmlExtension("https://e.com/v1.2/")).toBe(false);
    expect(hasNonHtmlExtension("https://e.com/.well-known")).toBe(false);
  });
});

describe("web crawler: robots.txt (RFC 9309)", () => {
  const site = "https://example.com";
  const policy = (text: string) => robotsPolicy(`${site}/robots.txt`, { status: 200, body: bytes(text) }, ENGRAM_BOT_TOKEN);

  it("matches the product token case-insensitively; the longest rule wins, Allow on a tie", () => {
    const p = policy(
      [
        "User-agent: *",
        "Disallow: /",
        "",
        "User-Agent: ENGRAMBOT",
        "Disallow: /private",
        "Allow: /private/open$",
        "Disallow: /*.php$",
        "Allow: /tie",
        "Disallow: /tie",
        "Crawl-delay: 1.5",
        "Sitemap: https://example.com/sm.xml",
      ].join("\r\n"),
    );
    expect(p.status).toBe("ok");
    expect(p.isAllowed(`${site}/`)).toBe(true);
    expect(p.isAllowed(`${site}/private/x`)).toBe(false);
    expect(p.isAllowed(`${site}/private/open`)).toBe(true);
    expect(p.isAllowed(`${site}/private/open/more`)).toBe(false);
    expect(p.isAllowed(`${site}/index.php`)).toBe(false);
    expect(p.isAllowed(`${site}/index.php?x`)).toBe(true);
    expect(p.isAllowed(`${site}/tie`)).toBe(true);
    expect(p.isAllowed("https://other.example/")).toBe(false); // not this file's origin
    expect(p.crawlDelayMs).toBe(1500);
    expect(p.sitemaps).toEqual(["https://example.com/sm.xml"]);
  });

  it("falls back to the * group and merges groups naming the same agent", () => {
    expect(policy("User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n").isAllowed(`${site}/x`)).toBe(false);
    const merged = policy("User-agent: engrambot\nDisallow: /a\n\nUser-agent: engrambot\nDisallow: /b\n");
    expect(merged.isAllowed(`${site}/a`)).toBe(false);
    expect(merged.isAllowed(`${site}/b`)).toBe(false);
    expect(merged.isAllowed(`${site}/c`)).toBe(true);
  });

  it("parses 500 KiB and no more", () => {
    const padding = `# ${"x".repeat(ROBOTS_MAX_BYTES)}\n`;
    expect(policy(`User-agent: *\n${padding}Disallow: /\n`).isAllowed(`${site}/`)).toBe(true);
  });

  it.each([
    [{ status: 404 }, "missing", true],
    [{ status: 410 }, "missing", true],
    [{ status: 401 }, "missing", true],
    [{ status: 403 }, "missing", true],
    [{ status: 429 }, "unreachable", false],
    [{ status: 500 }, "unreachable", false],
    [{ status: 503 }, "unreachable", false],
    [{ error: "connection refused" }, "unreachable", false],
  ])("%j → %s", (outcome, status, allowed) => {
    const p = robotsPolicy(`${site}/robots.txt`, "error" in outcome ? outcome : { status: outcome.status, body: bytes("") }, ENGRAM_BOT_TOKEN);
    expect(p.status).toBe(status);
    expect(p.isAllowed(`${site}/page`)).toBe(allowed);
  });
});

describe("web crawler: sitemaps", () => {
  it("reads a urlset with lastmod, namespace prefixes and entities", () => {
    const xml = `<?xml version="1.0"?>
      <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc> https://e.com/a?x=1&amp;y=2 </sm:loc><sm:lastmod>2025-09-11</sm:lastmod></sm:url>
        <sm:url><sm:loc>https://e.com/b</sm:loc></sm:url>
        <sm:url><sm:lastmod>2025-01-01</sm:lastmod></sm:url>
      </sm:urlset>`;
    expect(parseSitemap(bytes(xml))).toEqual({
      kind: "urlset",
      urls: [{ loc: "https://e.com/a?x=1&y=2", lastmod: "2025-09-11" }, { loc: "https://e.com/b" }],
    });
  });

  it("reads an index, gzipped or not, and the plain-text form", () => {
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://e.com/1.xml</loc><lastmod>2025-01-02</lastmod></sitemap></sitemapindex>`;
    const expected = { kind: "index", sitemaps: [{ loc: "https://e.com/1.xml", lastmod: "2025-01-02" }] };
    expect(parseSitemap(bytes(index))).toEqual(expected);
    expect(parseSitemap(gzipSync(index))).toEqual(expected);
    expect(parseSitemap(bytes("https://e.com/a\n\nnot a url\r\nhttps://e.com/b\n"))).toEqual({
      kind: "urlset",
      urls: [{ loc: "https://e.com/a" }, { loc: "https://e.com/b" }],
    });
    expect(parseSitemap(bytes(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`))).toEqual({ kind: "urlset", urls: [] });
  });

  it("rejects what is not a sitemap", () => {
    expect(() => parseSitemap(bytes("<html><body>hi</body></html>"))).toThrow(/neither/);
  });
});

describe("web crawler: page analysis", () => {
  const page = (body: string, head = "<title> The  Title </title>") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  it("reads title, base, canonical, links and the article as main text", () => {
    const a = analysePage(
      page(
        `<header>Site header</header><nav><a href="/nav">Nav</a></nav>
         <main><aside>Related</aside><article><h1>Heading</h1><p>First&nbsp;para</p><p>second</p>
           <script>var x = 1</script><svg><title>icon</title></svg><a href="rel/link">inline</a><area href="/map"></article></main>
         <footer>Made with love</footer>`,
        `<title>T &amp; T</title><base href="https://e.com/base/"><link rel="Canonical Alternate" href=" https://e.com/c "><meta name="description" content="d">`,
      ),
    );
    expect(a.title).toBe("T & T");
    expect(a.baseHref).toBe("https://e.com/base/");
    expect(a.canonicalHref).toBe("https://e.com/c");
    expect(a.hrefs).toEqual(["/nav", "rel/link", "/map"]);
    expect(a.mainText).toBe("Heading First para second inline"); // &nbsp; is whitespace too
    expect(a.noindex || a.nofollow).toBe(false);
  });

  it("hashes title and main text only: furniture changes keep the hash, content changes move it", () => {
    const base = analysePage(page(`<nav>A</nav><main><p>Body text</p></main><footer>2024</footer>`));
    expect(analysePage(page(`<nav>B</nav><main><p>Body   text</p></main><footer>2025</footer>`)).contentHash).toBe(base.contentHash);
    expect(analysePage(page(`<nav>A</nav><main><p>Body text!</p></main><footer>2024</footer>`)).contentHash).not.toBe(base.contentHash);
    expect(analysePage(page(`<nav>A</nav><main><p>Body text</p></main><footer>2024</footer>`, "<title>Other</title>")).contentHash).not.toBe(base.contentHash);
  });

  it("falls back to <main>, then <body>, and to the first <h1> for a title", () => {
    const twoArticles = analysePage(page(`<main><article>one</article><article>two</article></main><p>outside</p>`, ""));
    expect(twoArticles.mainText).toBe("one two");
    const bare = analysePage(`<p>just <b>text</b></p><h1>Big</h1>`);
    expect(bare.mainText).toBe("just text Big");
    expect(bare.title).toBe("Big");
  });

  it("ignores several different canonicals and a canonical in the body", () => {
    expect(analysePage(page("x", `<link rel="canonical" href="/a"><link rel="canonical" href="/b">`)).canonicalHref).toBeUndefined();
    expect(analysePage(page(`<link rel="canonical" href="/a">x`, "")).canonicalHref).toBeUndefined();
  });

  it("reads robots directives from <meta> and X-Robots-Tag", () => {
    expect(analysePage(page("x", `<meta name="robots" content="NOINDEX, follow">`))).toMatchObject({ noindex: true, nofollow: false });
    expect(analysePage(page("x", `<meta name="EngramBot" content="none">`))).toMatchObject({ noindex: true, nofollow: true });
    expect(analysePage(page("x", `<meta name="googlebot" content="noindex">`))).toMatchObject({ noindex: false });
    expect(robotsTagDirectives("noindex", "EngramBot")).toEqual({ noindex: true, nofollow: false });
    expect(robotsTagDirectives("googlebot: noindex, nofollow", "EngramBot")).toEqual({ noindex: false, nofollow: false });
    expect(robotsTagDirectives("googlebot: noindex, engrambot: nofollow", "EngramBot")).toEqual({ noindex: false, nofollow: true });
    expect(robotsTagDirectives("unavailable_after: 2030-01-01, none", "EngramBot")).toEqual({ noindex: true, nofollow: true });
  });

  it("tells HTML by Content-Type, or by its start without one, and decodes its charset", () => {
    expect(isHtml("text/html; charset=utf-8", bytes(""))).toBe(true);
    expect(isHtml("application/xhtml+xml", bytes(""))).toBe(true);
    expect(isHtml("text/plain", bytes("<html>"))).toBe(false);
    expect(isHtml(undefined, bytes("\uFEFF  <!DOCTYPE html><p>"))).toBe(true);
    expect(isHtml(undefined, bytes("%PDF-1.7"))).toBe(false);
    const latin1 = Uint8Array.from([...bytes("<p>caf"), 0xe9, ...bytes("</p>")]);
    expect(decodeHtml(latin1, "text/html; charset=ISO-8859-1")).toBe("<p>café</p>");
    // Labelled ISO-8859-1, read as windows-1252 as browsers do (0x93/0x94 are curly quotes, 0x80 the euro sign).
    expect(decodeHtml(Uint8Array.from([...bytes('<meta charset="iso-8859-1"><p>'), 0x93, 0x80, 0x94]), undefined)).toContain("<p>\u201c€\u201d");
    expect(decodeHtml(Uint8Array.from([0xfe, 0xff, 0, 0x3c, 0, 0x70, 0, 0x3e]), undefined)).toBe("<p>");
    expect(decodeHtml(bytes("<p>ü</p>"), "text/html; charset=bogus")).toBe("<p>ü</p>");
  });
});

describe("web crawler: the GuardedFetcher adapter", () => {
  const fake = (impl: () => Promise<FetchedResource>) => {
    const calls: unknown[] = [];
    const fetcher: UrlFetcher = {
      fetch: (input, init) => {
        calls.push({ input, init });
        return impl();
      },
    };
    return { fetch: crawlFetchFrom(fetcher), calls };
  };
  const req = { url: "https://e.com/p", accept: "text/html", headers: { "if-none-match": '"x"' } };

  it("passes a 2xx through with its headers, and hands the fetcher the Accept and conditional headers", async () => {
    const { fetch, calls } = fake(async () => ({
      url: "https://e.com/p/",
      status: 200,
      headers: { etag: '"y"' },
      bytes: bytes("hi"),
      redirects: ["https://e.com/p"],
    }));
    await expect(fetch(req)).resolves.toEqual({ url: "https://e.com/p/", status: 200, headers: { etag: '"y"' }, body: bytes("hi") });
    expect(calls).toEqual([{ input: "https://e.com/p", init: { accept: "text/html", headers: { "if-none-match": '"x"' } } }]);
  });

  it("passes the fetcher's 304 to a conditional request through with its headers and empty body", async () => {
    const { fetch } = fake(async () => ({ url: "https://e.com/p", status: 304, headers: { etag: '"x"' }, bytes: new Uint8Array(0), redirects: [] }));
    await expect(fetch(req)).resolves.toEqual({ url: "https://e.com/p", status: 304, headers: { etag: '"x"' }, body: new Uint8Array(0) });
  });

  it("turns the fetcher's status errors back into answers (304, 404, 5xx with Retry-After)", async () => {
    const status = (err: Error) => fake(() => Promise.reject(err)).fetch(req);
    await expect(status(new UrlRefusedError("http_status", "the URL answered 304", { url: "https://e.com/p", status: 304 }))).resolves.toMatchObject({
      status: 304,
    });
    await expect(status(new UrlRefusedError("http_status", "the URL answered 404", { url: "https://e.com/q", status: 404 }))).resolves.toMatchObject({
      status: 404,
      url: "https://e.com/q",
    });
    await expect(status(new UrlFetchError("503", { retryable: true, status: 503, retryAfterMs: 2000 }))).resolves.toMatchObject({
      status: 503,
      retryAfterMs: 2000,
    });
  });

  it("reports no answer as a CrawlFetchError: refusals are permanent, network failures transient", async () => {
    const failure = (err: Error) => fake(() => Promise.reject(err)).fetch(req);
    await expect(failure(new UrlRefusedError("too_large", "too large"))).rejects.toMatchObject({
      name: "CrawlFetchError",
      retryable: false,
      message: "too large",
    });
    await expect(failure(new UrlRefusedError("private_address", "private"))).rejects.toBeInstanceOf(CrawlFetchError);
    await expect(failure(new UrlFetchError("reset", { retryable: true }))).rejects.toMatchObject({ retryable: true });
    const abort = new DOMException("aborted", "AbortError");
    await expect(failure(abort)).rejects.toBe(abort);
  });
});
