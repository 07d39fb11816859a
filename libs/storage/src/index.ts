import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export type SqliteDatabase = Database.Database;
export type SqliteStatement = Database.Statement;

export interface OpenSqliteOptions {
  /** Data directory; the file is `<dataDir>/<name>.db`. `:memory:` for tests. */
  dataDir: string;
  name: string;
  /** Ordered migrations; applied once each, tracked by PRAGMA user_version. */
  migrations: string[];
}

/**
 * Opens an embedded SQLite database: WAL journal (readers never block the
 * writer), synchronous=NORMAL (durable across process crashes), foreign keys
 * on, and the component's migrations applied in one transaction each.
 */
export function openSqlite(opts: OpenSqliteOptions): SqliteDatabase {
  let file = ":memory:";
  if (opts.dataDir !== ":memory:") {
    fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    file = path.join(opts.dataDir, `${opts.name}.db`);
    // Only this user reads the data: the file is created 0600 (SQLite gives its -wal and -shm files the
    // same mode), and a file an earlier release created world-readable is tightened.
    fs.closeSync(fs.openSync(file, "a", 0o600));
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(f) && (fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, 0o600);
  }
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db, opts.migrations);
  return db;
}

/**
 * Opens an existing database file as it is: no migration, no journal-mode change, only a busy timeout. For tools
 * that read a store another process owns (the online backup), which must neither create a file nor change a schema.
 */
export function openExistingSqlite(file: string): SqliteDatabase {
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

function migrate(db: SqliteDatabase, migrations: string[]): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** JSON column helpers: undefined stays NULL. */
export const jsonColumn = {
  write: (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v)),
  read: <T>(v: unknown): T | undefined => (typeof v === "string" ? (JSON.parse(v) as T) : undefined),
};

/**
 * Prepared-statement cache for one database: `sql` text -> statement.
 * Preparing is far more expensive than running; hot paths must not re-prepare.
 */
export function statementCache(db: SqliteDatabase): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/**
 * Runs functions in a transaction through one cached better-sqlite3
 * transaction wrapper (building a wrapper per call prepares BEGIN/COMMIT
 * statements every time). Nested calls become savepoints.
 */
export function transactor(db: SqliteDatabase): <T>(fn: () => T) => T {
  const run = db.transaction((fn: () => unknown) => fn());
  return <T>(fn: () => T): T => run(fn) as T;
}
export { ListingCursors, listingKey, mongoKeysetAfter } from "./listing-cursors";
