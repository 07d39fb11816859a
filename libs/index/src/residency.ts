/**
 * A memory budget for the partitions the embedded stores keep in memory (issue #35): the chunk
 * index's search partitions and the memory store's (records and their search structures) register
 * every use here; when their bytes pass the budget, the least recently used partitions are dropped
 * from memory, and the next use reads them back from the durable store (SQLite), as after a restart.
 * One budget serves every store of a process (the all-in-one shares it between chunks and memories).
 *
 * The budget is soft in two ways, both stated in docs/configuration.md: a partition in use by the
 * current operation is never dropped (one container larger than the budget is still searched, whole),
 * and sizes are the stores' own estimates (`measure`), re-measured at most once per `remeasureMs`
 * while a partition is used, since measuring walks its structures.
 *
 * Written here: an LRU over a Map's insertion order is a few lines, and the cache libraries (lru-cache)
 * own their values, where here the stores own theirs and only report sizes and take evictions.
 */

/** A partition held in memory by a store. */
export interface ResidentPartition {
  /** Bytes it holds now (an estimate; may walk its structures). */
  measure(): number;
  /** Drops it from memory; the next use reads it back from the durable store. */
  evict(): void;
}

interface Entry {
  resident: ResidentPartition;
  bytes: number;
  measuredAt: number;
}

export class PartitionBudget {
  /** Least recently used first (a Map keeps insertion order; a use moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private evictions = 0;

  /**
   * @param limitBytes the budget; 0 or Infinity keep everything (sizes are still reported)
   * @param remeasureMs how stale a used partition's size may be
   */
  constructor(
    readonly limitBytes: number,
    private readonly remeasureMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(limitBytes >= 0)) throw new Error(`a memory budget must be 0 (none) or a positive number of bytes, got ${limitBytes}`);
  }

  private get limited(): boolean {
    return this.limitBytes > 0 && Number.isFinite(this.limitBytes);
  }

  /** Records a use of a partition: it becomes the most recently used, and is measured when new or stale. */
  use(id: string, resident: ResidentPartition): void {
    const t = this.now();
    const known = this.entries.get(id);
    if (known) {
      this.entries.delete(id);
      known.resident = resident;
      if (t - known.measuredAt >= this.remeasureMs) {
        const bytes = resident.measure();
        this.total += bytes - known.bytes;
        known.bytes = bytes;
        known.measuredAt = t;
      }
      this.entries.set(id, known);
      return;
    }
    const bytes = resident.measure();
    this.total += bytes;
    this.entries.set(id, { resident, bytes, measuredAt: t });
  }

  /** The store dropped a partition itself (its rows changed scope, a tenant was deleted): no longer counted. */
  forget(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.total -= e.bytes;
    this.entries.delete(id);
  }

  /**
   * Drops least recently used partitions, except those of the current operation (`keep`), until the
   * total is within the budget. Returns the ids dropped.
   */
  enforce(keep: Iterable<string> = []): string[] {
    if (!this.limited || this.total <= this.limitBytes) return [];
    const kept = new Set(keep);
    const dropped: string[] = [];
    for (const [id, e] of this.entries) {
      if (this.total <= this.limitBytes) break;
      if (kept.has(id)) continue;
      this.entries.delete(id);
      this.total -= e.bytes;
      this.evictions++;
      dropped.push(id);
      e.resident.evict();
    }
    return dropped;
  }

  /** True while more partitions fit (a warm-up at start stops when it is false). */
  hasRoom(): boolean {
    return !this.limited || this.total < this.limitBytes;
  }

  /** Figures for /metrics and benches. */
  stats(): { limitBytes: number; usedBytes: number; partitions: number; evictions: number } {
    return { limitBytes: this.limited ? this.limitBytes : 0, usedBytes: this.total, partitions: this.entries.size, evictions: this.evictions };
  }
}

/** The budget of a configured size in MB (0 = none). */
export function partitionBudget(megabytes: number): PartitionBudget {
  return new PartitionBudget(Math.max(0, megabytes) * 1024 * 1024);
}
