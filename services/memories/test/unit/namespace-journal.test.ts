import fs from "node:fs";
import { NamespaceJournal } from "../../src/adapters/embedded/namespace-journal";
import { memory } from "../contract/memory-repository.contract";
import { openStore, tempDir } from "./helpers";

describe("namespace change counters (embedded store)", () => {
  it("answers what changed after a version, each memory as last written; forgets the oldest versions past its capacity", () => {
    const j = new NamespaceJournal(3);
    const [a, b, c] = [memory({ content: "a" }), memory({ content: "b" }), memory({ content: "c" })];
    expect(j.since("k", 0)).toEqual({ version: 0, changed: [] });
    j.record("k", [a, b]);
    j.record("k", [{ ...a, isLatest: false }]);
    expect(j.version("k")).toBe(2);
    expect(j.since("k", 0)).toEqual({ version: 2, changed: [{ ...a, isLatest: false }, b] });
    expect(j.since("k", 1)).toEqual({ version: 2, changed: [{ ...a, isLatest: false }] });
    expect(j.since("k", 2)).toEqual({ version: 2, changed: [] });
    // Past 3 memories version 1 goes whole: a reader of version 0 cannot be told any more.
    j.record("k", [c]);
    j.record("k", [c]);
    expect(j.since("k", 0)).toBeUndefined();
    expect(j.since("k", 1)).toEqual({ version: 4, changed: [{ ...a, isLatest: false }, c] });
    // A change it does not list (a merge of namespaces, a reset): every earlier reader reads afresh.
    j.invalidate("k");
    expect(j.since("k", 4)).toBeUndefined();
    expect(j.since("k", 5)).toEqual({ version: 5, changed: [] });
    // A version it never gave out.
    expect(j.since("k", 9)).toBeUndefined();
  });

  it("moves per namespace with each committed write; a refused write and a merge of namespaces are told apart", async () => {
    const dir = tempDir();
    const store = openStore(dir);
    try {
      const m = memory({ content: "Ida sings" });
      expect(await store.namespaceVersion("t1", "ns1")).toBe(0);
      expect(await store.write({ records: [m], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 0 } })).toBe("written");
      expect(await store.namespaceVersion("t1", "ns1")).toBe(1);
      expect(await store.namespaceVersion("t1", "ns2")).toBe(0);
      // Decided on version 0: refused, nothing written, the counter unmoved.
      const late = memory({ content: "Ida dances" });
      expect(await store.write({ records: [late], expectNamespace: { tenantId: "t1", namespace: "ns1", version: 0 } })).toBe("conflict");
      expect(await store.findById("t1", late.id)).toBeUndefined();
      expect((await store.changesSince("t1", "ns1", 0))!.changed.map((x) => x.id)).toEqual([m.id]);
      await store.moveNamespaces("t1", ["ns1"], "ns2");
      expect(await store.changesSince("t1", "ns1", 1)).toBeUndefined();
      expect(await store.changesSince("t1", "ns2", 0)).toBeUndefined();
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
