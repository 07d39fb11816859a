import { z } from "zod";

const selector = () => z.enum(["offline", "openai"], { message: "must be offline or openai" }).default("offline");

/** The per-feature selectors, in the order problems are reported. */
export const NLP_SELECTORS = ["EXTRACTOR", "MEMORY_RELATOR", "RERANKER", "QUERY_REWRITER", "AGGREGATOR", "BUCKET_CLASSIFIER"] as const;

/**
 * Language-port selection from the environment. Every feature defaults to its
 * offline implementation; `openai` uses the OpenAI-compatible chat server at
 * LLM_BASE_URL with LLM_MODEL (both then required).
 */
export const nlpConfigShape = {
  LLM_BASE_URL: z.string().url("must be a URL such as http://localhost:11434/v1").optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number({ message: "must be a number" }).int("must be an integer").min(100).max(600_000).default(30_000),
  LLM_MAX_RETRIES: z.coerce.number({ message: "must be a number" }).int("must be an integer").min(0).max(20).default(3),
  EXTRACTOR: selector(),
  MEMORY_RELATOR: selector(),
  RERANKER: selector(),
  QUERY_REWRITER: selector(),
  AGGREGATOR: selector(),
  BUCKET_CLASSIFIER: selector(),
  /** The offline extractor's worker threads (it never runs on the thread that serves requests). */
  MEMORY_EXTRACTION_THREADS: z.coerce.number({ message: "must be a number" }).int("must be an integer").min(1).max(32).default(1),
  /** Budget of the offline extractor per document: over it, the document's memory formation fails with a reason. */
  MEMORY_EXTRACTION_TIMEOUT_MS: z.coerce.number({ message: "must be a number" }).int("must be an integer").min(100).max(3_600_000).default(60_000),
};

/** The cross-field rule (a feature on `openai` needs the server and model), for every schema that spreads `nlpConfigShape`. */
export function checkNlpConfig(c: { LLM_BASE_URL?: string; LLM_MODEL?: string } & Record<(typeof NLP_SELECTORS)[number], string>, ctx: z.RefinementCtx): void {
  const wanting = NLP_SELECTORS.filter((k) => c[k] === "openai");
  if (wanting.length === 0) return;
  const who = wanting.map((k) => `${k}=openai`).join(", ");
  if (!c.LLM_BASE_URL) ctx.addIssue({ code: "custom", path: ["LLM_BASE_URL"], message: `is required when ${who}` });
  if (!c.LLM_MODEL) ctx.addIssue({ code: "custom", path: ["LLM_MODEL"], message: `is required when ${who}` });
}

export const nlpConfigSchema = z.object(nlpConfigShape).superRefine(checkNlpConfig);

export type NlpConfig = z.infer<typeof nlpConfigSchema>;
