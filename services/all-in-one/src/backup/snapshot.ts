/**
 * Online backup of the all-in-one data directory (`engram backup <dir>`), taken while the service keeps serving and
 * accepting writes, by a separate process on the same host (docs/api-decisions.md §26: operator only, never an API).
 *
 * What is copied, and how:
 * - Every SQLite database (`*.db`) through SQLite's online backup API, each read inside a read transaction opened
 *   before any copying starts. WAL mode keeps that snapshot stable while the service writes (the backup neither blocks
 *   the writers nor restarts when they commit), so each copy is the database exactly as it was at its pin.
 * - The file store (`files/`, originals of uploaded documents) after every database is pinned, each file copied while
 *   its SHA-256 is computed. Partial uploads (`files/.tmp`) and SQLite's -wal/-shm files are never copied.
 * - The index: `index.db` is the whole chunk index (the search engine's in-memory part is rebuilt from its rows when
 *   the store opens), and `memories.db` the whole memory store (same). Nothing in memory needs flushing: a write is
 *   acknowledged only once committed to SQLite, and a committed transaction is in the WAL the snapshot reads.
 * - The secret files (`secret.key`, `file-url.secret`) only with `includeSecrets` (see deployment.md: the key is kept
 *   apart from the backup by default, so a stolen backup does not open the connections' OAuth tokens); the manifest
 *   always records the SHA-256 of `secret.key`, so a restore can tell whether it is given the right key.
 * - Last, `manifest.json` (format, Engram version, schema versions, per-file size and SHA-256, start and end time),
 *   written to a temporary name, synced and renamed: a backup cut off before its end has no manifest and is refused.
 *
 * Consistency across databases. The snapshots are pinned one after another in one synchronous loop (microseconds
 * apart), in this order, chosen so that what a pinned copy refers to is in a copy pinned later:
 * 1. `bus.db` first. A consumer (the worker, ingestion's state consumer, memory formation) commits a message's offset
 *    only after its effect is written to its store: every message the bus copy shows as consumed has its effect in
 *    the stores pinned after it, and a message not yet consumed is redelivered after the restore (the handlers are
 *    idempotent per document generation).
 * 2. The gateway's databases (keys, idempotency records whose answers name documents and memories, limits), then
 *    `connections.db` (settings) and `connectors.db` (sync ledgers naming documents): they refer to documents and
 *    memories, which are pinned after them.
 * 3. `memories.db` (memories name their source documents), then `ingestion.db` (documents and their outbox), then
 *    `index.db` (a document `done` in ingestion has its chunks in the index, written before it was marked done).
 * 4. The file store after every pin: a document row refers to a file written and synced before the row committed,
 *    so the file is there when it is copied. (Deletion removes the row first, then the file: a document deleted while
 *    the backup runs may come back in the restore without its original; that deletion was not acknowledged before the
 *    snapshot began.)
 * The one reference the order cannot make safe is ingestion's outbox relay (an event moves from `ingestion.db` to
 * `bus.db`): an event relayed in the microseconds between the two pins is in neither copy. Its document is then
 * queued without an event, and ingestion's stale sweep re-queues it after INGESTION_STALE_AFTER_MS (15 min by
 * default): the restore still converges, every document to a final state.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openExistingSqlite, type SqliteDatabase } from "@engram/storage";
import { version as ENGRAM_VERSION } from "../../package.json";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, BackupRefusedError, isTransient, MANIFEST_FILE, type ManifestEntry } from "./manifest";

/** The order the databases' snapshots are pinned in (see above); a database not named here is pinned right after the bus. */
export const PIN_ORDER = ["bus", "gateway", "gateway-idempotency", "gateway-limits", "connections", "connectors", "memories", "ingestion", "index"] as const;

/** The secret files of a data directory: carried only with `includeSecrets`. */
export const SECRET_FILES = ["secret.key", "file-url.secret"] as const;

export interface BackupOptions {
  dataDir: string;
  /** The backup directory: created, or empty. */
  target: string;
  /** Also copy secret.key and file-url.secret (default: kept apart, see deployment.md). */
  includeSecrets?: boolean;
  /** Time source (tests). */
  now?: () => Date;
}

export interface BackupResult {
  target: string;
  manifest: BackupManifest;
  /** Bytes of the backup (every file but the manifest). */
  bytes: number;
  /** Files of the file store that were deleted between the pin and their copy (documents deleted during the backup). */
  vanishedFiles: number;
  seconds: number;
}

/** Sorts database names into the pin order: the known ones as listed, an unknown one right after the bus. */
export function pinOrder(names: string[]): string[] {
  const rank = (n: string) => {
    const i = (PIN_ORDER as readonly string[]).indexOf(n);
    return i === -1 ? 0.5 : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Refuses a target that holds anything: a backup never mixes with an earlier one. */
export function requireEmptyDir(dir: string, what: string): void {
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory()) throw new BackupRefusedError(`${what} ${dir} exists and is not a directory`);
  const entries = fs.readdirSync(dir);
  if (entries.length)
    throw new BackupRefusedError(
      `${what} ${dir} is not empty (${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""}): give an empty or new directory`,
    );
}

export async function sha256File(file: string): Promise<{ sizeBytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    sizeBytes += (chunk as Buffer).byteLength;
    hash.update(chunk as Buffer);
  }
  return { sizeBytes, sha256: hash.digest("hex") };
}

/** Copies `from` to `to` (created 0600, synced), hashing what it reads; the directory of `to` must exist. */
export async function copyHashed(from: string, to: string): Promise<{ sizeBytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  const out = await fs.promises.open(to, "wx", 0o600);
  try {
    for await (const chunk of fs.createReadStream(from, { highWaterMark: 1 << 20 })) {
      const buf = chunk as Buffer;
      sizeBytes += buf.byteLength;
      hash.update(buf);
      for (let off = 0; off < buf.byteLength;) off += (await out.write(buf, off, buf.byteLength - off)).bytesWritten;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  return { sizeBytes, sha256: hash.digest("hex") };
}

/** Every regular file under `root` (relative, `/`-separated), in a stable order. */
export function listFiles(root: string, under = ""): string[] {
  const dir = path.join(root, under);
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(root, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

export async function syncDir(dir: string): Promise<void> {
  const fh = await fs.promises.open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Takes the backup (see the opening comment). The target is created (0700) or must be empty. */
export async function takeBackup(opts: BackupOptions): Promise<BackupResult> {
  const now = opts.now ?? (() => new Date());
  const started = performance.now();
  const dataDir = path.resolve(opts.dataDir);
  const target = path.resolve(opts.target);
  if (!fs.existsSync(dataDir) || !fs.statSync(dataDir).isDirectory()) throw new BackupRefusedError(`data directory ${dataDir} does not exist`);
  const names = fs
    .readdirSync(dataDir)
    .filter((f) => f.endsWith(".db") && fs.statSync(path.join(dataDir, f)).isFile())
    .map((f) => f.slice(0, -3));
  if (!names.includes("ingestion") && !names.includes("memories"))
    throw new BackupRefusedError(`${dataDir} is not an Engram data directory (no ingestion.db, no memories.db)`);
  if (target === dataDir || target.startsWith(dataDir + path.sep)) throw new BackupRefusedError("the backup directory must be outside the data directory");
  requireEmptyDir(target, "backup directory");
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });

  const startedAt = now().toISOString();
  const order = pinOrder(names);
  const open: { name: string; db: SqliteDatabase; pin: () => unknown }[] = [];
  try {
    for (const name of order) {
      const db = openExistingSqlite(path.join(dataDir, `${name}.db`));
      const probe = db.prepare("SELECT count(*) FROM sqlite_master");
      open.push({ name, db, pin: () => probe.get() });
    }
    // The pins: one synchronous loop, nothing in between (see the opening comment for the order).
    for (const o of open) {
      o.db.exec("BEGIN");
      o.pin();
    }
    const databases: BackupManifest["databases"] = [];
    for (const o of open) {
      const schemaVersion = o.db.pragma("user_version", { simple: true }) as number;
      const file = `${o.name}.db`;
      // Inside the open read transaction: the copy is the pinned snapshot, whatever the service commits meanwhile.
      await o.db.backup(path.join(target, file));
      o.db.exec("COMMIT");
      o.db.close();
      fs.chmodSync(path.join(target, file), 0o600);
      databases.push({ name: o.name, path: file, schemaVersion, ...(await sha256File(path.join(target, file))) });
    }
    open.length = 0;

    // The file store, after every pin (a row's file was synced before the row committed).
    const files: ManifestEntry[] = [];
    let vanishedFiles = 0;
    for (const rel of listFiles(dataDir, "files")) {
      if (isTransient(rel)) continue;
      const to = path.join(target, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      try {
        files.push({ path: rel, ...(await copyHashed(path.join(dataDir, rel), to)) });
      } catch (err) {
        if ((err as { code?: string }).code !== "ENOENT" || fs.existsSync(path.join(dataDir, rel))) throw err;
        fs.rmSync(to, { force: true });
        vanishedFiles++;
      }
    }
    let secretKeySha256: string | undefined;
    const keyFile = path.join(dataDir, "secret.key");
    if (fs.existsSync(keyFile)) secretKeySha256 = (await sha256File(keyFile)).sha256;
    if (opts.includeSecrets)
      for (const name of SECRET_FILES)
        if (fs.existsSync(path.join(dataDir, name))) files.push({ path: name, ...(await copyHashed(path.join(dataDir, name), path.join(target, name))) });
    for (const dir of new Set(files.map((f) => path.dirname(path.join(target, f.path))))) await syncDir(dir);

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      engramVersion: ENGRAM_VERSION,
      startedAt,
      endedAt: now().toISOString(),
      databases,
      files,
      secrets: { included: Boolean(opts.includeSecrets), ...(secretKeySha256 ? { secretKeySha256 } : {}) },
    };
    const tmp = path.join(target, `.${MANIFEST_FILE}.${randomBytes(4).toString("hex")}`);
    const fh = await fs.promises.open(tmp, "wx", 0o600);
    try {
      await fh.writeFile(JSON.stringify(manifest, null, 2) + "\n");
      await fh.sync();
    } finally {
      await fh.close();
    }
    fs.renameSync(tmp, path.join(target, MANIFEST_FILE));
    await syncDir(target);
    const bytes = [...databases, ...files].reduce((n, e) => n + e.sizeBytes, 0);
    return { target, manifest, bytes, vanishedFiles, seconds: (performance.now() - started) / 1000 };
  } finally {
    for (const o of open) {
      if (o.db.inTransaction) o.db.exec("ROLLBACK");
      o.db.close();
    }
  }
}
