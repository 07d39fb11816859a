import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SqliteChunkIndex } from "../../src/sqlite-chunk-index";
import { chunkIndexContract } from "./chunk-index.contract";

describe("ChunkIndex contract: SqliteChunkIndex (embedded)", () => {
  let dir = "";
  chunkIndexContract({
    dimensions: 128,
    fresh: async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-index-"));
    },
    open: async () => new SqliteChunkIndex(dir),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    // Rows of an earlier release have no filepath (NULL); another connection's write, as an upgrade leaves the file.
    forgetFilepaths: async () => {
      const db = new Database(path.join(dir, "index.db"));
      db.prepare("UPDATE chunks SET filepath = NULL").run();
      db.close();
    },
  });
});
