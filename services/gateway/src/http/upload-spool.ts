import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Request, RequestHandler } from "express";
import multer from "multer";
import type { Logger } from "@engram/observability";

/**
 * Spool files last modified longer ago than this are leftovers (a gateway
 * that was killed mid-request) and are swept. A spool file in use is never
 * that old: it is written as its bytes arrive, and node's request timeout
 * (5 minutes, module.ts) bounds how long a body may take; after the last byte
 * it is read once more, within the upload call's 120 s deadline.
 */
export const SPOOL_MAX_AGE_MS = 60 * 60_000;

/** `<tmpdir>/engram-uploads`, the tmpdir read when called (TMPDIR). */
export const defaultSpoolDir = (): string => path.join(os.tmpdir(), "engram-uploads");

/** The spool files of one request and where its exits stand. */
interface RequestSpool {
  paths: string[];
  /** multer has called back (every file it started is complete or removed). */
  parsed: boolean;
  /** The response is closed: sent, failed or the client went away. */
  closed: boolean;
}

/**
 * Where multipart uploads wait while their request runs (multer writes each
 * file there; the gateway then streams it to ingestion).
 *
 * Every spool file is removed when its request is over, whatever the exit (a
 * 2xx, a 4xx from validation of the path, query or parts, a 413, a backend
 * error, a client that went away): each file name is recorded on its request
 * when multer creates it, and once both the response has closed and multer
 * has finished (so no write is still starting), the recorded files are
 * deleted. A gateway that dies mid-request leaves its files behind; `sweep`
 * (run when the gateway starts) removes files older than SPOOL_MAX_AGE_MS.
 * Age, not ownership, decides, so two gateways sharing a tmpdir never delete
 * each other's files in flight.
 *
 * The directory is the process owner's alone (mode 0700): uploaded documents
 * are not readable by other local users while they wait.
 */
export class UploadSpool {
  private readonly requests = new WeakMap<Request, RequestSpool>();

  private constructor(
    readonly dir: string,
    private readonly log?: Logger,
  ) {}

  /** Creates (or adopts) the directory; refuses one that is a link or another user's. */
  static open(dir: string = defaultSpoolDir(), log?: Logger): UploadSpool {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory()) throw new Error(`upload spool ${dir} is not a directory; point TMPDIR elsewhere`);
    if (typeof process.getuid === "function" && st.uid !== process.getuid())
      throw new Error(`upload spool ${dir} belongs to another user (uid ${st.uid}); point TMPDIR at a directory of this user`);
    if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
    return new UploadSpool(dir, log);
  }

  /** multer's disk storage in the spool, recording each file on its request before it is created. */
  storage(): multer.StorageEngine {
    return multer.diskStorage({
      destination: this.dir,
      filename: (req, _file, cb) => {
        const state = this.requests.get(req);
        // Untracked, or the response is already over: write nothing.
        if (!state || state.closed) return cb(new Error("the request is over"), "");
        const name = randomBytes(16).toString("hex");
        state.paths.push(path.join(this.dir, name));
        cb(null, name);
      },
    });
  }

  /**
   * Wraps a multer middleware so that the request's spool files are deleted
   * once the response has closed and multer has finished, in whichever order
   * those happen.
   */
  track(parse: RequestHandler): RequestHandler {
    return (req, res, next) => {
      const state: RequestSpool = { paths: [], parsed: false, closed: false };
      this.requests.set(req, state);
      res.once("close", () => {
        state.closed = true;
        if (state.parsed) this.release(state);
      });
      void parse(req, res, (err?: unknown) => {
        state.parsed = true;
        if (state.closed) this.release(state);
        next(err);
      });
    };
  }

  private release(state: RequestSpool): void {
    for (const p of state.paths.splice(0))
      fs.rm(p, { force: true }, (err) => {
        if (err) this.log?.warn({ err, path: p }, "could not remove an upload spool file; the start-up sweep will");
      });
  }

  /** Deletes spool files last modified more than `maxAgeMs` ago; resolves to how many. */
  async sweep(maxAgeMs = SPOOL_MAX_AGE_MS, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const entry of await fs.promises.readdir(this.dir, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const p = path.join(this.dir, entry.name);
      try {
        if (now - (await fs.promises.lstat(p)).mtimeMs <= maxAgeMs) continue;
        await fs.promises.rm(p, { force: true });
        removed++;
      } catch {
        // Removed meanwhile (by its own request or another gateway's sweep).
      }
    }
    return removed;
  }
}
