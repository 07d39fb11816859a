import { filterToMongo, parseFilter } from "@engram/filters";
import { describeWithEngines } from "@engram/testing";
import { useMongoDatabase } from "@engram/testing/src/mongo";
import { createMongoDocumentRepository, DOCUMENT_INDEXES, type MongoDocumentRepository } from "../../src/adapters/mongo/document.mongo";
import { type DocumentRepositoryHarness, documentRepositoryContract, record } from "./document-repository.contract";
import { ingestionUseCasesContract } from "./ingestion-use-cases.contract";

describeWithEngines(["mongo"], "MongoDocumentRepository", ({ mongoUrl }) => {
  const mongo = useMongoDatabase(mongoUrl, "documents");
  let n = 0;

  /** A repository on collections of its own (documents_N, outbox_N): empty for every test. */
  async function openMongo(): Promise<DocumentRepositoryHarness & { repo: MongoDocumentRepository }> {
    const opts = { collection: `documents_${++n}`, outbox: { collection: `outbox_${n}` } };
    let repo = await createMongoDocumentRepository(mongo.db, opts);
    return {
      get repo() {
        return repo;
      },
      pendingEvents: async () => (await repo.outbox.unpublished(100_000)).map((e) => e.message),
      reopen: async () => {
        await repo.close();
        repo = await createMongoDocumentRepository(mongo.db, opts);
        return repo;
      },
      close: () => repo.close(),
    };
  }

  describe("document repository contract", () => {
    documentRepositoryContract(openMongo);
  });

  describe("ingestion use cases", () => {
    ingestionUseCasesContract(openMongo);
  });

  describe("MongoDB specifics", () => {
    it("creates an index for every query path, the caller-id one unique per namespace, idempotently", async () => {
      const h = await openMongo();
      await h.repo.ensureIndexes();
      const indexes = await h.repo.collection.listIndexes().toArray();
      for (const spec of DOCUMENT_INDEXES) {
        const found = indexes.find((i) => i.name === spec.name);
        expect(found).toMatchObject({ key: spec.key });
        if (spec.unique) expect(found?.unique).toBe(true);
        if (spec.partialFilterExpression) expect(found?.partialFilterExpression).toEqual(spec.partialFilterExpression);
      }
      await h.close();
    });

    it("serves the read and list paths from those indexes (no collection scan)", async () => {
      const h = await openMongo();
      const r = record({ customId: "c1" });
      await h.repo.insert(r, []);
      const coll = h.repo.collection;
      const plans: [string, Promise<unknown>][] = [
        ["by custom id", coll.find({ tenantId: "acme", namespace: "ns1", customId: "c1" }).explain()],
        ["by custom id in tenant", coll.find({ tenantId: "acme", customId: "c1" }).sort({ updatedAt: -1, _id: -1 }).limit(1).explain()],
        [
          "list of a namespace",
          coll
            .find({ tenantId: "acme", namespace: { $in: ["ns1"] } })
            .sort({ createdAt: -1, _id: -1 })
            .explain(),
        ],
        ["list of the tenant", coll.find({ tenantId: "acme" }).sort({ updatedAt: 1, _id: 1 }).explain()],
        [
          "stale sweep",
          coll
            .find({ status: { $in: ["queued", "extracting"] }, updatedAt: { $lt: "9999" } })
            .sort({ updatedAt: 1 })
            .explain(),
        ],
      ];
      for (const [label, plan] of plans) {
        const text = JSON.stringify(((await plan) as { queryPlanner: unknown }).queryPlanner);
        expect({ label, usesIndex: text.includes("IXSCAN"), scans: text.includes("COLLSCAN") }).toEqual({ label, usesIndex: true, scans: false });
      }
      await h.close();
    });

    it("a metadata condition ($elemMatch on the entries) bounds the multikey metadata indexes on key and value", async () => {
      const h = await openMongo();
      await h.repo.ensureIndexes();
      await h.repo.insert(record({ metadata: { type: "email", year: 2024 } }), []);
      const bounds = async (filter: unknown, index: string) => {
        const query = { tenantId: "acme", ...filterToMongo(parseFilter(filter), "meta") };
        const plan = JSON.stringify(await h.repo.collection.find(query).hint(index).explain());
        return {
          ixscan: plan.includes("IXSCAN"),
          keyBound: plan.includes('"meta.k":["[\\"type\\", \\"type\\"]"]') || plan.includes('"meta.k":["[\\"year\\", \\"year\\"]"]'),
        };
      };
      expect(await bounds({ key: "type", value: "email" }, "tenant_meta_value")).toEqual({ ixscan: true, keyBound: true });
      expect(await bounds({ key: "year", value: "2000", filterType: "numeric", numericOperator: ">" }, "tenant_meta_number")).toEqual({
        ixscan: true,
        keyBound: true,
      });
      expect(
        (await h.repo.list({ tenantId: "acme", filter: parseFilter({ key: "type", value: "email" }), sort: "createdAt", order: "desc", offset: 0, limit: 10 }))
          .total,
      ).toBe(1);
      await h.close();
    });

    it("stores metadata as entries that any key can use, and the filter kinds' views", async () => {
      const h = await openMongo();
      const r = record({ metadata: { "a.b": "X", $c: [1, "Y"] } });
      await h.repo.insert(r, []);
      const raw = await h.repo.collection.findOne({ _id: r.id });
      expect(raw?.meta).toEqual([
        { k: "a.b", a: false, v: "X", l: "x" },
        { k: "$c", a: true, v: [1, "Y"], l: ["y"] },
      ]);
      await h.close();
    });
  });
});
