/**
 * Ingestion's production adapters on MongoDB (a replica set). Wiring, given a
 * connected `Db` (`connectMongo` from @engram/storage/mongo):
 *
 *   const repo = await createMongoDocumentRepository(db);
 *   const files = await createGridFsFileStore(db);
 *   const relay = new MongoOutboxRelay("ingestion", repo.outbox, bus, log, { idleMs: 500 });
 */
export * from "./document.mongo";
export * from "./file-store.gridfs";

import { MongoOutboxRelay } from "@engram/bus/mongo";
import type { Db } from "@engram/storage/mongo";
import type { IngestionStorage } from "../../module";
import { createMongoDocumentRepository } from "./document.mongo";
import { createGridFsFileStore } from "./file-store.gridfs";

/** Ingestion's stores on MongoDB: documents with their outbox, originals in GridFS (indexes created first). */
export async function mongoIngestionStorage(db: Db): Promise<IngestionStorage> {
  const repo = await createMongoDocumentRepository(db);
  const files = await createGridFsFileStore(db);
  return {
    repo,
    files,
    relay: (bus, log) => new MongoOutboxRelay("ingestion", repo.outbox, bus, log, { idleMs: 500 }),
  };
}
