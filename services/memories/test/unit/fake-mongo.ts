import type { Db } from "@engram/storage/mongo";
import { Aggregator, Query } from "mingo";
import { updateMany } from "mingo/updater";

type Doc = Record<string, unknown>;
type Filter = Record<string, unknown>;

/** Methods of a collection (or the database) that change data or schema. */
export const MONGO_WRITES = new Set([
  "createCollection",
  "command",
  "createIndexes",
  "createIndex",
  "insertOne",
  "insertMany",
  "updateOne",
  "updateMany",
  "replaceOne",
  "bulkWrite",
  "deleteOne",
  "deleteMany",
]);

const clone = <T>(v: T): T => structuredClone(v);

/**
 * A MongoDB `Db` stand-in for the production memory store's unit tests: each
 * collection is an array of documents; filters, projections, sorts and
 * updates are evaluated by mingo (MongoDB's query and update language in
 * JavaScript), and every call is recorded (`calls`), so a test can assert
 * which operations a code path ran. Transactions are not modelled: the
 * store's write path is tested against a real MongoDB by the contract suite.
 */
export class FakeMongoDb {
  readonly calls: { collection?: string; method: string }[] = [];
  readonly data = new Map<string, Doc[]>();
  /** Makes every operation of the named method throw (an outage, a failure between two steps). */
  failing = new Map<string, Error>();

  docs(name: string): Doc[] {
    let d = this.data.get(name);
    if (!d) this.data.set(name, (d = []));
    return d;
  }

  writes(): string[] {
    return this.calls.filter((c) => MONGO_WRITES.has(c.method)).map((c) => `${c.collection ?? "db"}.${c.method}`);
  }

  note(method: string, collection?: string): void {
    this.calls.push({ collection, method });
    const err = this.failing.get(method);
    if (err) throw err;
  }

  findDocs(name: string, filter: Filter, o: { projection?: Doc; sort?: Doc; skip?: number; limit?: number } = {}): Doc[] {
    let cursor = new Query(filter).find<Doc>(this.docs(name), o.projection);
    if (o.sort) cursor = cursor.sort(o.sort as Record<string, 1 | -1>);
    if (o.skip) cursor = cursor.skip(o.skip);
    if (o.limit) cursor = cursor.limit(o.limit);
    return clone(cursor.all());
  }

  update(name: string, filter: Filter, update: Doc, many: boolean, upsert = false): { matchedCount: number; modifiedCount: number } {
    const docs = this.docs(name);
    const targets = new Query(filter).find<Doc>(docs).all();
    const chosen = many ? targets : targets.slice(0, 1);
    if (chosen.length === 0 && upsert) {
      const fresh: Doc = {};
      for (const [k, v] of Object.entries(filter)) if (!k.startsWith("$") && (typeof v !== "object" || v === null)) fresh[k] = v;
      docs.push(fresh);
      updateMany([fresh], {}, update as never);
      return { matchedCount: 0, modifiedCount: 0 };
    }
    const r = updateMany(chosen, {}, update as never);
    return { matchedCount: chosen.length, modifiedCount: r.modifiedCount };
  }

  collection(name: string) {
    return fakeCollection(this, name);
  }

  /** The fake, typed as the driver's `Db`. */
  asDb(): Db {
    return fakeDb(this);
  }
}

function fakeCollection(db: FakeMongoDb, name: string) {
  return {
    collectionName: name,
    find(filter: Filter = {}, o: { projection?: Doc; sort?: Doc; skip?: number; limit?: number } = {}) {
      let sort = o.sort;
      let limit = o.limit;
      const cursor = {
        sort(s: Doc) {
          sort = s;
          return cursor;
        },
        limit(n: number) {
          limit = n;
          return cursor;
        },
        async toArray() {
          db.note("find", name);
          return db.findDocs(name, filter, { ...o, sort, limit });
        },
      };
      return cursor;
    },
    aggregate(pipeline: Doc[]) {
      return {
        async toArray() {
          db.note("aggregate", name);
          return clone(new Aggregator(pipeline as never).run(db.docs(name)) as Doc[]);
        },
      };
    },
    async countDocuments(filter: Filter = {}, o: { limit?: number } = {}) {
      db.note("countDocuments", name);
      const n = new Query(filter).find(db.docs(name)).all().length;
      return o.limit ? Math.min(n, o.limit) : n;
    },
    async distinct(field: string, filter: Filter = {}) {
      db.note("distinct", name);
      return [
        ...new Set(
          new Query(filter)
            .find<Doc>(db.docs(name))
            .all()
            .map((d) => d[field]),
        ),
      ];
    },
    listIndexes() {
      return {
        async toArray() {
          db.note("listIndexes", name);
          return [];
        },
      };
    },
    async createIndexes() {
      db.note("createIndexes", name);
      return [];
    },
    async updateMany(filter: Filter, update: Doc) {
      db.note("updateMany", name);
      return db.update(name, filter, update, true);
    },
    async updateOne(filter: Filter, update: Doc, o: { upsert?: boolean } = {}) {
      db.note("updateOne", name);
      return db.update(name, filter, update, false, o.upsert);
    },
    async deleteMany(filter: Filter) {
      db.note("deleteMany", name);
      const docs = db.docs(name);
      const gone = new Set(new Query(filter).find<Doc>(docs).all());
      db.data.set(
        name,
        docs.filter((d) => !gone.has(d)),
      );
      return { deletedCount: gone.size };
    },
    async bulkWrite(ops: Doc[]) {
      db.note("bulkWrite", name);
      let matchedCount = 0;
      for (const op of ops) {
        if (op.updateOne) {
          const u = op.updateOne as { filter: Filter; update: Doc; upsert?: boolean };
          matchedCount += db.update(name, u.filter, u.update, false, u.upsert).matchedCount;
        } else if (op.replaceOne) {
          const r = op.replaceOne as { filter: Filter; replacement: Doc; upsert?: boolean };
          const docs = db.docs(name);
          const i = docs.findIndex((d) => new Query(r.filter).test(d));
          if (i >= 0) {
            docs[i] = clone(r.replacement);
            matchedCount++;
          } else if (r.upsert) docs.push(clone(r.replacement));
        } else throw new Error(`bulk operation not modelled: ${Object.keys(op).join()}`);
      }
      return { matchedCount };
    },
  };
}

function fakeDb(db: FakeMongoDb): Db {
  const api = {
    databaseName: "fake",
    client: {},
    collection: (name: string) => db.collection(name),
    async createCollection(name: string) {
      db.note("createCollection", name);
      db.docs(name);
      return db.collection(name);
    },
    async command() {
      db.note("command");
      return { ok: 1 };
    },
  };
  return api as unknown as Db;
}
