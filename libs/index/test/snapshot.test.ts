import { SearchEngine } from "../src/engine/search-engine";
import { decodePartition, encodePartition } from "../src/engine/snapshot";
import { Partition } from "../src/engine/partition";
import { type EngineHit, type EngineRecord, partitionKey } from "../src/engine/types";
import { prng } from "@engram/testing";

const P = partitionKey("t1", "ns1");
const MODEL = "m-8";
const WORDS = "walrus tusk ice floe narwhal horn seal pup krill whale orca fjord glacier berg current tide kelp".split(" ");

function joined(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Records of 3–12 words from a small vocabulary (frequent terms: lists of several blocks), each with a unit vector. */
function records(n: number, seed: number, firstRid = 1): EngineRecord[] {
  const rand = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 3 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    const v = Float32Array.from({ length: 8 }, () => rand() - 0.5);
    const norm = Math.hypot(...v);
    return { rid: firstRid + i, text: words.join(" "), vector: v.map((x) => x / norm), model: MODEL };
  });
}

/** An engine over an in-memory store, optionally restoring from saved bytes. */
function engineOver(store: Map<number, EngineRecord>, saved?: () => { bytes: Uint8Array; liveRids: ArrayLike<number> } | undefined) {
  return new SearchEngine({
    load: () => [...store.values()].sort((a, b) => a.rid - b.rid),
    ...(saved ? { restore: () => saved() } : {}),
  });
}

const QUERIES = ["walrus tusk", "ice floe glacier", "narwhal horn whale", "kelp", "tide current fjord berg", "seal pup krill orca"];

function answers(engine: SearchEngine, withVectors = false): EngineHit[][] {
  return QUERIES.map((text, i) =>
    engine.search({
      partitions: [P],
      text,
      limit: 15,
      denseWeight: withVectors ? 0.5 : 0,
      ...(withVectors ? { vector: records(1, 1000 + i)[0]!.vector!, model: MODEL } : {}),
    }),
  );
}

function liveRids(store: Map<number, EngineRecord>): Float64Array {
  return Float64Array.from([...store.keys()].sort((a, b) => a - b));
}

describe("partition snapshots (engine/snapshot.ts)", () => {
  it("a restored partition answers every query exactly as the one it was saved from, keyword and dense, and keeps changing like it", () => {
    const store = new Map<number, EngineRecord>();
    for (const r of records(900, 7)) store.set(r.rid, r);
    const original = engineOver(store);
    answers(original, true); // loads the partition with the model's vectors
    // Changes after the load: removals, replacements (new rids), additions; dead slots stay until compaction.
    const removed = [3, 50, 51, 400, 899];
    for (const rid of removed) store.delete(rid);
    original.remove(P, removed);
    const added = records(40, 8, 1000);
    for (const r of added) store.set(r.rid, r);
    original.upsert(P, added);

    const bytes = joined(...original.snapshot(P)!);
    expect(original.snapshot(P)).toBeUndefined(); // unchanged since saved
    const restored = engineOver(store, () => ({ bytes, liveRids: liveRids(store) }));
    expect(answers(restored, true)).toEqual(answers(original, true));
    expect(restored.loadCounts).toEqual({ restored: 1, fromStore: 0 });

    // Both keep taking changes alike, and match an engine loaded from the records.
    const later = records(30, 9, 2000);
    for (const e of [original, restored]) {
      e.upsert(P, later);
      e.remove(P, [10, 1001]);
    }
    for (const r of later) store.set(r.rid, r);
    store.delete(10);
    store.delete(1001);
    const fresh = engineOver(store);
    expect(answers(restored, true)).toEqual(answers(original, true));
    expect(answers(restored)).toEqual(answers(fresh));
    expect(answers(restored, true)).toEqual(answers(fresh, true));
  });

  it("is refused when the store's live records differ from the copy's in any way, and the engine loads the records instead", () => {
    const store = new Map<number, EngineRecord>();
    for (const r of records(300, 11)) store.set(r.rid, r);
    const original = engineOver(store);
    answers(original);
    const bytes = joined(...original.snapshot(P)!);
    const rids = liveRids(store);
    const vectors = new Set<string>();
    expect(decodePartition(bytes, P, vectors, rids)).toBeInstanceOf(Partition);
    expect(decodePartition(bytes, partitionKey("t2", "ns1"), vectors, rids)).toBeUndefined(); // another partition's copy
    expect(decodePartition(bytes, P, vectors, rids.subarray(1))).toBeUndefined(); // a record deleted since
    expect(decodePartition(bytes, P, vectors, Float64Array.from([...rids, 301]))).toBeUndefined(); // one added since
    const swapped = Float64Array.from(rids);
    swapped[swapped.length - 1] = 302; // replaced under a new id
    expect(decodePartition(bytes, P, vectors, swapped)).toBeUndefined();
    expect(decodePartition(bytes, P, new Set([MODEL]), rids)).toBeUndefined(); // saved without the vectors now wanted
    expect(decodePartition(bytes.subarray(0, bytes.length - 9), P, vectors, rids)).toBeUndefined(); // cut short
    const damaged = Uint8Array.from(bytes);
    damaged[2] = damaged[2]! ^ 0xff;
    expect(decodePartition(damaged, P, vectors, rids)).toBeUndefined();

    // Through the engine: a stale copy is ignored and the partition loads from the store's records.
    store.delete(300);
    const engine = engineOver(store, () => ({ bytes, liveRids: liveRids(store) }));
    expect(answers(engine)).toEqual(answers(engineOver(store)));
    expect(engine.loadCounts).toEqual({ restored: 0, fromStore: 1 });
  });

  it("restores on a warm-up too, and an empty partition round-trips", async () => {
    const store = new Map<number, EngineRecord>();
    for (const r of records(200, 12)) store.set(r.rid, r);
    const original = engineOver(store);
    answers(original);
    const bytes = joined(...encodePartition(new Partition(P, new Set())));
    expect(decodePartition(bytes, P, new Set(), [])?.live).toBe(0);
    const saved = joined(...original.snapshot(P)!);
    const engine = engineOver(store, () => ({ bytes: saved, liveRids: liveRids(store) }));
    await engine.warm(P, 0);
    expect(engine.isLoaded(P)).toBe(true);
    expect(engine.loadCounts.restored).toBe(1);
    expect(answers(engine)).toEqual(answers(original));
  });
});
