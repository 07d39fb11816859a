import path from "node:path";
import { runTsxCheck } from "@engram/testing";
import type { GraphBuilder } from "../src/engine/graph-builder";
import build, { type GraphTask } from "../src/engine/graph.worker";
import { HnswGraph } from "../src/engine/hnsw";
import { SearchEngine } from "../src/engine/search-engine";
import { type EngineRecord, partitionKey } from "../src/engine/types";

const DIMS = 24;

/** Seeded uniform values in [0, 1). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Unit vectors in clusters (like sentence embeddings: many near neighbours, some far ones). */
function clustered(rows: number, seed: number): Float32Array {
  const rand = rng(seed);
  const centres = Array.from({ length: 40 }, () => Array.from({ length: DIMS }, () => rand() - 0.5));
  const out = new Float32Array(rows * DIMS);
  for (let r = 0; r < rows; r++) {
    const c = centres[Math.floor(rand() * centres.length)]!;
    let n = 0;
    for (let i = 0; i < DIMS; i++) {
      const x = c[i]! + 0.25 * (rand() - 0.5);
      out[r * DIMS + i] = x;
      n += x * x;
    }
    for (let i = 0; i < DIMS; i++) out[r * DIMS + i]! /= Math.sqrt(n);
  }
  return out;
}

function exactTop(data: Float32Array, rows: number, q: Float32Array, k: number, ok: (row: number) => boolean = () => true): number[] {
  const scored: { row: number; s: number }[] = [];
  for (let r = 0; r < rows; r++) {
    if (!ok(r)) continue;
    let s = 0;
    for (let i = 0; i < DIMS; i++) s += q[i]! * data[r * DIMS + i]!;
    scored.push({ row: r, s });
  }
  return scored
    .sort((a, b) => b.s - a.s || a.row - b.row)
    .slice(0, k)
    .map((x) => x.row);
}

const ROWS = 3000;
// Rows and queries drawn from the same clusters.
const drawn = clustered(ROWS + 60, 1);
const data = drawn.slice(0, ROWS * DIMS);
const queries = drawn.slice(ROWS * DIMS);
const query = (i: number) => queries.subarray(i * DIMS, (i + 1) * DIMS);
/** Engine records of rows from … to − 1 of `data` (rid = row + 1), under the model "m". */
const rowRecords = (from: number, to: number): EngineRecord[] =>
  Array.from({ length: to - from }, (_, j) => ({
    rid: from + j + 1,
    text: `record ${from + j}`,
    vector: data.slice((from + j) * DIMS, (from + j + 1) * DIMS),
    model: "m",
  }));

describe("HnswGraph", () => {
  const graph = new HnswGraph(DIMS);
  graph.extend(data, ROWS);

  it("finds nearly all of the exact ten nearest, and the nearest itself", () => {
    let overlap = 0;
    let first = 0;
    for (let i = 0; i < 60; i++) {
      const exact = exactTop(data, ROWS, query(i), 10);
      const hits = graph.search(data, query(i), 64);
      const got = new Set(Array.from(hits.rows.subarray(0, 10)));
      overlap += exact.filter((r) => got.has(r)).length;
      if (hits.rows[0] === exact[0]) first++;
      // Best first, and the similarities are the rows' own.
      for (let j = 1; j < hits.n; j++) expect(hits.sims[j - 1]!).toBeGreaterThanOrEqual(hits.sims[j]!);
    }
    expect(overlap / 600).toBeGreaterThanOrEqual(0.97);
    expect(first).toBeGreaterThanOrEqual(58);
  });

  it("returns only the rows the filter accepts, and walks past the others", () => {
    const ok = (row: number) => row % 7 === 0;
    let overlap = 0;
    for (let i = 0; i < 20; i++) {
      const hits = graph.search(data, query(i), 40, ok);
      expect(hits.n).toBe(40);
      for (const r of hits.rows) expect(r % 7).toBe(0);
      const exact = exactTop(data, ROWS, query(i), 10, ok);
      const got = new Set(Array.from(hits.rows.subarray(0, 10)));
      overlap += exact.filter((r) => got.has(r)).length;
    }
    expect(overlap / 200).toBeGreaterThanOrEqual(0.95);
  });

  it("is the same graph however its build is sliced, and survives its saved arrays", () => {
    const sliced = new HnswGraph(DIMS);
    let slices = 0;
    // A deadline already passed: one row per call.
    for (let done = false; !done; slices++) done = sliced.extend(data, ROWS, 0);
    expect(slices).toBe(ROWS);
    const copy = HnswGraph.fromState(DIMS, graph.state())!;
    for (let i = 0; i < 10; i++) {
      const want = Array.from(graph.search(data, query(i), 30).rows);
      expect(Array.from(sliced.search(data, query(i), 30).rows)).toEqual(want);
      expect(Array.from(copy.search(data, query(i), 30).rows)).toEqual(want);
    }
    // Arrays that do not fit together are refused.
    expect(HnswGraph.fromState(DIMS, { ...graph.state(), built: ROWS + 1 })).toBeUndefined();
  });

  it("covers only the rows built so far", () => {
    const partial = new HnswGraph(DIMS);
    partial.extend(data, 100);
    expect(partial.built).toBe(100);
    const hits = partial.search(data, query(0), 500);
    expect(hits.n).toBe(100);
    for (const r of hits.rows) expect(r).toBeLessThan(100);
    expect(new HnswGraph(DIMS).search(data, query(0), 10).n).toBe(0);
  });
});

describe("SearchEngine's approximate dense pass", () => {
  const P = partitionKey("t", "big");
  function engine(minVectors: number, initial = rowRecords(0, ROWS), onGraphsBuilt?: (p: string, info: { vectors: number }) => void) {
    const store = new Map<string, EngineRecord[]>([[P, initial]]);
    return new SearchEngine({ load: (p) => store.get(p) ?? [], ann: { minVectors, sliceMs: 1 }, ...(onGraphsBuilt ? { onGraphsBuilt } : {}) });
  }
  const dense = (e: SearchEngine, i: number, limit = 10, accept?: (rid: number) => boolean) =>
    e.search({ partitions: [P], text: "zzz", vector: query(i), model: "m", denseWeight: 1, limit, ...(accept ? { accept } : {}) }).map((h) => h.rid);

  it("answers like the exact scan once the graph is built, and the build runs in the background", async () => {
    const exact = engine(0);
    const built: [string, number][] = [];
    const approx = engine(1000, rowRecords(0, ROWS), (p, info) => built.push([p, info.vectors]));
    // The first search scans (no graph yet) and queues the build.
    expect(dense(approx, 0)).toEqual(dense(exact, 0));
    expect(approx.isBuildingGraphs(P)).toBe(true);
    expect(exact.isBuildingGraphs(P)).toBe(false);
    for (let i = 0; i < 2000 && approx.isBuildingGraphs(P); i++) await new Promise((r) => setTimeout(r, 5));
    expect(approx.isBuildingGraphs(P)).toBe(false);
    expect(built).toEqual([[P, ROWS]]);
    // Rows written since catch up without another notice.
    approx.upsert(P, [{ rid: 77_777, text: "late", vector: Float32Array.from(query(9)), model: "m" }]);
    dense(approx, 9);
    expect(approx.isBuildingGraphs(P)).toBe(true);
    for (let i = 0; i < 200 && approx.isBuildingGraphs(P); i++) await new Promise((r) => setTimeout(r, 5));
    expect(approx.isBuildingGraphs(P)).toBe(false);
    expect(built).toHaveLength(1);
    expect(approx.partitionBytes(P)).toBeGreaterThan(exact.partitionBytes(P));
    let overlap = 0;
    let first = 0;
    for (let i = 0; i < 40; i++) {
      const want = dense(exact, i);
      const got = dense(approx, i);
      overlap += want.filter((r) => got.includes(r)).length;
      if (got[0] === want[0]) first++;
    }
    expect(overlap / 400).toBeGreaterThanOrEqual(0.97);
    expect(first).toBeGreaterThanOrEqual(39);
    approx.close();
  });

  it("finds records added after the build, drops removed ones, and keeps to a narrow filter", () => {
    const e = engine(1000);
    dense(e, 0);
    e.buildGraphsNow();
    // A new record whose vector is the query's: past the graph, scanned.
    e.upsert(P, [{ rid: 99_999, text: "new", vector: Float32Array.from(query(3)), model: "m" }]);
    expect(dense(e, 3)[0]).toBe(99_999);
    // Removed: still a waypoint in the graph, never a result.
    const top = dense(e, 5, 3);
    e.remove(P, [top[0]!]);
    expect(dense(e, 5)).not.toContain(top[0]);
    // A filter that leaves fewer acceptable records than wanted: exactly those come back, in the scan's order.
    const ranked = dense(engine(0), 1, 200);
    const few = [0, 40, 80, 120, 160].map((i) => ranked[i]!);
    expect(dense(e, 1, 10, (rid) => few.includes(rid))).toEqual(few);
    // A wider filter goes through the graph, and still only what it accepts comes back.
    const even = dense(e, 1, 10, (rid) => rid % 2 === 0);
    expect(even).toHaveLength(10);
    for (const rid of even) expect(rid % 2).toBe(0);
    e.close();
  });

  it("ranks by evidence with a sampled baseline much as with every cosine", () => {
    const exact = engine(0);
    const approx = engine(1000);
    const calibrated = (e: SearchEngine, i: number) =>
      e.search({ partitions: [P], text: "record", vector: query(i), model: "m", denseWeight: 0.5, calibration: { floor: 0.05, full: 0.25 }, limit: 5 });
    calibrated(approx, 0);
    approx.buildGraphsNow();
    let same = 0;
    for (let i = 0; i < 20; i++) if (calibrated(approx, i)[0]?.rid === calibrated(exact, i)[0]?.rid) same++;
    expect(same).toBeGreaterThanOrEqual(19);
    approx.close();
  });

  it("stays exact below the threshold and when turned off", () => {
    const small = engine(ROWS + 1);
    dense(small, 0);
    expect(small.isBuildingGraphs(P)).toBe(false);
    const off = engine(0);
    dense(off, 0);
    expect(off.isBuildingGraphs(P)).toBe(false);
  });
});

describe("SearchEngine's vector models known from the start", () => {
  const P = partitionKey("t", "warm");
  const records = rowRecords(0, 50);

  it("a partition warmed before the first query keeps their vectors, and the first dense query does not load it again", async () => {
    let loads = 0;
    const load = () => (loads++, records);
    const known = new SearchEngine({ load, vectorModels: ["m"] });
    await known.warm(P);
    const hit = known.search({ partitions: [P], text: "zzz", vector: query(0), model: "m", denseWeight: 1, limit: 1 });
    expect(hit).toHaveLength(1);
    expect(loads).toBe(1);
    // Without it, the warmed partition lacks the vectors and the first dense query reads it again.
    loads = 0;
    const unknown = new SearchEngine({ load });
    await unknown.warm(P);
    unknown.search({ partitions: [P], text: "zzz", vector: query(0), model: "m", denseWeight: 1, limit: 1 });
    expect(loads).toBe(2);
  });
});

describe("a partition's graph in its saved copy (snapshot.ts)", () => {
  const P = partitionKey("t", "saved");
  const recs = rowRecords(0, ROWS);
  const concat = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) out.set(p, (at += p.length) - p.length);
    return out;
  };
  const dense = (e: SearchEngine, i: number) =>
    e.search({ partitions: [P], text: "zzz", vector: query(i), model: "m", denseWeight: 1, limit: 10 }).map((h) => h.rid);

  it("is saved with the partition, read back with it, and a graph built after a restore makes the copy worth saving again", () => {
    const first = new SearchEngine({ load: () => recs, ann: { minVectors: 1000 }, vectorModels: ["m"] });
    dense(first, 0);
    // Saved before its graph exists, then again once it is built (the partition itself did not change).
    const before = first.snapshot(P)!;
    expect(first.snapshot(P)).toBeUndefined();
    first.buildGraphsNow();
    const copy = concat(first.snapshot(P)!);
    expect(copy.length).toBeGreaterThan(concat(before).length);

    let loads = 0;
    const second = new SearchEngine({
      load: () => (loads++, recs),
      restore: () => ({ bytes: copy }),
      ann: { minVectors: 1000 },
      vectorModels: ["m"],
    });
    for (let i = 0; i < 10; i++) expect(dense(second, i)).toEqual(dense(first, i));
    expect(loads).toBe(0);
    expect(second.loadCounts.restored).toBe(1);
    // Its graph came with it: nothing to build.
    expect(second.isBuildingGraphs(P)).toBe(false);
    first.close();
    second.close();
  });
});

describe("graphs built off the engine's thread (graph-builder.ts)", () => {
  const P = partitionKey("t", "threads");
  const recs = rowRecords(0, ROWS);
  /** The worker's task run here, its input and output cloned as a thread boundary clones them (shared memory stays shared). */
  class ClonedBuilder implements GraphBuilder {
    tasks: GraphTask[] = [];
    constructor(private readonly fail = false) {}
    build(task: GraphTask) {
      this.tasks.push(task);
      return new Promise<ReturnType<typeof build>>((resolve, reject) =>
        setTimeout(() => (this.fail ? reject(new Error("the thread died")) : resolve(structuredClone(build(structuredClone(task))))), 5),
      );
    }
    close() {
      return Promise.resolve();
    }
  }
  const dense = (e: SearchEngine, i: number) =>
    e.search({ partitions: [P], text: "zzz", vector: query(i), model: "m", denseWeight: 1, limit: 10 }).map((h) => h.rid);
  const settle = async (e: SearchEngine) => {
    for (let i = 0; i < 2000 && e.isBuildingGraphs(P); i++) await new Promise((r) => setTimeout(r, 5));
    expect(e.isBuildingGraphs(P)).toBe(false);
  };

  it("hands a large build to the builder, over the rows in shared memory, and adopts the graph it returns", async () => {
    const builder = new ClonedBuilder();
    const e = new SearchEngine({ load: () => recs, ann: { minVectors: 1000, offThreadMinRows: 1000 }, vectorModels: ["m"], graphBuilder: builder });
    const sliced = new SearchEngine({ load: () => recs, ann: { minVectors: 1000 }, vectorModels: ["m"] });
    dense(e, 0);
    dense(sliced, 0);
    await settle(e);
    sliced.buildGraphsNow();
    expect(builder.tasks).toHaveLength(1);
    expect(builder.tasks[0]!.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(builder.tasks[0]!.rows).toBe(ROWS);
    // The same graph as one built here: the same answers.
    for (let i = 0; i < 20; i++) expect(dense(e, i)).toEqual(dense(sliced, i));
    e.close();
    sliced.close();
  });

  it("builds in slices once the builder failed, and says so", async () => {
    const failures: unknown[] = [];
    const builder = new ClonedBuilder(true);
    const e = new SearchEngine({
      load: () => recs,
      ann: { minVectors: 1000, sliceMs: 1, offThreadMinRows: 1000 },
      vectorModels: ["m"],
      graphBuilder: builder,
      onGraphBuildFailed: (err) => failures.push(err),
    });
    dense(e, 0);
    await settle(e);
    expect(builder.tasks).toHaveLength(1);
    expect(failures).toHaveLength(1);
    expect(e.partitionBytes(P)).toBeGreaterThan(0);
    expect(dense(e, 3)[0]).toBe(exactFirst(3));
    e.close();
  });

  it("runs on a real worker thread under the services' TypeScript loader (graph-thread-check.ts)", async () => {
    const r = await runTsxCheck<{ sameFirst: boolean; sameSecond: boolean; built: number }>(path.join(__dirname, "graph-thread-check.ts"));
    expect(r).toEqual({ sameFirst: true, sameSecond: true, built: 5000 });
  }, 120_000);

  /** The rid of the exact nearest record. */
  function exactFirst(i: number): number {
    return exactTop(data, ROWS, query(i), 1)[0]! + 1;
  }
});
