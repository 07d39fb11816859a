import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqlite, openExistingSqlite } from "@engram/storage";
import { BACKUP_FORMAT_VERSION, type BackupManifest, BackupRefusedError, MANIFEST_FILE, parseManifest, verifyAgainstManifest } from "../../src/backup/manifest";
import { pinOrder, takeBackup } from "../../src/backup/snapshot";
import { restoreBackup, verifyBackup } from "../../src/backup/restore";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "engram-backup-unit-"));
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

/** A small data directory as the services leave it: WAL databases still open by "the service", files, the secret files. */
function dataDir(): { dir: string; close: () => void; write: (n: number) => void } {
  const dir = tmp();
  const ingestion = openSqlite({
    dataDir: dir,
    name: "ingestion",
    migrations: ["CREATE TABLE docs (id TEXT PRIMARY KEY, body TEXT)", "CREATE INDEX d ON docs(body)"],
  });
  const bus = openSqlite({ dataDir: dir, name: "bus", migrations: ["CREATE TABLE messages (n INTEGER)"] });
  const memories = openSqlite({ dataDir: dir, name: "memories", migrations: ["CREATE TABLE mem (id TEXT)"] });
  const insert = ingestion.prepare("INSERT INTO docs VALUES (?, ?)");
  const write = (n: number) => {
    for (let i = 0; i < n; i++) insert.run(`d${Math.random()}`, "x".repeat(200));
  };
  write(500);
  bus.prepare("INSERT INTO messages VALUES (1)").run();
  memories.prepare("INSERT INTO mem VALUES ('m1')").run();
  fs.mkdirSync(path.join(dir, "files", "ab"), { recursive: true });
  fs.writeFileSync(path.join(dir, "files", "ab", "original.pdf"), "the original bytes");
  fs.mkdirSync(path.join(dir, "files", ".tmp"), { recursive: true });
  fs.writeFileSync(path.join(dir, "files", ".tmp", "upload.part"), "half an upload");
  fs.writeFileSync(path.join(dir, "secret.key"), "a".repeat(64));
  fs.writeFileSync(path.join(dir, "file-url.secret"), "b".repeat(64));
  return {
    dir,
    write,
    close: () => {
      ingestion.close();
      bus.close();
      memories.close();
    },
  };
}

describe("engram backup (takeBackup)", () => {
  it("copies every database, the file store and a manifest whose sizes and checksums are the copies', without the secrets by default", async () => {
    const d = dataDir();
    const target = path.join(tmp(), "backup");
    try {
      const r = await takeBackup({ dataDir: d.dir, target });
      const m = r.manifest;
      expect(m.formatVersion).toBe(BACKUP_FORMAT_VERSION);
      expect(m.databases.map((x) => x.name)).toEqual(["bus", "memories", "ingestion"]);
      expect(m.databases.find((x) => x.name === "ingestion")!.schemaVersion).toBe(2);
      expect(m.files.map((f) => f.path)).toEqual(["files/ab/original.pdf"]);
      expect(m.secrets).toEqual({ included: false, secretKeySha256: sha("a".repeat(64)) });
      for (const e of [...m.databases, ...m.files]) {
        const bytes = fs.readFileSync(path.join(target, e.path));
        expect({ path: e.path, size: bytes.length, sha: sha(bytes) }).toEqual({ path: e.path, size: e.sizeBytes, sha: e.sha256 });
      }
      expect(fs.existsSync(path.join(target, "secret.key"))).toBe(false);
      expect(fs.existsSync(path.join(target, "files", ".tmp"))).toBe(false);
      expect(Date.parse(m.startedAt)).toBeLessThanOrEqual(Date.parse(m.endedAt));
      // The copy of a database the service still has open (WAL) holds every committed row.
      const copy = openExistingSqlite(path.join(target, "ingestion.db"));
      expect(copy.prepare("SELECT count(*) AS n FROM docs").get()).toEqual({ n: 500 });
      copy.close();
      await expect(verifyBackup(target)).resolves.toEqual(m);
    } finally {
      d.close();
    }
  });

  it("does not wait for, nor copy, a write transaction still open in another connection", async () => {
    const d = dataDir();
    const writer = openExistingSqlite(path.join(d.dir, "ingestion.db"));
    const target = path.join(tmp(), "backup");
    try {
      writer.exec("BEGIN IMMEDIATE");
      writer.prepare("INSERT INTO docs VALUES ('uncommitted', 'y')").run();
      await takeBackup({ dataDir: d.dir, target });
      writer.exec("COMMIT");
      const copy = openExistingSqlite(path.join(target, "ingestion.db"));
      expect(copy.prepare("SELECT count(*) AS n FROM docs").get()).toEqual({ n: 500 });
      copy.close();
    } finally {
      writer.close();
      d.close();
    }
  });

  it("includes secret.key and file-url.secret when asked", async () => {
    const d = dataDir();
    const target = path.join(tmp(), "backup");
    try {
      const r = await takeBackup({ dataDir: d.dir, target, includeSecrets: true });
      expect(r.manifest.files.map((f) => f.path).sort()).toEqual(["file-url.secret", "files/ab/original.pdf", "secret.key"]);
      expect(r.manifest.secrets.included).toBe(true);
    } finally {
      d.close();
    }
  });

  it("refuses a backup directory that is not empty, one inside the data directory, and a directory that is not a data directory", async () => {
    const d = dataDir();
    try {
      const busy = tmp();
      fs.writeFileSync(path.join(busy, "old"), "x");
      await expect(takeBackup({ dataDir: d.dir, target: busy })).rejects.toThrow(/is not empty/);
      expect(fs.readdirSync(busy)).toEqual(["old"]);
      await expect(takeBackup({ dataDir: d.dir, target: path.join(d.dir, "bk") })).rejects.toThrow(/outside the data directory/);
      await expect(takeBackup({ dataDir: tmp(), target: path.join(tmp(), "b") })).rejects.toThrow(/not an Engram data directory/);
    } finally {
      d.close();
    }
  });

  it("pins the bus first, then the stores that refer to documents, ingestion, and the index last; an unknown database after the bus", () => {
    expect(
      pinOrder(["index", "ingestion", "memories", "gateway", "bus", "connectors", "zeta", "gateway-idempotency", "connections", "gateway-limits"]),
    ).toEqual(["bus", "zeta", "gateway", "gateway-idempotency", "gateway-limits", "connections", "connectors", "memories", "ingestion", "index"]);
  });
});

describe("engram restore (restoreBackup)", () => {
  async function backup(opts: { includeSecrets?: boolean } = {}): Promise<{ target: string; source: string }> {
    const d = dataDir();
    const target = path.join(tmp(), "backup");
    try {
      await takeBackup({ dataDir: d.dir, target, ...opts });
    } finally {
      d.close();
    }
    return { target, source: d.dir };
  }
  const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8")) as BackupManifest;

  it("restores into an empty directory: the same bytes as the backup, the databases readable", async () => {
    const { target, source } = await backup();
    const into = path.join(tmp(), "data");
    const r = await restoreBackup({ source: target, dataDir: into, secretKeyFile: path.join(source, "secret.key") });
    expect(r.secretKeyRestored).toBe(true);
    expect(r.warnings).toEqual([]);
    for (const e of [...r.manifest.databases, ...r.manifest.files]) expect(sha(fs.readFileSync(path.join(into, e.path)))).toBe(e.sha256);
    expect(fs.readFileSync(path.join(into, "secret.key"), "utf8")).toBe("a".repeat(64));
    expect(fs.statSync(path.join(into, "ingestion.db")).mode & 0o077).toBe(0);
    const db = openExistingSqlite(path.join(into, "ingestion.db"));
    expect(db.prepare("SELECT count(*) AS n FROM docs").get()).toEqual({ n: 500 });
    db.close();
  });

  it("warns when the secret key is neither in the backup nor given", async () => {
    const { target } = await backup();
    const r = await restoreBackup({ source: target, dataDir: path.join(tmp(), "data") });
    expect(r.secretKeyRestored).toBe(false);
    expect(r.warnings.join("\n")).toMatch(/secret\.key is not in the backup/);
  });

  it("refuses a secret key file that is not the backed-up one, writing nothing", async () => {
    const { target } = await backup();
    const wrong = path.join(tmp(), "other.key");
    fs.writeFileSync(wrong, "c".repeat(64));
    const into = path.join(tmp(), "data");
    await expect(restoreBackup({ source: target, dataDir: into, secretKeyFile: wrong })).rejects.toThrow(/is not the secret\.key/);
    expect(fs.existsSync(into)).toBe(false);
  });

  it("refuses a non-empty data directory and leaves it as it was", async () => {
    const { target } = await backup();
    const into = tmp();
    fs.writeFileSync(path.join(into, "memories.db"), "someone's data");
    await expect(restoreBackup({ source: target, dataDir: into })).rejects.toThrow(BackupRefusedError);
    await expect(restoreBackup({ source: target, dataDir: into })).rejects.toThrow(/is not empty/);
    expect(fs.readdirSync(into)).toEqual(["memories.db"]);
    expect(fs.readFileSync(path.join(into, "memories.db"), "utf8")).toBe("someone's data");
  });

  it("refuses a tampered file (same size, other bytes), a missing file and an unlisted file, before writing anything", async () => {
    const { target } = await backup();
    const into = path.join(tmp(), "data");
    const original = path.join(target, "files", "ab", "original.pdf");
    const bytes = fs.readFileSync(original);
    fs.writeFileSync(original, Buffer.from(bytes.toString("utf8").replace("original", "ORIGINAL")));
    await expect(restoreBackup({ source: target, dataDir: into })).rejects.toThrow(/files\/ab\/original\.pdf: SHA-256 differs/);
    expect(fs.existsSync(into)).toBe(false);

    fs.writeFileSync(original, bytes);
    const db = fs.readFileSync(path.join(target, "bus.db"));
    fs.rmSync(path.join(target, "bus.db"));
    await expect(restoreBackup({ source: target, dataDir: into })).rejects.toThrow(/bus\.db: missing/);
    fs.writeFileSync(path.join(target, "bus.db"), db);

    fs.writeFileSync(path.join(target, "files", "ab", "planted.exe"), "x");
    await expect(restoreBackup({ source: target, dataDir: into })).rejects.toThrow(/planted\.exe: not in the manifest/);
    fs.rmSync(path.join(target, "files", "ab", "planted.exe"));
    // Put back as it was, the backup restores.
    await expect(restoreBackup({ source: target, dataDir: into })).resolves.toMatchObject({ files: 4 });
  });

  it("refuses a truncated database (size differs from the manifest)", async () => {
    const { target } = await backup();
    const file = path.join(target, "ingestion.db");
    fs.truncateSync(file, fs.statSync(file).size - 4096);
    await expect(restoreBackup({ source: target, dataDir: path.join(tmp(), "data") })).rejects.toThrow(/ingestion\.db: \d+ bytes, the manifest says \d+/);
  });

  it("refuses a backup without a manifest (cut off before its end) and a manifest of a newer format", async () => {
    const { target } = await backup();
    const manifest = readManifest(target);
    fs.rmSync(path.join(target, MANIFEST_FILE));
    await expect(restoreBackup({ source: target, dataDir: path.join(tmp(), "data") })).rejects.toThrow(/has no manifest\.json/);
    fs.writeFileSync(path.join(target, MANIFEST_FILE), JSON.stringify({ ...manifest, formatVersion: BACKUP_FORMAT_VERSION + 1, newField: {} }));
    await expect(restoreBackup({ source: target, dataDir: path.join(tmp(), "data") })).rejects.toThrow(/format version 2, newer than this Engram reads \(1\)/);
  });
});

describe("the manifest (parseManifest, verifyAgainstManifest)", () => {
  const valid: BackupManifest = {
    format: "engram-backup",
    formatVersion: 1,
    engramVersion: "0.1.0",
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: "2026-01-01T00:00:01.000Z",
    databases: [{ name: "ingestion", path: "ingestion.db", schemaVersion: 3, sizeBytes: 4096, sha256: "a".repeat(64) }],
    files: [{ path: "files/x/y", sizeBytes: 1, sha256: "b".repeat(64) }],
    secrets: { included: false },
  };
  const parse = (m: unknown) => () => parseManifest(JSON.stringify(m));

  it("reads a valid manifest", () => {
    expect(parseManifest(JSON.stringify(valid))).toEqual(valid);
  });

  it("refuses paths that leave the directory, duplicates, bad checksums, unknown fields and other formats", () => {
    expect(parse({ ...valid, files: [{ path: "../../etc/passwd", sizeBytes: 1, sha256: "b".repeat(64) }] })).toThrow(/relative path inside the backup/);
    expect(parse({ ...valid, files: [{ path: "/etc/passwd", sizeBytes: 1, sha256: "b".repeat(64) }] })).toThrow(/relative path/);
    expect(parse({ ...valid, files: [{ path: "files/./x", sizeBytes: 1, sha256: "b".repeat(64) }] })).toThrow(/relative path/);
    expect(parse({ ...valid, files: [{ path: "ingestion.db", sizeBytes: 1, sha256: "b".repeat(64) }] })).toThrow(/lists a path twice/);
    expect(parse({ ...valid, files: [{ path: "files/x", sizeBytes: 1, sha256: "XYZ" }] })).toThrow(/64 lowercase hex/);
    expect(parse({ ...valid, extra: 1 })).toThrow(/malformed/);
    expect(parse({ ...valid, format: "engram-tenant-archive" })).toThrow(/not the manifest of an Engram backup/);
    expect(() => parseManifest("{not json")).toThrow(/not JSON/);
  });

  it("lists every difference between a backup directory and its manifest", () => {
    const observed = new Map([
      ["ingestion.db", { sizeBytes: 4096, sha256: "c".repeat(64) }],
      ["stray", { sizeBytes: 1, sha256: "d".repeat(64) }],
      [MANIFEST_FILE, { sizeBytes: 10, sha256: "e".repeat(64) }],
    ]);
    expect(verifyAgainstManifest(valid, observed)).toEqual([
      "ingestion.db: SHA-256 differs from the manifest (changed or damaged)",
      "files/x/y: missing",
      "stray: not in the manifest",
    ]);
    expect(
      verifyAgainstManifest(
        valid,
        new Map([
          ["ingestion.db", { sizeBytes: 4096, sha256: "a".repeat(64) }],
          ["files/x/y", { sizeBytes: 1, sha256: "b".repeat(64) }],
        ]),
      ),
    ).toEqual([]);
  });
});
