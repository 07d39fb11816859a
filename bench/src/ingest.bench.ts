/**
 * Batch ingestion throughput of the all-in-one stack: N one-kilobyte text
 * documents through POST /ns/{ns}/document/batch (600 per call, 2 callers in
 * parallel), timed until every document is `done`; RSS of the process sampled
 * every 250 ms. Talks only to 127.0.0.1.
 *
 *   pnpm bench:ingest                 # 10,000 documents
 *   pnpm bench:ingest -- --docs 2000 --json bench/results/ingest.json
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, startEngram, tempDataDir } from "@engram/testing";

const TARGET_DOCS_PER_S = 200;
const BATCH = 600;
const CALLERS = 2;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const WORDS =
  "river mountain archive ledger harbor signal lantern orchard meadow compass quarry beacon canyon glacier summit valley forest desert island prairie tundra delta marsh reef volcano cavern plateau basin ridge cliff dune lagoon estuary fjord atoll".split(
    " ",
  );

function doc(i: number): string {
  let s = `Document ${i}. `;
  let x = i * 2654435761;
  while (s.length < 1000) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += WORDS[x % WORDS.length] + (x % 7 === 0 ? ". " : " ");
  }
  return s.slice(0, 1024);
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const total = Number(arg("docs") ?? 10_000);
  const jsonOut = arg("json");
  const dataDir = tempDataDir("engram-bench-ingest-");
  const engram = await startEngram({ dataDir, timeoutMs: 60_000, env: { LOG_LEVEL: "warn" } });
  const api = apiClient(engram.url, engram.apiKey);
  const pid = engram.child.pid!;
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(rssMb(pid)), 250);
  try {
    const idleRss = rssMb(pid);
    const t0 = performance.now();
    let next = 0;
    let accepted = 0;
    const sender = async () => {
      while (next < total) {
        const from = next;
        next = Math.min(total, next + BATCH);
        const documents = Array.from({ length: next - from }, (_, k) => ({ content: doc(from + k), id: `b${from + k}` }));
        const res = await api("POST", "/ns/bench/document/batch", { documents });
        if (res.status !== 200) throw new Error(`batch failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        accepted += res.body.count;
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, sender));
    const acceptedMs = performance.now() - t0;
    let pending = Infinity;
    while (pending > 0) {
      if (performance.now() - t0 > 30 * 60_000) throw new Error("not done within 30 minutes");
      await new Promise((r) => setTimeout(r, 500));
      pending = (await api("GET", "/v3/documents/processing")).body.totalCount;
    }
    const doneMs = performance.now() - t0;
    const done = (await api("POST", "/v3/documents/list", { containerTags: ["bench"], limit: 1 })).body.pagination.totalItems as number;
    const failedList = await api("POST", "/ns/bench/list/documents?limit=1", {});
    const docsPerS = total / (doneMs / 1000);
    const peak = Math.max(...rss.filter(Number.isFinite));
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memMb: Math.round(os.totalmem() / 2 ** 20), node: process.version },
      documents: total,
      accepted,
      listed: done,
      acceptSeconds: +(acceptedMs / 1000).toFixed(2),
      doneSeconds: +(doneMs / 1000).toFixed(2),
      docsPerSecond: +docsPerS.toFixed(1),
      targetDocsPerSecond: TARGET_DOCS_PER_S,
      rssMb: { idle: +idleRss.toFixed(1), peak: +peak.toFixed(1), end: +rssMb(pid).toFixed(1) },
      sampleDocument: failedList.body.documents?.[0]?.system?.status,
    };
    console.log(`\nEngram batch ingestion — ${result.date}, ${result.machine.cpus} CPUs, node ${result.machine.node}`);
    console.log(`documents                 ${total} (${BATCH} per batch, ${CALLERS} callers)`);
    console.log(`all accepted after        ${result.acceptSeconds} s`);
    console.log(`all done after            ${result.doneSeconds} s`);
    console.log(`throughput (add -> done)  ${result.docsPerSecond} docs/s   target >= ${TARGET_DOCS_PER_S}   ${docsPerS >= TARGET_DOCS_PER_S ? "ok" : "MISS"}`);
    console.log(`RSS idle / peak / end     ${result.rssMb.idle} / ${result.rssMb.peak} / ${result.rssMb.end} MB`);
    if (accepted !== total || done !== total) throw new Error(`accepted ${accepted}, listed ${done} of ${total}`);
    if (jsonOut) {
      fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
      fs.writeFileSync(jsonOut, JSON.stringify(result, null, 2));
      console.log(`figures written to ${jsonOut}`);
    }
  } finally {
    clearInterval(sampler);
    await engram.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
