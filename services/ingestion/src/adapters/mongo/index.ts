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
