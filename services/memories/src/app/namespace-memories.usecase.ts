import { partitionKey } from "@engram/index";
import { type Clock, newId } from "@engram/kernel";
import { forgetMemory, validateNamespace } from "../domain/memory";
import type { KeyedMutex } from "./keyed-mutex";
import type { MemoryRepository } from "./ports";
import { retryOnConflict, RETRY } from "./write-conflicts";

export interface NamespaceMemoryCount {
  namespace: string;
  /** Latest, not forgotten memories. */
  memoryCount: number;
  /** The latest change of one of them. */
  lastActivityAt?: string;
}

/** Memories forgotten per write. */
const PAGE = 500;

/**
 * The memories' side of container tags: how many active memories each tag
 * holds (GET /v3/container-tags/list and /{tag}), and forgetting all of a
 * tag's memories when the tag is deleted (soft, like every forget: the rows
 * keep their content and versions, flagged with one batch id).
 */
export class NamespaceMemoriesUseCase {
  constructor(
    private readonly deps: {
      repo: MemoryRepository;
      clock: Clock;
      lock: KeyedMutex;
    },
  ) {}

  /** Tags holding active memories (all of the tenant's, or those named), by name; tags without any are left out. */
  async counts(tenantId: string, namespaces: string[] = []): Promise<NamespaceMemoryCount[]> {
    for (const ns of namespaces) validateNamespace(ns);
    const names = namespaces.length ? [...new Set(namespaces)] : await this.deps.repo.namespaces(tenantId);
    const now = this.deps.clock.now().toISOString();
    const out: NamespaceMemoryCount[] = [];
    for (const namespace of [...names].sort()) {
      const page = await this.deps.repo.list({ tenantId, namespaces: [namespace], sort: "updatedAt", order: "desc", offset: 0, limit: 1, now });
      if (page.total === 0) continue;
      out.push({ namespace, memoryCount: page.total, ...(page.items[0] ? { lastActivityAt: page.items[0].updatedAt } : {}) });
    }
    return out;
  }

  /** Forgets every active memory of the tag; returns how many. */
  async forgetAll(tenantId: string, namespace: string, reason?: string): Promise<number> {
    validateNamespace(namespace);
    return this.deps.lock.run(partitionKey(tenantId, namespace), async () => {
      const batchId = newId("batch");
      const why = reason?.trim() || undefined;
      let forgotten = 0;
      for (;;) {
        // Page by page; a page that changed meanwhile (another replica wrote one of its memories) is listed again.
        const page = await retryOnConflict("forget a container tag's memories", async () => {
          const now = this.deps.clock.now().toISOString();
          const { items } = await this.deps.repo.list({ tenantId, namespaces: [namespace], sort: "createdAt", order: "asc", offset: 0, limit: PAGE, now });
          if (items.length === 0) return 0;
          const records = items.map((m) => forgetMemory(m, now, why, batchId));
          const expect = items.map((m) => ({ id: m.id, updatedAt: m.updatedAt }));
          return (await this.deps.repo.write({ records, expect })) === "written" ? items.length : RETRY;
        });
        if (page === 0) return forgotten;
        forgotten += page;
      }
    });
  }

  /** Moves every memory of the source tags into the target (a container-tag merge); returns how many rows moved. */
  async move(tenantId: string, sources: string[], target: string): Promise<number> {
    for (const ns of [...sources, target]) validateNamespace(ns);
    // Every partition involved is locked, in one order, so no formation writes into a source while it moves.
    const keys = [...new Set([...sources, target])].sort().map((ns) => partitionKey(tenantId, ns));
    const run = (i: number): Promise<number> =>
      i === keys.length ? this.deps.repo.moveNamespaces(tenantId, sources, target) : this.deps.lock.run(keys[i]!, () => run(i + 1));
    return run(0);
  }
}
