import type { MemoryRecord } from "@engram/memory-model";
import type { MemoryRepository } from "../../src/app/ports";
import { contentKey } from "../../src/domain/memory";
import { memory } from "./memory-repository.contract";

/** What the write guards are checked through: the write and the reads that show what it did. */
export type GuardedStore = Pick<MemoryRepository, "write" | "findById" | "getMany" | "findByDocument" | "chains" | "isFormed" | "pruneTombstones">;

export interface WriteGuardsHarness {
  repo: GuardedStore;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-20T10:00:00.000Z";

/**
 * The guards every memory store's write keeps (issue #31: replicas on one
 * store), run against the embedded store, the production store on MongoDB,
 * and the production store's write path on documents in memory (mingo): no
 * blind replace, one latest version per chain, no duplicate where none is
 * expected, deleted documents' tombstones, and no memory left citing a
 * retired document. A refused write writes nothing.
 */
export function memoryWriteGuardsContract(name: string, make: () => Promise<WriteGuardsHarness>): void {
  describe(`memory write guards: ${name}`, () => {
    let h: WriteGuardsHarness;
    let repo: GuardedStore;
    beforeEach(async () => {
      h = await make();
      repo = h.repo;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    /** A change of a stored memory, conditional on the version read (`stored`), as every change is. */
    const change = (stored: MemoryRecord, next: MemoryRecord) => repo.write({ records: [next], expect: [{ id: stored.id, updatedAt: stored.updatedAt }] });

    it("never replaces blindly: a stored memory the write does not expect is a conflict, and no write moves one to another tenant or namespace", async () => {
      const a = memory({ content: "Gail keeps goats" });
      await repo.write({ records: [a] });
      const fresh = memory({ content: "Gail keeps hens" });
      // Stored and not expected (the writer never read it): nothing of the write lands.
      expect(await repo.write({ records: [fresh, { ...a, isForgotten: true, forgottenAt: NOW, updatedAt: NOW }] })).toBe("conflict");
      expect(await repo.findById("t1", fresh.id)).toBeUndefined();
      expect(await repo.findById("t1", a.id)).toEqual(a);
      expect(await change(a, { ...a, tenantId: "t2", updatedAt: NOW })).toBe("conflict");
      expect(await change(a, { ...a, namespace: "ns2", updatedAt: NOW })).toBe("conflict");
      expect(await repo.findById("t1", a.id)).toEqual(a);
      expect(await repo.findById("t2", a.id)).toBeUndefined();
    });

    it("keeps one latest version per chain, forgotten or not: a second one is a conflict", async () => {
      const v1 = memory({ content: "Hugo lives in Lyon" });
      await repo.write({ records: [v1] });
      const next = (over: Partial<MemoryRecord>) =>
        memory({ content: "Hugo lives in Nice", version: 2, parentMemoryId: v1.id, rootMemoryId: v1.id, relation: "updates", ...over });
      // A next version without demoting v1 would leave two latest versions.
      const v2 = next({});
      expect(await repo.write({ records: [v2], expect: [{ id: v1.id, updatedAt: v1.updatedAt }] })).toBe("conflict");
      expect(await repo.findById("t1", v2.id)).toBeUndefined();
      // Demoted in the same write (listed after its successor: the store orders them), it is written.
      const demoted = { ...v1, isLatest: false, updatedAt: NOW };
      expect(await repo.write({ records: [v2, demoted], expect: [{ id: v1.id, updatedAt: v1.updatedAt }] })).toBe("written");
      // The superseded version made latest again (even forgotten, as a stale expiry would): a conflict.
      expect(await change(demoted, { ...demoted, isLatest: true, isForgotten: true, forgottenAt: NOW, updatedAt: "2026-11-20T10:00:00.001Z" })).toBe(
        "conflict",
      );
      const other = next({ content: "Hugo lives in Pau" });
      expect(await repo.write({ records: [other] })).toBe("conflict");
      expect((await repo.chains("t1", [v1.id])).map((m) => [m.id, m.isLatest])).toEqual([
        [v1.id, false],
        [v2.id, true],
      ]);
    });

    it("refuses a second active memory of the same content in the namespace when the write expects none", async () => {
      const key = contentKey("Ivy plays the harp");
      const unique = (namespace = "ns1", tenantId = "t1") => ({ expectNoDuplicate: [{ tenantId, namespace, contentKey: key, now: NOW }] });
      const a = memory({ content: "Ivy plays the harp." });
      expect(await repo.write({ records: [a], ...unique() })).toBe("written");
      const b = memory({ content: "ivy plays the HARP" });
      expect(await repo.write({ records: [b], ...unique() })).toBe("conflict");
      expect(await repo.findById("t1", b.id)).toBeUndefined();
      // Not a duplicate: another namespace or tenant; an expired one (at `now`), a forgotten one, a superseded one.
      expect(await repo.write({ records: [memory({ content: "Ivy plays the harp", namespace: "ns2" })], ...unique("ns2") })).toBe("written");
      expect(await repo.write({ records: [memory({ content: "Ivy plays the harp", tenantId: "t2" })], ...unique("ns1", "t2") })).toBe("written");
      const forgotten = { ...a, isForgotten: true, forgottenAt: NOW, updatedAt: NOW };
      expect(await change(a, forgotten)).toBe("written");
      const c = memory({ content: "Ivy plays the harp", forgetAfter: "2026-11-19T00:00:00.000Z" });
      expect(await repo.write({ records: [c], ...unique() })).toBe("written");
      const d = memory({ content: "Ivy plays the harp" });
      expect(await repo.write({ records: [d], ...unique() })).toBe("written");
      // The write's own records do not count: a new version of the same content, its predecessor demoted alongside.
      const d2 = memory({ content: "Ivy plays the harp!", version: 2, parentMemoryId: d.id, rootMemoryId: d.id, relation: "updates" });
      expect(await repo.write({ records: [{ ...d, isLatest: false, updatedAt: NOW }, d2], expect: [{ id: d.id, updatedAt: d.updatedAt }], ...unique() })).toBe(
        "written",
      );
      expect(await repo.write({ records: [memory({ content: "Ivy plays the harp" })], ...unique() })).toBe("conflict");
    });

    it("refuses formation writes of a deleted document's generation (its tombstone) and of a superseded one, writing nothing", async () => {
      const gen = (generation: number) => ({ tenantId: "t1", documentId: "d1", generation });
      const cite = (content: string) => memory({ content, sources: [{ documentId: "d1", chunkPositions: [0] }] });
      expect(await repo.write({ records: [cite("Jo runs a bakery")], source: gen(2) })).toBe("written");
      // Retired at generation 2: nothing of generation 1 or 2 is written any more, marker included.
      const cited = await repo.findByDocument("t1", "d1");
      const dropped = cited.map((m) => ({ ...m, sources: [], isForgotten: true, forgottenAt: NOW, updatedAt: NOW }));
      const retire = { ...gen(2), at: NOW };
      expect(await repo.write({ records: dropped, expect: cited.map((m) => ({ id: m.id, updatedAt: m.updatedAt })), retire })).toBe("written");
      for (const g of [1, 2]) {
        const late = cite(`Jo bakes rye (${g})`);
        expect(await repo.write({ records: [late], source: gen(g), formation: gen(g) })).toBe("source-deleted");
        expect(await repo.findById("t1", late.id)).toBeUndefined();
        expect(await repo.isFormed("t1", "d1", g)).toBe(false);
      }
      expect(await repo.findByDocument("t1", "d1")).toEqual([]);
      expect(await repo.getMany("t1", [cited[0]!.id])).toEqual(dropped);
      // Another tenant's document of the same id, and a newer generation (the document's next content), still form.
      const elsewhere = memory({ content: "Jo bakes rye", tenantId: "t2", sources: [{ documentId: "d1", chunkPositions: [0] }] });
      expect(await repo.write({ records: [elsewhere], source: { ...gen(2), tenantId: "t2" } })).toBe("written");
      expect(await repo.write({ records: [cite("Jo bakes spelt")], source: gen(3), formation: gen(3) })).toBe("written");
      expect(await repo.isFormed("t1", "d1", 3)).toBe(true);
      // Once a newer generation is formed, an older one's late write is stale.
      expect(await repo.write({ records: [cite("Jo bakes bagels")], source: gen(4), formation: gen(4) })).toBe("written");
      const stale = cite("Jo bakes scones");
      expect(await repo.write({ records: [stale], source: gen(3) })).toBe("source-superseded");
      expect(await repo.findById("t1", stale.id)).toBeUndefined();
      expect(await repo.write({ records: [], source: gen(4) })).toBe("written");
    });

    it("refuses to retire a document while a memory still cites it (a formation wrote after the read), writing no tombstone", async () => {
      const early = memory({ content: "Lea paints", sources: [{ documentId: "d1", chunkPositions: [0] }] });
      const late = memory({ content: "Lea sculpts", sources: [{ documentId: "d1", chunkPositions: [1] }] });
      await repo.write({ records: [early] });
      // The retire read `early` only; `late` was written since.
      await repo.write({ records: [late], source: { tenantId: "t1", documentId: "d1", generation: 1 } });
      const dropped = { ...early, sources: [], isForgotten: true, forgottenAt: NOW, updatedAt: NOW };
      const retire = { tenantId: "t1", documentId: "d1", generation: 1, at: NOW };
      expect(await repo.write({ records: [dropped], expect: [{ id: early.id, updatedAt: early.updatedAt }], retire })).toBe("conflict");
      expect(await repo.findById("t1", early.id)).toEqual(early);
      // No tombstone was left: the formation still writes; read again, the retire goes through.
      expect(await repo.write({ records: [], source: { tenantId: "t1", documentId: "d1", generation: 1 } })).toBe("written");
      const both = await repo.findByDocument("t1", "d1");
      const records = both.map((m) => ({ ...m, sources: [], isForgotten: true, forgottenAt: NOW, updatedAt: NOW }));
      expect(await repo.write({ records, expect: both.map((m) => ({ id: m.id, updatedAt: m.updatedAt })), retire })).toBe("written");
      expect(await repo.findByDocument("t1", "d1")).toEqual([]);
    });

    it("prunes tombstones recorded before a time; a pruned one refuses nothing", async () => {
      const retire = (documentId: string, at: string) => repo.write({ records: [], retire: { tenantId: "t1", documentId, generation: 1, at } });
      expect(await retire("d_old", "2026-11-01T00:00:00.000Z")).toBe("written");
      expect(await retire("d_new", "2026-11-19T00:00:00.000Z")).toBe("written");
      // Retired again later: the later time counts.
      expect(await retire("d_again", "2026-11-01T00:00:00.000Z")).toBe("written");
      expect(await retire("d_again", "2026-11-19T00:00:00.000Z")).toBe("written");
      expect(await repo.pruneTombstones("2026-11-10T00:00:00.000Z")).toBe(1);
      expect(await repo.pruneTombstones("2026-11-10T00:00:00.000Z")).toBe(0);
      const formed = (documentId: string) => repo.write({ records: [], source: { tenantId: "t1", documentId, generation: 1 } });
      expect(await formed("d_old")).toBe("written");
      expect(await formed("d_new")).toBe("source-deleted");
      expect(await formed("d_again")).toBe("source-deleted");
    });
  });
}
