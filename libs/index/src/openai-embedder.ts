import type { DenseCalibration } from "./similarity";
import { ProviderError, type RetryPolicy, displayUrl, parseRetryAfter, postJson, withRetries } from "@engram/provider-http";
import { type Embedder, normalize } from "./embedder";

export interface OpenAICompatibleEmbedderOptions {
  /** API root including the version segment, e.g. `http://localhost:11434/v1` or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Requested output size, sent as `dimensions` only when set; every returned vector must then have this length. */
  dimensions?: number;
  /** Maximum inputs per request (default 64). Larger inputs are split into sequential requests. */
  batchSize?: number;
  /** Retries after the first attempt for retryable failures (default 5). */
  maxRetries?: number;
  /** Per-request timeout, response body included (default 30 000 ms). */
  timeoutMs?: number;
  /** Backoff cap of the first retry (default 500 ms); doubles each retry, with full jitter. */
  initialBackoffMs?: number;
  /** Upper bound of any single wait between attempts, server hints included (default 20 000 ms). */
  maxBackoffMs?: number;
  /** Injectable fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Prepended to every text embedded with kind "query" (e.g. "query: "). */
  queryPrefix?: string;
  /** Prepended to every text embedded with kind "document" (e.g. "passage: "). */
  documentPrefix?: string;
  /** The model's cosine scale, when the operator measured it (EMBEDDING_CALIBRATION; Embedder.calibration). */
  calibration?: DenseCalibration;
}

/**
 * A failure talking to the embeddings provider. `retryable` tells the caller
 * whether trying again later may succeed (rate limits, 5xx, network errors,
 * timeouts, and giving up after exhausting retries on those) or not (other
 * 4xx, malformed responses, misconfiguration).
 */
export class EmbeddingProviderError extends ProviderError {
  override name = "EmbeddingProviderError";
}

export { parseRetryAfter };

function positiveInt(name: string, v: number | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < (allowZero ? 0 : 1))
    throw new RangeError(`OpenAICompatibleEmbedder: ${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${v}`);
  return v;
}

function nonNegative(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`OpenAICompatibleEmbedder: ${name} must be a non-negative number, got ${v}`);
  return v;
}

/**
 * Embedder backed by any server speaking the OpenAI `POST /embeddings` API
 * (OpenAI, Azure-style gateways, Ollama, vLLM, llama.cpp, TEI, LM Studio...).
 *
 * - `id` is `openai:<model>:<dimensions|native>`, so vectors from different
 *   models or output sizes never mix.
 * - `dimensions` is the configured size; when none is configured it is 0
 *   until the first successful response, then the learned native size (later
 *   responses must match it). Callers that need the size before any call
 *   (e.g. to create a vector column) must configure `dimensions`.
 * - Inputs are sent in sequential batches of at most `batchSize`; results
 *   keep input order (the response is ordered by `index`), are validated
 *   (count, length, finite numbers) and L2-normalised, since some servers
 *   return unnormalised vectors.
 * - Empty strings are sent as " " because some servers reject "".
 * - 429/500/502/503/504, network errors and timeouts are retried up to
 *   `maxRetries` times with exponential backoff and full jitter, or after the
 *   server's `retry-after-ms` / `Retry-After` hint (capped at `maxBackoffMs`).
 *   Other failures throw at once. All failures are `EmbeddingProviderError`s
 *   carrying `retryable`.
 */
export class OpenAICompatibleEmbedder implements Embedder {
  readonly semantic = true;
  readonly id: string;
  readonly calibration?: DenseCalibration;
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly configuredDimensions: number | undefined;
  private learnedDimensions: number | undefined;
  private readonly batchSize: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly queryPrefix: string;
  private readonly documentPrefix: string;

  constructor(options: OpenAICompatibleEmbedderOptions) {
    if (!options.baseUrl) throw new RangeError("OpenAICompatibleEmbedder: baseUrl is required");
    if (!options.model) throw new RangeError("OpenAICompatibleEmbedder: model is required");
    this.model = options.model;
    if (options.calibration) this.calibration = options.calibration;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
    this.apiKey = options.apiKey || undefined;
    this.configuredDimensions = options.dimensions === undefined ? undefined : positiveInt("dimensions", options.dimensions, 0);
    this.batchSize = positiveInt("batchSize", options.batchSize, 64);
    this.retryPolicy = {
      maxRetries: positiveInt("maxRetries", options.maxRetries, 5, true),
      initialBackoffMs: nonNegative("initialBackoffMs", options.initialBackoffMs, 500),
      maxBackoffMs: nonNegative("maxBackoffMs", options.maxBackoffMs, 20_000),
    };
    this.timeoutMs = positiveInt("timeoutMs", options.timeoutMs, 30_000);
    this.queryPrefix = options.queryPrefix ?? "";
    this.documentPrefix = options.documentPrefix ?? "";
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new RangeError("OpenAICompatibleEmbedder: no fetch implementation available");
    this.fetchImpl = f;
    this.id = `openai:${this.model}:${this.configuredDimensions ?? "native"}`;
  }

  /** Configured size, else the size learned from the first response, else 0 (unknown yet). */
  get dimensions(): number {
    return this.configuredDimensions ?? this.learnedDimensions ?? 0;
  }

  async embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const prefix = kind === "query" ? this.queryPrefix : this.documentPrefix;
    const inputs = texts.map((t) => {
      const s = prefix + t;
      return s === "" ? " " : s;
    });
    const out: Float32Array[] = [];
    for (let i = 0; i < inputs.length; i += this.batchSize) {
      out.push(...(await this.embedBatchWithRetry(inputs.slice(i, i + this.batchSize))));
    }
    return out;
  }

  private embedBatchWithRetry(input: string[]): Promise<Float32Array[]> {
    return withRetries(() => this.embedBatch(input), this.retryPolicy, {
      errorClass: EmbeddingProviderError,
      what: `Embedding request to ${displayUrl(this.url)}`,
    });
  }

  /** One HTTP attempt; throws EmbeddingProviderError only. */
  private async embedBatch(input: string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: this.model, input, encoding_format: "float" };
    if (this.configuredDimensions !== undefined) body.dimensions = this.configuredDimensions;
    const { status, text } = await postJson({
      url: this.url,
      body,
      apiKey: this.apiKey,
      timeoutMs: this.timeoutMs,
      fetch: this.fetchImpl,
      what: `Embedding request to ${displayUrl(this.url)}`,
      errorClass: EmbeddingProviderError,
    });
    return this.parse(text, input.length, status);
  }

  private parse(text: string, expected: number, status: number): Float32Array[] {
    const bad = (why: string) => new EmbeddingProviderError(`Invalid embeddings response from ${displayUrl(this.url)}: ${why}`, { retryable: false, status });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw bad("body is not JSON");
    }
    const data = (json as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw bad('missing "data" array');
    if (data.length !== expected) throw bad(`expected ${expected} embeddings, got ${data.length}`);

    const want = this.configuredDimensions ?? this.learnedDimensions;
    const out: (Float32Array | undefined)[] = new Array(expected);
    let size = want;
    for (let i = 0; i < data.length; i++) {
      const item = data[i] as { index?: unknown; embedding?: unknown } | null;
      const index = item?.index ?? i;
      if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= expected) throw bad(`item ${i} has invalid index ${String(index)}`);
      if (out[index]) throw bad(`duplicate index ${index}`);
      const emb = item?.embedding;
      if (!Array.isArray(emb)) throw bad(`item ${index} has no float embedding array`);
      if (emb.length === 0) throw bad(`item ${index} has an empty embedding`);
      size ??= emb.length;
      if (emb.length !== size) throw bad(`item ${index} has ${emb.length} dimensions, expected ${size}`);
      const v = new Float32Array(emb.length);
      for (let j = 0; j < emb.length; j++) {
        const x = emb[j] as unknown;
        if (typeof x !== "number" || !Number.isFinite(x)) throw bad(`item ${index} has a non-finite value at ${j}`);
        v[j] = x;
      }
      out[index] = normalize(v);
    }
    if (this.configuredDimensions === undefined && this.learnedDimensions === undefined) this.learnedDimensions = size;
    return out as Float32Array[];
  }
}
