/*
 * Exercises the page-analysis pool the way the service runs it: TypeScript
 * under `node --import tsx`, worker threads loading page-analysis.worker.ts.
 * Started by analysis-pool.test.ts (jest cannot run TypeScript in worker
 * threads); prints one JSON object.
 */
import fs from "node:fs";
import path from "node:path";
import { PageAnalysisPool } from "../../../src/adapters/connectors/web-crawler/analysis-pool";
import { decodeAndAnalyse } from "../../../src/adapters/connectors/web-crawler/page-analysis";

async function main() {
  const html = fs.readFileSync(path.resolve(__dirname, "../../../../../tests/fixtures/sites/httpx/site/index.html"));
  const pool = new PageAnalysisPool({ threads: 1, timeoutMs: 60_000 });
  const pooled = await pool.analyse(html, "text/html; charset=utf-8");
  const inline = decodeAndAnalyse(html, "text/html; charset=utf-8");

  // A large page (about 9 MB of markup and text) analysed while the main thread keeps ticking.
  const big = Buffer.from(`<html><body><main>${"<div><p>tides and lighthouses <a href='/x'>x</a></p></div>".repeat(160_000)}</main></body></html>`);
  // A hostile one: 40,000 unclosed <div>s, which the HTML parser handles in quadratic time (2.4 s here; 43 s at 160,000).
  const hostile = Buffer.from(`<html><body>${"<div><p>deep <a href='/y'>y</a></p>".repeat(40_000)}</body></html>`);
  let maxGap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  const t = performance.now();
  const bigResult = await pool.analyse(big, "text/html");
  const bigMs = performance.now() - t;
  clearInterval(ticker);

  const slow = new PageAnalysisPool({ threads: 1, timeoutMs: 5 });
  let timeout = "";
  try {
    await slow.analyse(hostile, "text/html");
  } catch (err) {
    timeout = (err as Error).message;
  }
  await Promise.all([pool.close(), slow.close()]);
  console.log(
    JSON.stringify({
      same: JSON.stringify(pooled) === JSON.stringify(inline),
      title: pooled.page.title,
      big: { links: bigResult.page.hrefs.length, ms: Math.round(bigMs), maxLoopGapMs: Math.round(maxGap) },
      timeout,
    }),
  );
}

void main();
