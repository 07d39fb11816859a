/*
 * What the crawler needs from one HTML page, in one pass of htmlparser2's
 * tokenizer: the title, `<base href>`, the canonical link, the robots meta
 * directives, the `<a href>` links, and the main text whose hash decides
 * "changed" on a recrawl. The pipeline does the real extraction (Readability)
 * from the raw HTML later; the hash only has to ignore what changes without
 * the content changing (navigation, headers, footers, scripts).
 *
 * htmlparser2 and not linkedom (which the pipeline uses): linkedom builds a
 * whole DOM on top of htmlparser2 and loads css-select 7, an ES module that
 * jest's CommonJS runtime needs a shim for; a streaming pass is all this
 * needs. 10.1.0 is the version linkedom resolves to (12 is ESM-only). Also
 * decodes the body (charset from Content-Type, BOM or `<meta>`). Pure.
 */
import { createHash } from "node:crypto";
import { Parser } from "htmlparser2";
import iconv from "iconv-lite";

export interface PageAnalysis {
  title: string;
  /** `<base href>`, raw. */
  baseHref: string | undefined;
  /** `<link rel="canonical" href>`, raw; undefined when absent or when the page declares several different ones. */
  canonicalHref: string | undefined;
  noindex: boolean;
  nofollow: boolean;
  /** Raw `href`s of `<a>` and `<area>`, in document order. */
  hrefs: string[];
  /** The main text, whitespace collapsed. */
  mainText: string;
  /** sha256 hex of the title and the main text. */
  contentHash: string;
}

/** Never text: script-like and embedded content. */
const NEVER_TEXT = new Set(["head", "title", "script", "style", "noscript", "template", "svg", "math", "iframe", "object", "canvas", "select", "button"]);
/** Page furniture, left out of the main text. */
const FURNITURE = new Set(["nav", "aside", "dialog"]);
/** Site header and footer: furniture outside the content, part of it inside `<main>`/`<article>`. */
const SITE_BANDS = new Set(["header", "footer"]);

interface Frame {
  skip: boolean;
  foreign: boolean;
  main: boolean;
  article: boolean;
}

/** Analyses decoded HTML. */
export function analysePage(html: string): PageAnalysis {
  const stack: Frame[] = [];
  let skipDepth = 0;
  /** Inside <svg> or <math>, whose <title> is not the page's. */
  let foreignDepth = 0;
  let mainDepth = 0;
  let articleDepth = 0;
  let articles = 0;
  let bodySeen = false;
  let titleDepth = 0;
  let titleDone = false;
  let title = "";
  let h1 = "";
  let h1Depth = 0;
  let h1Done = false;
  let baseHref: string | undefined;
  const canonicals = new Set<string>();
  const robots: string[] = [];
  const hrefs: string[] = [];
  const all: string[] = [];
  const main: string[] = [];
  const article: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const frame: Frame = { skip: false, foreign: name === "svg" || name === "math", main: false, article: false };
        switch (name) {
          case "body":
            bodySeen = true;
            break;
          case "title":
            if (!titleDone && foreignDepth === 0) titleDepth++;
            break;
          case "h1":
            if (!h1Done) h1Depth++;
            break;
          case "base":
            if (baseHref === undefined && attrs.href) baseHref = attrs.href;
            break;
          case "link":
            if (!bodySeen && attrs.href && hasToken(attrs.rel, "canonical")) canonicals.add(attrs.href.trim());
            break;
          case "meta": {
            const metaName = (attrs.name ?? "").toLowerCase();
            if ((metaName === "robots" || metaName === "engrambot") && attrs.content) robots.push(attrs.content);
            break;
          }
          case "a":
          case "area":
            if (attrs.href !== undefined) hrefs.push(attrs.href);
            break;
          case "main":
            frame.main = true;
            break;
          case "article":
            frame.article = true;
            articles++;
            break;
        }
        if (attrs.role === "main") frame.main = true;
        if (NEVER_TEXT.has(name) || FURNITURE.has(name) || attrs.hidden !== undefined || attrs["aria-hidden"] === "true") frame.skip = true;
        if (SITE_BANDS.has(name) && mainDepth === 0 && articleDepth === 0) frame.skip = true;
        if (frame.skip) skipDepth++;
        if (frame.foreign) foreignDepth++;
        if (frame.main) mainDepth++;
        if (frame.article) articleDepth++;
        stack.push(frame);
        separate();
      },
      onclosetag(name) {
        const frame = stack.pop();
        if (frame?.skip) skipDepth--;
        if (frame?.foreign) foreignDepth--;
        if (frame?.main) mainDepth--;
        if (frame?.article) articleDepth--;
        if (name === "title" && titleDepth > 0) {
          titleDepth--;
          if (title.trim()) titleDone = true;
        }
        if (name === "h1" && h1Depth > 0) {
          h1Depth--;
          if (h1.trim()) h1Done = true;
        }
        separate();
      },
      ontext(text) {
        if (titleDepth > 0) title += text;
        if (h1Depth > 0) h1 += text;
        if (skipDepth > 0) return;
        all.push(text);
        if (mainDepth > 0) main.push(text);
        if (articleDepth > 0) article.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  // Tag boundaries separate words ("a</p><p>b" is "a b"); collapsing whitespace removes the excess.
  function separate() {
    if (skipDepth > 0) return;
    all.push(" ");
    if (mainDepth > 0) main.push(" ");
    if (articleDepth > 0) article.push(" ");
  }
  parser.end(html);

  const collapse = (parts: string[]) => parts.join("").replace(/\s+/g, " ").trim();
  const articleText = articles === 1 ? collapse(article) : "";
  const mainText = articleText || collapse(main) || collapse(all);
  const finalTitle = collapse([title]) || collapse([h1]);
  const directives = robots
    .join(",")
    .toLowerCase()
    .split(/[\s,]+/);
  const none = directives.includes("none");
  return {
    title: finalTitle,
    baseHref,
    canonicalHref: canonicals.size === 1 ? [...canonicals][0] : undefined,
    noindex: none || directives.includes("noindex"),
    nofollow: none || directives.includes("nofollow"),
    hrefs,
    mainText,
    contentHash: contentHash(finalTitle, mainText),
  };
}

export function contentHash(title: string, mainText: string): string {
  return createHash("sha256").update(title).update("\n").update(mainText).digest("hex");
}

function hasToken(list: string | undefined, token: string): boolean {
  return (list ?? "").toLowerCase().split(/\s+/).includes(token);
}

/**
 * The directives of an `X-Robots-Tag` header that apply to `token`: those
 * without an agent prefix and those prefixed with the token ("engrambot: noindex").
 */
export function robotsTagDirectives(header: string | undefined, token: string): { noindex: boolean; nofollow: boolean } {
  const result = { noindex: false, nofollow: false };
  if (!header) return result;
  const own = token.toLowerCase();
  let agent: string | undefined;
  for (const raw of header.toLowerCase().split(",")) {
    let part = raw.trim();
    const m = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(part);
    // "unavailable_after: <date>" is a directive with a value, not an agent prefix.
    if (m && m[1] !== "unavailable_after") {
      agent = m[1];
      part = m[2] ?? "";
    }
    if (agent !== undefined && agent !== own) continue;
    for (const d of part.split(/\s+/)) {
      if (d === "noindex" || d === "none") result.noindex = true;
      if (d === "nofollow" || d === "none") result.nofollow = true;
    }
  }
  return result;
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  const t = contentType?.split(";")[0]?.trim().toLowerCase();
  return t || undefined;
}

/** True for an HTML page: by its Content-Type, or, without one, by how the body starts. */
export function isHtml(contentType: string | undefined, body: Uint8Array): boolean {
  const type = mediaType(contentType);
  if (type) return HTML_TYPES.has(type);
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0; // UTF-8 BOM
  const head = new TextDecoder("latin1")
    .decode(body.subarray(start, start + 512))
    .trimStart()
    .toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

/**
 * Labels the WHATWG Encoding standard (what browsers do) reads as
 * windows-1252: pages labelled ISO-8859-1 or ASCII are windows-1252 in practice.
 */
const WINDOWS_1252 = new Set([
  "windows-1252",
  "cp1252",
  "x-cp1252",
  "iso-8859-1",
  "iso8859-1",
  "iso_8859-1",
  "iso_8859-1:1987",
  "latin1",
  "l1",
  "cp819",
  "ibm819",
  "iso-ir-100",
  "csisolatin1",
  "ascii",
  "us-ascii",
  "ansi_x3.4-1968",
]);
const UTF8 = new Set(["utf-8", "utf8", "unicode-1-1-utf-8"]);

/**
 * Decodes an HTML body: charset from the Content-Type, else a BOM, else a
 * `<meta>` in the first 1024 bytes, else UTF-8. Other charsets go through
 * iconv-lite: Node 20's TextDecoder turns windows-1252 bytes 0x80–0x9F (€, “, ”)
 * into control characters.
 */
export function decodeHtml(body: Uint8Array, contentType: string | undefined): string {
  let label = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (!label) {
    if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = "utf-8";
    else if (body[0] === 0xfe && body[1] === 0xff) label = "utf-16be";
    else if (body[0] === 0xff && body[1] === 0xfe) label = "utf-16le";
  }
  if (!label) {
    const head = new TextDecoder("latin1").decode(body.subarray(0, 1024));
    label = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  const name = label?.toLowerCase() ?? "utf-8";
  const encoding = WINDOWS_1252.has(name) ? "windows-1252" : name;
  if (UTF8.has(encoding) || !iconv.encodingExists(encoding)) return new TextDecoder("utf-8").decode(body);
  return iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), encoding);
}

/** A page's bytes decoded (declared or sniffed charset) and analysed: the crawler's CPU work per page. */
export function decodeAndAnalyse(body: Uint8Array, contentType: string | undefined): { html: string; page: PageAnalysis } {
  const html = decodeHtml(body, contentType);
  return { html, page: analysePage(html) };
}
