import { partitionKey } from "@engram/index";
import { isActiveMemory } from "@engram/memory-model";
import { type Clock, type Dreaming, matchesFilepath, newId } from "@engram/kernel";
import { type ExtractedFact, ExtractionLimitError, type FactExtractor, type MemoryRelator } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import { metrics } from "@engram/observability";
import { addSources, contentKey, createMemory, type MemoryRecord, nextVersion, userNameOf } from "../domain/memory";
import type { KeyedMutex } from "./keyed-mutex";
import { RETRY, retryOnConflict } from "./write-conflicts";
import type { MemoryWriter } from "./memory-writer";
import type {
  BucketSource,
  DocumentGeneration,
  DocumentRef,
  FormationContextSource,
  FormationEvents,
  MemoryRepository,
  MemoryVector,
  SourceDocument,
  SourceDocumentReader,
  WriteOutcome,
} from "./ports";

/**
 * How a formation ended: its memories formed (or it had already), or it
 * stopped without writing because the document went away meanwhile (deleted
 * or withdrawn, or newer content superseded it; not a failure), or it failed
 * the document.
 */
export type FormOutcome = "formed" | "already-formed" | "document-deleted" | "generation-superseded" | "failed";

/** The formation's outcome when a write of it was refused because the document is gone; undefined when it was written. */
function stopped(outcome: string): FormOutcome | undefined {
  if (outcome === "source-deleted") return "document-deleted";
  if (outcome === "source-superseded") return "generation-superseded";
  return undefined;
}

export interface FormCommand {
  ref: DocumentRef;
  dreaming: Dreaming;
  title?: string;
  contentType?: string;
  /** True on the last delivery attempt: a failure now fails the document. */
  lastAttempt: boolean;
  /**
   * Aborted when the process stops (or the consumer lost the message): the
   * formation stops at its next step (a running fact extraction at once,
   * between facts otherwise) and the error is thrown, never reported as the
   * document's failure. Nothing is half-applied: each fact is one write, and
   * the document counts as formed only once its marker is written after the
   * last fact; the redelivered event re-runs formation, which skips the facts
   * already written.
   */
  signal?: AbortSignal;
}

const CANDIDATES = 5;

const formed = metrics.counter("engram_memories_formed_total", "Memories written by memory formation, by outcome", ["outcome"]);
const formationSeconds = metrics.histogram(
  "engram_memory_formation_duration_seconds",
  "Memory formation per document",
  [],
  [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
);

/**
 * Whether a document forms memories under its container tag's memory path
 * allowlist: always without an allowlist, and for a document without a path
 * (the allowlist is about files: mounts, repositories, drives); otherwise only
 * at one of the listed paths.
 */
export function formsMemoriesAt(filepath: string | undefined, allowlist: string[] | undefined): boolean {
  if (!allowlist || !filepath) return true;
  return allowlist.some((p) => matchesFilepath(filepath, p));
}

/**
 * Memory formation (taskType=memory), on DocumentIndexed: extract atomic
 * facts from the document's chunks and write them as memories with
 * provenance; then report the document done. dreaming=dynamic relates each
 * fact to the namespace's existing memories — a duplicate only adds
 * provenance, a changed value becomes a new version (updates), an added
 * detail or an inference a new memory related by extends / derives — while
 * instant writes the document's facts on their own (deduplicated within the
 * document). Idempotent per document generation; a failure on the last
 * attempt fails the document, so it never stays in a non-final state.
 */
export class FormMemoriesUseCase {
  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      writer: MemoryWriter;
      reader: SourceDocumentReader;
      extractor: FactExtractor;
      relator: MemoryRelator;
      buckets: BucketSource;
      /** The container tag's entity context and memory path allowlist. */
      tags: FormationContextSource;
      events: FormationEvents;
      clock: Clock;
      lock: KeyedMutex;
      logger: Logger;
    },
  ) {}

  async execute(cmd: FormCommand): Promise<FormOutcome> {
    const { ref } = cmd;
    const info = { title: cmd.title, contentType: cmd.contentType };
    const end = formationSeconds.startTimer();
    try {
      if (await this.deps.repo.isFormed(ref.tenantId, ref.documentId, ref.generation)) {
        await this.deps.events.done(ref, info);
        return "already-formed";
      }
      const doc = await this.deps.reader.read(ref.tenantId, ref.namespace, ref.documentId, ref.traceparent);
      if (!doc) return "document-deleted"; // deleted meanwhile: DocumentDeleted follows
      if (doc.generation > ref.generation) return "generation-superseded"; // newer content is queued; its own event forms memories
      const outcome = await this.form(cmd, doc);
      if (outcome === "formed") await this.deps.events.done(ref, info);
      // Deleted (or given newer content) while its facts were extracted: nothing of it was written, and the document is
      // not reported, neither done nor failed (it is gone, or its newer generation reports).
      else
        this.deps.logger.info({ documentId: ref.documentId, generation: ref.generation, outcome }, "memory formation stopped: the document changed meanwhile");
      return outcome;
    } catch (err) {
      // Stopped, not failed: the bus delivers the event again.
      if (cmd.signal?.aborted) throw err;
      if (err instanceof ExtractionLimitError) {
        // Over the extractor's budget: the same input would fail the same way, so no retry.
        this.deps.logger.warn({ documentId: ref.documentId, reason: err.reason }, "memory formation over budget");
        await this.deps.events.failed(ref, err.reason);
        return "failed";
      }
      if (!cmd.lastAttempt) throw err;
      this.deps.logger.error({ err, documentId: ref.documentId }, "memory formation failed on its last attempt");
      await this.deps.events.failed(ref, `memory formation failed after retries: ${(err as Error).message ?? String(err)}`);
      return "failed";
    } finally {
      end();
    }
  }

  private async form(cmd: FormCommand, doc: SourceDocument): Promise<FormOutcome> {
    const { ref, signal } = cmd;
    /** Between steps: a stopping process goes no further (what it wrote is skipped by the redelivered formation). */
    const go = () => signal?.throwIfAborted();
    // Every write of this formation is refused once the document is deleted at this generation or later (its
    // tombstone) or a newer generation formed: the store checks it inside the write, so a delete that lands while the
    // facts are extracted leaves nothing citing the document.
    const source = { tenantId: ref.tenantId, documentId: ref.documentId, generation: ref.generation };
    const [buckets, tag] = await Promise.all([
      this.deps.buckets.buckets(ref.tenantId, doc.namespace),
      this.deps.tags.formationContext(ref.tenantId, doc.namespace),
    ]);
    if (!formsMemoriesAt(doc.filepath, tag.memoryFilesystemPaths)) {
      // Outside the tag's memory paths: chunked and searchable, no memories (as taskType=superrag); marked formed, so a redelivery stops here.
      this.deps.logger.info({ documentId: ref.documentId, filepath: doc.filepath }, "no memories: the document is outside the container tag's memory paths");
      return stopped(await this.deps.repo.write({ records: [], source, formation: source })) ?? "formed";
    }
    // The tag's entity context goes with the document's own (which comes first).
    const given = [doc.supportingContext, tag.entityContext].filter((x): x is string => !!x?.trim()).join("\n");
    go();
    const facts = await this.deps.extractor.extract(
      {
        chunks: doc.chunks,
        supportingContext: given || (await this.knownUser(ref.tenantId, doc.namespace)),
        title: doc.title ?? cmd.title,
        // The caller's date anchors relative dates; without one the extractor looks for the document's own, and the
        // creation time only gives a year to a date written without one (never an anchor: issue #30).
        referenceDate: doc.date,
        now: doc.createdAt,
        buckets,
      },
      signal,
    );
    go();
    // Every fact's vector first, outside the lock (it depends on the text alone).
    const vectors = await this.deps.writer.prepare(
      facts.map((f) => f.content),
      signal,
    );
    go();
    // The lock spares this process's own formations conflicts; the conditional writes are the guard across replicas.
    return this.deps.lock.run(partitionKey(ref.tenantId, doc.namespace), async (): Promise<FormOutcome> => {
      // Facts this document already produced (an earlier generation, or an attempt cut short before its marker) are not written again.
      const seen = new Map<string, MemoryRecord>();
      for (const m of await this.deps.repo.findByDocument(ref.tenantId, ref.documentId)) if (m.isLatest) seen.set(contentKey(m.content), m);
      for (const fact of facts) {
        go();
        // A conflict (another replica wrote the same fact, or changed the memory this one relates to): relate it again.
        const outcome = await retryOnConflict("form a memory", async () => {
          const written = await this.relate(cmd, doc, fact, seen, vectors, source);
          return written === "conflict" ? RETRY : written;
        });
        const stop = stopped(outcome);
        if (stop) return stop;
        formed.labels(outcome).inc();
      }
      // The marker commits alone once every fact is written: a crash before it re-runs formation, which finds the facts already there.
      return stopped(await this.deps.repo.write({ records: [], source, formation: source })) ?? "formed";
    });
  }

  /** "The user is X." when the container's memories name the user (dynamic dreaming relates new facts to the same person). */
  private async knownUser(tenantId: string, namespace: string): Promise<string | undefined> {
    const now = this.deps.clock.now().toISOString();
    const hits = await this.deps.repo.search({ tenantId, namespaces: [namespace], text: "the user's name is", limit: 10, isStatic: true, now });
    const name = userNameOf(hits.map((h) => h.memory));
    return name ? `The user is ${name}.` : undefined;
  }

  /**
   * Writes one fact; returns what happened (for metrics), or why nothing was
   * written: a conflict (decide again), or the document is gone.
   */
  private async relate(
    cmd: FormCommand,
    doc: SourceDocument,
    fact: ExtractedFact,
    seen: Map<string, MemoryRecord>,
    vectors: ReadonlyMap<string, MemoryVector>,
    source: DocumentGeneration,
  ): Promise<string | Exclude<WriteOutcome, "written">> {
    const { ref } = cmd;
    const now = this.deps.clock.now().toISOString();
    const key = contentKey(fact.content);
    if (seen.has(key)) return "duplicate_in_document";
    const cited = { documentId: ref.documentId, chunkPositions: fact.chunkPositions };
    // Dates of this statement: its document's date and the events it names (a new version states them anew).
    const temporalContext =
      doc.date || fact.eventDates.length
        ? { ...(doc.date ? { documentDate: doc.date } : {}), ...(fact.eventDates.length ? { eventDates: fact.eventDates } : {}) }
        : undefined;
    const fresh = (relations: Record<string, "extends" | "derives"> = {}) =>
      createMemory({
        id: newId("memory"),
        tenantId: ref.tenantId,
        namespace: doc.namespace,
        content: fact.content,
        isStatic: fact.isStatic,
        metadata: doc.metadata,
        temporalContext,
        sources: [cited],
        relations,
        isInference: fact.isInference,
        bucketKeys: fact.bucketKeys ?? [],
        filepath: doc.filepath,
        now,
      });

    // instant: the document on its own (deduplicated within itself only), no lookups across the container.
    if (cmd.dreaming === "instant") {
      const m = fresh();
      const outcome = await this.deps.writer.write([m], [], { source }, vectors);
      if (outcome !== "written") return outcome;
      seen.set(key, m);
      return "new";
    }
    // A memory this fact adds must still be the only active one of its content when it is written (another replica
    // may be forming the same fact from another document).
    const unique = { expectNoDuplicate: [{ tenantId: ref.tenantId, namespace: doc.namespace, contentKey: key, now }], source };
    // The same content already remembered: this document becomes one more source of it.
    const same = (await this.deps.repo.findByContentKey(ref.tenantId, doc.namespace, key)).find((m) => isActiveMemory(m, now));
    if (same) {
      const outcome = await this.deps.repo.write({ records: [addSources(same, [cited], now)], expect: [{ id: same.id, updatedAt: same.updatedAt }], source });
      if (outcome !== "written") return outcome;
      seen.set(key, same);
      return "duplicate";
    }
    const hits = await this.deps.repo.search({ tenantId: ref.tenantId, namespaces: [doc.namespace], text: fact.content, limit: CANDIDATES, now });
    const decision = await this.deps.relator.relate(
      fact,
      hits.map((h) => ({ id: h.memory.id, content: h.memory.content, similarity: h.similarity, isStatic: h.memory.isStatic })),
    );
    const target = decision.targetId ? hits.find((h) => h.memory.id === decision.targetId)?.memory : undefined;
    if (decision.kind === "duplicate" && target) {
      const outcome = await this.deps.repo.write({
        records: [addSources(target, [cited], now)],
        expect: [{ id: target.id, updatedAt: target.updatedAt }],
        source,
      });
      if (outcome !== "written") return outcome;
      seen.set(key, target);
      return "duplicate";
    }
    if (decision.kind === "updates" && target) {
      const { next, previous } = nextVersion(
        target,
        {
          content: fact.content,
          isStatic: fact.isStatic,
          addSources: [cited],
          isInference: fact.isInference,
          temporalContext: { value: temporalContext },
          ...(fact.bucketKeys ? { bucketKeys: fact.bucketKeys } : {}),
        },
        newId("memory"),
        now,
      );
      const outcome = await this.deps.writer.write([next], [previous], { expect: [{ id: target.id, updatedAt: target.updatedAt }], ...unique }, vectors);
      if (outcome !== "written") return outcome;
      seen.set(key, next);
      return "updates";
    }
    const m = (decision.kind === "extends" || decision.kind === "derives") && target ? fresh({ [target.id]: decision.kind }) : fresh();
    const outcome = await this.deps.writer.write([m], [], unique, vectors);
    if (outcome !== "written") return outcome;
    seen.set(key, m);
    return target ? decision.kind : "new";
  }
}
