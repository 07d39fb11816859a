import { partitionKey } from "@engram/index";
import { isActiveMemory } from "@engram/memory-model";
import { AlreadyExistsError, type Clock, ConflictError, idKindOf, InvalidArgumentError, type JsonObject, newId, NotFoundError } from "@engram/kernel";
import {
  assertMemoryId,
  contentKey,
  type MemoryRecord,
  type MemoryTemporalContext,
  nextVersion,
  patchChangesNothing,
  validateContent,
  validateInstant,
  validateMetadata,
  validateNamespace,
  validateTemporalContext,
  type VersionPatch,
} from "../domain/memory";
import type { KeyedMutex } from "./keyed-mutex";
import type { MemoryWriter } from "./memory-writer";
import type { MemoryRepository } from "./ports";
import { retryOnConflict, RETRY } from "./write-conflicts";

/** Picks one memory of a namespace by id or by its exact (normalised) content. */
export type MemorySelector = { id: string } | { content: string };

export interface UpdateMemoryCommand {
  tenantId: string;
  namespace: string;
  selector: MemorySelector;
  newContent: string;
  /** Present = the caller sent the field (value undefined = JSON null, clear). Absent = inherit. */
  metadata?: { value: JsonObject | undefined };
  forgetAfter?: { value: string | undefined };
  forgetReason?: { value: string | undefined };
  temporalContext?: { value: MemoryTemporalContext | undefined };
}

/**
 * Resolves a selector to a memory of the namespace. By id: that memory (404
 * when it is not in the namespace, so other scopes never leak). By content:
 * the newest latest version with that content, preferring active ones.
 */
export async function selectMemory(repo: MemoryRepository, tenantId: string, namespace: string, selector: MemorySelector, now: string): Promise<MemoryRecord> {
  if ("id" in selector) {
    // An id of no shape Engram issues names no memory (404, the description's answer); one of another kind is a 400 saying so.
    if (idKindOf(selector.id) === undefined)
      throw new NotFoundError(`memory ${selector.id.slice(0, 120)} not found`, "memory ids look like m_ followed by 20 letters and digits");
    assertMemoryId(selector.id);
    const m = await repo.findById(tenantId, selector.id);
    if (!m || m.namespace !== namespace) throw new NotFoundError(`memory ${selector.id} not found`, `no memory with this id in container ${namespace}`);
    return m;
  }
  const content = selector.content.trim();
  if (!content) throw new InvalidArgumentError("give the memory's id or its content");
  const found = (await repo.findByContentKey(tenantId, namespace, contentKey(content))).filter((m) => m.isLatest);
  const pick = found.find((m) => isActiveMemory(m, now)) ?? found[0];
  if (!pick) throw new NotFoundError("memory not found", `no memory of container ${namespace} has exactly this content`);
  return pick;
}

/**
 * PATCH /v4/memories: a new version of the memory (new id, version + 1,
 * parentMemoryId / rootMemoryId set, relation "updates"); the previous version
 * stays with isLatest = false. Unsent optional fields are inherited. A
 * forgotten memory cannot be updated (409), nor can an older version (409
 * naming the latest); a patch that changes nothing returns the memory as is.
 */
export class UpdateMemoryUseCase {
  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      writer: MemoryWriter;
      clock: Clock;
      lock: KeyedMutex;
    },
  ) {}

  async execute(cmd: UpdateMemoryCommand): Promise<MemoryRecord> {
    validateNamespace(cmd.namespace);
    const content = validateContent(cmd.newContent, "newContent");
    const metadata = cmd.metadata ? { value: validateMetadata(cmd.metadata.value) } : undefined;
    const forgetAfter = cmd.forgetAfter ? { value: validateInstant(cmd.forgetAfter.value, "forgetAfter") } : undefined;
    if (cmd.forgetReason?.value !== undefined && cmd.forgetReason.value.length > 1000)
      throw new InvalidArgumentError("forgetReason is too long", "at most 1000 characters");
    const temporal = cmd.temporalContext ? { value: validateTemporalContext(cmd.temporalContext.value) } : undefined;
    // The lock spares this process's own requests a conflict; the conditional write is the guard across replicas.
    return this.deps.lock.run(partitionKey(cmd.tenantId, cmd.namespace), () =>
      retryOnConflict("update memory", async () => {
        const now = this.deps.clock.now().toISOString();
        const target = await selectMemory(this.deps.repo, cmd.tenantId, cmd.namespace, cmd.selector, now);
        if (target.isForgotten)
          throw new AlreadyExistsError(`memory ${target.id} is forgotten`, "a forgotten memory cannot be updated; write a new memory instead");
        if (!target.isLatest) {
          const chain = await this.deps.repo.chains(cmd.tenantId, [target.rootMemoryId ?? target.id]);
          const latest = chain.find((m) => m.isLatest);
          throw new ConflictError(`memory ${target.id} is not the latest version`, latest ? `update the latest version, ${latest.id}` : undefined);
        }
        if (cmd.forgetReason?.value && !(forgetAfter ? forgetAfter.value : target.forgetAfter))
          throw new InvalidArgumentError("forgetReason needs forgetAfter", "the memory has no scheduled forgetting time; send forgetAfter with the reason");
        const patch: VersionPatch = {
          content,
          ...(metadata ? { metadata } : {}),
          ...(forgetAfter ? { forgetAfter } : {}),
          ...(cmd.forgetReason ? { forgetReason: { value: cmd.forgetReason.value || undefined } } : {}),
          ...(temporal ? { temporalContext: temporal } : {}),
        };
        if (patchChangesNothing(target, patch)) return target;
        const { next, previous } = nextVersion(target, patch, newId("memory"), now);
        // A conflict: the memory changed since it was read (a new version, a source, forgotten); read it again and decide on that.
        const outcome = await this.deps.writer.write([next], [previous], { expect: [{ id: target.id, updatedAt: target.updatedAt }] });
        return outcome === "written" ? next : RETRY;
      }),
    );
  }
}
