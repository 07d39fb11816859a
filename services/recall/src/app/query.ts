import type { Embedder } from "@engram/index";
import { InvalidArgumentError } from "@engram/kernel";
import type { QueryRewriter } from "@engram/nlp";

export interface PreparedQuery {
  /** The text searched (the rewritten query when asked for). */
  text: string;
  vector: Float32Array;
  model: string;
  /** Weight of the dense side: 0 for an embedder without semantics (its vectors only echo the keywords). */
  denseWeight: number;
}

const NO_VECTOR = new Float32Array(0);

/**
 * Fusion weight of a semantic embedder's dense ranking (keyword weight 1). The search engine scales it
 * per query by the agreement of the keyword and dense rankings' top 10 (docs/architecture.md, Retrieval).
 */
export const SEMANTIC_DENSE_WEIGHT = 0.5;

/**
 * Turns the caller's q into what the indexes search: optionally rewritten,
 * and embedded. The dense side joins the ranking only when the embedder
 * carries meaning (the offline hashing embedder's vectors would only repeat
 * the keyword evidence with noise).
 */
export class QueryPreparer {
  constructor(
    private readonly embedder: Embedder,
    private readonly rewriter: QueryRewriter,
  ) {}

  async prepare(q: string, rewrite: boolean): Promise<PreparedQuery> {
    const original = q.trim();
    if (!original) throw new InvalidArgumentError("q must not be empty");
    const text = rewrite ? (await this.rewriter.rewrite(original)).trim() || original : original;
    // Without semantics the dense side stays out of the ranking: no query vector is computed.
    if (!this.embedder.semantic) return { text, vector: NO_VECTOR, model: this.embedder.id, denseWeight: 0 };
    const [vector] = await this.embedder.embed([text], "query");
    return { text, vector: vector!, model: this.embedder.id, denseWeight: SEMANTIC_DENSE_WEIGHT };
  }
}
