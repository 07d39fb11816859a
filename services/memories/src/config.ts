import { env, loadConfig, z, type Env } from "@engram/config";
import { embedderConfigShape } from "@engram/index";
import { NLP_SELECTORS, nlpConfigShape } from "@engram/nlp";

export const memoriesConfigSchema = z
  .object({
    ENGRAM_DATA_DIR: env.string("./.data"),
    MEMORIES_GRPC_ADDRESS: env.string("0.0.0.0:50053"),
    /** Where source documents are read during memory formation. */
    INGESTION_ADDRESS: env.string("127.0.0.1:50051"),
    RECALL_ADDRESS: env.string("127.0.0.1:50054"),
    /** Settings (profile buckets) live in the connections service. */
    CONNECTIONS_ADDRESS: env.string("127.0.0.1:50055"),
    /** Delivery attempts of one event before its document fails (the bus retries with backoff). */
    BUS_MAX_ATTEMPTS: env.int(5, { min: 1, max: 100 }),
    /** How often memories past their forgetAfter are forgotten. */
    MEMORY_EXPIRY_SWEEP_MS: env.int(60_000, { min: 100, max: 86_400_000 }),
    /** Memories must be embedded like the queries recall embeds: the same embedder settings. */
    ...embedderConfigShape,
    /** Fact extraction, relating and bucket classification: offline (default) or an OpenAI-compatible chat model. */
    ...nlpConfigShape,
  })
  .superRefine((c, ctx) => {
    const wanting = NLP_SELECTORS.filter((k) => c[k] === "openai");
    if (wanting.length && !c.LLM_BASE_URL)
      ctx.addIssue({ code: "custom", path: ["LLM_BASE_URL"], message: `is required when ${wanting.map((k) => `${k}=openai`).join(", ")}` });
    if (wanting.length && !c.LLM_MODEL)
      ctx.addIssue({ code: "custom", path: ["LLM_MODEL"], message: `is required when ${wanting.map((k) => `${k}=openai`).join(", ")}` });
    if (c.EMBEDDER === "openai" && !c.EMBEDDING_BASE_URL)
      ctx.addIssue({ code: "custom", path: ["EMBEDDING_BASE_URL"], message: "is required when EMBEDDER=openai" });
    if (c.EMBEDDER === "openai" && !c.EMBEDDING_MODEL) ctx.addIssue({ code: "custom", path: ["EMBEDDING_MODEL"], message: "is required when EMBEDDER=openai" });
  });

export type MemoriesConfig = z.infer<typeof memoriesConfigSchema>;

export function loadMemoriesConfig(e: Env = process.env): MemoriesConfig {
  return loadConfig("memories", memoriesConfigSchema, e);
}
