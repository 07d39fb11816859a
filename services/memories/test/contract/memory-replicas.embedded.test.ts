import fs from "node:fs";
import { HashingEmbedder } from "@engram/index";
import { openStore, tempDir } from "../unit/helpers";
import { memoryReplicasContract } from "./memory-replicas.contract";

memoryReplicasContract("embedded (SQLite + in-memory engine)", async () => {
  const dir = tempDir();
  const repo = openStore(dir);
  return {
    repo,
    embedder: new HashingEmbedder(64),
    async cleanup() {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
