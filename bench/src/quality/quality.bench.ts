/**
 * Retrieval quality of Engram's search on judged test collections, through the REST API only,
 * against a plain BM25 computed in this process on the same texts and queries.
 *
 *   pnpm bench:quality                                   # both datasets, offline stack (hashing embedder)
 *   pnpm bench:quality -- --dataset cranfield --json bench/results/quality.json
 *   pnpm bench:quality -- --provider-url http://127.0.0.1:11434/v1 --provider-model nomic-embed-text
 *                                                       # EMBEDDER=openai (EMBEDDING_API_KEY from the environment)
 *   pnpm bench:quality -- --threshold                   # also v4 documents and hybrid at the API's default threshold
 *   pnpm bench:quality -- --threshold 0.5               # … or at the threshold given
 *
 * With --threshold, two more rows per dataset: /v4/search documents and hybrid sent without a threshold
 * (the API's default; with a value, that threshold), next to the threshold-0 rows, and how far their
 * nDCG@10 is from the threshold-0 rows' (issue #15: hybrid within 0.01).
 *
 * With a provider, the two parts of the fusion are measured too: a dense-only ranking computed in this
 * process (every document and query embedded through the same provider with the stack's own client,
 * ranked by exact cosine; dense.ts), and a keyword-only Engram ranking from a second stack started with
 * EMBEDDER=hashing (whose dense weight is 0: its ranking is the keyword side alone, BM25 + RM3), asked the
 * same routes. Each Engram row then says whether it beats both parts on nDCG@10.
 *
 * Per dataset: every document goes in through POST /ns/{ns}/document/batch (600 per call), the bench
 * waits until GET /v3/documents/processing is empty and the v5 list shows every document done, then runs
 * every judged query through POST /v4/search (searchMode documents and hybrid, limit 100, threshold 0;
 * documents are added with the default taskType, memory, so hybrid mixes memory results — each credited
 * to its first source document — with chunk results)
 * and POST /v3/search. A mode answering 501 is reported as "n/a (501)". Metric conventions: metrics.ts;
 * baseline: bm25.ts. The bench talks only to the stack on 127.0.0.1, aborts after 30 minutes, and
 * kills the stack and removes its data dir on every exit. Exit code 1 on a hard problem (a document
 * not accepted or failed, an unmappable result, /v4/search documents not answering 200); a missed
 * quality target is shown as MISS and does not change the exit code.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, type EngramProcess, startEngram, tempDataDir } from "@engram/testing";
import { BM25_DEFAULTS, Bm25Index, type Bm25Options } from "./bm25";
import { DATASET_KEYS, type Dataset, type DatasetKey, documentContent, loadDataset } from "./datasets";
import { type DatasetVectors, denseRun, embedDataset, type ProviderSettings } from "./dense";
import { providerEnv } from "../lib";
import { evaluate, METRIC_KEYS, METRIC_LABELS, type Metrics, rankByScore, relevantCount, type Scored, selfCheck } from "./metrics";

const DEADLINE_MS = 30 * 60_000;
const BATCH = 600;
const CALLERS = 2;
const SEARCH_CONCURRENCY = 4;
const LIMIT = 100;
const TARGET_MARGIN = 0.03;
const NAMESPACE: Record<DatasetKey, string> = { msmarco: "quality-msmarco", cranfield: "quality-cranfield" };
const ID_PREFIX: Record<DatasetKey, string> = { msmarco: "msm-", cranfield: "cran-" };

type Api = ReturnType<typeof apiClient>;
type EngramRowKey = "v4Documents" | "v4Hybrid" | "v3Search" | "v4DocumentsThreshold" | "v4HybridThreshold";

/**
 * --threshold [value]: the threshold of the two extra v4 rows; undefined = none sent (the API's default).
 * `thresholdRows` is false without the flag.
 */
const THRESHOLD_OPTION = (() => {
  const i = process.argv.indexOf("--threshold");
  if (i < 0) return { thresholdRows: false, threshold: undefined };
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith("--")) return { thresholdRows: true, threshold: undefined };
  const t = Number(next);
  if (!(t >= 0 && t <= 1)) throw new Error(`--threshold wants a number from 0 to 1 (or nothing: the API's default), got ${next}`);
  return { thresholdRows: true, threshold: t };
})();
const THRESHOLD_LABEL = THRESHOLD_OPTION.threshold === undefined ? "default threshold" : `threshold ${THRESHOLD_OPTION.threshold}`;
/** Issue #15: hybrid at the default threshold within this much nDCG@10 of threshold 0. */
const THRESHOLD_NDCG_TOLERANCE = 0.01;

const ENGRAM_ROWS: { key: EngramRowKey; label: string }[] = [
  { key: "v4Documents", label: "Engram /v4/search documents" },
  { key: "v4Hybrid", label: "Engram /v4/search hybrid" },
  { key: "v3Search", label: "Engram /v3/search" },
  ...(THRESHOLD_OPTION.thresholdRows
    ? [
        { key: "v4DocumentsThreshold" as const, label: `Engram /v4/search documents, ${THRESHOLD_LABEL}` },
        { key: "v4HybridThreshold" as const, label: `Engram /v4/search hybrid, ${THRESHOLD_LABEL}` },
      ]
    : []),
];
/** The threshold-0 row each --threshold row is compared with. */
const THRESHOLD_PAIRS: { key: EngramRowKey; of: EngramRowKey; mode: string; target: boolean }[] = [
  { key: "v4DocumentsThreshold", of: "v4Documents", mode: "documents", target: false },
  { key: "v4HybridThreshold", of: "v4Hybrid", mode: "hybrid", target: true },
];

interface EngramRow {
  available: boolean;
  /** HTTP status when not available. */
  status?: number;
  error?: string;
  metrics?: Metrics;
  delta?: Metrics;
  floor?: "ok" | "MISS";
  target?: "ok" | "MISS";
  latencyMs?: { p50: number; p95: number };
  /** Queries whose results do not come in descending order of their score (`similarity` / `score`). */
  queriesNotSortedByScore?: number;
  /** nDCG@10 had the results been ranked by their score (ties by id) instead of in the order returned. */
  ndcg10IfSortedByScore?: number;
}

/** Whether an Engram row (fused) beats both of its parts on nDCG@10. */
interface PartsVerdict {
  keywordOnlyNdcg10: number;
  denseOnlyNdcg10: number;
  beatsKeyword: boolean;
  beatsDense: boolean;
  beatsBoth: boolean;
}

interface DenseOnlyRow {
  metrics: Metrics;
  dims: number;
  embedSeconds: number;
}

interface DatasetResult {
  name: string;
  namespace: string;
  documents: number;
  emptyDocumentsSkipped: string[];
  judgedQueries: number;
  judgments: number;
  relevantJudgments: number;
  ingestSeconds: number;
  bm25: Metrics & { ms: number };
  bm25Variants: Record<string, number>;
  fts5Reference: { ndcg10: number };
  engram: Record<EngramRowKey, EngramRow & { parts?: PartsVerdict }>;
  /** With --threshold: each extra row's nDCG@10 against the same mode at threshold 0. */
  thresholdCheck?: Record<string, { ndcg10: number; ndcg10AtZero: number; delta: number; within: boolean }>;
  /** With a provider: the dense part alone (in this process) and the keyword part alone (EMBEDDER=hashing stack, same routes). */
  denseOnly?: DenseOnlyRow;
  keywordOnly?: Record<EngramRowKey, EngramRow>;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
const progress = (msg: string) => process.stderr.write(`[quality ${elapsed()} s] ${msg}\n`);

function checkDeadline(): void {
  if (performance.now() - started > DEADLINE_MS) throw new Error(`quality bench: not finished within ${DEADLINE_MS / 60_000} minutes`);
}

/** Caller id accepted by the API: prefix + corpus id with characters outside [A-Za-z0-9._:-] replaced by "_". */
function callerIdOf(key: DatasetKey, corpusId: string): string {
  const id = (ID_PREFIX[key] + corpusId.replace(/[^A-Za-z0-9._:-]/g, "_")).slice(0, 100);
  return id;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        checkDeadline();
        await fn(items[next++]!);
      }
    }),
  );
}

function bm25Run(ds: Dataset, options: Bm25Options): Map<string, string[]> {
  const index = new Bm25Index(
    ds.docs.map((d) => ({ id: d.id, text: documentContent(d) })),
    options,
  );
  return new Map(ds.queries.map((q) => [q.id, rankByScore(index.search(q.text, LIMIT))]));
}

/** Ingests the dataset, waits until every document is done, and returns service document id -> corpus id. */
async function ingest(api: Api, ds: Dataset): Promise<{ byServiceId: Map<string, string>; byCallerId: Map<string, string>; seconds: number }> {
  const ns = NAMESPACE[ds.key];
  const byCallerId = new Map<string, string>();
  for (const d of ds.docs) {
    const callerId = callerIdOf(ds.key, d.id);
    if (byCallerId.has(callerId)) throw new Error(`${ds.name}: caller ids collide for ${byCallerId.get(callerId)} and ${d.id}`);
    byCallerId.set(callerId, d.id);
  }
  const t0 = performance.now();
  let next = 0;
  let accepted = 0;
  const sender = async () => {
    while (next < ds.docs.length) {
      checkDeadline();
      const from = next;
      next = Math.min(ds.docs.length, next + BATCH);
      const documents = ds.docs.slice(from, next).map((d) => ({ id: callerIdOf(ds.key, d.id), content: documentContent(d) }));
      const res = await api("POST", `/ns/${ns}/document/batch`, { documents });
      if (res.status !== 200) throw new Error(`${ds.name}: batch answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      if (res.body.failed) {
        const errors = (res.body.results as { id?: string; status: string; error?: string }[]).filter((r) => r.status === "error").slice(0, 5);
        throw new Error(`${ds.name}: ${res.body.failed} documents refused, e.g. ${JSON.stringify(errors)}`);
      }
      accepted += res.body.count as number;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, sender));
  if (accepted !== ds.docs.length) throw new Error(`${ds.name}: ${accepted} of ${ds.docs.length} documents accepted`);
  progress(`${ds.name}: ${accepted} documents accepted in ${((performance.now() - t0) / 1000).toFixed(1)} s; waiting for processing`);

  let lastReport = performance.now();
  for (;;) {
    checkDeadline();
    const pending = await api("GET", "/v3/documents/processing");
    if (pending.status !== 200) throw new Error(`GET /v3/documents/processing answered ${pending.status}`);
    if (pending.body.totalCount === 0) {
      const statuses = new Map<string, string>();
      const failures: string[] = [];
      for (let page = 1; ; page++) {
        const res = await api("POST", `/ns/${ns}/list/documents?limit=1100&page=${page}`, {});
        if (res.status !== 200) throw new Error(`v5 list answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        const docs = res.body.documents as { id: string; system: { status: string; failureReason?: string } }[];
        for (const d of docs) {
          statuses.set(d.id, d.system.status);
          if (d.system.status === "failed") failures.push(`${d.id}: ${d.system.failureReason ?? "?"}`);
        }
        if (docs.length < 1100) break;
      }
      if (failures.length) throw new Error(`${ds.name}: ${failures.length} documents failed, e.g. ${failures.slice(0, 5).join("; ")}`);
      const done = [...byCallerId.keys()].filter((id) => statuses.get(id) === "done").length;
      if (done === ds.docs.length) break;
      progress(`${ds.name}: processing queue empty but ${done} of ${ds.docs.length} listed done; waiting`);
    } else if (performance.now() - lastReport > 10_000) {
      progress(`${ds.name}: ${pending.body.totalCount} documents still processing`);
      lastReport = performance.now();
    }
    await sleep(500);
  }
  const seconds = (performance.now() - t0) / 1000;

  // v4 search answers with service document ids; the v3 list carries both the service id and the caller's.
  const byServiceId = new Map<string, string>();
  for (let page = 1; ; page++) {
    const res = await api("POST", "/v3/documents/list", { containerTags: [ns], limit: 1100, page });
    if (res.status !== 200) throw new Error(`v3 list answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const items = res.body.memories as { id: string; customId: string | null }[];
    for (const m of items) {
      const corpusId = m.customId ? byCallerId.get(m.customId) : undefined;
      if (corpusId !== undefined) byServiceId.set(m.id, corpusId);
    }
    if (items.length < 1100) break;
  }
  if (byServiceId.size !== ds.docs.length) throw new Error(`${ds.name}: mapped ${byServiceId.size} service ids for ${ds.docs.length} documents`);
  return { byServiceId, byCallerId, seconds };
}

/** Runs every judged query through one search route; undefined metrics when the route does not answer 200. */
async function searchRun(
  api: Api,
  ds: Dataset,
  row: EngramRowKey,
  ids: { byServiceId: Map<string, string>; byCallerId: Map<string, string> },
): Promise<{ row: EngramRow; run?: Map<string, string[]>; byScore?: Map<string, string[]> }> {
  const ns = NAMESPACE[ds.key];
  const hybrid = row === "v4Hybrid" || row === "v4HybridThreshold";
  // The --threshold rows send the threshold given, or none (the API's default); the others threshold 0.
  const threshold = row === "v4DocumentsThreshold" || row === "v4HybridThreshold" ? THRESHOLD_OPTION.threshold : 0;
  const request = (q: string) =>
    row === "v3Search"
      ? api("POST", "/v3/search", { q, containerTag: ns, limit: LIMIT, documentThreshold: 0, chunkThreshold: 0 })
      : api("POST", "/v4/search", {
          q,
          containerTag: ns,
          searchMode: hybrid ? "hybrid" : "documents",
          limit: LIMIT,
          ...(threshold !== undefined ? { threshold } : {}),
          // Hybrid mixes memory results (attributed to their source document) with chunk results.
          ...(hybrid ? { include: { documents: true } } : {}),
        });
  const run = new Map<string, string[]>();
  const byScore = new Map<string, string[]>();
  const latencies: number[] = [];
  let unordered = 0;
  let failure: { status: number; error: string } | undefined;
  let unmapped = 0;
  const one = async (query: { id: string; text: string }) => {
    if (failure) return;
    const t = performance.now();
    const res = await request(query.text);
    latencies.push(performance.now() - t);
    if (res.status !== 200) {
      failure ??= { status: res.status, error: JSON.stringify(res.body).slice(0, 300) };
      return;
    }
    const results = (res.body.results ?? []) as Record<string, unknown>[];
    const scored: Scored[] = [];
    for (const r of results) {
      // v3 and chunk results name their document; a memory result names its source documents when asked (include.documents).
      const documents = r.documents as { id: string }[] | undefined;
      const serviceId = String(r.documentId ?? documents?.[0]?.id ?? "");
      const corpusId = ids.byServiceId.get(serviceId) ?? ids.byCallerId.get(serviceId);
      if (corpusId === undefined) {
        unmapped++;
        continue;
      }
      scored.push({ id: corpusId, score: Number(row === "v3Search" ? r.score : r.similarity) });
    }
    if (!scored.every((s, i) => i === 0 || !(s.score > scored[i - 1]!.score))) unordered++;
    // The system ranking is the order the API returns (no ties); the score-sorted ranking is a diagnostic.
    run.set(query.id, rankByScore(scored.map((s, i) => ({ id: s.id, score: -i }))));
    byScore.set(query.id, rankByScore(scored));
  };
  // The first query alone: a route that is not there yet answers 501 to all of them.
  await one(ds.queries[0]!);
  await pool(ds.queries.slice(1), SEARCH_CONCURRENCY, one);
  if (failure) {
    if (row === "v4Documents") throw new Error(`${ds.name}: /v4/search documents answered ${failure.status} ${failure.error}`);
    if (failure.status !== 501) console.warn(`${ds.name}: ${row} answered ${failure.status} ${failure.error}`);
    return { row: { available: false, status: failure.status, error: failure.error } };
  }
  if (unmapped) throw new Error(`${ds.name}: ${row} returned ${unmapped} results naming no ingested document`);
  return {
    run,
    byScore,
    row: {
      available: true,
      latencyMs: { p50: +percentile(latencies, 50).toFixed(1), p95: +percentile(latencies, 95).toFixed(1) },
      queriesNotSortedByScore: unordered,
    },
  };
}

const f4 = (x: number) => x.toFixed(4);
const signed = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4);

const KEYWORD_ONLY_LABEL: Record<EngramRowKey, string> = {
  v4Documents: "keyword-only Engram, v4 documents",
  v4Hybrid: "keyword-only Engram, v4 hybrid",
  v3Search: "keyword-only Engram, v3",
  v4DocumentsThreshold: `keyword-only Engram, v4 documents, ${THRESHOLD_LABEL}`,
  v4HybridThreshold: `keyword-only Engram, v4 hybrid, ${THRESHOLD_LABEL}`,
};

function partsCell(p: PartsVerdict | undefined): string {
  if (!p) return "";
  return p.beatsBoth
    ? "beats both"
    : `NOT both (${p.beatsKeyword ? "" : "≤ keyword"}${!p.beatsKeyword && !p.beatsDense ? ", " : ""}${p.beatsDense ? "" : "≤ dense"})`;
}

function printTable(ds: Dataset, r: DatasetResult, baselineLabel: string): void {
  const w = THRESHOLD_OPTION.thresholdRows ? 52 : 40; // wider only for the labels of the --threshold rows
  const num = (s: string) => s.padStart(8);
  const parts = !!r.denseOnly;
  const head =
    "run".padEnd(w) +
    METRIC_KEYS.map((k) => num(METRIC_LABELS[k])).join("") +
    "  |" +
    METRIC_KEYS.map((k) => num("Δ" + METRIC_LABELS[k])).join("") +
    "  | floor  target  | p50/p95 ms" +
    (parts ? "  | parts (nDCG@10 > keyword-only and > dense-only)" : "");
  console.log(
    `\n${ds.name} — ${r.documents} documents${r.emptyDocumentsSkipped.length ? ` (+${r.emptyDocumentsSkipped.length} empty, skipped: ${r.emptyDocumentsSkipped.join(", ")})` : ""}, ` +
      `${r.judgedQueries} judged queries, ${r.judgments} judgments (${r.relevantJudgments} relevant); ingested (add -> all done) in ${r.ingestSeconds} s`,
  );
  console.log(head);
  console.log("-".repeat(head.length));
  console.log(baselineLabel.padEnd(w) + METRIC_KEYS.map((k) => num(f4(r.bm25[k]))).join("") + "  |");
  const fts = r.fts5Reference.ndcg10;
  console.log(
    "SQLite FTS5 porter BM25 (reference)".padEnd(w) + num(f4(fts)) + num("—").repeat(3) + "  |" + num(signed(fts - r.bm25.ndcg10)) + num("").repeat(3) + "  |",
  );
  const metricsRow = (label: string, m: Metrics, tail = "") =>
    console.log(
      label.padEnd(w) + METRIC_KEYS.map((k) => num(f4(m[k]))).join("") + "  |" + METRIC_KEYS.map((k) => num(signed(m[k] - r.bm25[k]))).join("") + tail,
    );
  if (r.denseOnly) metricsRow(`dense-only (provider, in process, ${r.denseOnly.dims}d)`, r.denseOnly.metrics, "  |");
  if (r.keywordOnly)
    for (const { key } of ENGRAM_ROWS) {
      const e = r.keywordOnly[key];
      if (!e.available || !e.metrics) console.log(KEYWORD_ONLY_LABEL[key].padEnd(w) + `n/a (${e.status ?? "?"})`);
      else metricsRow(KEYWORD_ONLY_LABEL[key], e.metrics, `  | ${"".padEnd(14)} | ${e.latencyMs!.p50} / ${e.latencyMs!.p95}`);
    }
  for (const { key, label } of ENGRAM_ROWS) {
    const e = r.engram[key];
    if (!e.available || !e.metrics || !e.delta) {
      console.log(label.padEnd(w) + `n/a (${e.status ?? "?"})`);
      continue;
    }
    const latency = `${e.latencyMs!.p50} / ${e.latencyMs!.p95}`;
    console.log(
      label.padEnd(w) +
        METRIC_KEYS.map((k) => num(f4(e.metrics![k]))).join("") +
        "  |" +
        METRIC_KEYS.map((k) => num(signed(e.delta![k]))).join("") +
        `  | ${e.floor!.padEnd(6)} ${e.target!.padEnd(7)} | ${parts ? latency.padEnd(10) + "  | " + partsCell(e.parts) : latency}`,
    );
  }
  for (const { key, label } of ENGRAM_ROWS) {
    const e = r.engram[key];
    if (e.queriesNotSortedByScore)
      console.log(
        `note: ${label.replace("Engram ", "")} — results come in ranked order, but their score is not descending in ${e.queriesNotSortedByScore} of ` +
          `${r.judgedQueries} queries; re-sorted by score, nDCG@10 would be ${f4(e.ndcg10IfSortedByScore!)} (the table uses the returned order)`,
      );
  }
  for (const { key, label } of ENGRAM_ROWS) {
    const p = r.engram[key].parts;
    if (p)
      console.log(
        `parts: ${label.replace("Engram ", "")} ${f4(r.engram[key].metrics!.ndcg10)} vs keyword-only ${f4(p.keywordOnlyNdcg10)} ` +
          `(${signed(r.engram[key].metrics!.ndcg10 - p.keywordOnlyNdcg10)}) and dense-only ${f4(p.denseOnlyNdcg10)} ` +
          `(${signed(r.engram[key].metrics!.ndcg10 - p.denseOnlyNdcg10)}): ${p.beatsBoth ? "beats both parts" : "does NOT beat both parts"}`,
      );
  }
  for (const p of THRESHOLD_PAIRS) {
    const c = r.thresholdCheck?.[p.mode];
    if (c)
      console.log(
        `threshold: v4 ${p.mode} at the ${THRESHOLD_LABEL} nDCG@10 ${f4(c.ndcg10)} vs threshold 0 ${f4(c.ndcg10AtZero)} (${signed(c.delta)}): ` +
          `within ${THRESHOLD_NDCG_TOLERANCE}${p.target ? " (issue #15 target)" : ""}: ${c.within ? "ok" : "MISS"}`,
      );
  }
  const gap = r.bm25.ndcg10 - fts;
  console.log(
    `baseline check: in-process BM25 − FTS5 reference = ${signed(gap)} nDCG@10 (${Math.abs(gap) <= 0.03 ? "within ±0.03" : "OUTSIDE ±0.03: check conventions"})`,
  );
  console.log(
    `BM25 sensitivity (nDCG@10): ` +
      Object.entries(r.bm25Variants)
        .map(([k, v]) => `${k} ${f4(v)}`)
        .join(" · "),
  );
  console.log(`targets: floor = nDCG@10 ≥ BM25 (${f4(r.bm25.ndcg10)}); target = nDCG@10 ≥ BM25 + ${TARGET_MARGIN} (${f4(r.bm25.ndcg10 + TARGET_MARGIN)})`);
}

async function main(): Promise<void> {
  selfCheck();
  const jsonOut = arg("json");
  const only = arg("dataset");
  if (only !== undefined && !DATASET_KEYS.includes(only as DatasetKey)) throw new Error(`--dataset must be one of ${DATASET_KEYS.join(", ")}`);
  const keys = only ? [only as DatasetKey] : [...DATASET_KEYS];
  const providerUrl = arg("provider-url");
  const providerModel = arg("provider-model");
  const embedderEnv: Record<string, string> = providerEnv(providerUrl, providerModel) ?? { EMBEDDER: "hashing" };
  const embedder = providerUrl ? `openai-compatible ${providerModel} at ${providerUrl}` : "hashing (offline default)";

  const baselineLabel = `BM25 in-process (k1 ${BM25_DEFAULTS.k1}, b ${BM25_DEFAULTS.b})`;
  const variants: Record<string, Bm25Options> = {
    "k1 0.9 b 0.4 (Pyserini)": { ...BM25_DEFAULTS, k1: 0.9, b: 0.4 },
    "no stop words (as FTS5)": { ...BM25_DEFAULTS, stopWords: new Set() },
    "no stemming": { ...BM25_DEFAULTS, stem: false },
  };

  const datasets = keys.map(loadDataset);
  const results: Partial<Record<DatasetKey, DatasetResult>> = {};
  const baselines = new Map<DatasetKey, { metrics: Metrics & { ms: number }; variants: Record<string, number> }>();
  for (const ds of datasets) {
    const t = performance.now();
    const m = evaluate(bm25Run(ds, BM25_DEFAULTS), ds.qrels);
    const ms = Math.round(performance.now() - t);
    const v = Object.fromEntries(Object.entries(variants).map(([name, o]) => [name, evaluate(bm25Run(ds, o), ds.qrels).ndcg10]));
    baselines.set(ds.key, { metrics: { ndcg10: m.ndcg10, recall10: m.recall10, recall100: m.recall100, mrr10: m.mrr10, ms }, variants: v });
    progress(`${ds.name}: in-process BM25 nDCG@10 ${f4(m.ndcg10)} over ${m.queries} queries (${ms} ms)`);
  }

  // The dense part alone, in this process, through the same provider (before any stack: a provider failure stops the bench early).
  const provider: ProviderSettings | undefined = providerUrl ? { url: providerUrl, model: providerModel!, apiKey: process.env.EMBEDDING_API_KEY } : undefined;
  const denseOnly = new Map<DatasetKey, DenseOnlyRow>();
  if (provider)
    for (const ds of datasets) {
      progress(`${ds.name}: embedding ${ds.docs.length} documents and ${ds.queries.length} queries through ${providerUrl} for the dense-only run`);
      const vectors: DatasetVectors = await embedDataset(provider, ds, (done, total) => {
        if (done % 3200 < 640 || done === total) progress(`${ds.name}: ${done} of ${total} documents embedded`);
      });
      const m = evaluate(denseRun(ds, vectors, LIMIT), ds.qrels);
      denseOnly.set(ds.key, {
        metrics: { ndcg10: m.ndcg10, recall10: m.recall10, recall100: m.recall100, mrr10: m.mrr10 },
        dims: vectors.dims,
        embedSeconds: +(vectors.ms / 1000).toFixed(1),
      });
      progress(`${ds.name}: dense-only nDCG@10 ${f4(m.ndcg10)} (${vectors.dims} dimensions, embedded in ${(vectors.ms / 1000).toFixed(1)} s)`);
    }

  // Live stack and data dir, for the watchdog and signal handlers.
  let engram: EngramProcess | undefined;
  let dataDir: string | undefined;
  const cleanUp = () => {
    if (engram && engram.child.exitCode === null && engram.child.signalCode === null) engram.child.kill("SIGKILL");
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const abort = (why: string, code: number) => {
    console.error(`quality bench: ${why}; stopping the stack`);
    cleanUp();
    process.exit(code);
  };
  const watchdog = setTimeout(() => abort(`aborted after ${DEADLINE_MS / 60_000} minutes`, 1), DEADLINE_MS + 30_000);
  watchdog.unref();
  const onSignal = (signal: NodeJS.Signals) => abort(`received ${signal}`, 130);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  /** Starts a stack with the given embedder, ingests every dataset, runs every route; returns the rows and ingest times. */
  const stackRun = async (env: Record<string, string>, what: string) => {
    const out = new Map<DatasetKey, { rows: Record<EngramRowKey, EngramRow>; ingestSeconds: number }>();
    dataDir = tempDataDir("engram-bench-quality-");
    try {
      progress(`starting the all-in-one stack (embedder: ${what})`);
      engram = await startEngram({ dataDir, timeoutMs: 60_000, env: { LOG_LEVEL: "warn", ...env } });
      if (new URL(engram.url).hostname !== "127.0.0.1") throw new Error(`the stack is not on 127.0.0.1: ${engram.url}`);
      const api = apiClient(engram.url, engram.apiKey);
      for (const ds of datasets) {
        const ids = await ingest(api, ds);
        progress(`${ds.name}: all ${ds.docs.length} documents done after ${ids.seconds.toFixed(1)} s; searching`);
        const baseline = baselines.get(ds.key)!;
        const rows = {} as Record<EngramRowKey, EngramRow>;
        for (const { key } of ENGRAM_ROWS) {
          const { row, run, byScore } = await searchRun(api, ds, key, ids);
          if (run && byScore) {
            row.ndcg10IfSortedByScore = evaluate(byScore, ds.qrels).ndcg10;
            const m = evaluate(run, ds.qrels);
            row.metrics = { ndcg10: m.ndcg10, recall10: m.recall10, recall100: m.recall100, mrr10: m.mrr10 };
            row.delta = Object.fromEntries(METRIC_KEYS.map((k) => [k, row.metrics![k] - baseline.metrics[k]])) as unknown as Metrics;
            row.floor = row.metrics.ndcg10 >= baseline.metrics.ndcg10 ? "ok" : "MISS";
            row.target = row.metrics.ndcg10 >= baseline.metrics.ndcg10 + TARGET_MARGIN ? "ok" : "MISS";
          }
          rows[key] = row;
          progress(`${ds.name}: ${key} ${row.metrics ? `nDCG@10 ${f4(row.metrics.ndcg10)}` : `n/a (${row.status})`}`);
        }
        out.set(ds.key, { rows, ingestSeconds: +ids.seconds.toFixed(1) });
      }
    } finally {
      if (engram) await engram.stop("SIGTERM");
      engram = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
      dataDir = undefined;
    }
    return out;
  };

  let mainRun: Awaited<ReturnType<typeof stackRun>>;
  let keywordOnly: Awaited<ReturnType<typeof stackRun>> | undefined;
  try {
    mainRun = await stackRun(embedderEnv, embedder);
    // The keyword part alone: the same routes on a stack whose embedder has no semantics (dense weight 0).
    if (provider) keywordOnly = await stackRun({ EMBEDDER: "hashing" }, "hashing: keyword-only ranking, for the parts comparison");
  } finally {
    clearTimeout(watchdog);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }

  for (const ds of datasets) {
    const baseline = baselines.get(ds.key)!;
    const { rows, ingestSeconds } = mainRun.get(ds.key)!;
    const engramRows = rows as DatasetResult["engram"];
    const dense = denseOnly.get(ds.key);
    const keywordRows = keywordOnly?.get(ds.key)?.rows;
    if (dense && keywordRows)
      for (const { key } of ENGRAM_ROWS) {
        const e = engramRows[key];
        const kw = keywordRows[key].metrics;
        if (!e.metrics || !kw) continue;
        const beatsKeyword = e.metrics.ndcg10 > kw.ndcg10;
        const beatsDense = e.metrics.ndcg10 > dense.metrics.ndcg10;
        e.parts = { keywordOnlyNdcg10: kw.ndcg10, denseOnlyNdcg10: dense.metrics.ndcg10, beatsKeyword, beatsDense, beatsBoth: beatsKeyword && beatsDense };
      }
    let judgments = 0;
    let relevantJudgments = 0;
    for (const q of ds.qrels.values()) {
      judgments += q.size;
      relevantJudgments += relevantCount(q);
    }
    const thresholdCheck: NonNullable<DatasetResult["thresholdCheck"]> = {};
    if (THRESHOLD_OPTION.thresholdRows)
      for (const p of THRESHOLD_PAIRS) {
        const a = engramRows[p.key]?.metrics;
        const z = engramRows[p.of]?.metrics;
        if (!a || !z) continue;
        const delta = a.ndcg10 - z.ndcg10;
        thresholdCheck[p.mode] = { ndcg10: a.ndcg10, ndcg10AtZero: z.ndcg10, delta, within: Math.abs(delta) <= THRESHOLD_NDCG_TOLERANCE };
      }
    results[ds.key] = {
      name: ds.name,
      namespace: NAMESPACE[ds.key],
      documents: ds.docs.length,
      emptyDocumentsSkipped: ds.emptyDocs,
      judgedQueries: ds.queries.length,
      judgments,
      relevantJudgments,
      ingestSeconds,
      bm25: baseline.metrics,
      bm25Variants: baseline.variants,
      fts5Reference: { ndcg10: ds.fts5ReferenceNdcg10 },
      engram: engramRows,
      ...(THRESHOLD_OPTION.thresholdRows ? { thresholdCheck } : {}),
      ...(dense ? { denseOnly: dense } : {}),
      ...(keywordRows ? { keywordOnly: keywordRows } : {}),
    };
  }

  const date = new Date().toISOString();
  const machine = { cpus: os.cpus().length, memMb: Math.round(os.totalmem() / 2 ** 20), node: process.version };
  console.log(`\nEngram retrieval quality — ${date}, ${machine.cpus} CPUs, node ${machine.node}, embedder: ${embedder}`);
  console.log(
    `metrics: trec_eval/pytrec_eval conventions (linear-gain nDCG, ideal over all judged relevant; ties by doc id descending); ` +
      `relevant = grade > 0; mean over queries with a relevant judgment; Engram runs: limit ${LIMIT}, threshold 0` +
      (THRESHOLD_OPTION.thresholdRows ? ` (rows marked "${THRESHOLD_LABEL}": ${THRESHOLD_OPTION.threshold ?? "none sent"})` : "") +
      `, ranked in the order returned`,
  );
  console.log(
    `baseline: Okapi BM25 k1 ${BM25_DEFAULTS.k1} b ${BM25_DEFAULTS.b}, Lucene idf, lower-case letter/digit tokens, ` +
      `Lucene 33-word English stop set, Porter2 stemmer (wink-porter2-stemmer); same content as ingested (title + "\\n\\n" + text)`,
  );
  for (const ds of datasets) printTable(ds, results[ds.key]!, baselineLabel);
  if (jsonOut) {
    const out = {
      date,
      machine,
      embedder,
      conventions: {
        metrics:
          "trec_eval: rank by score desc, ties by doc id desc (Engram runs: the order the API returns); nDCG linear gain, log2 discount, ideal over all judged grade>0; recall/MRR relevant = grade>0",
        averaging: "mean over queries with >= 1 relevant judgment; a query without results counts 0",
        baseline: {
          ...BM25_DEFAULTS,
          stopWords: "Lucene EnglishAnalyzer 33-word set",
          stemmer: "Porter2 (wink-porter2-stemmer)",
          idf: "ln(1 + (N - df + 0.5) / (df + 0.5))",
        },
        engramRequests: {
          v4: { searchMode: ["documents", "hybrid"], limit: LIMIT, threshold: 0 },
          ...(THRESHOLD_OPTION.thresholdRows
            ? {
                v4ThresholdRows: {
                  searchMode: ["documents", "hybrid"],
                  limit: LIMIT,
                  threshold: THRESHOLD_OPTION.threshold ?? "none sent (the API's default)",
                  target: `hybrid nDCG@10 within ${THRESHOLD_NDCG_TOLERANCE} of threshold 0`,
                },
              }
            : {}),
          v3: { limit: LIMIT, documentThreshold: 0, chunkThreshold: 0 },
        },
        targets: { floor: "nDCG@10 >= BM25", target: `nDCG@10 >= BM25 + ${TARGET_MARGIN}` },
        ...(providerUrl
          ? {
              parts: {
                denseOnly:
                  "every document (as ingested) and judged query embedded in the bench process through the same provider (OpenAICompatibleEmbedder), exact cosine over all documents, top 100",
                keywordOnly: "the same routes on a second stack with EMBEDDER=hashing (dense weight 0: BM25 + RM3 alone)",
                verdict: "an Engram row beats both parts when its nDCG@10 is above the same route's keyword-only nDCG@10 and above the dense-only nDCG@10",
              },
            }
          : {}),
      },
      datasets: results,
    };
    fs.mkdirSync(path.dirname(path.resolve(jsonOut)), { recursive: true });
    fs.writeFileSync(jsonOut, JSON.stringify(out, null, 2));
    console.log(`\nfigures written to ${jsonOut}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
