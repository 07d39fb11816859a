/**
 * `engram restore <dir>`: a backup made by `engram backup` (snapshot.ts) into an empty data directory. Everything is
 * checked before anything is written: the manifest (its format version no newer than this Engram reads, its shape),
 * every file's size and SHA-256, nothing missing and nothing unlisted, the target empty, and a secret key given
 * separately against the fingerprint the manifest recorded. Files are then copied with their checksums computed
 * again on the way (a backup changed between the check and the copy is refused, and what was written is removed).
 *
 * After a restore the service starts on the data directory as on any other: the stores open (the in-memory search
 * engines rebuild from their rows), unconsumed bus messages are delivered, events still in ingestion's outbox are
 * relayed, and a document whose processing was cut by the snapshot is re-queued by the stale sweep.
 */
import fs from "node:fs";
import path from "node:path";
import { type BackupManifest, BackupRefusedError, MANIFEST_FILE, manifestEntries, type ObservedFile, parseManifest, verifyAgainstManifest } from "./manifest";
import { copyHashed, listFiles, requireEmptyDir, sha256File, syncDir } from "./snapshot";

export interface RestoreOptions {
  /** The backup directory (with its manifest.json). */
  source: string;
  /** The data directory to fill: new or empty. */
  dataDir: string;
  /** The secret key file kept apart from the backup (copied to <dataDir>/secret.key after its fingerprint is checked). */
  secretKeyFile?: string;
}

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest;
  files: number;
  bytes: number;
  /** Whether <dataDir>/secret.key was written (from the backup or the given file). */
  secretKeyRestored: boolean;
  /** What the operator must still do before starting the service, if anything. */
  warnings: string[];
  seconds: number;
}

/** Reads and checks a backup directory against its manifest; nothing is written. */
export async function verifyBackup(source: string): Promise<BackupManifest> {
  const dir = path.resolve(source);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new BackupRefusedError(`backup directory ${dir} does not exist`);
  const manifestPath = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(manifestPath))
    throw new BackupRefusedError(`${dir} has no ${MANIFEST_FILE}: not a backup, or one cut off before its end (the manifest is written last)`);
  const manifest = parseManifest(fs.readFileSync(manifestPath, "utf8"));
  const observed = new Map<string, ObservedFile>();
  for (const rel of listFiles(dir)) if (rel !== MANIFEST_FILE) observed.set(rel, await sha256File(path.join(dir, rel)));
  const problems = verifyAgainstManifest(manifest, observed);
  if (problems.length) throw new BackupRefusedError(`the backup in ${dir} does not match its manifest; nothing was restored`, problems);
  return manifest;
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const source = path.resolve(opts.source);
  const dataDir = path.resolve(opts.dataDir);
  if (dataDir === source || dataDir.startsWith(source + path.sep) || source.startsWith(dataDir + path.sep))
    throw new BackupRefusedError("the data directory and the backup directory must not contain each other");
  requireEmptyDir(dataDir, "data directory");
  const manifest = await verifyBackup(source);
  const fromBackup = manifest.files.some((f) => f.path === "secret.key");
  let givenKey: string | undefined;
  if (opts.secretKeyFile !== undefined) {
    const keyFile = path.resolve(opts.secretKeyFile);
    if (!fs.existsSync(keyFile) || !fs.statSync(keyFile).isFile()) throw new BackupRefusedError(`secret key file ${keyFile} does not exist`);
    const { sha256 } = await sha256File(keyFile);
    if (manifest.secrets.secretKeySha256 && sha256 !== manifest.secrets.secretKeySha256)
      throw new BackupRefusedError(`${keyFile} is not the secret.key of the backed-up data directory (its SHA-256 differs from the manifest's)`);
    if (!fromBackup) givenKey = keyFile;
  }
  // Checked again: the target may have been filled while the backup was verified.
  requireEmptyDir(dataDir, "data directory");
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  try {
    for (const e of manifestEntries(manifest)) {
      const to = path.join(dataDir, e.path);
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      written.push(to);
      const copied = await copyHashed(path.join(source, e.path), to);
      if (copied.sha256 !== e.sha256 || copied.sizeBytes !== e.sizeBytes)
        throw new BackupRefusedError(`${e.path} changed in the backup while it was restored; nothing was restored`);
    }
    if (givenKey) {
      const to = path.join(dataDir, "secret.key");
      written.push(to);
      await copyHashed(givenKey, to);
    }
    for (const dir of new Set(written.map((f) => path.dirname(f)))) await syncDir(dir);
  } catch (err) {
    // The target was empty: leave it so, for a second attempt.
    for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    throw err;
  }
  const secretKeyRestored = fromBackup || givenKey !== undefined;
  const warnings: string[] = [];
  if (!secretKeyRestored && manifest.secrets.secretKeySha256)
    warnings.push(
      `secret.key is not in the backup: put the original in ${path.join(dataDir, "secret.key")} (or configure ENGRAM_SECRET_KEY / ENGRAM_SECRET_KEYS) before starting, or stored connection credentials cannot be opened`,
    );
  return {
    dataDir,
    manifest,
    files: manifestEntries(manifest).length,
    bytes: manifestEntries(manifest).reduce((n, e) => n + e.sizeBytes, 0),
    secretKeyRestored,
    warnings,
    seconds: (performance.now() - started) / 1000,
  };
}
