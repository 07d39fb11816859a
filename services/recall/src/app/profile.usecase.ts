import type { FilterExpr } from "@engram/filters";
import { type Clock, InvalidArgumentError } from "@engram/kernel";
import type { MemoryRecord } from "@engram/memory-model";
import type { BucketClassifier } from "@engram/nlp";
import type { BucketSource, MemoryReadModel } from "./ports";
import type { SearchResult, SearchUseCase } from "./search.usecase";

export type ProfileSection = "static" | "dynamic" | "buckets";

export interface ProfileQuery {
  tenantId: string;
  namespace: string;
  q?: string;
  threshold?: number;
  filter?: FilterExpr;
  /** Sections to build; empty = all. */
  include: ProfileSection[];
  /** Bucket keys to return; empty = every effective bucket. */
  buckets: string[];
}

export interface Profile {
  static?: string[];
  dynamic?: string[];
  buckets?: Record<string, string[]>;
}

export interface ProfileLimits {
  /** Most static facts returned (most recently updated first). */
  staticMax: number;
  /** Most dynamic (recent) facts returned. */
  dynamicMax: number;
  /** Most memories listed per bucket. */
  perBucketMax: number;
}

/**
 * POST /v4/profile: what is known about a container, from its active
 * memories (latest versions, not forgotten or expired): the static facts
 * (permanent traits), the most recent dynamic facts, and the memories per
 * profile bucket (the bucket keys stored on each memory when it was written,
 * else classified now against the effective buckets). With q, a memory
 * search runs alongside.
 */
export class ProfileUseCase {
  constructor(
    private readonly deps: {
      memories: MemoryReadModel;
      search: SearchUseCase;
      buckets: BucketSource;
      classifier: BucketClassifier;
      clock: Clock;
      limits: ProfileLimits;
    },
  ) {}

  async execute(p: ProfileQuery): Promise<{ profile: Profile; search?: { results: SearchResult[]; timingMs: number } }> {
    if (p.threshold !== undefined && !(p.threshold >= 0 && p.threshold <= 1)) throw new InvalidArgumentError("threshold must be between 0 and 1");
    const sections = new Set<ProfileSection>(p.include.length ? p.include : ["static", "dynamic", "buckets"]);
    const started = performance.now();
    const [profile, search] = await Promise.all([
      this.build(p, sections),
      p.q?.trim()
        ? this.deps.search.execute({
            tenantId: p.tenantId,
            namespaces: [p.namespace],
            q: p.q,
            mode: "memories",
            threshold: p.threshold ?? 0.6,
            limit: 10,
            filter: p.filter,
            include: {},
            rerank: false,
            rewriteQuery: false,
            aggregate: false,
          })
        : undefined,
    ]);
    return { profile, ...(search ? { search: { results: search, timingMs: Math.round(performance.now() - started) } } : {}) };
  }

  /** Bucket keys of memories written without any, classified now; cached per memory and bucket definitions (a memory's text never changes). */
  private readonly classified = new Map<string, string[]>();

  private async classify(memories: MemoryRecord[], defs: { key: string; description: string }[]): Promise<Map<MemoryRecord, string[]>> {
    const defsKey = JSON.stringify(defs);
    const out = new Map<MemoryRecord, string[]>();
    const unclassified: MemoryRecord[] = [];
    for (const m of memories) {
      if (m.bucketKeys.length) continue;
      const hit = this.classified.get(`${defsKey}\u0000${m.id}`);
      if (hit) out.set(m, hit);
      else unclassified.push(m);
    }
    if (unclassified.length) {
      const keys = await this.deps.classifier.classify(
        unclassified.map((m) => m.content),
        defs,
      );
      if (this.classified.size + unclassified.length > 200_000) this.classified.clear();
      unclassified.forEach((m, i) => {
        out.set(m, keys[i] ?? []);
        this.classified.set(`${defsKey}\u0000${m.id}`, keys[i] ?? []);
      });
    }
    return out;
  }

  private async build(p: ProfileQuery, sections: Set<ProfileSection>): Promise<Profile> {
    const now = this.deps.clock.now().toISOString();
    const list = (isStatic: boolean | undefined, limit: number) =>
      this.deps.memories.list({
        tenantId: p.tenantId,
        namespaces: [p.namespace],
        filter: p.filter,
        isStatic,
        sort: "updatedAt",
        order: "desc",
        offset: 0,
        limit,
        now,
        // A profile shows facts, not how many there are: the walk stops at the page.
        countTotal: false,
      });
    const profile: Profile = {};
    if (sections.has("static")) profile.static = (await list(true, this.deps.limits.staticMax)).items.map((m) => m.content);
    if (sections.has("dynamic")) profile.dynamic = (await list(false, this.deps.limits.dynamicMax)).items.map((m) => m.content);
    if (sections.has("buckets")) {
      const defs = (await this.deps.buckets.buckets(p.tenantId, p.namespace)).filter((b) => p.buckets.length === 0 || p.buckets.includes(b.key));
      profile.buckets = Object.fromEntries(defs.map((b) => [b.key, [] as string[]]));
      if (defs.length) {
        const all = (await list(undefined, 100_000)).items;
        const keysOf = await this.classify(all, defs);
        for (const m of all) {
          for (const key of keysOf.get(m) ?? m.bucketKeys) {
            const bucket = profile.buckets[key];
            if (bucket && bucket.length < this.deps.limits.perBucketMax) bucket.push(m.content);
          }
        }
      }
    }
    return profile;
  }
}
