import { analyze } from "../text";
import { recordTerms } from "./analysis";
import { BulkLoad } from "./bulk-load";
import { Partition, type VectorBlock } from "./partition";
import { type Bm25Params, collectionStats, type CollectionStats, documentFrequency, idf, retrieveTopK, type WeightedTerm } from "./retrieve";
import { TopK } from "./top-k";
import { bm25FromSequence, rm3QueryModel, weighted } from "./feedback";
import { IdTable } from "./id-table";
import { SubjectProjection } from "./subject";
import { knownStem, relatedStems } from "../lexicon";
import { capitalizedStems } from "../text";
import {
  calibrate,
  combinedEvidence,
  meaningEvidence,
  ownEvidence,
  rankedSimilarities,
  scopedTerms,
  type SimilarityTerm,
  similarityTerms,
  warmSimilarity,
} from "../similarity";
import type { EngineHit, EngineQuery, EngineRecord, HybridSearchEngine, LoadOptions, PartitionLoader } from "./types";
import { decodePartition, encodePartition } from "./snapshot";
import { medianInPlace } from "./select";
import { HnswGraph } from "./hnsw";
import type { GraphBuilder } from "./graph-builder";

/** Ranking parameters (defaults in `DEFAULT_RANKING`; see docs/architecture.md, Retrieval). */
export interface RankingConfig {
  /** BM25 saturation and length normalisation. */
  k1: number;
  b: number;
  /** Keyword candidates kept for fusion (at least `limit`). */
  candidates: number;
  /** Weighted reciprocal-rank fusion constant. */
  rrfK: number;
  /**
   * Dense weight calibration by agreement: the query's dense weight is multiplied by the share of the
   * keyword ranking's top `agreementDepth` records that the dense ranking's top `agreementDepth` also
   * holds (all of them when the keyword side found fewer; 1 when it found none). 0 = the weight as given.
   */
  agreementDepth: number;
  /** A record found only by the dense side needs at least this cosine. */
  denseOnlyMinCosine: number;
  /** RM3 pseudo-relevance feedback: records, expansion terms, original-query weight (0 records = off), df cut-off. */
  feedbackDocs: number;
  feedbackTerms: number;
  feedbackOriginalWeight: number;
  feedbackMaxDfRatio: number;
  feedbackSharpness: number;
  /** First-pass candidates reranked with the expanded query (at least the candidates wanted). */
  feedbackDepth: number;
}

export const DEFAULT_RANKING: RankingConfig = {
  k1: 1.2,
  b: 0.75,
  candidates: 200,
  rrfK: 60,
  agreementDepth: 10,
  denseOnlyMinCosine: 0.15,
  feedbackDocs: 10,
  feedbackTerms: 40,
  feedbackOriginalWeight: 0.5,
  feedbackMaxDfRatio: 0.1,
  feedbackSharpness: 1,
  feedbackDepth: 50,
};

/**
 * Memory search: BM25 with the literature's parameters for short passages (Anserini's and Pyserini's
 * defaults, k1 0.9, b 0.4). Memories run from a clause to a whole chat turn; with b 0.75 length
 * normalisation lets the shortest (a trait, a name) outrank the turn that holds the answer. Measured on
 * LoCoMo (bench/src/memory/calibrate.ts --set): answer-coverage@10 54.4 → 56.0 % at the default threshold.
 */
export const MEMORY_RANKING: Partial<RankingConfig> = { k1: 0.9, b: 0.4 };

export interface SearchEngineOptions {
  load: PartitionLoader;
  /**
   * A saved copy of a partition (`snapshot`), tried before `load`; undefined = none. The store vouches
   * that the copy is of its current records, either by its own bookkeeping or by giving their ids
   * (`liveRids`, ascending), which the copy's must then equal (snapshot.ts).
   */
  restore?: (partition: string, options: LoadOptions) => { bytes: Uint8Array; liveRids?: ArrayLike<number> } | undefined;
  /** Overrides of the ranking parameters (benches and experiments; production uses the defaults). */
  ranking?: Partial<RankingConfig>;
  /** Live records below which a partition is compacted in the write that needs it (COMPACT_IN_PLACE_BELOW; tests). */
  compactInPlaceBelow?: number;
  /** Work per slice of a background compaction (ms, default 20; tests use 0: a pause every few hundred records). */
  compactionSliceMs?: number;
  /**
   * The approximate dense pass (hnsw.ts): a vector block of at least `minVectors` rows gets a graph,
   * built in the background in slices of `sliceMs` (default 10), and its dense pass searches the graph
   * `efSearch` deep (at least the candidates wanted) instead of scanning every row. minVectors 0 = exact always.
   */
  ann?: { minVectors?: number; efSearch?: number; sliceMs?: number; offThreadMinRows?: number };
  /**
   * Embedder models whose vectors partitions keep from their first load: the models queries will use. Without it a
   * partition loaded ahead of the first query (`warm`) holds no vectors, and the first dense query loads it again,
   * whole, on the thread that serves it (seconds at a million records).
   */
  vectorModels?: readonly string[];
  /**
   * Where large graphs are built (graph-builder.ts: a worker thread); without it, or for a block of fewer than
   * OFF_THREAD_MIN_ROWS rows to add, the engine builds in slices on its own thread.
   */
  graphBuilder?: GraphBuilder;
  /** Told when a build on the worker thread failed (the engine then builds in slices). */
  onGraphBuildFailed?: (err: unknown) => void;
  /** Told when a partition's graphs have caught up with its vectors (the stack logs it: from then on its dense pass is fast). */
  onGraphsBuilt?: (partition: string, info: { vectors: number; seconds: number }) => void;
}

/** Vectors of one model in one partition from which the dense pass is approximate (ANN_MIN_VECTORS; docs/architecture.md, "Approximate dense pass"). */
export const ANN_MIN_VECTORS = 20_000;
/** How deep the graph is searched: results kept while walking it (the paper's ef), at least the candidates wanted. */
export const ANN_EF_SEARCH = 200;
/**
 * Cosines sampled for the query's baseline (its median cosine in the scope) when the dense pass is approximate: the
 * rows at an even stride. The median of 2,048 draws is within about 0.03 standard deviations of the scope's
 * (1.25 σ / √n): a few thousandths of a cosine, far below the calibration's 0.05 floor.
 */
export const MEDIAN_SAMPLE = 2048;
/** Rows a graph must lack before its build goes to the worker thread (fewer: a few slices on the engine's thread). */
export const OFF_THREAD_MIN_ROWS = 4096;

interface Warming {
  pending: ((p: Partition) => void)[];
  /** Called when a background compaction ends (completed or dropped). */
  done?: () => void;
}

/**
 * Partitions with fewer live records than this are compacted at once, in the write that needed it (a few ms); larger
 * ones in the background (`compactInBackground`), which a single rebuild would stall for seconds at a million chunks.
 */
export const COMPACT_IN_PLACE_BELOW = 20_000;

/** A record's terms as the bulk loader takes them: the stored analysis as is, or the text analysed now. */
function storedTerms(r: EngineRecord): string | string[] {
  return r.analyzed ?? (r.text === undefined ? [] : analyze(r.text));
}

interface Candidate {
  part: number;
  slot: number;
  keyword: number;
  keywordRank: number;
  dense: number;
  denseRank: number;
  score: number;
}

function dotAt(q: Float32Array, data: Float32Array, offset: number, dims: number): number {
  let s = 0;
  for (let i = 0; i < dims; i++) s += q[i]! * data[offset + i]!;
  return s;
}

/** Competition ranks of a list sorted best first: equal scores share a rank ("1224"), so fusion never splits a tie arbitrarily. */
function tiedRanks(sorted: readonly { score: number }[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) out.push(i > 0 && sorted[i]!.score === sorted[i - 1]!.score ? out[i - 1]! : i + 1);
  return out;
}

/**
 * Share of the query's weight (similarity.ts: surprisal of each word) whose
 * terms occur in a record (1 = every query term present), for the records of
 * one partition: the query's term ids are looked up once, then each record's
 * sequence is read once. Same value as `termCoverage`, without a set per record.
 */
class Coverage {
  private readonly index: IdTable;
  private readonly present: Uint8Array;
  private readonly total: number;
  /** Query terms each partition term relates to (`relatedTerms`), and which of them a record got credit for. */
  private readonly related = new Map<number, number[]>();
  private credited: Uint8Array | undefined;

  constructor(
    private readonly part: Partition,
    private readonly terms: readonly WeightedTerm[],
  ) {
    this.index = new IdTable(terms.length);
    this.present = new Uint8Array(terms.length);
    let total = 0;
    terms.forEach((t, k) => {
      total += t.weight;
      const id = part.dict.get(t.term);
      if (id !== undefined) this.index.set(id, k);
    });
    this.total = total;
  }

  of(slot: number): number {
    if (!(this.total > 0)) return 0;
    const seq = this.part.termsOf(slot);
    const present = this.present;
    present.fill(0);
    for (let i = 0; i < seq.length; i++) {
      const k = this.index.get(seq[i]!);
      if (k >= 0) present[k] = 1;
    }
    let hit = 0;
    for (let k = 0; k < this.terms.length; k++) if (present[k]) hit += this.terms[k]!.weight;
    return hit / this.total;
  }

  /**
   * Coverage counting words of related meaning too (lexicon.ts: synonyms, derivations, hypernyms): a
   * query term the record lacks but relates to counts `relatedWeight` of its weight. What a partition's
   * term relates to among the query's is looked up once per query (`relatedTerms`), not once per record.
   */
  withRelated(slot: number, relatedWeight: number): number {
    if (!(this.total > 0)) return 0;
    const exact = this.of(slot); // fills `present`
    let missing = false;
    for (let k = 0; k < this.terms.length; k++) if (!this.present[k] && this.terms[k]!.weight > 0) missing = true;
    if (!missing) return exact;
    const seq = this.part.termsOf(slot);
    const credited = (this.credited ??= new Uint8Array(this.terms.length));
    credited.fill(0);
    let extra = 0;
    for (let i = 0; i < seq.length; i++) {
      for (const k of this.relatedTerms(seq[i]!)) {
        if (this.present[k] || credited[k]) continue;
        credited[k] = 1;
        extra += this.terms[k]!.weight * relatedWeight;
      }
    }
    return Math.min(1, exact + extra / this.total);
  }

  /** The query terms (their indexes) a partition term relates to, by the lexicon: computed on first need, kept for the query. */
  private relatedTerms(id: number): readonly number[] {
    let ks = this.related.get(id);
    if (!ks) {
      const rel = relatedStems(this.part.termText[id]!);
      ks = [];
      for (let k = 0; k < this.terms.length; k++) if (this.terms[k]!.weight > 0 && rel.has(this.terms[k]!.term)) ks.push(k);
      this.related.set(id, ks);
    }
    return ks;
  }
}

/** What a word of related meaning counts for in coverage, against 1 for the word itself. */
export const RELATED_WEIGHT = 0.25;
/**
 * The most the words alone can make of a record's evidence when ranking by evidence: a record that
 * holds every word of the query but means something else ("where does Tina live" / "Tina earns a
 * living as a teacher") must leave room for the record that means the answer. Chosen on LoCoMo and
 * the persona set (bench/README.md: 1 / 0.9 / 0.8 traded off-topic answers 18.7 / 15.3 / 10.7 % against
 * answer-coverage@3 47.3 / 45.6 / 44.2 %).
 */
export const WORDS_ALONE = 0.9;

/**
 * A capitalised run of the query (a name) is the scope's subject when at least this share of the
 * scope's records holds each of its terms: then it tells no record apart, and meaning is measured
 * without it (subject.ts). LoCoMo's two speakers are each in 60–80 % of their conversation's
 * memories, a month in at most 30 %; a persona's name in all of them.
 */
export const SUBJECT_SHARE = 0.4;

/** What a saved copy of a partition holds: its version, and how far its graphs were built (a graph built since is worth saving). */
function savedState(p: Partition): string {
  let graphRows = 0;
  for (const block of p.vectors.values()) graphRows += block.graph?.built ?? 0;
  return `${p.version}:${graphRows}`;
}

function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/**
 * In-memory hybrid search over partitions loaded lazily from the durable
 * store: BM25 with MaxScore top-k (keyword side), exact cosine over
 * contiguous same-model vector blocks (dense side, only when the query gives
 * the dense ranking a weight), weighted reciprocal-rank fusion, and a
 * similarity in [0, 1] for thresholds (similarity.ts).
 */
export class SearchEngine implements HybridSearchEngine {
  private readonly parts = new Map<string, Partition>();
  private readonly load: PartitionLoader;
  private readonly restore: SearchEngineOptions["restore"];
  /** Partitions loaded from a saved copy and from the store's records (diagnostics, tests, metrics). */
  readonly loadCounts = { restored: 0, fromStore: 0 };
  /** Partitions as their saved copy has them (restored from it, or just saved): their `savedState` then. */
  private readonly saved = new WeakMap<Partition, string>();
  readonly ranking: RankingConfig;
  /** Embedder models whose vectors partitions keep: those that queries (or similarity calls) used. */
  private readonly vectorModels = new Set<string>();
  /** Partitions `warm` is loading, with the changes to apply once loaded. */
  private readonly warming = new Map<string, Warming>();
  /** Partitions a background compaction is copying, with the changes made since it started. */
  private readonly compacting = new Map<string, Warming>();
  private readonly compactionDone = new Map<string, Promise<void>>();
  private compactions = 0;
  private readonly compactInPlaceBelow: number;
  private readonly compactionSliceMs: number;
  private readonly annMin: number;
  private readonly annEf: number;
  private readonly annSliceMs: number;
  private readonly offThreadMin: number;
  /**
   * Partitions with a vector block whose graph is behind its rows, built a slice at a time (`buildGraphs`): since when,
   * and whether a graph is built from nothing (a load, a reload, a compaction), which `onGraphsBuilt` hears about; rows
   * written since a graph was built only catch up, silently.
   */
  private readonly graphQueue = new Map<string, { since: number; fresh: boolean }>();
  private readonly onGraphsBuilt: SearchEngineOptions["onGraphsBuilt"];
  private graphTimer: ReturnType<typeof setTimeout> | undefined;
  private graphBuilder: GraphBuilder | undefined;
  private readonly onGraphBuildFailed: SearchEngineOptions["onGraphBuildFailed"];
  private closed = false;
  /** Vector blocks whose graph the worker thread is building. */
  private readonly building = new WeakSet<VectorBlock>();

  constructor(opts: SearchEngineOptions) {
    this.load = opts.load;
    this.restore = opts.restore;
    this.compactInPlaceBelow = opts.compactInPlaceBelow ?? COMPACT_IN_PLACE_BELOW;
    this.compactionSliceMs = opts.compactionSliceMs ?? 20;
    this.annMin = opts.ann?.minVectors ?? ANN_MIN_VECTORS;
    this.annEf = opts.ann?.efSearch ?? ANN_EF_SEARCH;
    this.annSliceMs = opts.ann?.sliceMs ?? 10;
    this.offThreadMin = opts.ann?.offThreadMinRows ?? OFF_THREAD_MIN_ROWS;
    this.onGraphsBuilt = opts.onGraphsBuilt;
    this.graphBuilder = opts.graphBuilder;
    this.onGraphBuildFailed = opts.onGraphBuildFailed;
    for (const m of opts.vectorModels ?? []) this.vectorModels.add(m);
    this.ranking = { ...DEFAULT_RANKING, ...opts.ranking };
    // The similarity's word counts load now, at start, not on the first search.
    warmSimilarity();
  }

  /** The partition, loaded from the store on first use (and again when it lacks the vectors of a model now in use). */
  private partition(key: string, model?: string): Partition {
    let p = this.parts.get(key);
    if (model !== undefined && !this.vectorModels.has(model)) this.vectorModels.add(model);
    if (p && model !== undefined && !p.vectorModels.has(model)) p = undefined;
    if (!p) {
      // Loaded now, whole (a warm-up under way stops: this load reads every change it had queued).
      this.warming.delete(key);
      p = this.restored(key);
      if (!p) {
        p = new Partition(key, new Set(this.vectorModels));
        const bulk = new BulkLoad(p);
        for (const r of this.load(key, { vectorModels: p.vectorModels })) bulk.push(r.rid, storedTerms(r), r.vector, r.model);
        for (const _ of bulk.build());
        this.loadCounts.fromStore++;
      }
      if (p.needsCompaction()) p.compact();
      this.parts.set(key, p);
    }
    return p;
  }

  /** The partition from its saved copy, when the store has one that matches its records. */
  private restored(key: string): Partition | undefined {
    if (!this.restore) return undefined;
    const options: LoadOptions = { vectorModels: new Set(this.vectorModels) };
    const copy = this.restore(key, options);
    const p = copy && decodePartition(copy.bytes, key, options.vectorModels, copy.liveRids);
    if (p) {
      this.saved.set(p, savedState(p));
      this.loadCounts.restored++;
    }
    return p;
  }

  /**
   * A loaded partition as bytes (snapshot.ts), for its store to keep and hand back to `restore` after a
   * restart; undefined when it is not loaded, or (unless `always`) unchanged since it was restored or
   * last saved, its graphs included (`savedState`). The chunks view the partition's arrays: write them
   * before it changes again.
   */
  snapshot(partition: string, always = false): Uint8Array[] | undefined {
    const p = this.parts.get(partition);
    const state = p && savedState(p);
    if (!p || (!always && this.saved.get(p) === state)) return undefined;
    this.saved.set(p, state!);
    return encodePartition(p);
  }

  /** Live records of a loaded partition (0 when not loaded). */
  liveRecords(partition: string): number {
    return this.parts.get(partition)?.live ?? 0;
  }

  /**
   * Loads a partition ahead of its first query, about `sliceMs` of work at a
   * time with the event loop free in between, so a serving process keeps
   * answering. Changes made meanwhile (`upsert`, `remove`) are applied when
   * the load completes; a query that needs the partition earlier loads it
   * whole at once, and `evict` stops the warm-up. A no-op for a loaded
   * partition.
   */
  async warm(partition: string, sliceMs = 20): Promise<void> {
    if (this.parts.has(partition) || this.warming.has(partition)) return;
    const saved = this.restored(partition);
    if (saved) {
      if (saved.needsCompaction()) saved.compact();
      this.parts.set(partition, saved);
      return;
    }
    const state: Warming = { pending: [] };
    this.warming.set(partition, state);
    const p = new Partition(partition, new Set(this.vectorModels));
    const bulk = new BulkLoad(p);
    let sliceStart = performance.now();
    // Yields to the event loop when the slice is used up; false when the warm-up was overtaken.
    const pause = async (): Promise<boolean> => {
      if (performance.now() - sliceStart < sliceMs) return this.warming.get(partition) === state;
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
      return this.warming.get(partition) === state;
    };
    let n = 0;
    for (const r of this.load(partition, { vectorModels: p.vectorModels })) {
      bulk.push(r.rid, storedTerms(r), r.vector, r.model);
      if ((++n & 63) === 0 && !(await pause())) return;
    }
    for (const _ of bulk.build()) if (!(await pause())) return;
    if (this.warming.get(partition) !== state) return;
    this.warming.delete(partition);
    this.loadCounts.fromStore++;
    for (const change of state.pending) change(p);
    if (p.needsCompaction()) p.compact();
    this.parts.set(partition, p);
  }

  /** True when the partition is in memory (diagnostics, tests). */
  isLoaded(partition: string): boolean {
    return this.parts.has(partition);
  }

  /** True while `warm` is loading the partition. */
  isWarming(partition: string): boolean {
    return this.warming.has(partition);
  }

  upsert(partition: string, records: EngineRecord[]): void {
    const change = (p: Partition) => {
      for (const r of records) p.add(r.rid, recordTerms(r), r.vector, r.model);
    };
    this.change(partition, change);
  }

  remove(partition: string, rids: number[]): void {
    this.change(partition, (p) => {
      for (const rid of rids) p.remove(rid);
    });
  }

  /**
   * Applies a change to the loaded partition (and to the copy a background compaction is building), or queues it for
   * a warm-up under way; not loaded: the store already holds it, the first query loads it with the rest. Then compacts
   * when dead slots have piled up: a small partition at once, a large one in the background.
   */
  private change(partition: string, change: (p: Partition) => void): void {
    const p = this.parts.get(partition);
    if (!p) {
      this.warming.get(partition)?.pending.push(change);
      return;
    }
    change(p);
    const compaction = this.compacting.get(partition);
    if (compaction) compaction.pending.push(change);
    else if (p.needsCompaction()) {
      if (p.live < this.compactInPlaceBelow) p.compact();
      else void this.compactInBackground(partition, p);
    }
  }

  /**
   * Compacts a large partition without stopping the searches: a copy of its live records is built in slices of about
   * `sliceMs` with the event loop free in between, while the partition itself keeps serving (its dead slots skipped);
   * changes made meanwhile reach both, and the copy replaces it when complete. Dropped when the partition is evicted
   * or reloaded meanwhile.
   */
  private async compactInBackground(partition: string, old: Partition): Promise<void> {
    const sliceMs = this.compactionSliceMs;
    const state: Warming = { pending: [] };
    this.compacting.set(partition, state);
    const done = new Promise<void>((resolve) => (state.done = resolve));
    this.compactionDone.set(partition, done);
    try {
      const fresh = new Partition(partition, new Set(old.vectorModels));
      const bulk = new BulkLoad(fresh);
      let sliceStart = performance.now();
      const current = () => this.parts.get(partition) === old && this.compacting.get(partition) === state;
      const pause = async (): Promise<boolean> => {
        if (performance.now() - sliceStart < sliceMs) return current();
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
        return current();
      };
      // The live records as they are when the copy starts (later changes come through `pending`).
      const slots = old.slots;
      const models = [...old.vectors.keys()];
      for (let s = 0; s < slots; s++) {
        if ((s & 255) === 0 && !(await pause())) return;
        const rid = old.rids[s]!;
        if (old.slotOf.get(rid) !== s) continue; // dead, or moved to a later slot
        const ids = old.termsOf(s);
        const terms = new Array<string>(ids.length);
        for (let i = 0; i < ids.length; i++) terms[i] = old.termText[ids[i]!]!;
        let first = true;
        for (const m of models) {
          const row = old.rowOf(m, s);
          if (row < 0) continue;
          const block = old.vectors.get(m)!;
          const v = block.data.slice(row * block.dims, (row + 1) * block.dims);
          if (first) bulk.push(rid, terms, v, m);
          else fresh.addVector(fresh.slots - 1, v, m);
          first = false;
        }
        if (first) bulk.push(rid, terms);
      }
      for (const _ of bulk.build()) if (!(await pause())) return;
      if (!current()) return;
      for (const change of state.pending) change(fresh);
      this.parts.set(partition, fresh);
      this.compactions++;
    } finally {
      if (this.compacting.get(partition) === state) this.compacting.delete(partition);
      if (this.compactionDone.get(partition) === done) this.compactionDone.delete(partition);
      state.done?.();
    }
  }

  /** Resolves when no background compaction of the partition is under way (tests, diagnostics). */
  async compacted(partition: string): Promise<void> {
    await this.compactionDone.get(partition);
  }

  /** True while a background compaction of the partition is under way. */
  isCompacting(partition: string): boolean {
    return this.compacting.has(partition);
  }

  /** Background compactions completed since start. */
  compactionCount(): number {
    return this.compactions;
  }

  /**
   * Notes a partition whose vector blocks want a graph (at least `annMin` rows, the graph behind them) and starts the
   * background build when none runs: a new block, rows added since, a block a compaction or a reload replaced.
   */
  private wantGraphs(key: string, p: Partition): void {
    if (this.annMin <= 0 || this.graphQueue.has(key)) return;
    let behind = false;
    let fresh = false;
    for (const block of p.vectors.values()) {
      if (block.rows < this.annMin || (block.graph?.built ?? 0) >= block.rows) continue;
      behind = true;
      if (!block.graph?.built) fresh = true;
    }
    if (!behind) return;
    this.graphQueue.set(key, { since: performance.now(), fresh });
    this.scheduleGraphs();
  }

  private scheduleGraphs(): void {
    if (this.closed || this.graphTimer || this.graphQueue.size === 0) return;
    this.graphTimer = setTimeout(() => this.buildGraphs(), 0);
    this.graphTimer.unref?.();
  }

  /**
   * One slice (about `annSliceMs`) of the background graph builds, then a pause for the event loop. Searches meanwhile
   * scan the rows a graph does not hold yet, so nothing waits for a build.
   */
  private buildGraphs(): void {
    this.graphTimer = undefined;
    const deadline = performance.now() + this.annSliceMs;
    // Work left for later slices (a build on the worker thread calls back instead).
    let more = false;
    for (const [key, { since, fresh }] of this.graphQueue) {
      const p = this.parts.get(key);
      let behind = false;
      let vectors = 0;
      for (const block of p?.vectors.values() ?? []) {
        if (block.rows < this.annMin) continue;
        const built = block.graph?.built ?? 0;
        if (built < block.rows && !this.building.has(block)) {
          // A block on the worker thread comes back through `buildOffThread`.
          if (this.graphBuilder && block.rows - built >= this.offThreadMin && block.data.buffer instanceof SharedArrayBuffer) this.buildOffThread(block);
          else if (performance.now() <= deadline) (block.graph ??= new HnswGraph(block.dims)).extend(block.data, block.rows, deadline);
        }
        if ((block.graph?.built ?? 0) < block.rows) {
          behind = true;
          if (!this.building.has(block)) more = true;
        }
        vectors += block.graph?.built ?? 0;
      }
      if (!behind) {
        this.graphQueue.delete(key);
        if (p && fresh) this.onGraphsBuilt?.(key, { vectors, seconds: (performance.now() - since) / 1000 });
      }
    }
    if (more) this.scheduleGraphs();
  }

  /**
   * Builds a block's graph on the worker thread (`graphBuilder`), from its graph so far to its rows now; the block keeps
   * its graph meanwhile, and takes the new one when it comes back (rows are only appended, so the new graph fits the
   * block even after it grew; a block replaced meanwhile, by a compaction or a reload, is simply dropped). A failed
   * build stops the worker path: the engine builds in slices from then on.
   */
  private buildOffThread(block: VectorBlock): void {
    const builder = this.graphBuilder!;
    this.building.add(block);
    const rows = block.rows;
    builder
      .build({ data: block.data.subarray(0, rows * block.dims), dims: block.dims, rows, ...(block.graph ? { from: block.graph.state() } : {}) })
      .then(
        (state) => {
          const graph = HnswGraph.fromState(block.dims, state);
          if (graph && graph.built <= block.rows && graph.built > (block.graph?.built ?? 0)) block.graph = graph;
        },
        (err: unknown) => {
          // A build cut off by the process stopping is no failure.
          if (this.closed) return;
          this.graphBuilder = undefined;
          this.onGraphBuildFailed?.(err);
        },
      )
      .finally(() => {
        this.building.delete(block);
        this.scheduleGraphs();
      });
  }

  /** True while a graph of the partition is behind its vectors (tests, diagnostics). */
  isBuildingGraphs(partition: string): boolean {
    return this.graphQueue.has(partition);
  }

  /** Builds every queued graph now, at once (tests and benches; a serving process builds them in the background). */
  buildGraphsNow(): void {
    for (const key of this.graphQueue.keys()) {
      const p = this.parts.get(key);
      if (p) for (const block of p.vectors.values()) if (block.rows >= this.annMin) (block.graph ??= new HnswGraph(block.dims)).extend(block.data, block.rows);
    }
    this.graphQueue.clear();
  }

  /** Stops background work (graph builds); the engine still answers. */
  close(): void {
    this.closed = true;
    if (this.graphTimer) clearTimeout(this.graphTimer);
    this.graphTimer = undefined;
    this.graphQueue.clear();
  }

  evict(partition: string): void {
    this.graphQueue.delete(partition);
    this.parts.delete(partition);
    this.warming.delete(partition);
    this.compacting.delete(partition);
  }

  /** Bytes held by one loaded partition's structures (approximate; 0 when it is not loaded). */
  partitionBytes(partition: string): number {
    return this.parts.get(partition)?.bytes() ?? 0;
  }

  /** The rids of a loaded partition's records (none when it is not loaded). */
  loadedRids(partition: string): number[] {
    const p = this.parts.get(partition);
    return p ? [...p.slotOf.keys()] : [];
  }

  /** Bytes held by the loaded partitions' structures (approximate). */
  memoryBytes(): number {
    let b = 0;
    for (const p of this.parts.values()) b += p.bytes();
    return b;
  }

  search(q: EngineQuery): EngineHit[] {
    const limit = Math.max(0, Math.floor(q.limit));
    if (limit === 0 || q.partitions.length === 0) return [];
    const useDense = q.denseWeight > 0 && q.vector !== undefined && q.model !== undefined;
    const keys = [...new Set(q.partitions)];
    const parts = keys.map((k) => this.partition(k, useDense ? q.model : undefined));
    const stats = collectionStats(parts);
    const analyzed = analyze(q.text);
    const queryTerms = this.queryTerms(parts, stats, analyzed);

    // Fusion needs a deep keyword list; keyword-only ranking needs just the hits (feedback reranks its own depth).
    const want = useDense ? Math.max(limit, this.ranking.candidates) : limit;
    const byKey = new Map<number, Candidate>();
    const keyOf = (part: number, slot: number) => part * 0x100000000 + slot;

    const keyword = this.keywordRanking(parts, stats, analyzed, queryTerms, want, q.accept);
    const kwRanks = tiedRanks(keyword);
    keyword.forEach((h, i) =>
      byKey.set(keyOf(h.part, h.slot), { part: h.part, slot: h.slot, keyword: h.score, keywordRank: kwRanks[i]!, dense: 0, denseRank: 0, score: 0 }),
    );

    let denseWeight = 0;
    /** The query's median cosine over the scope's vectors (its baseline there; ranking by evidence only). */
    let denseBaseline = 0;
    // How far the dense ranking's top corroborates the keyword ranking's: it weighs the dense side in fusion and the cosine in similarity.
    let agree = 0;
    // Meaning without the scope's subject (ranking by evidence only).
    const projection = useDense && q.calibration && q.subjects?.length ? this.subjectProjection(parts, stats.n, q) : undefined;
    if (useDense) {
      const { hits: dense, baseline } = this.denseTopK(parts, q.vector!, q.model!, want, q.accept, q.calibration !== undefined, projection);
      denseBaseline = baseline;
      agree = this.agreement(keyword, dense);
      denseWeight = q.denseWeight * agree;
      const denseRanks = tiedRanks(dense);
      dense.forEach((h, i) => {
        const key = keyOf(h.part, h.slot);
        const c = byKey.get(key);
        if (c) {
          c.dense = h.score;
          c.denseRank = denseRanks[i]!;
        } else if (h.score >= this.ranking.denseOnlyMinCosine) {
          byKey.set(key, { part: h.part, slot: h.slot, keyword: 0, keywordRank: 0, dense: h.score, denseRank: denseRanks[i]!, score: 0 });
        }
      });
    }

    const k = this.ranking.rrfK;
    const cands = [...byKey.values()];
    // The query's words weighed for this scope: a word every record holds tells none apart (similarity.ts, specificity).
    const simTerms = this.scopedSimilarityTerms(parts, stats.n, q.text);
    const coverage: (Coverage | undefined)[] = [];
    if (useDense && q.calibration) return this.byEvidence(parts, stats.n, cands, simTerms, coverage, q, limit, denseBaseline, projection);
    for (const c of cands) c.score = (c.keywordRank ? 1 / (k + c.keywordRank) : 0) + (c.denseRank ? denseWeight / (k + c.denseRank) : 0);
    // Equal fused scores (a keyword tie, or dense-only records when the calibrated weight is 0) follow the dense ranking.
    const denseOrder = (c: Candidate) => c.denseRank || Number.MAX_SAFE_INTEGER;
    cands.sort((a, b) => b.score - a.score || denseOrder(a) - denseOrder(b) || a.part - b.part || a.slot - b.slot);
    const top = cands.slice(0, limit);

    // Similarity (similarity.ts): each hit's own evidence, then shared down the ranking and calibrated.
    const evidence = top.map((c) => {
      const part = parts[c.part]!;
      let vectorScore = c.dense;
      if (useDense && c.denseRank === 0) {
        const row = part.rowOf(q.model!, c.slot);
        if (row >= 0) {
          const block = part.vectors.get(q.model!)!;
          vectorScore = dotAt(q.vector!, block.data, row * block.dims, block.dims);
        }
      }
      const covered = (coverage[c.part] ??= new Coverage(part, simTerms)).of(c.slot);
      return { evidence: ownEvidence(covered, useDense ? agree * vectorScore : undefined), score: c.score, vectorScore };
    });
    const similarities = rankedSimilarities(evidence);
    return top.map((c, i) => ({
      rid: parts[c.part]!.rids[c.slot]!,
      score: c.score,
      similarity: similarities[i]!,
      ownSimilarity: calibrate(evidence[i]!.evidence),
      keywordScore: c.keyword,
      vectorScore: evidence[i]!.vectorScore,
    }));
  }

  /** The query's similarity terms weighed for the searched partitions (their document frequencies there). */
  private scopedSimilarityTerms(parts: readonly Partition[], n: number, text: string): SimilarityTerm[] {
    return scopedTerms(similarityTerms(text), (t) => documentFrequency(parts, t), n);
  }

  /**
   * Ranking for a model whose cosines are calibrated (EngineQuery.calibration): every candidate of
   * either side is ranked by its own evidence, the words it holds and what it means, combined
   * (similarity.ts, `combinedEvidence`); the fused rank only breaks ties. Rank fusion weighs a
   * ranking by position alone, so in a container where every record holds the query's subject the
   * keyword side's order (shortest record first) outvoted the meaning; here a side counts as far as
   * its evidence goes. Similarity is that evidence, calibrated: monotone in the ranking.
   *
   * - Words: coverage with the query weighed for the scope (`scopedTerms`), words of related meaning
   *   counting RELATED_WEIGHT (lexicon.ts).
   * - Meaning: the cosine above the query's baseline in the scope (`meaningEvidence`).
   * - Combined by noisy-or, the words counting at most WORDS_ALONE. Meaning counts only when the query names no one the scope never
   *   mentions (an absent word that the query capitalises or the lexicon does not know): to a
   *   sentence model a question about someone else means much the same as one about the container's
   *   subject (on LoCoMo, strangers' questions found something in 61 % of containers when such a name
   *   only discounted the evidence by its share), so then the words alone decide, and the name weighs
   *   in them. An absent ordinary word ("what does she do for a living") is what meaning is for.
   */
  private byEvidence(
    parts: readonly Partition[],
    n: number,
    cands: Candidate[],
    simTerms: readonly SimilarityTerm[],
    coverage: (Coverage | undefined)[],
    q: EngineQuery,
    limit: number,
    denseBaseline: number,
    projection: SubjectProjection | undefined,
  ): EngineHit[] {
    const k = this.ranking.rrfK;
    // Names the scope never mentions: absent words the query capitalises or the lexicon does not know.
    const capitalized = capitalizedStems(q.text);
    const namesAbsent = simTerms.some((t) => t.weight > 0 && documentFrequency(parts, t.term) === 0 && (capitalized.has(t.term) || !knownStem(t.term)));
    const qn = norm(q.vector!) || 1;
    const scored = cands.map((c) => {
      const part = parts[c.part]!;
      let cosine = c.dense;
      if (c.denseRank === 0) {
        const row = part.rowOf(q.model!, c.slot);
        if (row >= 0) {
          const block = part.vectors.get(q.model!)!;
          cosine = projection ? projection.cosineAt(block.data, row * block.dims) : dotAt(q.vector!, block.data, row * block.dims, block.dims) / qn;
        }
      }
      const covered = (coverage[c.part] ??= new Coverage(part, simTerms)).withRelated(c.slot, RELATED_WEIGHT);
      const meaning = namesAbsent ? 0 : meaningEvidence(cosine, denseBaseline, n, q.calibration!);
      const evidence = combinedEvidence(covered * WORDS_ALONE, meaning);
      c.score = (c.keywordRank ? 1 / (k + c.keywordRank) : 0) + (c.denseRank ? 1 / (k + c.denseRank) : 0);
      return { c, evidence, cosine };
    });
    scored.sort((a, b) => b.evidence - a.evidence || b.c.score - a.c.score || a.c.part - b.c.part || a.c.slot - b.c.slot);
    return scored.slice(0, limit).map(({ c, evidence, cosine }) => {
      const similarity = calibrate(evidence);
      return { rid: parts[c.part]!.rids[c.slot]!, score: evidence, similarity, ownSimilarity: similarity, keywordScore: c.keyword, vectorScore: cosine };
    });
  }

  similarity(partition: string, rid: number, text: string, vector?: Float32Array, model?: string): number | undefined {
    const useDense = vector !== undefined && model !== undefined;
    const part = this.partition(partition, useDense ? model : undefined);
    const slot = part.slotOf.get(rid);
    if (slot === undefined) return undefined;
    let cos: number | undefined;
    if (useDense) {
      cos = 0;
      const row = part.rowOf(model!, slot);
      if (row >= 0) {
        const block = part.vectors.get(model!)!;
        const n = norm(vector!);
        if (n > 0) cos = dotAt(vector!, block.data, row * block.dims, block.dims) / n;
      }
    }
    return calibrate(ownEvidence(new Coverage(part, this.scopedSimilarityTerms([part], part.live, text)).of(slot), cos));
  }

  /**
   * Keyword ranking: BM25 top-k; with feedback on, the first pass's best
   * records build an RM3 query model and a second pass ranks with it.
   */
  private keywordRanking(
    parts: readonly Partition[],
    stats: CollectionStats,
    analyzed: readonly string[],
    queryTerms: readonly WeightedTerm[],
    want: number,
    accept: ((rid: number) => boolean) | undefined,
  ): { part: number; slot: number; score: number }[] {
    const r = this.ranking;
    const useFeedback = r.feedbackDocs > 0 && queryTerms.length > 0;
    const depth = useFeedback ? Math.max(want, r.feedbackDepth) : want;
    const first = retrieveTopK(parts, queryTerms, stats, this.params(), depth, accept).sorted();
    if (!useFeedback || first.length <= 1) return first.slice(0, want);
    const qtf = new Map<string, number>();
    for (const t of analyzed) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const dfCache = new Map<string, number>();
    const df = (t: string) => {
      let v = dfCache.get(t);
      if (v === undefined) dfCache.set(t, (v = documentFrequency(parts, t)));
      return v;
    };
    const model = rm3QueryModel(
      qtf,
      first.slice(0, r.feedbackDocs).map((h) => ({ part: parts[h.part]!, slot: h.slot, score: h.score })),
      {
        docs: r.feedbackDocs,
        terms: r.feedbackTerms,
        originalWeight: r.feedbackOriginalWeight,
        maxDfRatio: r.feedbackMaxDfRatio,
        sharpness: r.feedbackSharpness,
      },
      df,
      stats.n,
    );
    // Rerank the first pass's candidates with the expanded query, exactly, from their term sequences.
    const expanded = weighted(model, (t) => idf(stats.n, df(t)));
    const weights = new Float64Array(expanded.length);
    for (let k = 0; k < expanded.length; k++) weights[k] = expanded[k]!.weight;
    const tf = new Float64Array(expanded.length);
    const c1 = r.k1 * (1 - r.b);
    const c2 = stats.avgLen > 0 ? (r.k1 * r.b) / stats.avgLen : 0;
    for (let pi = 0; pi < parts.length; pi++) {
      const part = parts[pi]!;
      const index = new IdTable(expanded.length);
      expanded.forEach((t, k) => {
        const id = part.dict.get(t.term);
        if (id !== undefined) index.set(id, k);
      });
      for (const h of first) if (h.part === pi) h.score = bm25FromSequence(part, h.slot, index, weights, tf, c1, c2);
    }
    first.sort((a, b) => b.score - a.score || a.part - b.part || a.slot - b.slot);
    return first.slice(0, want);
  }

  /**
   * Agreement of the two rankings at the top, in [0, 1]: the share of the keyword side's first
   * `agreementDepth` records (fewer when it found fewer) that are among the dense side's first
   * `agreementDepth`. A dense ranking that corroborates the keyword evidence keeps its weight; one
   * that finds other records at the top (a weak model, or a query the two read differently) loses
   * it in proportion. 1 when the keyword side found nothing (the dense side decides alone) or when
   * calibration is off.
   */
  private agreement(keyword: readonly { part: number; slot: number }[], dense: readonly { part: number; slot: number }[]): number {
    const depth = this.ranking.agreementDepth;
    if (depth <= 0 || keyword.length === 0) return 1;
    const n = Math.min(depth, keyword.length);
    const top = new Set<number>();
    for (let i = 0; i < n; i++) top.add(keyword[i]!.part * 0x100000000 + keyword[i]!.slot);
    let shared = 0;
    for (let i = 0; i < Math.min(depth, dense.length); i++) if (top.has(dense[i]!.part * 0x100000000 + dense[i]!.slot)) shared++;
    return shared / n;
  }

  private params(): Bm25Params {
    return { k1: this.ranking.k1, b: this.ranking.b };
  }

  /** Distinct query terms weighted by query frequency × idf over the queried partitions. */
  private queryTerms(parts: readonly Partition[], stats: CollectionStats, terms: readonly string[]): WeightedTerm[] {
    const qtf = new Map<string, number>();
    for (const t of terms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const out: WeightedTerm[] = [];
    for (const [term, times] of qtf) {
      const df = documentFrequency(parts, term);
      // Unknown terms keep the idf of an unseen term: they weigh in coverage, never match.
      out.push({ term, weight: times * idf(stats.n, df) });
    }
    return out;
  }

  /** The query's subjects that are the scope's (SUBJECT_SHARE of its records hold each term), projected off the query; undefined when none is. */
  private subjectProjection(parts: readonly Partition[], n: number, q: EngineQuery): SubjectProjection | undefined {
    if (n === 0) return undefined;
    const chosen = q.subjects!.filter((s) => s.terms.length > 0 && s.terms.every((t) => documentFrequency(parts, t) >= SUBJECT_SHARE * n));
    if (chosen.length === 0) return undefined;
    const qn = norm(q.vector!) || 1;
    return SubjectProjection.of(
      q.vector!.map((x) => x / qn),
      chosen.map((s) => s.vector),
    );
  }

  /**
   * The `k` best cosines (vectors are unit length) over the same-model vectors of the partitions; with a projection, of
   * what they say about the subject. Exact, except in a block with a graph (`ann`): there the graph gives the best rows
   * it reaches (a subject projection reranks twice as many), the rows past the graph are scanned, and a narrow filter
   * that leaves the graph's walk short of `k` falls back to the scan. `collect`: the baseline (median cosine of the
   * scope's live rows) too, from an even sample of MEDIAN_SAMPLE rows when any block is searched by its graph.
   */
  private denseTopK(
    parts: readonly Partition[],
    vector: Float32Array,
    model: string,
    k: number,
    accept?: (rid: number) => boolean,
    collect = false,
    projection?: SubjectProjection,
  ) {
    const heap = new TopK(k);
    const qn = norm(vector);
    if (qn === 0) return { hits: [], baseline: 0 };
    const qv = new Float32Array(vector.length);
    for (let i = 0; i < vector.length; i++) qv[i] = vector[i]! / qn;
    let rows = 0;
    let graphs = 0;
    for (const part of parts) {
      const block = part.vectors.get(model);
      if (!block || block.dims !== qv.length) continue;
      rows += block.rows;
      if (this.graphOf(block)) graphs++;
    }
    // Every cosine of the scope, or an even sample of them, for its median (the query's baseline there; ranking by evidence only).
    const stride = graphs > 0 ? Math.max(1, Math.ceil(rows / MEDIAN_SAMPLE)) : 1;
    const all = collect ? new Float64Array(Math.ceil(rows / stride) + parts.length) : undefined;
    let collected = 0;
    const cosineAt = (data: Float32Array, row: number, dims: number) =>
      projection ? projection.cosineAt(data, row * dims) : dotAt(qv, data, row * dims, dims);
    const scan = (pi: number, part: Partition, from: number, to: number, sample: boolean) => {
      const { data, rowSlot, dims } = part.vectors.get(model)!;
      const alive = part.alive;
      for (let row = from; row < to; row++) {
        const slot = rowSlot[row]!;
        if (!alive[slot]) continue;
        const s = cosineAt(data, row, dims);
        if (sample && row % stride === 0) all![collected++] = s;
        if (s <= heap.threshold) continue;
        if (accept && !accept(part.rids[slot]!)) continue;
        heap.push(s, pi, slot);
      }
    };
    for (let pi = 0; pi < parts.length; pi++) {
      const part = parts[pi]!;
      const block = part.vectors.get(model);
      if (!block || block.dims !== qv.length) continue;
      this.wantGraphs(part.key, part);
      const graph = this.graphOf(block);
      const { data, rowSlot, dims } = block;
      const alive = part.alive;
      const found = graph?.search(data, qv, Math.max(k, this.annEf) * (projection ? 2 : 1), (row) => {
        const slot = rowSlot[row]!;
        return alive[slot] === 1 && (!accept || accept(part.rids[slot]!));
      });
      if (!graph || !found || found.n < Math.min(k, part.live)) {
        scan(pi, part, 0, block.rows, all !== undefined);
        continue;
      }
      for (let i = 0; i < found.n; i++) {
        const row = found.rows[i]!;
        const s = projection ? projection.cosineAt(data, row * dims) : found.sims[i]!;
        if (s > heap.threshold) heap.push(s, pi, rowSlot[row]!);
      }
      scan(pi, part, graph.built, block.rows, false);
      if (all)
        for (let row = 0; row < block.rows; row += stride) {
          if (alive[rowSlot[row]!]) all[collected++] = cosineAt(data, row, dims);
        }
    }
    return { hits: heap.sorted(), baseline: all && collected ? medianInPlace(all.subarray(0, collected)) : 0 };
  }

  /** The block's graph when its dense pass goes through it: ANN on, enough rows, and part of the graph built. */
  private graphOf(block: VectorBlock): HnswGraph | undefined {
    return this.annMin > 0 && block.rows >= this.annMin && block.graph && block.graph.built > 0 ? block.graph : undefined;
  }
}
