import { z } from "zod";
import type { Embedder } from "./embedder";
import { HashingEmbedder } from "./embedder";
import { OpenAICompatibleEmbedder } from "./openai-embedder";

/**
 * Embedder selection from the environment, shared by every service that
 * embeds (pipeline-worker for chunks, recall for queries): both must build the
 * same model or their vectors would not be comparable.
 */
export const embedderConfigShape = {
  EMBEDDER: z.enum(["hashing", "openai"], { message: "must be hashing or openai" }).default("hashing"),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(16).max(8192).optional(),
  EMBEDDING_BASE_URL: z.string().url("must be a URL such as http://localhost:11434/v1").optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  EMBEDDING_API_KEY: z.string().min(1).optional(),
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  EMBED_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
};

/** The cross-field rule of the embedder settings, for every schema that spreads `embedderConfigShape`. */
export function checkEmbedderConfig(c: { EMBEDDER: string; EMBEDDING_BASE_URL?: string; EMBEDDING_MODEL?: string }, ctx: z.RefinementCtx): void {
  if (c.EMBEDDER === "openai") {
    if (!c.EMBEDDING_BASE_URL) ctx.addIssue({ code: "custom", path: ["EMBEDDING_BASE_URL"], message: "is required when EMBEDDER=openai" });
    if (!c.EMBEDDING_MODEL) ctx.addIssue({ code: "custom", path: ["EMBEDDING_MODEL"], message: "is required when EMBEDDER=openai" });
  }
}

export const embedderConfigSchema = z.object(embedderConfigShape).superRefine(checkEmbedderConfig);

export type EmbedderConfig = z.infer<typeof embedderConfigSchema>;

export function createEmbedder(c: EmbedderConfig): Embedder {
  if (c.EMBEDDER === "openai") {
    return new OpenAICompatibleEmbedder({
      baseUrl: c.EMBEDDING_BASE_URL!,
      model: c.EMBEDDING_MODEL!,
      apiKey: c.EMBEDDING_API_KEY,
      dimensions: c.EMBEDDING_DIMENSIONS,
      batchSize: c.EMBED_BATCH_SIZE,
      maxRetries: c.EMBEDDING_MAX_RETRIES,
      timeoutMs: c.EMBEDDING_TIMEOUT_MS,
    });
  }
  return new HashingEmbedder(c.EMBEDDING_DIMENSIONS ?? 384);
}
