import type { FilterExpr } from "@engram/filters";
import type { Clock } from "@engram/kernel";
import { InvalidArgumentError } from "@engram/kernel";
import { type MemoryRecord, validateNamespace } from "../domain/memory";
import type { MemoryRepository } from "./ports";

export interface ListMemoriesQuery {
  tenantId: string;
  namespaces: string[];
  filter?: FilterExpr;
  page: number;
  limit: number;
  sort: "createdAt" | "updatedAt";
  order: "asc" | "desc";
  includeHistory: boolean;
  includeForgotten: boolean;
}

export interface MemoryEntry {
  memory: MemoryRecord;
  /** Earlier versions of the chain, oldest first (empty unless asked for). */
  history: MemoryRecord[];
}

/**
 * Latest memory versions of some namespaces, newest first by default, with
 * their earlier versions when asked (POST /v4/memories/list). Forgotten and
 * expired memories are left out unless asked for.
 */
export class ListMemoriesUseCase {
  static readonly DEFAULT_LIMIT = 10;
  static readonly MAX_LIMIT = 1100;

  constructor(
    private readonly repo: MemoryRepository,
    private readonly clock: Clock,
  ) {}

  async execute(q: ListMemoriesQuery): Promise<{ entries: MemoryEntry[]; total: number }> {
    if (q.namespaces.length === 0) throw new InvalidArgumentError("containerTags must name at least one container tag");
    q.namespaces.forEach((ns) => validateNamespace(ns, "containerTags[]"));
    if (q.limit < 1 || q.limit > ListMemoriesUseCase.MAX_LIMIT) throw new InvalidArgumentError(`limit must be 1 to ${ListMemoriesUseCase.MAX_LIMIT}`);
    if (q.page < 1) throw new InvalidArgumentError("page must be at least 1");
    const { items, total } = await this.repo.list({
      tenantId: q.tenantId,
      namespaces: q.namespaces,
      filter: q.filter,
      includeForgotten: q.includeForgotten,
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.limit,
      limit: q.limit,
      now: this.clock.now().toISOString(),
    });
    if (!q.includeHistory) return { entries: items.map((memory) => ({ memory, history: [] })), total };
    const chainKey = (m: MemoryRecord) => m.rootMemoryId ?? m.id;
    const versioned = items.filter((m) => m.version > 1);
    const chains = versioned.length ? await this.repo.chains(q.tenantId, [...new Set(versioned.map(chainKey))]) : [];
    const byChain = new Map<string, MemoryRecord[]>();
    for (const m of chains) {
      const list = byChain.get(chainKey(m)) ?? [];
      list.push(m);
      byChain.set(chainKey(m), list);
    }
    return {
      entries: items.map((memory) => ({
        memory,
        history: (byChain.get(chainKey(memory)) ?? []).filter((h) => h.version < memory.version).sort((a, b) => a.version - b.version),
      })),
      total,
    };
  }

  /** The memories formed from one document (GET …/document/{id}?include=memories): latest versions, active unless asked. */
  async ofDocument(tenantId: string, namespace: string, documentId: string, includeForgotten: boolean): Promise<MemoryRecord[]> {
    const now = this.clock.now().toISOString();
    const all = await this.repo.findByDocument(tenantId, documentId);
    return all
      .filter((m) => m.namespace === namespace && m.isLatest && (includeForgotten || (!m.isForgotten && !(m.forgetAfter && m.forgetAfter <= now))))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }
}
