import type { DenseCalibration } from "../similarity";
/**
 * Contract of the in-memory hybrid search engine shared by the embedded chunk
 * index and the embedded memory store. The durable copy of every record lives
 * in the store (SQLite); the engine holds the search structures (postings,
 * term sequences, optional vectors) in memory, partitioned by scope, and loads
 * a partition lazily from the store the first time it is touched.
 *
 * A partition is one (tenant, namespace) scope: records never mix across
 * partitions, and a query names the partitions it may read, so isolation is
 * structural.
 */

/** Partition key of one (tenant, namespace) scope. */
export function partitionKey(tenantId: string, namespace: string): string {
  return `${tenantId}\u0000${namespace}`;
}

/** One searchable record, as the store hands it to the engine. */
export interface EngineRecord {
  /** Store-wide unique integer id (e.g. the SQLite rowid). */
  rid: number;
  /**
   * The record's text: either raw text (the engine analyzes it) or the output
   * of `analyzeForStorage` that the store persisted (cheap to load: no
   * re-tokenising or stemming at start-up).
   */
  text?: string;
  analyzed?: string;
  /** Dense vector and the id of the embedder that made it (only same-model vectors are compared). */
  vector?: Float32Array;
  model?: string;
}

/**
 * Hints the engine gives a loader (optional addition to the contract): the
 * loader may leave out vectors of models not listed, which the engine would
 * drop anyway (it keeps vectors only for the models that queries use).
 */
export interface LoadOptions {
  vectorModels: ReadonlySet<string>;
}

/**
 * Loads every record of a partition from the durable store (called once per
 * partition, lazily; again after `evict`, or when a query first needs the
 * vectors of a model the partition was loaded without).
 */
export type PartitionLoader = (partition: string, options?: LoadOptions) => Iterable<EngineRecord>;

export interface EngineQuery {
  /** Partitions to search; results never come from any other. */
  partitions: string[];
  /** The user's query text (the engine analyzes it). */
  text: string;
  /** Query vector for the dense side, with its embedder id. */
  vector?: Float32Array;
  model?: string;
  /**
   * Weight of the dense ranking in the fusion (keyword weight 1). 0 = keyword only, no vector scan.
   * A ceiling: the engine scales it per query by how far the two rankings agree at the top
   * (`RankingConfig.agreementDepth`).
   */
  denseWeight: number;
  /**
   * The query model's calibration (Embedder.calibration): with it, candidates are ranked by their
   * evidence, words and meaning combined, instead of by rank fusion (SearchEngine.byEvidence).
   */
  calibration?: DenseCalibration;
  /**
   * Candidate subjects of the query (text.ts `subjectRuns`), each with its analysed terms and its
   * vector from the query's model. With `calibration`, those whose every term most records of the
   * scope hold (SUBJECT_SHARE) are the scope's subject, and meaning is measured without them
   * (subject.ts).
   */
  subjects?: readonly { terms: readonly string[]; vector: Float32Array }[];
  /** Number of hits wanted (after `accept`). */
  limit: number;
  /**
   * Record-level predicate (metadata filter, latest/forgotten flags, one
   * document only, ...). Evaluated during candidate generation, so `limit`
   * accepted hits come back whenever that many exist.
   */
  accept?: (rid: number) => boolean;
}

export interface EngineHit {
  rid: number;
  /** Ranking score (higher is better); comparable only within one query. */
  score: number;
  /** Calibrated relevance in [0, 1], reported to API callers as similarity. */
  similarity: number;
  /**
   * The result's own similarity, calibrated, without what it shares from better-ranked results
   * (similarity.ts, step 2): for decisions about this record alone (semantic forgetting).
   */
  ownSimilarity: number;
  /** Components, for diagnostics and benches. */
  keywordScore: number;
  vectorScore: number;
}

/** The engine's public surface (implemented by `SearchEngine`). */
export interface HybridSearchEngine {
  /** Adds or replaces records of a partition (a replaced rid loses its old terms and vector). */
  upsert(partition: string, records: EngineRecord[]): void;
  /** Removes records; unknown rids are ignored. */
  remove(partition: string, rids: number[]): void;
  /** Forgets a partition's in-memory state (it is loaded again on next use). */
  evict(partition: string): void;
  search(query: EngineQuery): EngineHit[];
  /** Bytes held by a loaded partition (approximate; 0 when it is not loaded), for the memory budget (optional). */
  partitionBytes?(partition: string): number;
  /** Stops the engine's background work (graph builds, hnsw.ts); it still answers (optional). */
  close?(): void;
  /** Loads a partition ahead of its first query, in short slices (optional). */
  warm?(partition: string, sliceMs?: number): Promise<void>;
  /**
   * Similarity in [0, 1] of a text to one record, on the engine's own scale
   * (used to relate a new memory to existing ones, and to score records
   * chosen by other means). Undefined when the record is unknown.
   */
  similarity(partition: string, rid: number, text: string, vector?: Float32Array, model?: string): number | undefined;
}
