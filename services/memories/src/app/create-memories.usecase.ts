import { partitionKey } from "@engram/index";
import { isActiveMemory } from "@engram/memory-model";
import { type Clock, InvalidArgumentError, type JsonObject, newId } from "@engram/kernel";
import type { BucketClassifier } from "@engram/nlp";
import {
  contentKey,
  createMemory,
  type MemoryRecord,
  type MemoryTemporalContext,
  nextVersion,
  validateContent,
  validateExpiry,
  validateMetadata,
  validateNamespace,
  validateTemporalContext,
} from "../domain/memory";
import type { KeyedMutex } from "./keyed-mutex";
import type { MemoryWriter } from "./memory-writer";
import type { BucketSource, MemoryRepository, MemoryWrite } from "./ports";
import { retryOnConflict, RETRY } from "./write-conflicts";

export interface MemoryInput {
  content: string;
  isStatic?: boolean;
  metadata?: JsonObject;
  forgetAfter?: string;
  forgetReason?: string;
  temporalContext?: MemoryTemporalContext;
}

export interface CreateMemoriesCommand {
  tenantId: string;
  namespace: string;
  memories: MemoryInput[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * POST /v4/memories: writes 1-100 memories directly (no source document).
 * Searchable when this returns. Never stores a duplicate: a memory whose
 * content equals an active memory of the namespace returns that memory, or a
 * new version of it when the other fields (isStatic, metadata, expiry,
 * temporal context) differ.
 */
export class CreateMemoriesUseCase {
  static readonly MAX = 100;

  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      writer: MemoryWriter;
      classifier: BucketClassifier;
      buckets: BucketSource;
      clock: Clock;
      lock: KeyedMutex;
    },
  ) {}

  async execute(cmd: CreateMemoriesCommand): Promise<MemoryRecord[]> {
    validateNamespace(cmd.namespace);
    const n = cmd.memories.length;
    if (n < 1 || n > CreateMemoriesUseCase.MAX) throw new InvalidArgumentError(`memories must hold 1 to ${CreateMemoriesUseCase.MAX} items`, `got ${n}`);
    const inputs = cmd.memories.map((m, i) => ({
      content: validateContent(m.content, `memories[${i}].content`),
      isStatic: m.isStatic ?? false,
      metadata: validateMetadata(m.metadata, `memories[${i}].metadata`),
      ...validateExpiry(m.forgetAfter, m.forgetReason),
      temporalContext: validateTemporalContext(m.temporalContext),
    }));
    const defs = await this.deps.buckets.buckets(cmd.tenantId, cmd.namespace);
    const keys = defs.length
      ? await this.deps.classifier.classify(
          inputs.map((i) => i.content),
          defs,
        )
      : [];

    // The lock spares this process's own requests a conflict; the conditional write is the guard across replicas.
    return this.deps.lock.run(partitionKey(cmd.tenantId, cmd.namespace), () =>
      retryOnConflict("create memories", async () => {
        const now = this.deps.clock.now().toISOString();
        const out: MemoryRecord[] = [];
        const fresh: MemoryRecord[] = [];
        const changed: MemoryRecord[] = [];
        const expect: NonNullable<MemoryWrite["expect"]> = [];
        // What this call writes: no other replica may have written the same memory meanwhile.
        const expectNoDuplicate: NonNullable<MemoryWrite["expectNoDuplicate"]> = [];
        const inThisCall = new Map<string, MemoryRecord>();
        for (const [i, input] of inputs.entries()) {
          const key = contentKey(input.content);
          const repeated = inThisCall.get(key);
          if (repeated) {
            out.push(repeated);
            continue;
          }
          const existing = (await this.deps.repo.findByContentKey(cmd.tenantId, cmd.namespace, key)).find((m) => isActiveMemory(m, now));
          let written: MemoryRecord;
          if (!existing) {
            written = createMemory({ id: newId("memory"), tenantId: cmd.tenantId, namespace: cmd.namespace, ...input, bucketKeys: keys[i] ?? [], now });
            fresh.push(written);
            expectNoDuplicate.push({ tenantId: cmd.tenantId, namespace: cmd.namespace, contentKey: key, now });
          } else if (
            existing.isStatic === input.isStatic &&
            same(existing.metadata, input.metadata) &&
            same(existing.forgetAfter, input.forgetAfter) &&
            same(existing.forgetReason, input.forgetReason) &&
            same(existing.temporalContext, input.temporalContext)
          ) {
            written = existing;
          } else {
            const { next, previous } = nextVersion(
              existing,
              {
                content: input.content,
                isStatic: input.isStatic,
                metadata: { value: input.metadata },
                forgetAfter: { value: input.forgetAfter },
                forgetReason: { value: input.forgetReason },
                temporalContext: { value: input.temporalContext },
                bucketKeys: keys[i] ?? existing.bucketKeys,
              },
              newId("memory"),
              now,
            );
            fresh.push(next);
            changed.push(previous);
            expect.push({ id: existing.id, updatedAt: existing.updatedAt });
            expectNoDuplicate.push({ tenantId: cmd.tenantId, namespace: cmd.namespace, contentKey: key, now });
            written = next;
          }
          inThisCall.set(key, written);
          out.push(written);
        }
        if (fresh.length === 0 && changed.length === 0) return out;
        // A conflict: another replica wrote one of these memories, or changed one this call versions; decide again on what it wrote.
        return (await this.deps.writer.write(fresh, changed, { expect, expectNoDuplicate })) === "written" ? out : RETRY;
      }),
    );
  }
}
