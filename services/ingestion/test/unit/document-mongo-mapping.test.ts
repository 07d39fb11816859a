import { prng } from "@engram/testing";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseFilter } from "@engram/filters";
import type { DocumentStatus, JsonObject } from "@engram/kernel";
import { BSON } from "@engram/storage/mongo";
import { Query } from "mingo";
import { SqliteDocumentRepository } from "../../src/adapters/embedded/document.sqlite";
import { type DocumentDoc, fromDocumentDoc, MongoDocumentRepository, toDocumentDoc } from "../../src/adapters/mongo/document.mongo";
import type { DocumentListQuery } from "../../src/app/ports";
import type { DocumentRecord } from "../../src/domain/document";
import { at, record } from "../contract/document-repository.contract";

/**
 * Checks of the MongoDB document adapter that need no server: the record
 * survives the BSON round trip, and a listing's query (evaluated by mingo, a
 * JavaScript implementation of MongoDB's query language) selects what the
 * embedded store's listing selects. The contract suite runs the adapter
 * itself against MongoDB.
 */
const viaBson = (d: DocumentDoc): DocumentDoc => BSON.deserialize(BSON.serialize(d)) as DocumentDoc;

describe("MongoDB document mapping", () => {
  it("round-trips every field through BSON and stores no undefined field", () => {
    const full = record({
      customId: "c-1",
      supportingContext: "ctx",
      metadata: { "a.b": 1, $c: ["x", 2, true, null], o: { $in: [1] }, z: -0 },
      group: { "g.h": { $x: 1 } },
      date: "2024-01-01",
      filepath: "/p/q",
      statusReason: "r",
      url: "https://e.x/",
      title: "T",
      contentType: "pdf",
      file: { key: "acme/e_1", name: "f.pdf", sizeBytes: 3_000_000_000, sha256: "00" },
      containerTags: ["t1"],
      generation: 3,
      stateSequence: 4,
    });
    expect(fromDocumentDoc(viaBson(toDocumentDoc(full)))).toEqual(full);
    const bare = record();
    const doc = toDocumentDoc({ ...bare, customId: undefined, file: undefined, containerTags: [] });
    expect(Object.values(doc as Record<string, unknown>).includes(undefined)).toBe(false);
    // Serialised without ignoreUndefined, nothing turns into null.
    expect(Object.values(BSON.deserialize(BSON.serialize(doc))).includes(null)).toBe(false);
    expect(fromDocumentDoc(viaBson(doc))).toEqual(bare);
  });

  describe("list query", () => {
    let dir: string;
    let sqlite: SqliteDocumentRepository;
    let docs: DocumentRecord[];

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-mongo-map-"));
      sqlite = new SqliteDocumentRepository(dir);
      // Seeded (mulberry32), so a failure reproduces.
      const rand = prng(7);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const statuses: DocumentStatus[] = ["queued", "extracting", "done", "failed", "indexing"];
      docs = Array.from({ length: 300 }, (_, i) => {
        const metadata: JsonObject = {};
        if (rand() < 0.8) metadata.type = pick(["note", "Note", "email", "chat"]);
        if (rand() < 0.7) metadata.priority = pick([1, 5, "3", -2, 0, 7.5, "x"]);
        if (rand() < 0.6) metadata.tags = pick([["work"], ["home", "Work"], [], ["a.b", "x"]]);
        if (rand() < 0.5) metadata.title = pick(["Quarterly (Q3)", "re: quarterly", "Groceries", "a+b"]);
        return record({
          tenantId: pick(["acme", "acme", "globex"]),
          namespace: pick(["ns1", "ns2", "ns3"]),
          metadata: rand() < 0.1 ? undefined : metadata,
          status: pick(statuses),
          filepath: pick([undefined, "/a/x", "/a/b/y", "/a.b/z", "/aXb/z", "/A/x", "/a/"]),
          createdAt: at(i),
          updatedAt: at(1000 - i),
        });
      });
      for (const d of docs) await sqlite.insert(d, []);
    });

    afterAll(async () => {
      await sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const queries: Partial<DocumentListQuery>[] = [
      {},
      { tenantId: "globex" },
      { namespaces: ["ns1"] },
      { namespaces: ["ns2", "ns3"], statuses: ["queued", "indexing"] },
      { filepath: "/a/" },
      { filepath: "/a.b/" },
      { filepath: "/a/x" },
      { filter: parseFilter({ AND: [{ key: "type", value: "note", ignoreCase: true }] }) },
      {
        filter: parseFilter({
          OR: [
            { key: "tags", value: "work" },
            { filterType: "numeric", key: "priority", value: 2, numericOperator: ">" },
          ],
        }),
      },
      {
        filter: parseFilter({
          AND: [
            { filterType: "array_contains", key: "tags", value: "WORK", ignoreCase: true },
            { key: "type", value: "chat", negate: true },
          ],
        }),
      },
      { filter: parseFilter({ AND: [{ filterType: "string_contains", key: "title", value: "(q3)", ignoreCase: true }] }), namespaces: ["ns1", "ns3"] },
      { filter: parseFilter({ AND: [{ filterType: "numeric", key: "priority", value: 0, numericOperator: "<=", negate: true }] }), filepath: "/a/" },
    ];

    it.each(queries.map((q, i) => [i, q] as const))("query %d selects what the embedded listing selects", async (_i, over) => {
      const q: DocumentListQuery = { tenantId: "acme", sort: "createdAt", order: "asc", offset: 0, limit: 1000, ...over };
      const expected = await sqlite.list(q);
      const mq = new Query(MongoDocumentRepository.listQuery(q) as Record<string, unknown>);
      const selected = docs
        .map((d) => viaBson(toDocumentDoc(d)))
        .filter((d) => mq.test(d as unknown as Record<string, unknown>))
        .map((d) => d._id);
      expect(selected).toEqual(expected.items.map((d) => d.id));
      expect(selected.length).toBe(expected.total);
      expect(expected.total).toBeGreaterThan(0);
    });
  });
});
