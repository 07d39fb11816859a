import path from "node:path";
import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";

/**
 * `engram backup <dir>` and `engram restore <dir>`: the operator's online backup of an all-in-one data directory,
 * run on the server's host against the directory itself (never through the API: a backup holds every tenant, see
 * docs/api-decisions.md §26). The work is in @engram/all-in-one/backup, loaded only by these commands (it opens
 * SQLite; the API commands never need it).
 */
type BackupModule = typeof import("@engram/all-in-one/backup");

/** The data directory: --data-dir, else ENGRAM_DATA_DIR, else the service's default (./.data). */
function dataDirOf(ctx: CommandContext, given: string | undefined): string {
  return path.resolve(ctx.io.cwd, given ?? ctx.io.env.ENGRAM_DATA_DIR ?? "./.data");
}

/** A refused backup or restore (bad directory, tampered backup, newer format) is the operator's input: exit code 2. */
async function refusalsAsUsage<T>(fn: (m: BackupModule) => Promise<T>): Promise<T> {
  const m = await import("@engram/all-in-one/backup");
  try {
    return await fn(m);
  } catch (err) {
    if (err instanceof m.BackupRefusedError) throw new UsageError(err.message);
    throw err;
  }
}

export async function backupCommand(ctx: CommandContext, dir: string, o: { dataDir?: string; includeSecrets?: boolean }): Promise<number> {
  const dataDir = dataDirOf(ctx, o.dataDir);
  const target = path.resolve(ctx.io.cwd, dir);
  const r = await refusalsAsUsage((m) => m.takeBackup({ dataDir, target, includeSecrets: Boolean(o.includeSecrets) }));
  const value = {
    backup: r.target,
    dataDir,
    startedAt: r.manifest.startedAt,
    endedAt: r.manifest.endedAt,
    databases: r.manifest.databases.length,
    files: r.manifest.files.length,
    bytes: r.bytes,
    seconds: Number(r.seconds.toFixed(3)),
    secretsIncluded: r.manifest.secrets.included,
    vanishedFiles: r.vanishedFiles,
  };
  ctx.printer.result(value, () => {
    ctx.printer.line(
      `backed up ${dataDir} to ${r.target}: ${value.databases} databases, ${value.files} files, ${r.bytes} bytes in ${r.seconds.toFixed(1)} s (snapshot began ${value.startedAt})`,
    );
    if (!r.manifest.secrets.included && r.manifest.secrets.secretKeySha256)
      ctx.printer.line(`secret.key is not in the backup: keep ${path.join(dataDir, "secret.key")} (or ENGRAM_SECRET_KEY) safe apart from it`);
  });
  return 0;
}

export async function restoreCommand(ctx: CommandContext, dir: string, o: { dataDir?: string; secretKeyFile?: string }): Promise<number> {
  const dataDir = dataDirOf(ctx, o.dataDir);
  const source = path.resolve(ctx.io.cwd, dir);
  const secretKeyFile = o.secretKeyFile === undefined ? undefined : path.resolve(ctx.io.cwd, o.secretKeyFile);
  const r = await refusalsAsUsage((m) => m.restoreBackup({ source, dataDir, secretKeyFile }));
  for (const w of r.warnings) ctx.printer.note(`warning: ${w}`);
  const value = {
    dataDir: r.dataDir,
    backup: source,
    snapshotStartedAt: r.manifest.startedAt,
    engramVersion: r.manifest.engramVersion,
    files: r.files,
    bytes: r.bytes,
    seconds: Number(r.seconds.toFixed(3)),
    secretKeyRestored: r.secretKeyRestored,
    warnings: r.warnings,
  };
  ctx.printer.result(value, () =>
    ctx.printer.line(
      `restored ${source} (snapshot of ${value.snapshotStartedAt}) into ${r.dataDir}: ${r.files} files, ${r.bytes} bytes in ${r.seconds.toFixed(1)} s`,
    ),
  );
  return 0;
}
