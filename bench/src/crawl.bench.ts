/*
 * Web crawler throughput on the HTTPX documentation fixture served from
 * 127.0.0.1, through the production GuardedFetcher, with the politeness delay
 * set to 0 (the delay is a wait, not work: with the default 1 s a crawl of
 * N pages takes about N seconds whatever the code does):
 *   node --import tsx bench/src/crawl.bench.ts
 * Prints pages per second for a first crawl (everything new), a recrawl
 * deciding by content hash (the server sends no validators) and a recrawl
 * with ETags (answers 304), through the GuardedFetcher and, for comparison,
 * through Node's own fetch (one connection reused; the GuardedFetcher opens
 * one per request to pin the address it checked), median of several runs.
 */
import {
  ENGRAM_BOT_USER_AGENT,
  createCrawlFetch,
  crawlSite,
  type CrawlFetch,
  type PageState,
} from "../../services/connections/src/adapters/connectors/web-crawler";
import { HTTPX_SITE, startStaticSite } from "@engram/testing";

const RUNS = 7;

const forwardingFetch: CrawlFetch = async (req) => {
  const res = await fetch(req.url, { headers: { ...req.headers, accept: req.accept, "user-agent": ENGRAM_BOT_USER_AGENT }, redirect: "follow" });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { url: res.url, status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const site = await startStaticSite(HTTPX_SITE);
  const guarded = createCrawlFetch({ allowPrivate: true });

  async function run(fetch: CrawlFetch, previous?: PageState[]) {
    const state: PageState[] = [];
    const t0 = performance.now();
    const summary = await crawlSite({ startUrl: `${site.origin}/`, fetch, defaultDelayMs: 0, ...(previous ? { previous } : {}) }, (page) => {
      if (page.status === "new" || page.status === "changed" || page.status === "unchanged") state.push(page);
    });
    return { ms: performance.now() - t0, summary, state };
  }

  async function measure(label: string, fetch: CrawlFetch, validators: boolean, recrawl: boolean) {
    site.validators = validators;
    const baseline = recrawl ? (await run(fetch)).state : undefined;
    await run(fetch, baseline); // warm-up
    const times: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      last = await run(fetch, baseline);
      times.push(last.ms);
    }
    const s = last!.summary;
    const pages = s.new + s.changed + s.unchanged;
    const ms = median(times);
    console.log(
      `| ${label} | ${pages} | ${s.pagesFetched} | ${s.requests} | ${ms.toFixed(0)} | ${((pages / ms) * 1000).toFixed(1)} | ${(ms / pages).toFixed(1)} |`,
    );
  }

  console.log(`Web crawler, HTTPX docs fixture on 127.0.0.1, delay 0, median of ${RUNS} runs`);
  console.log("| crawl | pages recorded | page requests | HTTP requests | ms | pages/s | ms/page |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  await measure("first crawl (GuardedFetcher)", guarded, false, false);
  await measure("recrawl by hash (GuardedFetcher)", guarded, false, true);
  await measure("recrawl with ETags, 304s (GuardedFetcher)", guarded, true, true);
  await measure("recrawl with ETags, 304s (Node's fetch)", forwardingFetch, true, true);
  await site.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
