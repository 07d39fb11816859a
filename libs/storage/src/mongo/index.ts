/**
 * MongoDB helpers for the production adapters (`@engram/storage/mongo`, a
 * separate entry so that the embedded stack never loads the driver). The
 * driver names the adapters need are re-exported here: services import
 * MongoDB only through this module, so one driver version serves them all.
 */
export * from "./connection";
export * from "./transaction";
export * from "./indexes";
export { ListingCursors, listingKey, mongoKeysetAfter } from "../listing-cursors";
export {
  Binary,
  BSON,
  GridFSBucket,
  Long,
  MongoClient,
  MongoError,
  MongoServerError,
  ObjectId,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type GridFSBucketWriteStream,
  type GridFSFile,
  type MongoClientOptions,
  type Sort,
  type WithId,
} from "mongodb";
