/**
 * Per-tenant quotas on documents and memories (docs/api-decisions.md section 17). Pure.
 */

/** The tenant-wide counts the quotas compare with; the gateway asks the services (see UsageCounts). */
export interface UsageCounts {
  documents(tenantId: string): Promise<number>;
  memories(tenantId: string): Promise<number>;
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

  async used(kind: QuotaKind, tenantId: string, now: number): Promise<number> {
    const k = `${kind}:${tenantId}`;
    const hit = this.cache.get(k);
    if (hit && hit.until > now) return hit.used;
    const used = await this.counts[kind](tenantId);
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
