import { partitionKey } from "@engram/index";
import { type Clock, type Dreaming, matchesFilepath, newId } from "@engram/kernel";
import { ExtractionLimitError, type FactExtractor, type MemoryRelator } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import { metrics } from "@engram/observability";
import { userNameOf } from "../domain/memory";
import { DecisionCache, type FormationScope, mergeChanges, planDocument, readNamespace } from "./formation-batch";
import type { KeyedMutex } from "./keyed-mutex";
import { RETRY, retryOnConflict } from "./write-conflicts";
import type { MemoryWriter } from "./memory-writer";
import type { BucketSource, DocumentRef, FormationContextSource, FormationEvents, MemoryRepository, SourceDocument, SourceDocumentReader } from "./ports";

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
   * between relation decisions otherwise) and the error is thrown, never
   * reported as the document's failure. Nothing is half-applied: all of a
   * document's memories and its formation marker are one write (one
   * transaction), so a stop or a crash leaves either nothing of it or all of
   * it; the redelivered event forms the document once.
   */
  signal?: AbortSignal;
}

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
 * document). Batched (formation-batch.ts): the namespace is read for all of
 * the document's facts in one pass and every fact decided in order outside
 * the namespace lock, then the document is one write under the lock,
 * conditional on the namespace's version; a write refused because the
 * namespace changed folds in what changed and decides again. Idempotent per
 * document generation; a failure on the last attempt fails the document, so
 * it never stays in a non-final state.
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
    // Every fact's vector first, outside the lock, in one call (it depends on the text alone).
    const vectors = await this.deps.writer.prepare(
      facts.map((f) => f.content),
      signal,
    );
    go();
    // Reads and decisions outside the lock: the namespace as it is now, and every fact decided over it in order.
    const scope: FormationScope = {
      tenantId: ref.tenantId,
      namespace: doc.namespace,
      documentId: ref.documentId,
      dreaming: cmd.dreaming,
      now: this.deps.clock.now().toISOString(),
    };
    const decisions = new DecisionCache(this.deps.relator);
    const ids = facts.map(() => newId("memory"));
    const plan = () => planDocument({ repo: this.deps.repo, scope, doc, facts, reading, decisions, idFor: (i) => ids[i]!, signal });
    let reading = await readNamespace(this.deps.repo, scope, facts);
    let decided = await plan();
    go();
    // The lock is held for the write alone: it spares this process's own formations a conflict on the re-decision.
    // The write is conditional on the namespace's version (and on each memory it changes), the guard across replicas.
    return this.deps.lock.run(partitionKey(ref.tenantId, doc.namespace), () =>
      retryOnConflict("form memories", async (): Promise<FormOutcome | typeof RETRY> => {
        go();
        const outcome = await this.deps.writer.write(
          decided.fresh,
          decided.changed,
          {
            expect: decided.expect,
            expectNoDuplicate: decided.expectNoDuplicate,
            // One transaction: the document's memories and its formation marker commit together, or nothing does.
            source,
            formation: source,
            // A plan that writes no memory (every fact formed before) rests on nothing the namespace holds.
            ...(cmd.dreaming === "dynamic" && decided.fresh.length + decided.changed.length > 0
              ? { expectNamespace: { tenantId: ref.tenantId, namespace: doc.namespace, version: reading.version } }
              : {}),
          },
          vectors,
        );
        if (outcome === "conflict") {
          // The namespace changed since the reading: what changed is folded in and the document decided again (the
          // relator asked again only for facts whose candidates changed); a store that cannot tell is read afresh.
          const changes = await this.deps.repo.changesSince(ref.tenantId, doc.namespace, reading.version);
          if (changes && changes.version !== reading.version) mergeChanges(reading, changes, ref.documentId);
          else reading = await readNamespace(this.deps.repo, scope, facts);
          go();
          decided = await plan();
          return RETRY;
        }
        const stop = stopped(outcome);
        if (stop) return stop;
        for (const o of decided.outcomes) formed.labels(o).inc();
        return "formed";
      }),
    );
  }

  /** "The user is X." when the container's memories name the user (dynamic dreaming relates new facts to the same person). */
  private async knownUser(tenantId: string, namespace: string): Promise<string | undefined> {
    const now = this.deps.clock.now().toISOString();
    const hits = await this.deps.repo.search({ tenantId, namespaces: [namespace], text: "the user's name is", limit: 10, isStatic: true, now });
    const name = userNameOf(hits.map((h) => h.memory));
    return name ? `The user is ${name}.` : undefined;
  }
}
