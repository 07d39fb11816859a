import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqlite } from "../src/index";

describe("openSqlite file permissions", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-perm-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const mode = (f: string) => fs.statSync(f).mode & 0o777;

  it("creates the database, its WAL and shared-memory files readable by this user only", () => {
    const db = openSqlite({ dataDir: path.join(dir, "data"), name: "t", migrations: ["CREATE TABLE x (a INTEGER)"] });
    db.prepare("INSERT INTO x VALUES (1)").run();
    for (const f of ["t.db", "t.db-wal", "t.db-shm"]) expect(mode(path.join(dir, "data", f))).toBe(0o600);
    expect(mode(path.join(dir, "data"))).toBe(0o700);
    db.close();
  });

  it("tightens a world-readable database an earlier release created", () => {
    const file = path.join(dir, "old.db");
    fs.writeFileSync(file, "");
    fs.chmodSync(file, 0o644);
    const db = openSqlite({ dataDir: dir, name: "old", migrations: [] });
    expect(mode(file)).toBe(0o600);
    db.close();
  });
});
