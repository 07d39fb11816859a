import { Readability } from "@mozilla/readability";
import iconv from "iconv-lite";
import { all, contentRoot, type DomDocument, type DomElement, parseDocument } from "../dom";
import { htmlToMarkdown } from "../html-to-markdown";
import { cleanTitle, firstHeading, tidy } from "../normalize";
import type { Extracted } from "../types";
import { isGoogleDocsExport, prepareGoogleDoc } from "./gdocs";

/** Pages with less body text than this are converted whole: there is no boilerplate worth finding. */
const SMALL_PAGE_CHARS = 1000;
/** Readability's article must hold at least this much text to be used. */
const MIN_ARTICLE_CHARS = 250;

const BOILERPLATE = 'nav, aside, footer, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"], form';

function meta(doc: DomDocument, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = doc.querySelector(`meta[property="${name}"], meta[name="${name}"]`)?.getAttribute("content");
    if (v?.trim()) return v;
  }
  return undefined;
}

function pageTitle(doc: DomDocument): string | undefined {
  return (
    cleanTitle(meta(doc, "og:title", "twitter:title")) ??
    cleanTitle(doc.querySelector("title")?.textContent) ??
    cleanTitle(doc.querySelector("h1")?.textContent)
  );
}

const textLength = (el: DomElement | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim().length;

/** The charset a page declares, when its bytes were not valid UTF-8 (so the statistical guess may be wrong). */
function declaredCharset(html: string): string | undefined {
  const m = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(html.slice(0, 4096));
  return m && iconv.encodingExists(m[1]!) ? m[1] : undefined;
}

function readable(html: string): { content: string; title?: string } | undefined {
  const doc = parseDocument(html);
  try {
    // linkedom's document is the DOM Readability walks; the structural DomDocument type names only what Engram reads.
    const article = new Readability(doc as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: MIN_ARTICLE_CHARS }).parse();
    if (!article?.content || (article.textContent ?? "").replace(/\s+/g, " ").trim().length < MIN_ARTICLE_CHARS) return undefined;
    return { content: article.content, title: article.title ?? undefined };
  } catch {
    return undefined;
  }
}

function wholeBody(doc: DomDocument): DomElement {
  const body = contentRoot(doc);
  for (const el of all(body.querySelectorAll(BOILERPLATE))) if (textLength(el) < textLength(body) / 2) el.remove();
  return body;
}

/**
 * HTML: the main content (Mozilla Readability over linkedom) converted to
 * Markdown; pages too small for boilerplate, or where Readability finds no
 * article, are converted whole (navigation, asides and footers removed).
 * Google Docs exports are converted whole and faithfully (see gdocs.ts). The
 * title is og:title, then <title>, then the first <h1>; it opens the text as a
 * heading when the content does not contain it. contentType is "webpage" for
 * pages fetched from a URL, "html" otherwise.
 */
export function extractHtml(decoded: string, opts: { bytes?: Uint8Array; encoding?: string; sourceUrl?: string; fileType?: string } = {}): Extracted {
  let html = decoded;
  if (opts.bytes && opts.encoding && !/^utf-(8|16|32)/.test(opts.encoding)) {
    const charset = declaredCharset(html);
    if (charset && charset.toLowerCase() !== opts.encoding) html = iconv.decode(Buffer.from(opts.bytes), charset);
  }
  const contentType = opts.sourceUrl || opts.fileType === "webpage" ? "webpage" : "html";
  const doc = parseDocument(html);
  let title = pageTitle(doc);
  let markdown: string;
  if (isGoogleDocsExport(doc)) {
    prepareGoogleDoc(doc);
    markdown = htmlToMarkdown(contentRoot(doc), { baseUrl: opts.sourceUrl });
  } else {
    const article = textLength(contentRoot(doc)) >= SMALL_PAGE_CHARS ? readable(html) : undefined;
    if (article) {
      title ??= cleanTitle(article.title);
      markdown = htmlToMarkdown(parseDocument(article.content).body!, { baseUrl: opts.sourceUrl });
    } else {
      markdown = htmlToMarkdown(wholeBody(doc), { baseUrl: opts.sourceUrl });
    }
  }
  title ??= firstHeading(markdown);
  const flat = (s: string) => s.replace(/\s+/g, " ").toLowerCase();
  if (title && !flat(markdown).includes(flat(title))) markdown = `# ${title}\n\n${markdown}`;
  return { text: tidy(markdown), title, contentType };
}
