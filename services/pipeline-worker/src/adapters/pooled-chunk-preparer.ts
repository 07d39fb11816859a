import { type Embedder, HashingEmbedder } from "@engram/index";
import type { ChunkPreparer } from "../app/ports";
import type { ChunkerOptions } from "../domain/chunker";
import type { PreparedDocument } from "../domain/prepare";
import type { ExtractionPool } from "./extract/pool";

/**
 * The worker's ChunkPreparer: `prepareDocument` (chunks and summary) on the extraction pool's
 * threads, under the pool's per-document time and memory limits. With the
 * offline hashing embedder, vectors are made there too (they cost as much
 * CPU as the analysis); a remote embedder's vectors are left to the caller.
 */
export class PooledChunkPreparer implements ChunkPreparer {
  private readonly hashingDimensions: number | undefined;

  constructor(
    private readonly pool: ExtractionPool,
    embedder: Embedder,
  ) {
    this.hashingDimensions = embedder instanceof HashingEmbedder ? embedder.dimensions : undefined;
  }

  prepare(text: string, chunking: ChunkerOptions, content?: string, signal?: AbortSignal): Promise<PreparedDocument> {
    return this.pool.prepare(
      {
        text,
        chunking,
        ...(content !== undefined ? { content } : {}),
        ...(this.hashingDimensions ? { hashingDimensions: this.hashingDimensions } : {}),
      },
      signal,
    );
  }
}
