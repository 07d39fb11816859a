/*
 * URL identity for the crawler: one spelling per page, so a page reached by
 * two links is fetched and recorded once.
 *
 * Hand-written on top of the WHATWG URL parser, which already does most of
 * RFC 3986 §6 normalisation (lower-case scheme and host, IDN to punycode,
 * default port dropped, dot segments removed, empty path to "/", characters
 * outside the allowed set percent-encoded). What it leaves is two lines: the
 * hex case of percent-escapes and escapes of unreserved characters ("%7E" is
 * "~"). The library that exists for this, normalize-url, is ESM-only and
 * applies opinionated rewrites (drops "www.", sorts and strips query
 * parameters, trailing slashes) that would merge URLs a server may treat as
 * different pages.
 */

const HTTP_SCHEMES = new Set(["http:", "https:"]);

/** Percent-escapes of RFC 3986 unreserved characters (ALPHA / DIGIT / "-" / "." / "_" / "~"), any hex case. */
const ESCAPED_UNRESERVED = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

function normalisePercent(part: string): string {
  return part.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()).replace(ESCAPED_UNRESERVED, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The normalised absolute form of `href` (resolved against `base`), or
 * undefined when it is not an http(s) URL, cannot be parsed, or carries
 * credentials. Drops the fragment and an empty "?".
 */
export function normaliseUrl(href: string, base?: string | URL): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (!HTTP_SCHEMES.has(url.protocol) || url.username || url.password || !url.hostname) return undefined;
  url.hash = "";
  const path = normalisePercent(url.pathname);
  if (path !== url.pathname) url.pathname = path;
  if (url.search === "" || url.search === "?") url.search = "";
  else {
    const search = normalisePercent(url.search);
    if (search !== url.search) url.search = search;
  }
  return url.href;
}

/** The crawl's scope: scheme + host + port of the start URL. */
export class CrawlScope {
  readonly origin: string;

  constructor(startUrl: string) {
    this.origin = new URL(startUrl).origin;
  }

  /** True when the (normalised) URL is on the crawled site. */
  contains(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }
}

/** Path extensions that are never HTML pages: links to them are skipped without a request. */
const NOT_HTML_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif webp svg ico bmp tif tiff avif css js mjs map json xml rss atom txt csv tsv pdf " +
    "doc docx xls xlsx ppt pptx odt ods odp zip gz tgz bz2 xz 7z rar tar jar exe dmg iso apk deb rpm " +
    "mp3 mp4 m4a m4v wav ogg oga ogv webm mov avi mkv flac woff woff2 ttf otf eot wasm bin"
  ).split(" "),
);

/** True when the URL's last path segment has an extension that is never an HTML page. */
export function hasNonHtmlExtension(url: string): boolean {
  const path = new URL(url).pathname;
  const segment = path.slice(path.lastIndexOf("/") + 1);
  const dot = segment.lastIndexOf(".");
  return dot > 0 && NOT_HTML_EXTENSIONS.has(segment.slice(dot + 1).toLowerCase());
}
