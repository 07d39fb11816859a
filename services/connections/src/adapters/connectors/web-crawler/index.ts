/*
 * The web crawler connector's crawling core: crawl one site, report per page
 * what changed since the previous crawl. See site-crawler.ts.
 */
export * from "./crawl.types";
export { SiteCrawler, crawlSite } from "./site-crawler";
export { crawlFetchFrom, createCrawlFetch, type CrawlFetchConfig, type UrlFetcher } from "./guarded-crawl-fetch";
export { normaliseUrl } from "./crawl-url";
