import type { Embedder } from "@engram/index";
import type { MemoryRecord } from "../domain/memory";
import type { MemoryRepository, MemoryVector, MemoryWrite, WriteOutcome } from "./ports";

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

  /**
   * Vectors of texts about to be written, by text, in one call: memory formation embeds all of a
   * document's facts before it takes the namespace lock (embedding is the costly part of a write and
   * depends on nothing but the text), so the lock is held only for the lookups and writes.
   */
  async prepare(contents: readonly string[], signal?: AbortSignal): Promise<Map<string, MemoryVector>> {
    const distinct = [...new Set(contents)];
    const out = new Map<string, MemoryVector>();
    if (distinct.length === 0) return out;
    const vectors = await this.embedder.embed(distinct, "document", signal);
    distinct.forEach((c, i) => out.set(c, { vector: vectors[i]!, model: this.embedder.id }));
    return out;
  }

  /**
   * `fresh`: the records whose content is new (they need vectors); `changed`: updates of stored records;
   * `prepared`: vectors already made for some contents (`prepare`), used instead of embedding again.
   */
  async write(
    fresh: MemoryRecord[],
    changed: MemoryRecord[] = [],
    extra: Omit<MemoryWrite, "records" | "vectors"> = {},
    prepared?: ReadonlyMap<string, MemoryVector>,
  ): Promise<WriteOutcome> {
    const missing = prepared ? fresh.filter((r) => !prepared.has(r.content)) : fresh;
    const vectors = await this.embed(missing);
    if (prepared) for (const r of fresh) if (prepared.has(r.content)) vectors.set(r.id, prepared.get(r.content)!);
    return this.repo.write({ records: [...changed, ...fresh], vectors, ...extra });
  }
}
