import type { MemoryRecord } from "@engram/memory-model";
import type { NamespaceChanges } from "../../app/ports";

interface Scope {
  /** The namespace's change counter: one step per committed write that stored a memory of it. */
  version: number;
  /** Changes after this version are all in `entries`; at or before it the journal no longer knows. */
  floor: number;
  /** The memories each recent version wrote, oldest first. */
  entries: { version: number; m: MemoryRecord }[];
}

/**
 * The embedded memory store's namespace change counters and their recent
 * changes (MemoryRepository.namespaceVersion / changesSince / MemoryWrite.
 * expectNamespace). In memory: the embedded store has one process (memories.db
 * has one writer), and no decision outlives it, so a restart may start every
 * counter at 0 again. Bounded: past `capacity` memories per namespace the
 * oldest versions are dropped, and a caller that read before them reads afresh.
 */
export class NamespaceJournal {
  private readonly scopes = new Map<string, Scope>();

  constructor(private readonly capacity = 4096) {}

  private scope(key: string): Scope {
    let s = this.scopes.get(key);
    if (!s) this.scopes.set(key, (s = { version: 0, floor: 0, entries: [] }));
    return s;
  }

  version(key: string): number {
    return this.scopes.get(key)?.version ?? 0;
  }

  /** One committed write's memories of the namespace: the next version. */
  record(key: string, memories: readonly MemoryRecord[]): void {
    const s = this.scope(key);
    s.version++;
    for (const m of memories) s.entries.push({ version: s.version, m });
    if (s.entries.length > this.capacity) {
      // Whole versions go: the floor is the newest version dropped.
      const cut = s.entries[s.entries.length - this.capacity]!.version;
      s.floor = cut;
      s.entries = s.entries.filter((e) => e.version > cut);
    }
  }

  /** The namespace changed in a way the journal does not list (a reset, a merge of namespaces): callers read afresh. */
  invalidate(key: string): void {
    const s = this.scope(key);
    s.version++;
    s.floor = s.version;
    s.entries = [];
  }

  since(key: string, version: number): NamespaceChanges | undefined {
    const s = this.scopes.get(key);
    if (!s) return version === 0 ? { version: 0, changed: [] } : undefined;
    if (version < s.floor || version > s.version) return undefined;
    // The last state of each memory written since.
    const last = new Map<string, MemoryRecord>();
    for (const e of s.entries) if (e.version > version) last.set(e.m.id, e.m);
    return { version: s.version, changed: [...last.values()] };
  }

  /** Keys of a tenant's namespaces the journal holds. */
  keysOf(prefix: string): string[] {
    return [...this.scopes.keys()].filter((k) => k.startsWith(prefix));
  }
}
