import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NAMESPACE_STATS_SQL, SqliteDocumentRepository, STALE_DOCUMENTS_SQL, WITHOUT_CONTENT_COLUMNS } from "../../src/adapters/embedded/document.sqlite";
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

describe("SqliteDocumentRepository listing without content", () => {
  it("selects every column of the documents table but the content, which it only measures", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ingestion-"));
    const repo = new SqliteDocumentRepository(dir);
    try {
      const columns = (repo.db.prepare("PRAGMA table_info(documents)").all() as { name: string }[]).map((c) => c.name);
      const selected = WITHOUT_CONTENT_COLUMNS.split(", ").filter((c) => /^[a-z_]+$/.test(c));
      expect([...selected, "content"].sort()).toEqual([...columns].sort());
      expect(WITHOUT_CONTENT_COLUMNS).toContain("'' AS content, octet_length(content) AS content_bytes");
    } finally {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SqliteDocumentRepository query plans", () => {
  it("finds stale documents through documents_by_status, never by walking every document (sweep cost independent of the store size)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ingestion-"));
    const repo = new SqliteDocumentRepository(dir);
    try {
      // Without statistics, as the store runs (it never runs ANALYZE).
      const plan = (repo.db.prepare(`EXPLAIN QUERY PLAN ${STALE_DOCUMENTS_SQL}`).all("2026-01-01T00:00:00.000Z", 500) as { detail: string }[])
        .map((r) => r.detail)
        .join("; ");
      expect(plan).toMatch(/SEARCH documents USING INDEX documents_by_status \(status=\? AND updated_at<\?\)/);
      expect(plan).not.toMatch(/SCAN documents/);
    } finally {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts a tenant's documents per tag from documents_by_scope alone (no table read, no sort)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ingestion-"));
    const repo = new SqliteDocumentRepository(dir);
    try {
      for (const ns of [null, "research"]) {
        const plan = (repo.db.prepare(`EXPLAIN QUERY PLAN ${NAMESPACE_STATS_SQL}`).all({ tenant_id: "t1", namespace: ns }) as { detail: string }[])
          .map((r) => r.detail)
          .join("; ");
        expect(plan).toMatch(/documents USING INDEX documents_by_scope \(tenant_id=\?/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      await repo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
