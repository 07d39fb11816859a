import fs from "node:fs";
import { SearchEngine } from "@engram/index";
import { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import type { MemoryRepository } from "../../src/app/ports";
import { tempDir } from "../unit/helpers";
import { memoryRepositoryContract } from "./memory-repository.contract";
import { memoryWriteGuardsContract } from "./memory-write-guards.contract";

const open = (dir: string) => new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false });

memoryRepositoryContract("embedded (SQLite + in-memory engine)", async () => {
  const dir = tempDir();
  let repo: MemoryRepository = open(dir);
  return {
    repo,
    async reopen() {
      await repo.close();
      repo = open(dir);
      return repo;
    },
    async cleanup() {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

memoryWriteGuardsContract("embedded (SQLite)", async () => {
  const dir = tempDir();
  const repo = open(dir);
  return {
    repo,
    async cleanup() {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
