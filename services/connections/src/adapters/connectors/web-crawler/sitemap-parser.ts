/*
 * Sitemaps (sitemaps.org protocol 0.9): a `<urlset>` of pages or a
 * `<sitemapindex>` of further sitemaps, either possibly gzipped, or the
 * protocol's plain-text form (one URL per line). XML is parsed by
 * fast-xml-parser (no DOM, bounded entity expansion, no external entities);
 * namespace prefixes are dropped so `<sm:url>` reads like `<url>`. Pure.
 */
import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";

/** The protocol's limit on one sitemap, uncompressed. */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The protocol's limit on entries in one sitemap. */
export const SITEMAP_MAX_ENTRIES = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export type Sitemap = { kind: "urlset"; urls: SitemapEntry[] } | { kind: "index"; sitemaps: SitemapEntry[] };

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/** Parses one sitemap file; throws an Error with a readable message when it is none. */
export function parseSitemap(bytes: Uint8Array): Sitemap {
  const raw = isGzip(bytes) ? gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX_BYTES }) : bytes;
  const text = new TextDecoder("utf-8").decode(raw).trim();
  if (!text.startsWith("<")) {
    // The plain-text form: one absolute URL per line.
    const urls = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l))
      .slice(0, SITEMAP_MAX_ENTRIES)
      .map((loc) => ({ loc }));
    return { kind: "urlset", urls };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`the sitemap is not valid XML: ${(err as Error).message}`, { cause: err });
  }
  const urlset = record(doc.urlset);
  if (urlset) return { kind: "urlset", urls: entries(urlset.url) };
  const index = record(doc.sitemapindex);
  if (index) return { kind: "index", sitemaps: entries(index.sitemap) };
  if (doc.urlset === "") return { kind: "urlset", urls: [] };
  if (doc.sitemapindex === "") return { kind: "index", sitemaps: [] };
  throw new Error("the document is neither a <urlset> nor a <sitemapindex>");
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function entries(list: unknown): SitemapEntry[] {
  if (!Array.isArray(list)) return [];
  const out: SitemapEntry[] = [];
  for (const item of list.slice(0, SITEMAP_MAX_ENTRIES)) {
    const r = record(item);
    const loc = typeof r?.loc === "string" ? r.loc.trim() : "";
    if (!loc) continue;
    const lastmod = typeof r?.lastmod === "string" && r.lastmod.trim() ? r.lastmod.trim() : undefined;
    out.push(lastmod ? { loc, lastmod } : { loc });
  }
  return out;
}
