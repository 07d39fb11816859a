import { z } from "zod";

/**
 * The manifest of an online backup of the all-in-one data directory
 * (docs/deployment.md, "Backup and restore"): what the backup holds and how
 * to check it. Pure: no I/O here (the snapshot and restore adapters read and
 * write the files); this module says what a valid manifest is, whether a
 * backup directory matches its manifest, and whether a restore may start.
 */

export const BACKUP_FORMAT = "engram-backup";
/** The newest format this Engram writes and reads; a manifest of a newer format is refused. */
export const BACKUP_FORMAT_VERSION = 1;
/** Written last, so a backup cut off before its end has none and is never restored. */
export const MANIFEST_FILE = "manifest.json";

/** A refused backup or restore: the operator's input (a directory, a manifest, a tampered file) is wrong, nothing was changed. */
export class BackupRefusedError extends Error {
  override readonly name = "BackupRefusedError";
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(
      problems.length
        ? `${message}:\n  - ${problems.slice(0, 20).join("\n  - ")}${problems.length > 20 ? `\n  - … ${problems.length - 20} more` : ""}`
        : message,
    );
  }
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters");
const isoTime = z.iso.datetime();

/**
 * A path inside the backup (and the restored data directory): relative, `/`-separated, no `.`/`..` segment, no empty
 * segment, no NUL. A manifest is input: a path escaping the target directory must never be written.
 */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.length > 1024 || p.includes("\0") || p.includes("\\") || p.startsWith("/")) return false;
  return p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}
const relativePath = z.string().refine(isSafeRelativePath, "must be a relative path inside the backup (no '..', no leading '/')");

const entry = z.object({ path: relativePath, sizeBytes: z.number().int().nonnegative(), sha256 }).strict();

export const manifestSchema = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    formatVersion: z.number().int().positive(),
    engramVersion: z.string().min(1),
    /** When the snapshot began (before any database was pinned) and ended (every file copied). */
    startedAt: isoTime,
    endedAt: isoTime,
    /** Every SQLite database, in the order their snapshots were pinned, with the schema version (PRAGMA user_version). */
    databases: z.array(entry.extend({ name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/), schemaVersion: z.number().int().nonnegative() }).strict()),
    /** Everything else copied: the file store's originals, and the secret files when they were included. */
    files: z.array(entry),
    /** Whether `secret.key` and `file-url.secret` are in the backup, and the fingerprint of the secret key the data was sealed with. */
    secrets: z
      .object({
        included: z.boolean(),
        /** SHA-256 of `secret.key`'s content (not the key): tells a restore whether the key it is given is the one; absent without the file. */
        secretKeySha256: sha256.optional(),
      })
      .strict(),
  })
  .strict();

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestEntry = { path: string; sizeBytes: number; sha256: string };

/** Every entry of the manifest: databases first, then the files. */
export function manifestEntries(m: BackupManifest): ManifestEntry[] {
  return [...m.databases, ...m.files];
}

/**
 * Reads a manifest's text: its format version is checked before its shape (a newer Engram may have changed the
 * shape, and the operator must be told it is newer rather than malformed).
 */
export function parseManifest(text: string): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefusedError(`${MANIFEST_FILE} is not JSON`);
  }
  if (typeof json !== "object" || json === null || (json as { format?: unknown }).format !== BACKUP_FORMAT)
    throw new BackupRefusedError(`${MANIFEST_FILE} is not the manifest of an Engram backup (format must be "${BACKUP_FORMAT}")`);
  const version = (json as { formatVersion?: unknown }).formatVersion;
  if (typeof version === "number" && version > BACKUP_FORMAT_VERSION)
    throw new BackupRefusedError(
      `the backup has format version ${version}, newer than this Engram reads (${BACKUP_FORMAT_VERSION}): restore it with the Engram version that made it (${String((json as { engramVersion?: unknown }).engramVersion)}) or newer`,
    );
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new BackupRefusedError(
      `${MANIFEST_FILE} is malformed`,
      parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  const seen = new Set<string>();
  const duplicates = manifestEntries(parsed.data)
    .map((e) => e.path)
    .filter((p) => (seen.has(p) ? true : (seen.add(p), false)));
  if (duplicates.length) throw new BackupRefusedError(`${MANIFEST_FILE} lists a path twice`, duplicates);
  return parsed.data;
}

/** What a file in the backup directory measured: its size and SHA-256. */
export interface ObservedFile {
  sizeBytes: number;
  sha256: string;
}

/**
 * Compares the backup directory with its manifest: every listed file present with its size and checksum, and nothing
 * unlisted (besides the manifest). Returns the problems, none when the backup is whole.
 */
export function verifyAgainstManifest(m: BackupManifest, observed: ReadonlyMap<string, ObservedFile>): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const e of manifestEntries(m)) {
    listed.add(e.path);
    const o = observed.get(e.path);
    if (!o) problems.push(`${e.path}: missing`);
    else if (o.sizeBytes !== e.sizeBytes) problems.push(`${e.path}: ${o.sizeBytes} bytes, the manifest says ${e.sizeBytes}`);
    else if (o.sha256 !== e.sha256) problems.push(`${e.path}: SHA-256 differs from the manifest (changed or damaged)`);
  }
  for (const p of observed.keys()) if (p !== MANIFEST_FILE && !listed.has(p)) problems.push(`${p}: not in the manifest`);
  return problems;
}

/** The files of the data directory a backup never carries: the file store's partial uploads and SQLite's side files. */
export function isTransient(relative: string): boolean {
  return relative.startsWith("files/.tmp/") || relative === "files/.tmp" || /\.db-(wal|shm|journal)$/.test(relative);
}
