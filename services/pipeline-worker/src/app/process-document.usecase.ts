import type { ChunkIndex, Embedder, IndexedChunk } from "@engram/index";
import { type Clock, type Dreaming, newId, type TaskType } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { metrics, withSpan } from "@engram/observability";
import { type ChunkerOptions, chunkingFor } from "../domain/chunker";
import { UnprocessableDocumentError } from "../domain/errors";
import type { ChunkPreparer, DocumentSourceReader, Extractor, PipelineEvents } from "./ports";

export interface ProcessCommand {
  tenantId: string;
  namespace: string;
  documentId: string;
  generation: number;
  /** Undefined when the event left it unspecified (the default: memory). */
  taskType: TaskType | undefined;
  dreaming: Dreaming | undefined;
  /** True on the last delivery attempt: a failure now fails the document. */
  lastAttempt: boolean;
  /** Trace context from the DocumentQueued event. */
  traceparent?: string;
  /**
   * Aborted when the process stops (or the worker lost the message): the
   * work stops at its next step (a running extraction at once) and the error
   * is thrown, never reported as the document's failure: the event is
   * delivered again and processed from the start (every step is idempotent:
   * the chunks are replaced as a whole).
   */
  signal?: AbortSignal;
}

/** Task type of the queued event: unspecified means the default, memory. */
export function formsMemories(taskType: TaskType | undefined): boolean {
  return taskType !== "superrag";
}

/** State sequence numbers within one generation (monotonic; see ingestion applyState). */
export const SEQUENCE = { extracting: 1, chunking: 2, embedding: 3, indexing: 4, done: 5, failed: 5 } as const;

const stageSeconds = metrics.histogram(
  "engram_pipeline_stage_duration_seconds",
  "Pipeline stage duration",
  ["stage"],
  [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
);

/**
 * extract -> chunk -> embed -> index, publishing each state. Idempotent: a
 * redelivered event re-runs the stages and replaces the document's chunks.
 * Unprocessable input fails the document at once with its reason; other
 * errors are thrown for the bus to retry, and fail the document on the last
 * attempt, so no document stays in a non-final state.
 */
export class ProcessDocumentUseCase {
  constructor(
    private readonly deps: {
      sources: DocumentSourceReader;
      extractor: Extractor;
      /** Chunking and analysis (and local embedding), off the serving thread. */
      preparer: ChunkPreparer;
      embedder: Embedder;
      index: ChunkIndex;
      events: PipelineEvents;
      clock: Clock;
      chunking: ChunkerOptions;
      /** The tenant's chunk size setting (organisation settings), when it has one. */
      chunkSizeOf?: (tenantId: string) => Promise<number | undefined>;
      embedBatchSize: number;
      logger: Logger;
      /**
       * Intermediate states (chunking, embedding, indexing) are published only
       * when this long has passed since the last published state, so small
       * documents do not pay one event per sub-millisecond stage. extracting,
       * done and failed are always published. 0 = publish every state.
       */
      progressIntervalMs?: number;
    },
  ) {}

  async execute(cmd: ProcessCommand): Promise<void> {
    const { events } = this.deps;
    const ref = { tenantId: cmd.tenantId, namespace: cmd.namespace, documentId: cmd.documentId, generation: cmd.generation, traceparent: cmd.traceparent };
    try {
      await this.run(cmd);
    } catch (err) {
      // Stopped, not failed: the bus delivers the event again.
      if (cmd.signal?.aborted) throw err;
      if (err instanceof UnprocessableDocumentError) {
        await events.stateChanged({ ...ref, status: "failed", sequence: SEQUENCE.failed, reason: err.reason });
        return;
      }
      if (cmd.lastAttempt) {
        this.deps.logger.error({ err, documentId: cmd.documentId }, "document failed on its last attempt");
        await events.stateChanged({
          ...ref,
          status: "failed",
          sequence: SEQUENCE.failed,
          reason: `processing failed after retries: ${(err as Error).message ?? String(err)}`,
        });
        return;
      }
      throw err;
    }
  }

  /** One stage: a histogram sample and a span (a child of the event's consumer span). */
  private time<T>(stage: string, fn: () => Promise<T> | T): Promise<T> {
    return withSpan(`pipeline ${stage}`, { "engram.pipeline.stage": stage }, async () => {
      const start = process.hrtime.bigint();
      try {
        return await fn();
      } finally {
        stageSeconds.labels(stage).observe(Number(process.hrtime.bigint() - start) / 1e9);
      }
    });
  }

  private async run(cmd: ProcessCommand): Promise<void> {
    const { sources, extractor, embedder, index, events, clock } = this.deps;
    const { signal } = cmd;
    /** Between steps: a stopping process goes no further (nothing half-written: the chunks are written in one step). */
    const go = () => signal?.throwIfAborted();
    const ref = { tenantId: cmd.tenantId, namespace: cmd.namespace, documentId: cmd.documentId, generation: cmd.generation, traceparent: cmd.traceparent };
    go();
    const source = await sources.read(cmd.tenantId, cmd.namespace, cmd.documentId, cmd.generation, cmd.traceparent);
    if (!source) return; // deleted meanwhile
    if (!source.current) return; // a newer generation is (or will be) processed

    go();
    await events.stateChanged({ ...ref, status: "extracting", sequence: SEQUENCE.extracting });
    let lastPublished = performance.now();
    const progress = async (change: Parameters<PipelineEvents["stateChanged"]>[0]) => {
      if (performance.now() - lastPublished < (this.deps.progressIntervalMs ?? 0)) return;
      await events.stateChanged(change);
      lastPublished = performance.now();
    };
    const extracted = await this.time("extract", () => extractor.extract(source, signal));
    go();
    if (!extracted.text.trim()) throw new UnprocessableDocumentError("no text could be extracted from the document");
    // Without a title in the content, the file name (without extension) names the document.
    const title = extracted.title ?? source.title ?? source.fileName?.replace(/\.[^.]+$/, "");
    const meta = { title, contentType: extracted.contentType };

    await progress({ ...ref, status: "chunking", sequence: SEQUENCE.chunking, ...meta });
    // Chunk offsets index the document's content, which the API returns, when that content is the text extracted
    // (normalised) here; a file's or URL's content is not its text, and their offsets index the extracted text.
    const content = source.kind === "file" || source.kind === "url" ? undefined : source.text;
    const chunking = chunkingFor(this.deps.chunking, await this.deps.chunkSizeOf?.(cmd.tenantId));
    go();
    const { chunks: pieces, summary } = await this.time("chunk", () => this.deps.preparer.prepare(extracted.text, chunking, content, signal));
    go();

    await progress({ ...ref, status: "embedding", sequence: SEQUENCE.embedding, ...meta });
    // A local embedder's vectors came with the pieces; a remote one (I/O, not CPU) is called here in batches.
    const vectors = await this.time("embed", async () => {
      const missing = pieces.flatMap((p, i) => (p.vector ? [] : [i]));
      const out: (Float32Array | undefined)[] = pieces.map((p) => p.vector);
      for (let i = 0; i < missing.length; i += this.deps.embedBatchSize) {
        go();
        const batch = missing.slice(i, i + this.deps.embedBatchSize);
        const embedded = await embedder.embed(
          batch.map((k) => pieces[k]!.content),
          "document",
          signal,
        );
        batch.forEach((k, j) => (out[k] = embedded[j]));
      }
      return out as Float32Array[];
    });

    // A memory document reports indexing once, with DocumentIndexed, and stays there while its memories form.
    if (!formsMemories(cmd.taskType)) await progress({ ...ref, status: "indexing", sequence: SEQUENCE.indexing, ...meta });
    const now = clock.now().toISOString();
    const chunks: IndexedChunk[] = pieces.map((p, i) => ({
      id: newId("chunk"),
      tenantId: cmd.tenantId,
      namespace: cmd.namespace,
      documentId: cmd.documentId,
      position: p.position,
      content: p.content,
      startOffset: p.startOffset,
      endOffset: p.endOffset,
      tokenCount: p.tokenCount,
      analyzed: p.analyzed,
      vector: vectors[i]!,
      model: embedder.id,
      document: {
        title,
        contentType: extracted.contentType,
        customId: source.customId,
        metadata: source.metadata,
        ...(source.filepath ? { filepath: source.filepath } : {}),
        createdAt: source.createdAt,
        updatedAt: source.updatedAt,
      },
      createdAt: now,
    }));
    go();
    // Written with this generation: the index refuses it when a newer generation is already stored (this worker was
    // evicted by a rebalance and another one processed newer content); then this work is stale and reports nothing.
    const outcome = await this.time("index", () => index.replaceDocumentChunks(cmd.tenantId, cmd.namespace, cmd.documentId, chunks, cmd.generation));
    if (outcome === "stale") {
      this.deps.logger.info({ documentId: cmd.documentId, generation: cmd.generation }, "a newer generation is indexed: stale chunks not written");
      return;
    }

    // taskType=memory: the document is done once the memories service has formed its memories (it publishes done);
    // superrag ends here.
    const final = formsMemories(cmd.taskType)
      ? ({ status: "indexing", sequence: SEQUENCE.indexing } as const)
      : ({ status: "done", sequence: SEQUENCE.done } as const);
    await events.stateChanged(
      { ...ref, ...final, ...meta, ...(summary !== undefined ? { summary } : {}) },
      { ...ref, chunkCount: chunks.length, ...meta, customId: source.customId, taskType: cmd.taskType, dreaming: cmd.dreaming },
    );
  }
}
