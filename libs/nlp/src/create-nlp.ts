import type { NlpConfig } from "./config";
import { OfflineAggregator } from "./offline/aggregator";
import { OfflineBucketClassifier } from "./offline/classifier";
import { OfflineFactExtractor } from "./offline/extractor";
import { ThreadedFactExtractor } from "./offline/threaded-extractor";
import { OfflineMemoryRelator } from "./offline/relator";
import { OfflineReranker } from "./offline/reranker";
import { OfflineQueryRewriter } from "./offline/rewriter";
import { OpenAIAggregator } from "./openai/aggregator";
import { ChatClient } from "./openai/chat-client";
import { OpenAIBucketClassifier } from "./openai/classifier";
import { OpenAIFactExtractor } from "./openai/extractor";
import { OpenAIMemoryRelator } from "./openai/relator";
import { OpenAIReranker } from "./openai/reranker";
import { OpenAIQueryRewriter } from "./openai/rewriter";
import type { Nlp } from "./ports";

export interface CreateNlpOptions {
  /** Injectable fetch for the chat client (tests). */
  fetch?: typeof fetch;
  /**
   * Run the offline extractor on worker threads (ThreadedFactExtractor) under
   * MEMORY_EXTRACTION_TIMEOUT_MS. Services always do; in-process tests that
   * cannot load worker modules leave it off.
   */
  threads?: boolean;
}

/**
 * Builds every language port from a validated configuration: each feature
 * offline unless its selector says `openai`, in which case all `openai`
 * features share one ChatClient. Throws a RangeError naming the missing
 * variables when `openai` is selected without LLM_BASE_URL / LLM_MODEL (the
 * schema already refuses that; this guards hand-built configs).
 */
export function createNlp(config: NlpConfig, options: CreateNlpOptions = {}): Nlp {
  let client: ChatClient | undefined;
  const chat = (feature: string): ChatClient => {
    if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
      const missing = [!config.LLM_BASE_URL && "LLM_BASE_URL", !config.LLM_MODEL && "LLM_MODEL"].filter(Boolean).join(" and ");
      throw new RangeError(`${feature}=openai requires ${missing}`);
    }
    client ??= new ChatClient({
      baseUrl: config.LLM_BASE_URL,
      model: config.LLM_MODEL,
      apiKey: config.LLM_API_KEY,
      timeoutMs: config.LLM_TIMEOUT_MS,
      maxRetries: config.LLM_MAX_RETRIES,
      fetch: options.fetch,
    });
    return client;
  };
  const classifier = config.BUCKET_CLASSIFIER === "openai" ? new OpenAIBucketClassifier(chat("BUCKET_CLASSIFIER")) : new OfflineBucketClassifier();
  const threaded =
    config.EXTRACTOR !== "openai" && options.threads
      ? new ThreadedFactExtractor({ threads: config.MEMORY_EXTRACTION_THREADS ?? 1, timeoutMs: config.MEMORY_EXTRACTION_TIMEOUT_MS ?? 60_000 })
      : undefined;
  return {
    extractor:
      config.EXTRACTOR === "openai"
        ? new OpenAIFactExtractor(chat("EXTRACTOR"))
        : (threaded ?? new OfflineFactExtractor({ classifier: classifier instanceof OfflineBucketClassifier ? classifier : undefined })),
    relator: config.MEMORY_RELATOR === "openai" ? new OpenAIMemoryRelator(chat("MEMORY_RELATOR")) : new OfflineMemoryRelator(),
    reranker: config.RERANKER === "openai" ? new OpenAIReranker(chat("RERANKER")) : new OfflineReranker(),
    rewriter: config.QUERY_REWRITER === "openai" ? new OpenAIQueryRewriter(chat("QUERY_REWRITER")) : new OfflineQueryRewriter(),
    aggregator: config.AGGREGATOR === "openai" ? new OpenAIAggregator(chat("AGGREGATOR")) : new OfflineAggregator(),
    classifier,
    close: async () => threaded?.close(),
  };
}
