import { DEFAULT_DENSE_CALIBRATION, type DenseCalibration, type Embedder, subjectRuns } from "@engram/index";
import { InvalidArgumentError } from "@engram/kernel";
import type { QueryRewriter } from "@engram/nlp";

/** A query's dense side for one index: its vector, the model that made it, and how it weighs. */
export interface DenseQuery {
  vector: Float32Array;
  model: string;
  /** Weight of the dense side: 0 for an embedder without semantics (its vectors only echo the keywords). */
  denseWeight: number;
  /** The model's measured cosine scale (Embedder.calibration): ranking by evidence instead of rank fusion. */
  calibration?: DenseCalibration;
  /**
   * The query's capitalised runs (names) with their vectors from the same model: candidate subjects
   * whose direction the engine removes when they are the scope's subject (EngineQuery.subjects).
   */
  subjects?: { terms: string[]; vector: Float32Array }[];
}

export interface PreparedQuery extends DenseQuery {
  /** The text searched (the rewritten query when asked for). */
  text: string;
  /** The dense side for memories, whose embedder may differ from the chunks' (MEMORY_EMBEDDER). The top-level fields are the chunks'. */
  memories: DenseQuery;
}

const NO_VECTOR = new Float32Array(0);

/** Stands for the embedder of an index the query does not search: no semantics, so nothing is embedded. */
const NOT_SEARCHED: Pick<Embedder, "id" | "semantic" | "calibration" | "embed"> = {
  id: "not-searched",
  semantic: false,
  calibration: undefined,
  embed: () => Promise.resolve([]),
};

/**
 * Fusion weight of a semantic embedder's dense ranking (keyword weight 1). The search engine scales it
 * per query by the agreement of the keyword and dense rankings' top 10 (docs/architecture.md, Retrieval).
 */
export const SEMANTIC_DENSE_WEIGHT = 0.5;

/**
 * Turns the caller's q into what the indexes search: optionally rewritten,
 * and embedded, once per distinct embedder (chunks and memories may have
 * their own). The dense side joins the ranking only when the embedder
 * carries meaning (the offline hashing embedder's vectors would only repeat
 * the keyword evidence with noise).
 */
export class QueryPreparer {
  constructor(
    private readonly embedders: { chunks: Embedder; memories: Embedder },
    private readonly rewriter: QueryRewriter,
  ) {}

  /**
   * `searches`: the indexes the query will search. A side not searched is not embedded: a documents
   * search never pays for the memory model's query vector (~10 ms of CPU with the local model).
   */
  async prepare(q: string, rewrite: boolean, searches: { chunks: boolean; memories: boolean } = { chunks: true, memories: true }): Promise<PreparedQuery> {
    const original = q.trim();
    if (!original) throw new InvalidArgumentError("q must not be empty");
    const text = rewrite ? (await this.rewriter.rewrite(original)).trim() || original : original;
    const chunks = searches.chunks ? this.embedders.chunks : NOT_SEARCHED;
    const memories = searches.memories ? this.embedders.memories : NOT_SEARCHED;
    const same = memories === chunks || memories.id === chunks.id;
    // Names in the query, embedded beside it when memories have a semantic model (one short text each).
    const runs = memories.semantic ? subjectRuns(text) : [];
    const [chunkSide, memoryVector, subjectVectors] = await Promise.all([
      this.dense(chunks, text),
      same ? undefined : this.dense(memories, text),
      runs.length > 0
        ? memories.embed(
            runs.map((r) => r.text),
            "query",
          )
        : Promise.resolve([]),
    ]);
    const memory = memoryVector ?? chunkSide;
    const subjects = runs.map((r, i) => ({ terms: r.terms, vector: subjectVectors[i]! }));
    // Memories are ranked by evidence with any semantic model: on its measured scale, else the default one.
    const memorySide =
      memory.denseWeight > 0
        ? { ...memory, calibration: memories.calibration ?? DEFAULT_DENSE_CALIBRATION, ...(subjects.length > 0 ? { subjects } : {}) }
        : memory;
    return { text, ...chunkSide, memories: memorySide };
  }

  private async dense(embedder: Pick<Embedder, "id" | "semantic" | "calibration" | "embed">, text: string): Promise<DenseQuery> {
    // Without semantics the dense side stays out of the ranking: no query vector is computed.
    if (!embedder.semantic) return { vector: NO_VECTOR, model: embedder.id, denseWeight: 0 };
    const [vector] = await embedder.embed([text], "query");
    return {
      vector: vector!,
      model: embedder.id,
      denseWeight: SEMANTIC_DENSE_WEIGHT,
      ...(embedder.calibration ? { calibration: embedder.calibration } : {}),
    };
  }
}
