import { analyze, calibrate, partitionKey, similarityTerms } from "@engram/index";
import { AlreadyExistsError, type Clock, idKindOf, InvalidArgumentError, newId } from "@engram/kernel";
import { assertMemoryId, forgetMemory, forgetTopic, type MemoryRecord, validateNamespace } from "../domain/memory";
import type { KeyedMutex } from "./keyed-mutex";
import type { MemoryRepository } from "./ports";
import { type MemorySelector, selectMemory } from "./update-memory.usecase";
import { retryOnConflict, RETRY } from "./write-conflicts";

export interface Selected {
  memory: MemoryRecord;
  /** Similarity to the query (1 for id-based selection). */
  score: number;
}

export interface ForgetOutcome {
  dryRun: boolean;
  /** Memories forgotten, or that would be on a dry run. */
  selected: Selected[];
  forgetBatchId?: string;
  summary: string;
  /** Per-id problems (id-based selection): not in the namespace, already forgotten, not a memory id. */
  errors: { id: string; error: string }[];
}

export interface ForgetByQueryCommand {
  tenantId: string;
  namespace: string;
  query: string;
  dryRun: boolean;
  /** Minimum own similarity of a memory (default 0.8). */
  threshold?: number;
  /** Most memories forgotten by this call (default 100, at most 500). */
  maxForget?: number;
  reason?: string;
}

export interface ForgetByIdsCommand {
  tenantId: string;
  namespace: string;
  ids: string[];
  dryRun: boolean;
  reason?: string;
}

const plural = (n: number) => `${n} ${n === 1 ? "memory" : "memories"}`;

/**
 * Forgetting: one memory (DELETE /v4/memories), by natural-language match
 * with a dry-run preview (POST /v4/memories/forget-matching, DELETE
 * /ns/{ns}/memories/semantic), or exact ids (DELETE /ns/{ns}/memories).
 * Forgetting is soft: the memory is flagged, keeps its content and version
 * chain, and leaves search unless forgotten memories are asked for.
 */
/**
 * How surely a memory is about the topic to forget: its own similarity (not what it shares from
 * better-ranked results: forgetting is about what each memory holds), and at most the calibrated
 * share of the topic's words it holds, each word counting once. Similarity weighs a rare name
 * above everything else; for forgetting, a memory that shares only the name with "Ilse's coffee"
 * is not about it.
 */
export function forgetScorer(topic: string): (hit: { memory: { content: string }; ownSimilarity: number }) => number {
  const words = similarityTerms(topic).map((t) => t.term);
  return (hit) => {
    if (words.length === 0) return 0;
    const held = new Set(analyze(hit.memory.content));
    return Math.min(hit.ownSimilarity, calibrate(words.filter((w) => held.has(w)).length / words.length));
  };
}

export class ForgetMemoriesUseCase {
  /**
   * A memory must hold about two thirds of the topic (similarity.ts: evidence 0.63 is 0.8; see
   * forgetScorer): forgetting destroys, so a memory that shares only a name with the topic stays.
   */
  static readonly DEFAULT_THRESHOLD = 0.8;
  static readonly DEFAULT_MAX = 100;
  static readonly MAX = 500;

  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      clock: Clock;
      lock: KeyedMutex;
    },
  ) {}

  /** DELETE /v4/memories: NOT_FOUND when there is no such memory; ALREADY_EXISTS (409) when it is already forgotten. */
  async forgetOne(cmd: { tenantId: string; namespace: string; selector: MemorySelector; reason?: string }): Promise<MemoryRecord> {
    validateNamespace(cmd.namespace);
    return this.deps.lock.run(partitionKey(cmd.tenantId, cmd.namespace), () =>
      retryOnConflict("forget memory", async () => {
        const now = this.deps.clock.now().toISOString();
        const m = await selectMemory(this.deps.repo, cmd.tenantId, cmd.namespace, cmd.selector, now);
        if (m.isForgotten) throw new AlreadyExistsError(`memory ${m.id} is already forgotten`);
        const forgotten = forgetMemory(m, now, cmd.reason?.trim() || undefined);
        // A conflict: the memory changed meanwhile (a new version, a source); select it again.
        return (await this.deps.repo.write({ records: [forgotten], expect: [{ id: m.id, updatedAt: m.updatedAt }] })) === "written" ? forgotten : RETRY;
      }),
    );
  }

  async byQuery(cmd: ForgetByQueryCommand): Promise<ForgetOutcome> {
    validateNamespace(cmd.namespace);
    const query = cmd.query.trim();
    if (!query) throw new InvalidArgumentError("query must not be empty");
    if (query.length > 2000) throw new InvalidArgumentError("query is too long", "at most 2000 characters");
    const threshold = cmd.threshold ?? ForgetMemoriesUseCase.DEFAULT_THRESHOLD;
    if (!(threshold >= 0 && threshold <= 1)) throw new InvalidArgumentError("threshold must be between 0 and 1");
    const max = cmd.maxForget ?? ForgetMemoriesUseCase.DEFAULT_MAX;
    if (!Number.isInteger(max) || max < 1 || max > ForgetMemoriesUseCase.MAX)
      throw new InvalidArgumentError(`maxForget must be a whole number from 1 to ${ForgetMemoriesUseCase.MAX}`);
    const topic = forgetTopic(query);
    return this.deps.lock.run(partitionKey(cmd.tenantId, cmd.namespace), () =>
      retryOnConflict("forget matching memories", async () => {
        const now = this.deps.clock.now().toISOString();
        const hits = await this.deps.repo.search({ tenantId: cmd.tenantId, namespaces: [cmd.namespace], text: topic, limit: max, now });
        const score = forgetScorer(topic);
        const selected = hits.map((h) => ({ memory: h.memory, score: score(h) })).filter((s) => s.score >= threshold);
        const what = `matching "${topic}" (similarity ≥ ${threshold})`;
        return this.apply(cmd, selected, [], what, now);
      }),
    );
  }

  async byIds(cmd: ForgetByIdsCommand): Promise<ForgetOutcome> {
    validateNamespace(cmd.namespace);
    if (cmd.ids.length < 1 || cmd.ids.length > ForgetMemoriesUseCase.MAX)
      throw new InvalidArgumentError(`ids must hold 1 to ${ForgetMemoriesUseCase.MAX} memory ids`, `got ${cmd.ids.length}`);
    return this.deps.lock.run(partitionKey(cmd.tenantId, cmd.namespace), () => retryOnConflict("forget memories by id", () => this.selectByIds(cmd)));
  }

  private async selectByIds(cmd: ForgetByIdsCommand): Promise<ForgetOutcome | typeof RETRY> {
    const now = this.deps.clock.now().toISOString();
    const errors: ForgetOutcome["errors"] = [];
    const ids = [...new Set(cmd.ids)];
    const valid: string[] = [];
    for (const id of ids) {
      try {
        assertMemoryId(id);
        valid.push(id);
      } catch (err) {
        errors.push({ id, error: (err as Error).message + (idKindOf(id) === "document" ? "; delete documents with DELETE /ns/{namespace}/document" : "") });
      }
    }
    const found = new Map((await this.deps.repo.getMany(cmd.tenantId, valid, cmd.namespace)).map((m) => [m.id, m]));
    const selected: Selected[] = [];
    for (const id of valid) {
      const m = found.get(id);
      if (!m) errors.push({ id, error: "memory not found in this container" });
      else if (m.isForgotten) errors.push({ id, error: "memory is already forgotten" });
      else selected.push({ memory: m, score: 1 });
    }
    return this.apply(cmd, selected, errors, `by id (${plural(ids.length)} asked for)`, now);
  }

  private async apply(
    cmd: { dryRun: boolean; reason?: string },
    selected: Selected[],
    errors: ForgetOutcome["errors"],
    what: string,
    now: string,
  ): Promise<ForgetOutcome | typeof RETRY> {
    if (cmd.dryRun) {
      return { dryRun: true, selected, errors, summary: `Dry run: would forget ${plural(selected.length)} ${what}; nothing was changed.` };
    }
    if (selected.length === 0) return { dryRun: false, selected, errors, summary: `Forgot nothing: no active memory ${what}.` };
    const batchId = newId("batch");
    const reason = cmd.reason?.trim() || undefined;
    const records = selected.map((s) => forgetMemory(s.memory, now, reason, batchId));
    // A conflict: one of them changed since it was selected; the caller selects again.
    const expect = selected.map((s) => ({ id: s.memory.id, updatedAt: s.memory.updatedAt }));
    if ((await this.deps.repo.write({ records, expect })) !== "written") return RETRY;
    return {
      dryRun: false,
      selected: selected.map((s, i) => ({ memory: records[i]!, score: s.score })),
      errors,
      forgetBatchId: batchId,
      summary: `Forgot ${plural(selected.length)} ${what}.`,
    };
  }
}
