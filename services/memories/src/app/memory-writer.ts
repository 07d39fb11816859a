import type { Embedder } from "@engram/index";
import type { MemoryRecord } from "../domain/memory";
import type { MemoryRepository, MemoryVector, MemoryWrite } from "./ports";

/**
 * Writes memories with their embeddings: new or re-worded records are
 * embedded (one call per write) before the store commits them, so a memory is
 * searchable on both sides the moment the write returns.
 */
export class MemoryWriter {
  constructor(
    private readonly repo: MemoryRepository,
    private readonly embedder: Embedder,
  ) {}

  async embed(records: MemoryRecord[]): Promise<Map<string, MemoryVector>> {
    const out = new Map<string, MemoryVector>();
    if (records.length === 0) return out;
    const vectors = await this.embedder.embed(
      records.map((r) => r.content),
      "document",
    );
    records.forEach((r, i) => out.set(r.id, { vector: vectors[i]!, model: this.embedder.id }));
    return out;
  }

  /** `fresh`: the records whose content is new (they need vectors); `changed`: updates of stored records. */
  async write(fresh: MemoryRecord[], changed: MemoryRecord[] = [], extra: Omit<MemoryWrite, "records" | "vectors"> = {}): Promise<boolean> {
    const vectors = await this.embed(fresh);
    return this.repo.write({ records: [...changed, ...fresh], vectors, ...extra });
  }
}
