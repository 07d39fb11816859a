import { AlreadyExistsError, type Clock, type DocumentStatus, type Dreaming, InvalidArgumentError, newId, type TaskType } from "@engram/kernel";
import { type AddPlan, type DocumentInput, type DocumentRecord, planAdd, type StoredFile, validateInput, validateNamespace } from "../domain/document";
import { eventsForPlan } from "./document-events";
import type { DocumentRepository } from "./ports";

export interface AddContext {
  tenantId: string;
  namespace: string;
  taskType?: TaskType;
  dreaming?: Dreaming;
  containerTags?: string[];
  requestId?: string;
  traceparent?: string;
}

export interface AddDocumentCommand extends AddContext {
  input: DocumentInput;
  file?: StoredFile;
}

export interface AddDocumentResult {
  id: string;
  status: DocumentStatus;
  namespace: string;
  customId?: string;
}

export function traceHeaders(c: { requestId?: string; traceparent?: string }): Record<string, string> {
  const h: Record<string, string> = {};
  if (c.requestId) h["x-request-id"] = c.requestId;
  if (c.traceparent) h.traceparent = c.traceparent;
  return h;
}

export const resultOf = (d: DocumentRecord): AddDocumentResult => ({ id: d.id, status: d.status, namespace: d.namespace, customId: d.customId });

export function planned(plan: AddPlan): DocumentRecord {
  return plan.write === "none" ? plan.current : plan.next;
}

/**
 * Adds a document or applies a repeated add with the same caller id. The
 * document is stored (and its DocumentQueued event put in the outbox) before
 * the call returns, so a read right after a 2xx add never 404s.
 */
export class AddDocumentUseCase {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
    private readonly onWritten: () => void,
  ) {}

  async execute(cmd: AddDocumentCommand): Promise<AddDocumentResult> {
    validateNamespace(cmd.namespace);
    for (const t of cmd.containerTags ?? []) validateNamespace(t, "containerTags[]");
    if (cmd.file) {
      if (cmd.input.customId !== undefined) validateInput({ ...cmd.input, content: "file" });
    } else validateInput(cmd.input);
    // A lost race on the caller id (two concurrent adds) is retried with the winner's record.
    for (let attempt = 0; ; attempt++) {
      const existing = cmd.input.customId ? await this.repo.findByCustomId(cmd.tenantId, cmd.namespace, cmd.input.customId) : undefined;
      const now = this.clock.now();
      const plan = planAdd(existing, cmd.input, cmd, now.toISOString(), () => newId("document"));
      if (plan.write === "none") return resultOf(plan.current);
      const events = eventsForPlan(plan, now, traceHeaders(cmd));
      const [ok] = await this.repo.writeMany([{ previous: plan.write === "update" ? plan.previous : undefined, next: plan.next, events }]);
      if (ok) {
        if (events.length) this.onWritten();
        return resultOf(plan.next);
      }
      if (attempt >= 3) throw new AlreadyExistsError("the document changed concurrently; retry the request");
    }
  }
}

export interface BatchItemResult {
  index: number;
  /** Service id (accepted items). */
  id?: string;
  customId?: string;
  url?: string;
  status: DocumentStatus | "error";
  error?: string;
}

/** Batch add (1-600): every item is validated alone; valid ones are written in one transaction. */
export class AddDocumentBatchUseCase {
  static readonly MAX_ITEMS = 600;
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
    private readonly onWritten: () => void,
  ) {}

  /** Items may name their own namespace (legacy per-item containerTag); the rest use ctx.namespace. */
  async execute(ctx: AddContext, items: BatchItem[]): Promise<{ count: number; failed: number; results: BatchItemResult[] }> {
    if (items.length < 1 || items.length > AddDocumentBatchUseCase.MAX_ITEMS) {
      throw new InvalidArgumentError(`a batch holds 1 to ${AddDocumentBatchUseCase.MAX_ITEMS} documents`, `got ${items.length}`);
    }
    const failed: BatchItemResult[] = [];
    const groups = new Map<string, { index: number; input: DocumentInput }[]>();
    const seen = new Map<string, number>();
    items.forEach(({ input, namespace }, index) => {
      try {
        const ns = namespace ?? ctx.namespace;
        validateNamespace(ns);
        validateInput(input);
        if (input.customId !== undefined) {
          const key = `${ns}\u0000${input.customId}`;
          if (seen.has(key)) throw new InvalidArgumentError(`duplicate id ${input.customId} in the batch (item ${seen.get(key)})`);
          seen.set(key, index);
        }
        groups.set(ns, [...(groups.get(ns) ?? []), { index, input }]);
      } catch (err) {
        failed.push(failure(index, input, err));
      }
    });
    for (const t of ctx.containerTags ?? []) validateNamespace(t, "containerTags[]");

    const accepted: BatchItemResult[] = [];
    for (const [namespace, group] of groups) {
      const nsCtx = { ...ctx, namespace };
      let pending = group;
      for (let attempt = 0; pending.length && attempt < 3; attempt++) {
        const existing = await this.repo.findByCustomIds(
          ctx.tenantId,
          namespace,
          pending.flatMap((p) => (p.input.customId ? [p.input.customId] : [])),
        );
        const now = this.clock.now();
        const headers = traceHeaders(ctx);
        const plans = pending.map((p) => ({
          p,
          plan: planAdd(p.input.customId ? existing.get(p.input.customId) : undefined, p.input, nsCtx, now.toISOString(), () => newId("document")),
        }));
        const writes = plans.filter((x) => x.plan.write !== "none");
        const outcome = await this.repo.writeMany(
          writes.map(({ plan }) => ({
            previous: plan.write === "update" ? plan.previous : undefined,
            next: planned(plan),
            events: eventsForPlan(plan, now, headers),
          })),
        );
        const lost = new Set(writes.filter((_, i) => !outcome[i]).map((w) => w.p.index));
        for (const { p, plan } of plans) {
          if (lost.has(p.index)) continue;
          const d = planned(plan);
          accepted.push({ index: p.index, id: d.id, customId: d.customId, status: d.status });
        }
        if (writes.some((_, i) => outcome[i])) this.onWritten();
        pending = pending.filter((p) => lost.has(p.index));
      }
      for (const p of pending) failed.push(failure(p.index, p.input, new AlreadyExistsError("the document changed concurrently; retry it")));
    }
    accepted.sort((a, b) => a.index - b.index);
    failed.sort((a, b) => a.index - b.index);
    return { count: accepted.length, failed: failed.length, results: [...accepted, ...failed] };
  }
}

export interface BatchItem {
  input: DocumentInput;
  namespace?: string;
}

function failure(index: number, input: DocumentInput, err: unknown): BatchItemResult {
  const message =
    err instanceof Error ? ((err as { details?: string }).details ? `${err.message}: ${(err as { details?: string }).details}` : err.message) : String(err);
  const url = typeof input.content === "string" && /^https?:\/\//i.test(input.content.trim()) ? input.content.trim() : undefined;
  return { index, customId: input.customId, url: input.customId ? undefined : url, status: "error", error: message };
}
