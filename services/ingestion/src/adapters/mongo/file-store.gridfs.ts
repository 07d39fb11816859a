import { createHash } from "node:crypto";
import { NotFoundError, PayloadTooLargeError, raiseUnavailable } from "@engram/kernel";
import {
  type Collection,
  type Db,
  ensureIndexes,
  GridFSBucket,
  type GridFSBucketWriteStream,
  type GridFSFile,
  type IndexSpec,
  ObjectId,
} from "@engram/storage/mongo";
import type { FileStore } from "../../app/ports";
import { assertFileKey } from "../file-key";

/** An upload in progress: removed when the upload ends either way; one left behind marks a crashed upload. */
interface UploadMarker {
  /** The GridFS file id of the upload. */
  _id: ObjectId;
  key: string;
  startedAt: Date;
}

export interface GridFsFileStoreOptions {
  /** GridFS bucket (collections `<bucket>.files`, `<bucket>.chunks`, and `<bucket>.uploads` for uploads in progress); default `files`. */
  bucketName?: string;
  /** Bytes per chunk document (default 255 KiB, GridFS's default). */
  chunkSizeBytes?: number;
  /**
   * An upload marker older than this belongs to a process that died during
   * the upload: the sweep removes its chunks (default 1 h; far above the
   * 120 s an upload call may take).
   */
  abandonedAfterMs?: number;
}

const DEFAULT_BUCKET = "files";

/**
 * Uploaded originals in GridFS. A write streams the bytes into chunk
 * documents (majority write concern) while hashing and counting them; past
 * `maxBytes`, or when the source fails, it aborts and removes every chunk it
 * wrote. Only the last step of a successful write creates the file
 * document, so a reader never sees a partial file. A write to an existing
 * key replaces it (the older copy is deleted after the new one is
 * complete). Each upload is recorded in `<bucket>.uploads` while it runs; a
 * record older than `abandonedAfterMs` (the process died mid-upload) is
 * swept with its chunks at start (`sweepAbandonedUploads`).
 */
export class GridFsFileStore implements FileStore {
  readonly bucketName: string;
  private readonly bucket: GridFSBucket;
  private readonly files: Collection<GridFSFile>;
  private readonly chunks: Collection<{ _id: ObjectId; files_id: ObjectId; n: number }>;
  private readonly uploads: Collection<UploadMarker>;
  private readonly abandonedAfterMs: number;

  constructor(
    private readonly db: Db,
    opts: GridFsFileStoreOptions = {},
  ) {
    this.bucketName = opts.bucketName ?? DEFAULT_BUCKET;
    this.bucket = new GridFSBucket(db, {
      bucketName: this.bucketName,
      ...(opts.chunkSizeBytes ? { chunkSizeBytes: opts.chunkSizeBytes } : {}),
      writeConcern: { w: "majority" },
    });
    this.files = db.collection<GridFSFile>(`${this.bucketName}.files`);
    this.chunks = db.collection(`${this.bucketName}.chunks`);
    this.uploads = db.collection<UploadMarker>(`${this.bucketName}.uploads`);
    this.abandonedAfterMs = opts.abandonedAfterMs ?? 3600_000;
  }

  /** GridFS's own indexes (the names the driver would give them) and the uploads' (idempotent; run at start). */
  static readonly INDEXES: Record<"files" | "chunks" | "uploads", IndexSpec[]> = {
    // read: the newest complete file of a key.
    files: [{ name: "filename_1_uploadDate_1", key: { filename: 1, uploadDate: 1 } }],
    // a file's chunks in order; unique as GridFS requires.
    chunks: [{ name: "files_id_1_n_1", key: { files_id: 1, n: 1 }, unique: true }],
    // the sweep of abandoned uploads.
    uploads: [{ name: "started_at", key: { startedAt: 1 } }],
  };

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, this.files.collectionName, GridFsFileStore.INDEXES.files);
    await ensureIndexes(this.db, this.chunks.collectionName, GridFsFileStore.INDEXES.chunks);
    await ensureIndexes(this.db, this.uploads.collectionName, GridFsFileStore.INDEXES.uploads);
  }

  async write(key: string, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ sizeBytes: number; sha256: string }> {
    assertFileKey(key);
    const id = new ObjectId();
    await this.uploads.insertOne({ _id: id, key, startedAt: new Date() });
    const stream = this.bucket.openUploadStreamWithId(id, key);
    // Failures arrive through the write and end callbacks; without a listener the stream's 'error' event would crash the process.
    stream.on("error", () => undefined);
    const hash = createHash("sha256");
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new PayloadTooLargeError("file too large", `at most ${maxBytes} bytes`);
        hash.update(chunk);
        // Resolves once the chunk is buffered, or stored when it filled a chunk document: no insert is left in flight.
        await writeTo(stream, chunk);
      }
      await endOf(stream);
    } catch (err) {
      await this.discard(stream, id);
      throw err;
    }
    const uploaded = stream.gridFSFile?.uploadDate ?? new Date();
    await this.removeOlder(key, id, uploaded);
    await this.uploads.deleteOne({ _id: id });
    return { sizeBytes: size, sha256: hash.digest("hex") };
  }

  async *read(key: string): AsyncIterable<Uint8Array> {
    assertFileKey(key);
    const file = await this.files.findOne({ filename: key }, { sort: { uploadDate: -1, _id: -1 } });
    if (!file) throw new NotFoundError(`file ${key} not found`);
    for await (const chunk of this.bucket.openDownloadStream(file._id)) yield chunk as Buffer;
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    for (const f of await this.files.find({ filename: key }, { projection: { _id: 1 } }).toArray()) await this.removeFile(f._id);
  }

  async close(): Promise<void> {}

  /**
   * Removes uploads whose process died mid-way (markers older than
   * `abandonedAfterMs`) with every chunk and file document they left.
   * Returns how many were removed.
   */
  async sweepAbandonedUploads(now = new Date()): Promise<number> {
    const stale = await this.uploads.find({ startedAt: { $lt: new Date(now.getTime() - this.abandonedAfterMs) } }).toArray();
    for (const m of stale) {
      await this.removeFile(m._id);
      await this.uploads.deleteOne({ _id: m._id });
    }
    return stale.length;
  }

  /** Older copies of a key, once a new one is complete (a concurrent newer copy is kept). */
  private async removeOlder(key: string, id: ObjectId, uploadDate: Date): Promise<void> {
    const older = await this.files
      .find({ filename: key, _id: { $ne: id }, $or: [{ uploadDate: { $lt: uploadDate } }, { uploadDate, _id: { $lt: id } }] }, { projection: { _id: 1 } })
      .toArray();
    for (const f of older) await this.removeFile(f._id);
  }

  /** The file document first (readers stop finding it), then its chunks. */
  private async removeFile(id: ObjectId): Promise<void> {
    await this.files.deleteOne({ _id: id });
    await this.chunks.deleteMany({ files_id: id });
  }

  /** Undoes a failed upload: nothing of it stays. */
  private async discard(stream: GridFSBucketWriteStream, id: ObjectId): Promise<void> {
    try {
      if (!stream.state.streamEnd && !stream.state.aborted) await stream.abort();
    } catch {
      // The explicit removal below covers what abort could not.
    }
    stream.destroy();
    await this.removeFile(id);
    await this.uploads.deleteOne({ _id: id });
  }
}

function writeTo(stream: GridFSBucketWriteStream, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}

function endOf(stream: GridFSBucketWriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
  });
}

/** The ingestion file store on GridFS: creates the indexes, sweeps abandoned uploads, returns the store. */
export async function createGridFsFileStore(db: Db, opts: GridFsFileStoreOptions = {}): Promise<GridFsFileStore> {
  const store = new GridFsFileStore(db, opts);
  await store.ensureIndexes();
  await store.sweepAbandonedUploads();
  // Outages of MongoDB (no primary, refused connections, timeouts) reach callers as UnavailableError (503).
  return raiseUnavailable(store, "MongoDB");
}
