/**
 * Start-up of the all-in-one stack over a large chunk index (issue #35: ready ≤ 10 s after a restart
 * at a million chunks), without the half hour of ingest `bench:scale` needs to get there: the index is
 * written straight through `SqliteChunkIndex` (the scale bench's documents: ~3,600 characters of
 * dataset sentences, ~470-character chunks, vectors of the default hashing embedder), then the stack
 * is started on that data directory three times:
 *
 *   1. from the rows (no saved copy yet: a first start, or one after a crash that left none);
 *   2. after a clean stop of (1), from the partition's saved copy (engine/snapshot.ts);
 *   3. again from the rows, the saved copy removed (what a start costs when the copy is stale).
 *
 * Each start reports seconds until ready and until the first search over the container answered,
 * the stop before it how long closing took (saving the copy), and the copy's size.
 *
 *   pnpm bench:restart                      # 1,000,000 chunks (~5 minutes to write)
 *   pnpm bench:restart -- --chunks 100000 --json bench/results/restart.json
 *   pnpm bench:restart -- --keep ../engram-1m          # the data directory is kept
 */
import fs from "node:fs";
import path from "node:path";
import { HashingEmbedder, type IndexedChunk, SqliteChunkIndex } from "@engram/index";
import { type EngramProcess, startEngram } from "@engram/testing";
import { benchDataDir, dirBytes, jsonClient, machineFacts, round, rssMb, sentenceCorpus, speedProbeMs } from "./lib";
import { datasetText } from "./quality/datasets";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
}
const CHUNKS = Number(arg("chunks", "1000000"));
const JSON_OUT = arg("json", "");
/** Write into this directory and keep it (for profiling a start by hand); default: a temporary one, removed. */
const KEEP = arg("keep", "");
const PER_DOC = 8;
const CHUNK_CHARS = 470;
const TENANT = "default";
const CONTAINER = "bench-restart";
const ENV = { LOG_LEVEL: "warn", EMBEDDER: "hashing" };

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[restart ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

async function writeIndex(dataDir: string): Promise<void> {
  const { sentences } = datasetText();
  const { doc } = sentenceCorpus(sentences, 7, "restart-", PER_DOC * CHUNK_CHARS);
  const embedder = new HashingEmbedder(384);
  const index = new SqliteChunkIndex(dataDir);
  const now = new Date().toISOString();
  const docs = Math.ceil(CHUNKS / PER_DOC);
  for (let d = 0; d < docs; d++) {
    const { id, content } = doc(d);
    const chunks: IndexedChunk[] = [];
    for (let p = 0; p < PER_DOC; p++) {
      const text = content.slice(p * CHUNK_CHARS, (p + 1) * CHUNK_CHARS);
      chunks.push({
        id: `${id}-c${p}`,
        tenantId: TENANT,
        namespace: CONTAINER,
        documentId: id,
        position: p,
        content: text,
        startOffset: p * CHUNK_CHARS,
        endOffset: p * CHUNK_CHARS + text.length,
        tokenCount: Math.round(text.length / 4),
        vector: embedder.embedOne(text),
        model: embedder.id,
        document: { createdAt: now, updatedAt: now },
        createdAt: now,
      });
    }
    await index.replaceDocumentChunks(TENANT, CONTAINER, id, chunks, 1);
    if ((d + 1) % 10_000 === 0) progress(`wrote ${(d + 1) * PER_DOC} chunks`);
  }
  await index.close();
}

interface Start {
  how: string;
  readySeconds: number;
  firstSearchSeconds: number;
  rssMb: number;
  stopSeconds: number;
}

async function main(): Promise<void> {
  let engram: EngramProcess | undefined;
  const { dataDir, cleanUp } = benchDataDir("engram-bench-restart-", () => engram, KEEP);
  const probe: { before: number; after?: number } = { before: speedProbeMs() };
  const starts: Start[] = [];
  const snapshots = path.join(dataDir, "index-snapshots");
  try {
    progress(`writing ${CHUNKS} chunks`);
    await writeIndex(dataDir);
    const apiKey = `bench-restart-${Date.now()}`;
    const start = async (how: string) => {
      const s0 = performance.now();
      engram = await startEngram({ dataDir, apiKey, timeoutMs: 600_000, env: ENV });
      const readySeconds = (performance.now() - s0) / 1000;
      const api = jsonClient(engram.url, apiKey);
      const res = await api("POST", "/v4/search", { q: "aircraft wing pressure", containerTag: CONTAINER, searchMode: "documents" });
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      const firstSearchSeconds = (performance.now() - s0) / 1000;
      const rss = round(rssMb(engram.child.pid!) ?? NaN);
      api.close();
      const t = performance.now();
      await engram.stop("SIGTERM");
      const s: Start = {
        how,
        readySeconds: round(readySeconds, 1),
        firstSearchSeconds: round(firstSearchSeconds, 1),
        rssMb: rss,
        stopSeconds: round((performance.now() - t) / 1000, 1),
      };
      progress(`${how}: ${JSON.stringify(s)}, saved copies ${round(dirBytes(snapshots) / 1024 / 1024)} MB`);
      starts.push(s);
    };
    await start("from the rows (no saved copy)");
    const copyMb = round(dirBytes(snapshots) / 1024 / 1024);
    await start("from the saved copy");
    fs.rmSync(snapshots, { recursive: true, force: true });
    await start("from the rows (copy removed)");
    probe.after = speedProbeMs();

    console.log(`Start-up over one container of ${CHUNKS} chunks, all-in-one offline default (${machineFacts().cpus} cores)`);
    console.log(`data directory ${round(dirBytes(dataDir) / 1024 / 1024)} MB, the container's saved copy ${copyMb} MB`);
    console.log("| start | ready s | first search s | RSS MB | stop s (after it) |");
    console.log("|---|---:|---:|---:|---:|");
    for (const s of starts) console.log(`| ${s.how} | ${s.readySeconds} | ${s.firstSearchSeconds} | ${s.rssMb} | ${s.stopSeconds} |`);
    console.log(`speed probe: ${probe.before} ms before, ${probe.after} ms after (a fixed CPU workload; compare runs made in the same machine state)`);
    if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ machine: { ...machineFacts(), speedProbeMs: probe }, chunks: CHUNKS, copyMb, starts }, null, 2));
  } finally {
    cleanUp();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
