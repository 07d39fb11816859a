import { createHash } from "node:crypto";
import type { FilterExpr } from "@engram/filters";
import type { ChunkHit, ChunkIndex } from "@engram/index";
import { type Clock, InvalidArgumentError, matchesFilepath } from "@engram/kernel";
import type { MemoryRecord, MemoryRelationKind } from "@engram/memory-model";
import type { MemoryAggregator, Reranker } from "@engram/nlp";
import type { DocumentInfo, DocumentLookup, MemoryReadModel } from "./ports";
import type { PreparedQuery, QueryPreparer } from "./query";
import type { DocumentHit, SearchDocumentsUseCase } from "./search-documents.usecase";

export type SearchMode = "memories" | "hybrid" | "documents";

export interface SearchInclude {
  documents?: boolean;
  summaries?: boolean;
  relatedMemories?: boolean;
  forgottenMemories?: boolean;
  /** Deprecated: hybrid, with matching chunks embedded in memory results (old format). */
  chunks?: boolean;
}

export interface SearchV4Query {
  tenantId: string;
  /** Undefined = every namespace of the tenant. */
  namespaces?: string[];
  q: string;
  mode: SearchMode;
  /** Minimum similarity (default 0.6). */
  threshold: number;
  limit: number;
  filter?: FilterExpr;
  include: SearchInclude;
  rerank: boolean;
  rewriteQuery: boolean;
  aggregate: boolean;
  /** Source filepath: exact, or a prefix when it ends with '/'. */
  filepath?: string;
}

export interface ContextEntry {
  relation: MemoryRelationKind;
  /** Distance in the version chain (-1 parent, +1 child); undefined for related memories. */
  relativeVersion?: number;
  memory: MemoryRecord;
}

export interface MemoryContext {
  parents: ContextEntry[];
  children: ContextEntry[];
  related: ContextEntry[];
}

export type SearchResult =
  | {
      kind: "memory";
      memory: MemoryRecord;
      similarity: number;
      context?: MemoryContext;
      documents?: DocumentInfo[];
      /** Deprecated include.chunks: the matching chunks of the memory's sources. */
      chunks?: ChunkHit[];
      /** Synthesised from several memories (aggregate): their ids. */
      aggregatedFrom?: string[];
    }
  | { kind: "chunk"; hit: DocumentHit; similarity: number; document: DocumentInfo };

export const DEFAULT_THRESHOLD = 0.6;

type MemoryResult = Extract<SearchResult, { kind: "memory" }>;
type ChunkResult = Extract<SearchResult, { kind: "chunk" }>;

/** Depth of the agreement between the memory and chunk rankings (the engine's `agreementDepth` for its dense side). */
export const HYBRID_AGREEMENT_DEPTH = 10;

/**
 * Hybrid order: the chunk results keep their ranking (the better document
 * ranking, measured by bench:quality), and each matching memory stands right
 * before the chunk result of its best-ranked source document — the fact next
 * to its evidence. Memories with no source among the chunk results take their
 * place by reciprocal rank, as if their list and the chunks' were
 * interleaved: at full weight when written directly (no source document: the
 * chunk side cannot speak for them), and, when formed from documents the
 * chunk side did not rank, at a weight calibrated per query by agreement (as
 * the dense side of fusion is): the share of the top
 * HYBRID_AGREEMENT_DEPTH document-derived memories whose source is among the
 * top chunk results. A memory ranking that corroborates the document ranking
 * keeps its say; one that points elsewhere follows the documents.
 */
export function groupHybrid(memories: MemoryResult[], chunks: ChunkResult[]): SearchResult[] {
  const position = new Map(chunks.map((c, i) => [c.hit.documentId, i]));
  const bestSource = (m: MemoryResult): number | undefined => {
    let best: number | undefined;
    for (const s of m.memory.sources) {
      const p = position.get(s.documentId);
      if (p !== undefined && (best === undefined || p < best)) best = p;
    }
    return best;
  };
  const derived = memories.filter((m) => m.memory.sources.length > 0).slice(0, HYBRID_AGREEMENT_DEPTH);
  const agreeing = derived.filter((m) => {
    const p = bestSource(m);
    return p !== undefined && p < HYBRID_AGREEMENT_DEPTH;
  }).length;
  const derivedWeight = derived.length === 0 ? 1 : agreeing / derived.length;
  const groups: { score: number; items: SearchResult[] }[] = chunks.map((c, i) => ({ score: 1 / (61 + i), items: [c] }));
  memories.forEach((m, j) => {
    const best = bestSource(m);
    if (best === undefined) groups.push({ score: (m.memory.sources.length > 0 ? derivedWeight : 1) / (61 + j), items: [m] });
    else groups[best]!.items.splice(groups[best]!.items.length - 1, 0, m);
  });
  // Stable: at equal rank a chunk's group stays ahead of an unattached memory.
  return groups.sort((a, b) => b.score - a.score).flatMap((g) => g.items);
}

/**
 * Merges two ranked lists by similarity. Each list keeps its own order (its
 * ranking is finer than similarity, which saturates for short texts); at
 * equal similarity the first list goes first.
 */
export function mergeBySimilarity<T extends { similarity: number }>(first: T[], second: T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    if (j >= second.length || (i < first.length && first[i]!.similarity >= second[j]!.similarity)) out.push(first[i++]!);
    else out.push(second[j++]!);
  }
  return out;
}

/** The source-document fields a chunk carries (denormalised at indexing). */
export function documentOfChunk(c: ChunkHit["chunk"]): DocumentInfo {
  return {
    id: c.documentId,
    customId: c.document.customId,
    namespace: c.namespace,
    title: c.document.title,
    contentType: c.document.contentType,
    metadata: c.document.metadata,
    createdAt: c.document.createdAt,
    updatedAt: c.document.updatedAt,
  };
}

/**
 * POST /v4/search: memories (default), document chunks, or both.
 * Memory results are the latest versions of memories that are not forgotten
 * or expired (unless include.forgottenMemories); chunk results are one per
 * document, its best chunk. Hybrid keeps memories next to the chunk of their
 * source document (groupHybrid). Optional
 * steps: query rewriting before the search, reranking of the merged list, and
 * aggregation (memories synthesised from several matching ones, reranked in).
 */
export class SearchUseCase {
  constructor(
    private readonly deps: {
      memories: MemoryReadModel;
      chunks: ChunkIndex;
      documents: SearchDocumentsUseCase;
      preparer: QueryPreparer;
      reranker: Reranker;
      aggregator: MemoryAggregator;
      /** Source documents' filepaths (a filepath filter on chunk results) and summaries (include.summaries): chunks carry neither. */
      lookup: DocumentLookup;
      clock: Clock;
    },
  ) {}

  async execute(q: SearchV4Query): Promise<SearchResult[]> {
    if (!(q.limit >= 1 && q.limit <= 100)) throw new InvalidArgumentError("limit must be 1 to 100");
    if (!(q.threshold >= 0 && q.threshold <= 1)) throw new InvalidArgumentError("threshold must be between 0 and 1");
    const mode: SearchMode = q.include.chunks && q.mode === "memories" ? "hybrid" : q.mode;
    const prepared = await this.deps.preparer.prepare(q.q, q.rewriteQuery, { chunks: mode !== "memories", memories: mode !== "documents" });
    // Reranking and aggregation look at more candidates than they return.
    const pool = q.rerank || q.aggregate ? Math.min(100, Math.max(q.limit * 3, 30)) : q.limit;

    const [memoryResults, chunkResults] = await Promise.all([
      mode === "documents" ? [] : this.searchMemories(q, prepared, pool),
      mode === "memories" ? [] : this.searchChunks(q, prepared, pool),
    ]);
    let results: SearchResult[];
    if (q.include.chunks && q.mode === "memories") {
      // Old response format: memory results only, each with its sources' matching chunks.
      for (const r of memoryResults) {
        const sources = new Set(r.memory.sources.map((s) => s.documentId));
        r.chunks = chunkResults.filter((c) => sources.has(c.hit.documentId)).flatMap((c) => c.hit.chunks);
      }
      results = memoryResults;
    } else {
      results = mode === "hybrid" ? groupHybrid(memoryResults, chunkResults) : mergeBySimilarity<SearchResult>(memoryResults, chunkResults);
    }
    if (q.aggregate) {
      const synthesised = await this.aggregated(q.q, memoryResults);
      if (!q.rerank) results = mergeBySimilarity(synthesised, results);
      else results = [...synthesised, ...results];
    }
    if (q.rerank) results = await this.reranked(q.q, results);
    results = results.slice(0, q.limit);
    await this.decorate(q, results);
    return results;
  }

  private async searchMemories(q: SearchV4Query, prepared: PreparedQuery, limit: number): Promise<Extract<SearchResult, { kind: "memory" }>[]> {
    const hits = await this.deps.memories.search({
      tenantId: q.tenantId,
      namespaces: q.namespaces,
      text: prepared.text,
      vector: prepared.memories.vector,
      model: prepared.memories.model,
      denseWeight: prepared.memories.denseWeight,
      ...(prepared.memories.calibration ? { calibration: prepared.memories.calibration } : {}),
      ...(prepared.memories.subjects ? { subjects: prepared.memories.subjects } : {}),
      // A filepath filter is applied after the search: ask for more.
      limit: q.filepath ? Math.max(limit * 5, 50) : limit,
      filter: q.filter,
      includeForgotten: q.include.forgottenMemories ?? false,
      now: this.deps.clock.now().toISOString(),
    });
    return hits
      .filter((h) => h.similarity >= q.threshold && matchesFilepath(h.memory.filepath, q.filepath))
      .slice(0, limit)
      .map((h) => ({ kind: "memory" as const, memory: h.memory, similarity: h.similarity }));
  }

  private async searchChunks(q: SearchV4Query, prepared: PreparedQuery, limit: number): Promise<Extract<SearchResult, { kind: "chunk" }>[]> {
    const hits = await this.deps.documents.execute({
      tenantId: q.tenantId,
      namespaces: q.namespaces,
      query: prepared,
      limit,
      threshold: q.threshold,
      filter: q.filter,
      filepath: q.filepath,
      // A chunk result shows its best chunk; include.chunks lists every matching chunk of the document.
      perDocument: q.include.chunks ? Infinity : 1,
    });
    return hits.map((hit) => ({ kind: "chunk" as const, hit, similarity: hit.similarity, document: documentOfChunk(hit.chunks[0]!.chunk) }));
  }

  private async aggregated(query: string, memories: Extract<SearchResult, { kind: "memory" }>[]): Promise<SearchResult[]> {
    if (memories.length < 2) return [];
    const byId = new Map(memories.map((m) => [m.memory.id, m]));
    const groups = await this.deps.aggregator.aggregate(
      query,
      memories.map((m) => ({ id: m.memory.id, content: m.memory.content })),
    );
    return groups.flatMap((g) => {
      const sources = g.sourceIds.map((id) => byId.get(id)).filter((m): m is NonNullable<typeof m> => !!m);
      if (sources.length < 2) return [];
      const first = sources[0]!.memory;
      const newest = sources.reduce((a, b) => (a.memory.updatedAt > b.memory.updatedAt ? a : b)).memory;
      const id = `agg_${createHash("sha256")
        .update(sources.map((s) => s.memory.id).join(","))
        .digest("hex")
        .slice(0, 20)}`;
      const memory: MemoryRecord = {
        ...first,
        id,
        content: g.content,
        metadata: { aggregatedFrom: sources.map((s) => s.memory.id) },
        version: 1,
        isLatest: true,
        parentMemoryId: undefined,
        rootMemoryId: undefined,
        relation: undefined,
        relations: Object.fromEntries(sources.map((s) => [s.memory.id, "derives" as const])),
        sources: sources.flatMap((s) => s.memory.sources),
        isInference: true,
        createdAt: newest.createdAt,
        updatedAt: newest.updatedAt,
      };
      return [{ kind: "memory" as const, memory, similarity: Math.max(...sources.map((s) => s.similarity)), aggregatedFrom: sources.map((s) => s.memory.id) }];
    });
  }

  private async reranked(query: string, results: SearchResult[]): Promise<SearchResult[]> {
    if (results.length === 0) return results;
    const scores = await this.deps.reranker.rerank(
      query,
      results.map((r, i) => ({ id: String(i), text: r.kind === "memory" ? r.memory.content : r.hit.chunks[0]!.chunk.content })),
    );
    return scores.map((s) => ({ ...results[Number(s.id)]!, similarity: Math.max(0, Math.min(1, s.score)) }));
  }

  /** Version context, related memories and source documents, as asked for. */
  private async decorate(q: SearchV4Query, results: SearchResult[]): Promise<void> {
    const memories = results.filter((r): r is Extract<SearchResult, { kind: "memory" }> => r.kind === "memory" && !r.aggregatedFrom);
    if (q.include.relatedMemories && memories.length) {
      const chainKey = (m: MemoryRecord) => m.rootMemoryId ?? m.id;
      const chains = await this.deps.memories.chains(q.tenantId, [...new Set(memories.map((r) => chainKey(r.memory)))]);
      const relatedIds = [...new Set(memories.flatMap((r) => Object.keys(r.memory.relations)))];
      const related = new Map((await this.deps.memories.getMany(q.tenantId, relatedIds)).map((m) => [m.id, m]));
      for (const r of memories) {
        const chain = chains.filter((m) => chainKey(m) === chainKey(r.memory));
        const v = r.memory.version;
        r.context = {
          parents: chain
            .filter((m) => m.version < v)
            .sort((a, b) => b.version - a.version)
            .map((m) => ({ relation: "updates" as const, relativeVersion: m.version - v, memory: m })),
          children: chain
            .filter((m) => m.version > v)
            .sort((a, b) => a.version - b.version)
            .map((m) => ({ relation: "updates" as const, relativeVersion: m.version - v, memory: m })),
          related: Object.entries(r.memory.relations)
            .filter(([id, kind]) => kind !== "updates" && related.has(id))
            .map(([id, kind]) => ({ relation: kind, memory: related.get(id)! })),
        };
      }
    }
    if (q.include.documents || q.include.summaries) {
      const wanted = new Map<string, string>();
      for (const r of memories) for (const s of r.memory.sources) wanted.set(s.documentId, r.memory.namespace);
      const info = new Map<string, DocumentInfo>();
      await Promise.all(
        [...wanted].map(async ([documentId, namespace]) => {
          const [first] = await this.deps.chunks.listDocumentChunks(q.tenantId, namespace, documentId);
          if (first) info.set(documentId, documentOfChunk(first));
        }),
      );
      for (const r of memories) r.documents = r.memory.sources.flatMap((s) => (info.has(s.documentId) ? [info.get(s.documentId)!] : []));
    }
    if (q.include.summaries) await this.withSummaries(q.tenantId, results);
  }

  /** Sets the summary (kept by ingestion, not copied into the index) on every document the results show, one lookup per document. */
  private async withSummaries(tenantId: string, results: SearchResult[]): Promise<void> {
    const shown = results.flatMap((r) => (r.kind === "chunk" ? [r.document] : (r.documents ?? [])));
    const summaries = new Map<string, Promise<string | undefined>>();
    for (const d of shown)
      if (!summaries.has(d.id))
        summaries.set(
          d.id,
          this.deps.lookup.get(tenantId, d.namespace, d.id).then((full) => full?.summary),
        );
    await Promise.all(
      shown.map(async (d) => {
        const summary = await summaries.get(d.id)!;
        if (summary !== undefined) d.summary = summary;
      }),
    );
  }
}
