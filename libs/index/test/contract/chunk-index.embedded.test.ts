import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
  });
});
