import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { evalQdrantFilter } from "./qdrant-filter-model";

/**
 * An in-process stand-in for the parts of `QdrantClient` Engram's Qdrant
 * adapters call, over one map of points per collection: filters follow the
 * reference model (`evalQdrantFilter`), conditional upserts (`update_filter`)
 * follow Qdrant's documented rule (an existing point is replaced only when it
 * matches the filter; a new point is always inserted), and searches score
 * exhaustively (sparse: dot product with Qdrant's idf modifier; dense: cosine),
 * enough to test what the adapters do with the answers, not Qdrant's HNSW.
 *
 * `onCall` runs before every request (with its method name), so a test can
 * interleave another client's work between the steps of a write; `fail` makes
 * every request throw the given error (an engine outage), `failing` only the
 * requests of one method.
 */
export interface FakePoint {
  id: string;
  vector: Record<string, unknown>;
  payload: Record<string, unknown>;
}

type Query = { query: unknown; using?: string; filter?: Schemas["Filter"]; limit?: number };

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function pick(payload: Record<string, unknown>, fields: unknown): Record<string, unknown> | null {
  if (fields === false || fields === undefined) return null;
  if (fields === true) return clone(payload);
  if (Array.isArray(fields)) return Object.fromEntries(fields.filter((f) => f in payload).map((f) => [f, clone(payload[f as string])]));
  return clone(payload);
}

/** Qdrant's idf modifier of a sparse vector: ln(1 + (N − df + 0.5) / (df + 0.5)) over the collection's points holding that vector. */
function idfOf(points: FakePoint[], using: string): (index: number) => number {
  const df = new Map<number, number>();
  let n = 0;
  for (const p of points) {
    const v = p.vector[using] as { indices: number[] } | undefined;
    if (!v || Array.isArray(v)) continue;
    n++;
    for (const i of new Set(v.indices)) df.set(i, (df.get(i) ?? 0) + 1);
  }
  return (i) => Math.log(1 + (n - (df.get(i) ?? 0) + 0.5) / ((df.get(i) ?? 0) + 0.5));
}

function scoreOf(p: FakePoint, q: Query, idf: (index: number) => number): number | undefined {
  const v = p.vector[q.using ?? ""];
  if (v === undefined) return undefined;
  if (Array.isArray(q.query)) {
    const a = q.query as number[];
    const b = v as number[];
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * (b[i] ?? 0);
      na += a[i]! * a[i]!;
      nb += (b[i] ?? 0) * (b[i] ?? 0);
    }
    return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
  }
  const sq = q.query as { indices: number[]; values: number[] };
  const sv = v as { indices: number[]; values: number[] };
  const weights = new Map(sv.indices.map((i, k) => [i, sv.values[k]!]));
  let s = 0;
  sq.indices.forEach((i, k) => (s += (weights.get(i) ?? 0) * sq.values[k]! * idf(i)));
  return s > 0 ? s : undefined;
}

export class FakeQdrant {
  readonly collections = new Map<string, Map<string, FakePoint>>();
  /** Collections created through the API, with their configuration and payload indexes. */
  readonly configs = new Map<string, { params: Record<string, unknown>; payloadSchema: Record<string, unknown> }>();
  version = "1.16.3";
  onCall: ((method: string, args: unknown[]) => Promise<void> | void) | undefined;
  fail: Error | undefined;
  /** Makes only the named request throw (one step of a sequence failing). */
  readonly failing = new Map<string, Error>();
  readonly calls: string[] = [];

  points(collection: string): FakePoint[] {
    return [...(this.collections.get(collection)?.values() ?? [])];
  }

  private coll(name: string): Map<string, FakePoint> {
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new Map()));
    return c;
  }

  private matching(name: string, filter: Schemas["Filter"] | null | undefined): FakePoint[] {
    return [...this.coll(name).values()].filter((p) => !filter || evalQdrantFilter(filter, p.payload));
  }

  private async enter(method: string, args: unknown[]): Promise<void> {
    this.calls.push(method);
    if (this.fail) throw this.fail;
    const one = this.failing.get(method);
    if (one) throw one;
    await this.onCall?.(method, args);
  }

  private upsertPoints(name: string, points: Schemas["PointStruct"][], updateFilter?: Schemas["Filter"] | null): void {
    const c = this.coll(name);
    for (const p of points) {
      const id = String(p.id);
      const existing = c.get(id);
      if (existing && updateFilter && !evalQdrantFilter(updateFilter, existing.payload)) continue;
      c.set(id, { id, vector: clone((p.vector ?? {}) as Record<string, unknown>), payload: clone((p.payload ?? {}) as Record<string, unknown>) });
    }
  }

  private deleteBy(name: string, sel: { filter?: Schemas["Filter"]; points?: Schemas["ExtendedPointId"][] }): void {
    const c = this.coll(name);
    if (sel.points) for (const id of sel.points) c.delete(String(id));
    if (sel.filter) for (const p of this.matching(name, sel.filter)) c.delete(p.id);
  }

  private setPayloadBy(
    name: string,
    op: { payload: Record<string, unknown>; key?: string | null; filter?: Schemas["Filter"] | null; points?: Schemas["ExtendedPointId"][] | null },
  ): void {
    const targets = op.points ? op.points.flatMap((id) => this.coll(name).get(String(id)) ?? []) : this.matching(name, op.filter);
    for (const p of targets) {
      if (op.key) p.payload[op.key] = { ...((p.payload[op.key] as Record<string, unknown>) ?? {}), ...clone(op.payload) };
      else Object.assign(p.payload, clone(op.payload));
    }
  }

  private runQuery(name: string, q: Query): { id: string; score: number }[] {
    const limit = q.limit ?? 10;
    const idf = idfOf([...this.coll(name).values()], q.using ?? "");
    return this.matching(name, q.filter)
      .flatMap((p) => {
        const score = scoreOf(p, q, idf);
        return score === undefined ? [] : [{ id: p.id, score }];
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }

  /** The fake, typed as the client the adapters take. */
  client(): QdrantClient {
    const api = {
      collectionExists: async (name: string) => {
        await this.enter("collectionExists", [name]);
        return { exists: this.configs.has(name) };
      },
      createCollection: async (name: string, a: Record<string, unknown>) => {
        await this.enter("createCollection", [name, a]);
        if (this.configs.has(name)) throw Object.assign(new Error("Conflict"), { status: 409 });
        this.configs.set(name, { params: clone(a), payloadSchema: {} });
        this.coll(name);
        return true;
      },
      getCollection: async (name: string) => {
        await this.enter("getCollection", [name]);
        const c = this.configs.get(name);
        if (!c) throw Object.assign(new Error("Not Found"), { status: 404 });
        return { config: { params: c.params }, payload_schema: c.payloadSchema, points_count: this.coll(name).size };
      },
      createPayloadIndex: async (name: string, a: { field_name: string; field_schema: Schemas["PayloadFieldSchema"] }) => {
        await this.enter("createPayloadIndex", [name, a]);
        const schema = a.field_schema;
        this.configs.get(name)!.payloadSchema[a.field_name] = {
          data_type: typeof schema === "string" ? schema : schema.type,
          ...(typeof schema === "string" ? {} : { params: clone(schema) }),
        };
        return { status: "completed", operation_id: 0 };
      },
      versionInfo: async () => {
        await this.enter("versionInfo", []);
        return { title: "qdrant - vector search engine", version: this.version };
      },
      retrieve: async (name: string, a: { ids: Schemas["ExtendedPointId"][]; with_payload?: unknown; with_vector?: unknown }) => {
        await this.enter("retrieve", [name, a]);
        const c = this.coll(name);
        return a.ids.flatMap((id) => {
          const p = c.get(String(id));
          return p ? [{ id: p.id, payload: pick(p.payload, a.with_payload ?? true), vector: a.with_vector ? clone(p.vector) : null }] : [];
        });
      },
      upsert: async (name: string, a: { points: Schemas["PointStruct"][]; update_filter?: Schemas["Filter"] | null }) => {
        await this.enter("upsert", [name, a]);
        this.upsertPoints(name, a.points, a.update_filter);
        return { status: "completed", operation_id: 0 };
      },
      delete: async (name: string, a: { filter?: Schemas["Filter"]; points?: Schemas["ExtendedPointId"][] }) => {
        await this.enter("delete", [name, a]);
        this.deleteBy(name, a);
        return { status: "completed", operation_id: 0 };
      },
      setPayload: async (
        name: string,
        a: { payload: Record<string, unknown>; filter?: Schemas["Filter"]; points?: Schemas["ExtendedPointId"][]; key?: string },
      ) => {
        await this.enter("setPayload", [name, a]);
        this.setPayloadBy(name, a);
        return { status: "completed", operation_id: 0 };
      },
      batchUpdate: async (name: string, a: { operations: Schemas["UpdateOperation"][] }) => {
        await this.enter("batchUpdate", [name, a]);
        for (const op of a.operations) {
          if ("upsert" in op) this.upsertPoints(name, (op.upsert as { points: Schemas["PointStruct"][] }).points);
          else if ("delete" in op) this.deleteBy(name, op.delete as { filter?: Schemas["Filter"] });
          else if ("set_payload" in op) this.setPayloadBy(name, op.set_payload as Parameters<FakeQdrant["setPayloadBy"]>[1]);
          else throw new Error(`operation not modelled: ${JSON.stringify(op)}`);
        }
        return [];
      },
      count: async (name: string, a: { filter?: Schemas["Filter"] }) => {
        await this.enter("count", [name, a]);
        return { count: this.matching(name, a.filter).length };
      },
      scroll: async (
        name: string,
        a: {
          filter?: Schemas["Filter"];
          limit?: number;
          offset?: Schemas["ExtendedPointId"];
          with_payload?: unknown;
          order_by?: { key: string; direction?: "asc" | "desc"; start_from?: number };
        },
      ) => {
        await this.enter("scroll", [name, a]);
        const limit = a.limit ?? 10;
        let pts = this.matching(name, a.filter);
        if (a.order_by) {
          const { key, direction, start_from } = a.order_by;
          const dir = direction === "desc" ? -1 : 1;
          const val = (p: FakePoint) => (typeof p.payload[key] === "number" ? (p.payload[key] as number) : undefined);
          pts = pts
            .filter((p) => val(p) !== undefined && (start_from === undefined || dir * (val(p)! - start_from) >= 0))
            .sort((x, y) => dir * (val(x)! - val(y)!) || (x.id < y.id ? -1 : 1));
          return { points: pts.slice(0, limit).map((p) => ({ id: p.id, payload: pick(p.payload, a.with_payload ?? true) })), next_page_offset: null };
        }
        pts.sort((x, y) => (x.id < y.id ? -1 : 1));
        if (a.offset !== undefined) pts = pts.filter((p) => p.id >= String(a.offset));
        const page = pts.slice(0, limit);
        return { points: page.map((p) => ({ id: p.id, payload: pick(p.payload, a.with_payload ?? true) })), next_page_offset: pts[limit]?.id ?? null };
      },
      queryBatch: async (name: string, a: { searches: Query[] }) => {
        await this.enter("queryBatch", [name, a]);
        return a.searches.map((q) => ({ points: this.runQuery(name, q) }));
      },
      query: async (name: string, a: { prefetch: Query[]; limit?: number }) => {
        await this.enter("query", [name, a]);
        // Reciprocal-rank fusion of the prefetches (Qdrant's k = 2 is irrelevant here).
        const scores = new Map<string, number>();
        for (const q of a.prefetch) this.runQuery(name, q).forEach((h, r) => scores.set(h.id, (scores.get(h.id) ?? 0) + 1 / (r + 2)));
        const points = [...scores].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score);
        return { points: points.slice(0, a.limit ?? 10) };
      },
    };
    return api as unknown as QdrantClient;
  }
}
