import type { Connection, ConnectionItem } from "../../domain/connection";
import type { Connector, ConnectorChange } from "../../app/sync-ports";
import { ConnectorError } from "../../domain/errors";
import { type CrawlFetch, type CrawlOptions, type PageState, SiteCrawler } from "./web-crawler";

export interface WebCrawlerConnectorOptions {
  /** Wait between two requests when robots.txt sets none (default 1 s). */
  defaultDelayMs?: number;
  /** Page requests per crawl when the connection names no limit (default 1000). */
  maxPages?: number;
  /** Decodes and analyses pages (the service's worker pool; default: on the calling thread). */
  analyse?: CrawlOptions["analyse"];
}

/** The page state the crawler hands back next time, stored on the item's ledger entry. */
const stateOf = (p: PageState): string =>
  JSON.stringify({
    url: p.url,
    contentHash: p.contentHash,
    ...(p.etag ? { etag: p.etag } : {}),
    ...(p.lastModified ? { lastModified: p.lastModified } : {}),
    links: p.links ?? [],
  });

function previousStates(known: ReadonlyMap<string, ConnectionItem>): PageState[] {
  const out: PageState[] = [];
  for (const item of known.values()) {
    if (!item.state) continue;
    try {
      out.push(JSON.parse(item.state) as PageState);
    } catch {
      // A state that does not parse is a page to fetch again unconditionally.
    }
  }
  return out;
}

/**
 * The web-crawler connector: crawls the connection's start URL (same site
 * only, robots.txt, sitemaps, politeness) and reports each page: new or
 * changed HTML to import, unchanged pages, pages gone (404/410) to delete,
 * failures to record. Pages not checked in a crawl are never reported gone.
 */
export class WebCrawlerConnector implements Connector {
  constructor(
    private readonly fetch: CrawlFetch,
    private readonly opts: WebCrawlerConnectorOptions = {},
  ) {}

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const startUrl = typeof conn.config?.startUrl === "string" ? conn.config.startUrl : String(conn.metadata.startUrl ?? "");
    const maxPages = typeof conn.config?.maxPages === "number" && conn.config.maxPages > 0 ? conn.config.maxPages : (this.opts.maxPages ?? 1000);
    const crawler = new SiteCrawler({
      startUrl,
      fetch: this.fetch,
      previous: previousStates(known),
      maxPages,
      defaultDelayMs: this.opts.defaultDelayMs,
      signal,
      ...(this.opts.analyse ? { analyse: this.opts.analyse } : {}),
    });
    const encoder = new TextEncoder();
    for await (const p of crawler.pages()) {
      switch (p.status) {
        case "new":
        case "changed":
          yield {
            kind: "upsert",
            itemKey: p.url,
            url: p.url,
            title: p.title,
            content: { bytes: encoder.encode(p.html), mimeType: "text/html", fileName: "page.html" },
            version: p.contentHash,
            state: stateOf(p),
          };
          break;
        case "unchanged":
          yield { kind: "unchanged", itemKey: p.url, state: stateOf(p) };
          break;
        case "gone":
          yield { kind: "delete", itemKey: p.url, reason: p.error };
          break;
        case "failed":
          yield { kind: "failure", itemKey: p.url, reason: p.error };
          break;
      }
    }
    // Nothing may be fetched when robots.txt is unreachable (RFC 9309): the run fails saying so, rather than
    // succeeding with nothing imported (known pages are kept, as for any crawl that did not reach them).
    const robots = crawler.summary?.robots;
    if (robots?.status === "unreachable") {
      const why = robots.error ?? (robots.httpStatus ? `HTTP ${robots.httpStatus}` : "no answer");
      throw new ConnectorError("provider_unavailable", `the site could not be crawled: its robots.txt is unreachable (${why})`);
    }
  }
}
