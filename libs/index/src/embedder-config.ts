import { LocalModelEmbedder } from "@engram/embed-model";
import { z } from "zod";
import type { Embedder } from "./embedder";
import { HashingEmbedder } from "./embedder";
import { OpenAICompatibleEmbedder } from "./openai-embedder";

/**
 * Embedder selection from the environment, shared by every service that
 * embeds (pipeline-worker for chunks, memories for memories, recall for
 * queries): they must build the same models or their vectors would not be
 * comparable.
 *
 * Two choices: `EMBEDDER` embeds document chunks (and their queries);
 * `MEMORY_EMBEDDER` embeds memories (and their queries). Memories are short
 * texts, the sweet spot of a small sentence model, so by default (`auto`) they
 * get the model that ships with Engram (`local`: all-MiniLM-L6-v2, run
 * offline) unless `EMBEDDER` already is a semantic one, which then serves
 * both. Chunks keep the keyword engine's hashing vectors by default: the local
 * model reads 256 word pieces of a chunk in ~90 ms of CPU, which would cut the
 * default ingest rate several times over (docs/architecture.md, "What the
 * default understands").
 */
export const embedderConfigShape = {
  EMBEDDER: z.enum(["hashing", "local", "openai"], { message: "must be hashing, local or openai" }).default("hashing"),
  MEMORY_EMBEDDER: z.enum(["auto", "local", "hashing"], { message: "must be auto, local or hashing" }).default("auto"),
  /** Worker threads of the local model's document pool (memories being written); its query pool has one. */
  LOCAL_EMBED_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(16).max(8192).optional(),
  EMBEDDING_BASE_URL: z.string().url("must be a URL such as http://localhost:11434/v1").optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  EMBEDDING_API_KEY: z.string().min(1).optional(),
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  EMBED_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  /**
   * `floor,full`: the configured model's cosines above a query's baseline that read as no evidence
   * and as full evidence (similarity.ts, DenseCalibration). Memories are ranked by evidence with any
   * semantic model, on this scale or, unset, on DEFAULT_DENSE_CALIBRATION; chunks only with it set.
   */
  EMBEDDING_CALIBRATION: z
    .string()
    .regex(/^\s*-?\d*\.?\d+\s*,\s*-?\d*\.?\d+\s*$/, "must be two numbers, floor,full, such as 0.05,0.3")
    .transform((v) => {
      const [floor, full] = v.split(",").map(Number) as [number, number];
      return { floor, full };
    })
    .refine((c) => c.full > c.floor, "full must be above floor")
    .optional(),
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

type EmbedderChoice = Pick<
  EmbedderConfig,
  | "EMBEDDER"
  | "EMBEDDING_BASE_URL"
  | "EMBEDDING_MODEL"
  | "EMBEDDING_API_KEY"
  | "EMBEDDING_DIMENSIONS"
  | "EMBED_BATCH_SIZE"
  | "EMBEDDING_MAX_RETRIES"
  | "EMBEDDING_TIMEOUT_MS"
  | "LOCAL_EMBED_THREADS"
  | "EMBEDDING_CALIBRATION"
>;

/** The embedder of memories (`MEMORY_EMBEDDER`, see above): `auto` is `EMBEDDER` when that one is semantic, else the local model. */
export function createMemoryEmbedder(c: EmbedderChoice & Pick<EmbedderConfig, "MEMORY_EMBEDDER">): Embedder {
  if (c.MEMORY_EMBEDDER === "hashing") return new HashingEmbedder(c.EMBEDDING_DIMENSIONS ?? 384);
  if (c.MEMORY_EMBEDDER === "local" || c.EMBEDDER === "hashing") return new LocalModelEmbedder({ threads: c.LOCAL_EMBED_THREADS });
  return createEmbedder(c);
}

/** The embedder of document chunks (`EMBEDDER`). */
export function createEmbedder(c: EmbedderChoice): Embedder {
  if (c.EMBEDDER === "local") return new LocalModelEmbedder({ threads: c.LOCAL_EMBED_THREADS });
  if (c.EMBEDDER === "openai") {
    return new OpenAICompatibleEmbedder({
      baseUrl: c.EMBEDDING_BASE_URL!,
      model: c.EMBEDDING_MODEL!,
      apiKey: c.EMBEDDING_API_KEY,
      dimensions: c.EMBEDDING_DIMENSIONS,
      batchSize: c.EMBED_BATCH_SIZE,
      maxRetries: c.EMBEDDING_MAX_RETRIES,
      timeoutMs: c.EMBEDDING_TIMEOUT_MS,
      ...(c.EMBEDDING_CALIBRATION ? { calibration: c.EMBEDDING_CALIBRATION } : {}),
    });
  }
  return new HashingEmbedder(c.EMBEDDING_DIMENSIONS ?? 384);
}
