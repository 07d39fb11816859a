/**
 * Language ports used by memory formation (memories service) and recall.
 * Each has an offline default (deterministic, no network) and an
 * OpenAI-compatible chat-completions provider, chosen by configuration.
 */

export interface ChunkText {
  position: number;
  content: string;
}

export interface ExtractionInput {
  /** The document's text as chunks in position order (conversations: the transcript). */
  chunks: ChunkText[];
  /** supportingContext (legacy entityContext): guides extraction, e.g. "The user is Sarah Chen, a product manager". */
  supportingContext?: string;
  title?: string;
  /**
   * ISO 8601 date the caller gave for the content (the document's `date`), when it gave one: relative dates
   * ("on Friday", "next week", "yesterday") resolve against it, whatever date the text states. Without it the
   * extractor anchors them on the document's own date (a dated title or first line, an e-mail's `Date:` header,
   * the dated heading a passage is under, a transcript's dated header line) and, when the document states no
   * date either, leaves them as written. ISO strings (not Date) keep the writer's UTC offset, in which the
   * dates resolve, and cross worker threads as they are.
   */
  referenceDate?: string;
  /**
   * ISO 8601 time the content was received (the document's creation time). Never an anchor for relative
   * dates; a date the document states without its year ("Standup 3 Nov") is the latest such date not after it.
   */
  now: string;
  /** Profile buckets the facts may be classified into. */
  buckets?: { key: string; description: string }[];
}

export interface ExtractedFact {
  /** Atomic, self-contained statement: subjects resolved (no "I"/"he"/"it" left unresolved), relative dates made absolute. */
  content: string;
  /** Permanent trait (name, profession, hometown, allergy, long-standing preference) vs. a dynamic/episodic fact. */
  isStatic: boolean;
  /** Absolute dates (YYYY-MM-DD, or YYYY-MM, or full ISO) of the events the fact refers to. */
  eventDates: string[];
  /** Inferred rather than stated. */
  isInference: boolean;
  /** Positions of the chunks the fact came from. */
  chunkPositions: number[];
  /** Normalised subject of the fact (e.g. "sarah chen", "the user"), when known: used to relate facts. */
  subject?: string;
  bucketKeys?: string[];
}

export interface FactExtractor {
  readonly id: string;
  /**
   * Throws ExtractionLimitError when the document exceeds what the extractor
   * may spend on it. `signal`: the process is stopping; the extraction is
   * abandoned (a worker thread running it is terminated) and rejects with
   * the signal's reason.
   */
  extract(input: ExtractionInput, signal?: AbortSignal): Promise<ExtractedFact[]>;
}

/** The document exceeded an extractor's time or memory budget: permanent for this input, so not retried. */
export class ExtractionLimitError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "ExtractionLimitError";
  }
}

export type RelationKind = "duplicate" | "updates" | "extends" | "derives" | "unrelated";

export interface RelationCandidate {
  id: string;
  content: string;
  similarity: number;
  subject?: string;
  isStatic: boolean;
}

export interface RelationDecision {
  kind: RelationKind;
  /** The candidate it relates to (absent for unrelated). */
  targetId?: string;
}

/** dreaming=dynamic: how a new fact relates to existing memories of the same container (candidates ranked by similarity). */
export interface MemoryRelator {
  readonly id: string;
  relate(fact: ExtractedFact, candidates: RelationCandidate[]): Promise<RelationDecision>;
}

export interface RerankItem {
  id: string;
  text: string;
}

export interface Reranker {
  readonly id: string;
  /** Scores in [0,1], sorted best first, every item returned. */
  rerank(query: string, items: RerankItem[]): Promise<{ id: string; score: number }[]>;
}

export interface QueryRewriter {
  readonly id: string;
  rewrite(query: string): Promise<string>;
}

export interface AggregateInput {
  id: string;
  content: string;
}

/** search aggregate=true: synthesise new memories from several matching ones. */
export interface MemoryAggregator {
  readonly id: string;
  aggregate(query: string, memories: AggregateInput[]): Promise<{ content: string; sourceIds: string[] }[]>;
}

/** What profile buckets are suggested from (POST /v3/settings/suggest-buckets). */
export interface BucketSuggestionInput {
  /** The organisation's description of its use case (settings workspacePrompt). */
  prompt?: string;
  /** A sample of its memories (latest first). */
  memories: string[];
  /** Buckets it already has: never suggested again. */
  existing: { key: string; description: string }[];
}

/** Suggests 3 to 6 profile buckets for an organisation. */
export interface BucketSuggester {
  readonly id: string;
  suggest(input: BucketSuggestionInput): Promise<{ key: string; description: string }[]>;
}

export interface BucketClassifier {
  readonly id: string;
  /** One list of bucket keys per text (possibly empty), in input order. */
  classify(texts: string[], buckets: { key: string; description: string }[]): Promise<string[][]>;
}

/** Every language port, as built by `createNlp`. */
export interface Nlp {
  extractor: FactExtractor;
  relator: MemoryRelator;
  reranker: Reranker;
  rewriter: QueryRewriter;
  aggregator: MemoryAggregator;
  classifier: BucketClassifier;
  /** Releases worker threads, when any were started. */
  close?(): Promise<void>;
}
