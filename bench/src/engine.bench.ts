/**
 * Speed of the in-memory search engine and of SqliteChunkIndex on top of it.
 *
 *   pnpm bench:engine                        # table on stdout, progress on stderr
 *   pnpm bench:engine -- --json bench/results/engine.json
 *   pnpm bench:engine -- --chunks 20000      # smaller run
 *   pnpm bench:engine -- --chunks 0 --memories 0 --no-sqlite   # passages only, in memory
 *
 * Corpora: 100,000 passage-sized records (sentences of the judged collections joined up to
 * ~700 characters, ~110 words, as the pipeline's chunks of prose; the product target is set on
 * these), 100,000 chunk-sized records (2–4 passages of the judged collections in
 * ../shared/datasets joined, a fifth of their words swapped for words drawn from the
 * collections' own word distribution, seeded PRNG: realistic Zipf statistics, no two records
 * alike) and 50,000 memory-sized records (one sentence of those collections each, words swapped
 * the same way). Queries: the collections' 268 judged queries. Every query runs single-threaded,
 * in process, after one warm-up pass; figures are per query, in milliseconds of wall time on an
 * otherwise idle machine. The SQLite part writes the chunk corpus through replaceDocumentChunks
 * (10 chunks per document, vectors of the hashing embedder, 384 dimensions), reopens the index and
 * times the first search (which loads the partition) and then the same queries through
 * `SqliteChunkIndex.search`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { analyzeForStorage, HashingEmbedder, type IndexedChunk, partitionKey, retrievalCounters, SearchEngine, SqliteChunkIndex } from "@engram/index";
import { prng, tempDataDir } from "@engram/testing";
import { documentContent, loadDataset } from "./quality/datasets";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const CHUNKS = Number(arg("chunks") ?? 100_000);
const PASSAGES = Number(arg("passages") ?? 100_000);
const MEMORIES = Number(arg("memories") ?? 50_000);
const SQLITE = !process.argv.includes("--no-sqlite");
const PASSES = 3;
const progress = (msg: string) => process.stderr.write(`[engine-bench] ${msg}\n`);

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

interface Timing {
  queries: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

function timings(ms: number[]): Timing {
  return {
    queries: ms.length,
    p50: +percentile(ms, 50).toFixed(3),
    p95: +percentile(ms, 95).toFixed(3),
    max: +Math.max(...ms).toFixed(3),
    mean: +(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(3),
  };
}

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

class SkipSqlite extends Error {}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  const datasets = [loadDataset("msmarco"), loadDataset("cranfield")];
  const texts = datasets.flatMap((d) => d.docs.map(documentContent));
  const queries = datasets.flatMap((d) => d.queries.map((q) => q.text));
  const sentences = texts.flatMap((t) => t.split(/(?<=[.!?])\s+/).filter((s) => s.split(/\s+/).length >= 6));
  const words = texts.flatMap((t) => t.split(/\s+/).filter(Boolean));
  const rand = prng(42);
  const vary = (text: string) =>
    text
      .split(/\s+/)
      .map((w) => (rand() < 0.2 ? words[Math.floor(rand() * words.length)]! : w))
      .join(" ");
  const chunkText = () => {
    const n = 2 + Math.floor(rand() * 3);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(texts[Math.floor(rand() * texts.length)]!);
    return vary(parts.join("\n\n"));
  };
  const memoryText = () => vary(sentences[Math.floor(rand() * sentences.length)]!);
  // Passage-sized chunks as the pipeline makes them from prose (~700 characters, ~110 words); own PRNG,
  // so the other two corpora stay the same whether this one is generated or not.
  const randP = prng(43);
  const passageText = () => {
    let t = "";
    while (t.length < 700) t += (t ? " " : "") + sentences[Math.floor(randP() * sentences.length)]!;
    return t
      .split(/\s+/)
      .map((w) => (randP() < 0.2 ? words[Math.floor(randP() * words.length)]! : w))
      .join(" ");
  };

  const results: Record<string, unknown> = {};
  const rows: [string, string][] = [];

  /**
   * First-pass work per query (one pass): posting entries read (each step of a search counts), term
   * contributions computed, searches of a list for one candidate, records fully evaluated.
   */
  const work = (search: (q: string) => unknown) => {
    const postings: number[] = [];
    const scored: number[] = [];
    const probes: number[] = [];
    const candidates: number[] = [];
    for (const q of queries) {
      retrievalCounters.postings = retrievalCounters.scored = retrievalCounters.probes = retrievalCounters.candidates = 0;
      search(q);
      postings.push(retrievalCounters.postings);
      scored.push(retrievalCounters.scored);
      probes.push(retrievalCounters.probes);
      candidates.push(retrievalCounters.candidates);
    }
    const summary = (xs: number[]) => ({ mean: Math.round(xs.reduce((a, b) => a + b, 0) / xs.length), p50: percentile(xs, 50), p95: percentile(xs, 95) });
    return { postingsRead: summary(postings), scored: summary(scored), probes: summary(probes), candidates: summary(candidates) };
  };
  const runQueries = (search: (q: string) => unknown): Timing => {
    for (const q of queries) search(q);
    const ms: number[] = [];
    for (let pass = 0; pass < PASSES; pass++)
      for (const q of queries) {
        const t = performance.now();
        search(q);
        ms.push(performance.now() - t);
      }
    return timings(ms);
  };

  for (const [label, count, make] of [
    ["passages", PASSAGES, passageText],
    ["chunks", CHUNKS, chunkText],
    ["memories", MEMORIES, memoryText],
  ] as const) {
    if (count <= 0) continue;
    progress(`generating ${count} ${label}`);
    const corpus = Array.from({ length: count }, make);
    const avgWords = corpus.reduce((a, t) => a + t.split(/\s+/).length, 0) / count;
    gc();
    const rss0 = rssMb();
    const t0 = performance.now();
    const stored = corpus.map(analyzeForStorage);
    const analyzeMs = performance.now() - t0;
    const part = partitionKey("bench", label);
    const engine = new SearchEngine({ load: () => stored.map((analyzed, i) => ({ rid: i + 1, analyzed })) });
    const t1 = performance.now();
    engine.search({ partitions: [part], text: "warm", denseWeight: 0, limit: 1 });
    const buildMs = performance.now() - t1;
    gc();
    const bytes = engine.memoryBytes();
    const rss1 = rssMb();
    progress(`${label}: analysed in ${analyzeMs.toFixed(0)} ms, built in ${buildMs.toFixed(0)} ms; querying`);
    const top10 = runQueries((q) => engine.search({ partitions: [part], text: q, denseWeight: 0, limit: 10 }));
    const top50 = runQueries((q) => engine.search({ partitions: [part], text: q, denseWeight: 0, limit: 50 }));
    const top100 = runQueries((q) => engine.search({ partitions: [part], text: q, denseWeight: 0, limit: 100 }));
    // Feedback reranks the first pass's top 50 (the depth recall's limit-50 requests use too).
    const firstPass = work((q) => engine.search({ partitions: [part], text: q, denseWeight: 0, limit: 50 }));
    const plain = new SearchEngine({ load: () => stored.map((analyzed, i) => ({ rid: i + 1, analyzed })), ranking: { feedbackDocs: 0 } });
    const bm25Only = runQueries((q) => plain.search({ partitions: [part], text: q, denseWeight: 0, limit: 10 }));
    const bm25Only50 = runQueries((q) => plain.search({ partitions: [part], text: q, denseWeight: 0, limit: 50 }));
    results[label] = {
      records: count,
      avgWords: +avgWords.toFixed(1),
      analyzeMs: Math.round(analyzeMs),
      buildMs: Math.round(buildMs),
      engineBytes: bytes,
      bytesPerRecord: Math.round(bytes / count),
      rssDeltaMb: rss1 - rss0,
      query: { limit10: top10, limit50: top50, limit100: top100, bm25OnlyLimit10: bm25Only, bm25OnlyLimit50: bm25Only50 },
      firstPassWork: firstPass,
    };
    rows.push([`${label}: records / avg words`, `${count} / ${avgWords.toFixed(0)}`]);
    rows.push([`${label}: analyse (stem) all / build engine`, `${analyzeMs.toFixed(0)} ms / ${buildMs.toFixed(0)} ms`]);
    rows.push([`${label}: engine bytes per record`, `${Math.round(bytes / count)} B (RSS +${rss1 - rss0} MB incl. stored strings)`]);
    rows.push([`${label}: query p50 / p95 / max, limit 10`, `${top10.p50} / ${top10.p95} / ${top10.max} ms`]);
    rows.push([`${label}: query p50 / p95 / max, limit 50`, `${top50.p50} / ${top50.p95} / ${top50.max} ms`]);
    rows.push([`${label}: query p50 / p95 / max, limit 100`, `${top100.p50} / ${top100.p95} / ${top100.max} ms`]);
    rows.push([`${label}: BM25 only (no feedback), limit 10`, `${bm25Only.p50} / ${bm25Only.p95} / ${bm25Only.max} ms`]);
    rows.push([`${label}: BM25 only (no feedback), limit 50`, `${bm25Only50.p50} / ${bm25Only50.p95} / ${bm25Only50.max} ms`]);
    rows.push([
      `${label}: first pass (top 50) per query: postings read / scored / probes / candidates, mean (p95)`,
      [firstPass.postingsRead, firstPass.scored, firstPass.probes, firstPass.candidates].map((x) => `${x.mean} (${x.p95})`).join(" / "),
    ]);
    engine.evict(part);
    plain.evict(part);
  }

  // SqliteChunkIndex: write, reopen, load, search.
  const dir = tempDataDir("engram-bench-engine-");
  try {
    if (!SQLITE) throw new SkipSqlite();
    const embedder = new HashingEmbedder(384);
    const rand2 = prng(7);
    const PER_DOC = 10;
    let index = new SqliteChunkIndex(dir);
    progress(`writing ${CHUNKS} chunks to SQLite`);
    const t0 = performance.now();
    let written = 0;
    const at = new Date("2025-01-01T00:00:00Z").getTime();
    for (let d = 0; written < CHUNKS; d++) {
      const documentId = `d_${d}`;
      const n = Math.min(PER_DOC, CHUNKS - written);
      const createdAt = new Date(at + d * 1000).toISOString();
      const chunks: IndexedChunk[] = Array.from({ length: n }, (_, i) => {
        const content = texts[Math.floor(rand2() * texts.length)]!;
        return {
          id: `c_${d}_${i}`,
          tenantId: "bench",
          namespace: "chunks",
          documentId,
          position: i,
          content,
          startOffset: 0,
          endOffset: content.length,
          tokenCount: Math.ceil(content.length / 6),
          vector: embedder.embedOne(content),
          model: embedder.id,
          document: { title: documentId, metadata: { group: d % 7 }, createdAt, updatedAt: createdAt },
          createdAt,
        };
      });
      await index.replaceDocumentChunks("bench", "chunks", documentId, chunks, 1);
      written += n;
    }
    const writeMs = performance.now() - t0;
    await index.close();
    gc();
    // Loading in the background, as recall does at start: warm() in 20 ms slices; the event loop's longest stall.
    index = new SqliteChunkIndex(dir);
    let stall = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    const tw = performance.now();
    await index.warm();
    const warmMs = performance.now() - tw;
    clearInterval(ticker);
    await index.close();
    gc();
    index = new SqliteChunkIndex(dir);
    const vector = embedder.embedOne("warm");
    const t1 = performance.now();
    await index.search({ tenantId: "bench", namespaces: ["chunks"], text: "warm", vector, model: embedder.id, denseWeight: 0, limit: 1 });
    const loadMs = performance.now() - t1;
    const qv = new Map(queries.map((q) => [q, embedder.embedOne(q)]));
    const ms: number[] = [];
    for (let pass = 0; pass <= PASSES; pass++)
      for (const q of queries) {
        const t = performance.now();
        await index.search({ tenantId: "bench", namespaces: ["chunks"], text: q, vector: qv.get(q)!, model: embedder.id, denseWeight: 0, limit: 50 });
        if (pass > 0) ms.push(performance.now() - t);
      }
    const viaIndex = timings(ms);
    // As recall asks for a page of 10 documents by default: 50 candidates, threshold 0.6, the best chunk of each.
    const groupedMs: number[] = [];
    for (let pass = 0; pass <= PASSES; pass++)
      for (const q of queries) {
        const t = performance.now();
        await index.search({
          tenantId: "bench",
          namespaces: ["chunks"],
          text: q,
          vector: qv.get(q)!,
          model: embedder.id,
          denseWeight: 0,
          limit: 50,
          minSimilarity: 0.6,
          group: { documents: 10, chunksPerDocument: 1 },
        });
        if (pass > 0) groupedMs.push(performance.now() - t);
      }
    const viaIndexGrouped = timings(groupedMs);
    const filtered: number[] = [];
    const { parseFilter } = await import("@engram/filters");
    const filter = parseFilter({ key: "group", value: "3" });
    for (const q of queries) {
      const t = performance.now();
      await index.search({ tenantId: "bench", namespaces: ["chunks"], text: q, vector: qv.get(q)!, model: embedder.id, denseWeight: 0, limit: 50, filter });
      filtered.push(performance.now() - t);
    }
    const viaIndexFiltered = timings(filtered);
    await index.close();
    results.sqlite = {
      chunks: CHUNKS,
      chunksPerDocument: PER_DOC,
      writeMs: Math.round(writeMs),
      chunksPerSecond: Math.round(CHUNKS / (writeMs / 1000)),
      loadPartitionMs: Math.round(loadMs),
      warmMs: Math.round(warmMs),
      warmLongestStallMs: Math.round(stall),
      search: viaIndex,
      searchGrouped: viaIndexGrouped,
      searchFiltered: viaIndexFiltered,
    };
    rows.push([
      `SqliteChunkIndex: write ${CHUNKS} chunks (${PER_DOC}/document, incl. analysis and embedding)`,
      `${(writeMs / 1000).toFixed(1)} s (${Math.round(CHUNKS / (writeMs / 1000))} chunks/s)`,
    ]);
    rows.push([`SqliteChunkIndex: reopen, first search (loads ${CHUNKS} chunks)`, `${loadMs.toFixed(0)} ms`]);
    rows.push([`SqliteChunkIndex: reopen, warm() (loads in 20 ms slices) / longest event-loop stall`, `${warmMs.toFixed(0)} ms / ${stall.toFixed(0)} ms`]);
    rows.push([`SqliteChunkIndex.search p50 / p95 / max, limit 50 (rows read back)`, `${viaIndex.p50} / ${viaIndex.p95} / ${viaIndex.max} ms`]);
    rows.push([
      `SqliteChunkIndex.search, limit 50 grouped to 10 documents × 1 chunk, threshold 0.6`,
      `${viaIndexGrouped.p50} / ${viaIndexGrouped.p95} / ${viaIndexGrouped.max} ms`,
    ]);
    rows.push([
      `SqliteChunkIndex.search with a metadata filter (1 in 7 documents)`,
      `${viaIndexFiltered.p50} / ${viaIndexFiltered.p95} / ${viaIndexFiltered.max} ms`,
    ]);
  } catch (err) {
    if (!(err instanceof SkipSqlite)) throw err;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  gc();
  const rss = rssMb();
  rows.push(["process RSS at the end", `${rss} MB`]);

  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "?",
    memMb: Math.round(os.totalmem() / 2 ** 20),
  };
  console.log(
    `\nEngram search engine — ${machine.date}, ${machine.cpus} × ${machine.cpu}, node ${machine.node}; ${queries.length} queries × ${PASSES} passes, single-threaded`,
  );
  const w = Math.max(...rows.map((r) => r[0].length)) + 2;
  for (const [k, v] of rows) console.log(k.padEnd(w) + v);
  const json = arg("json");
  if (json) {
    fs.mkdirSync(path.dirname(path.resolve(json)), { recursive: true });
    fs.writeFileSync(
      json,
      JSON.stringify(
        { machine, settings: { passages: PASSAGES, chunks: CHUNKS, memories: MEMORIES, passes: PASSES, queries: queries.length }, results, rssMb: rss },
        null,
        2,
      ),
    );
    console.log(`\nfigures written to ${json}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
