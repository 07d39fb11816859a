import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteDocumentRepository } from "../../src/adapters/embedded/document.sqlite";
import { type DocumentRepositoryHarness, documentRepositoryContract } from "./document-repository.contract";
import { ingestionUseCasesContract } from "./ingestion-use-cases.contract";

/** SqliteDocumentRepository in a fresh temporary data directory. */
async function openEmbedded(): Promise<DocumentRepositoryHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ingestion-"));
  let repo = new SqliteDocumentRepository(dir);
  return {
    get repo() {
      return repo;
    },
    pendingEvents: async () => repo.outbox.pending(100_000).map((e) => e.message),
    reopen: async () => {
      await repo.close();
      repo = new SqliteDocumentRepository(dir);
      return repo;
    },
    close: async () => {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("SqliteDocumentRepository (document repository contract)", () => {
  documentRepositoryContract(openEmbedded);
});

describe("ingestion use cases on SqliteDocumentRepository", () => {
  ingestionUseCasesContract(openEmbedded);
});
