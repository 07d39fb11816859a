/**
 * Per-tenant quotas on documents and memories (docs/api-decisions.md section 17). Pure.
 */

/**
 * How long a count may take: the deadline of the request it is part of. A
 * keyed write's count runs under the write's completion deadline (guards.ts),
 * so a slow count does not fail the write its 504 said may be stored.
 */
export interface CountOptions {
  deadlineMs?: number;
  requestId?: string;
}

/** The tenant-wide counts the quotas compare with; the gateway asks the services (see UsageCounts). */
export interface UsageCounts {
  documents(tenantId: string, opts?: CountOptions): Promise<number>;
  memories(tenantId: string, opts?: CountOptions): Promise<number>;
}

export type QuotaKind = "documents" | "memories";

/** Whether `adding` more fit under `limit` (0 = unlimited). */
export function withinQuota(used: number, adding: number, limit: number): boolean {
  return limit <= 0 || used + adding <= limit;
}

/**
 * A tenant's counts reused for `ttlMs`, with this gateway's own admitted
 * writes added meanwhile: a burst of writes between two counts is still
 * held to the quota (by each replica; documented precision).
 */
export class CachedUsage {
  private readonly cache = new Map<string, { used: number; until: number }>();

  constructor(
    private readonly counts: UsageCounts,
    private readonly ttlMs: number,
    private readonly maxTenants = 10_000,
  ) {}

  async used(kind: QuotaKind, tenantId: string, now: number, opts?: CountOptions): Promise<number> {
    const k = `${kind}:${tenantId}`;
    const hit = this.cache.get(k);
    if (hit && hit.until > now) return hit.used;
    const used = await this.counts[kind](tenantId, opts);
    if (this.cache.size >= this.maxTenants) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(k, { used, until: now + this.ttlMs });
    return used;
  }

  /** Counts `n` admitted writes until the next count. */
  admit(kind: QuotaKind, tenantId: string, n: number): void {
    const hit = this.cache.get(`${kind}:${tenantId}`);
    if (hit) hit.used += n;
  }
}
