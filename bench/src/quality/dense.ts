/**
 * The dense part on its own, computed in the bench process: every document text and every query is
 * embedded through the same OpenAI-compatible provider the stack is configured with (the same client
 * as the stack: `OpenAICompatibleEmbedder`, POST {url}/embeddings in batches, retries with backoff,
 * L2-normalised), and each query ranks all documents by exact cosine.
 */
import { OpenAICompatibleEmbedder } from "@engram/index";
import type { Dataset } from "./datasets";
import { documentContent } from "./datasets";
import { rankByScore } from "./metrics";

export interface ProviderSettings {
  url: string;
  model: string;
  apiKey?: string;
}

export interface DatasetVectors {
  /** In `ds.docs` order. */
  docs: Float32Array[];
  /** Query id -> vector. */
  queries: Map<string, Float32Array>;
  dims: number;
  ms: number;
}

export function providerEmbedder(p: ProviderSettings): OpenAICompatibleEmbedder {
  return new OpenAICompatibleEmbedder({ baseUrl: p.url, model: p.model, apiKey: p.apiKey, batchSize: 64, maxRetries: 5, timeoutMs: 60_000 });
}

/** Embeds every document (as ingested: title + "\n\n" + text) and every judged query. */
export async function embedDataset(p: ProviderSettings, ds: Dataset, onProgress?: (done: number, total: number) => void): Promise<DatasetVectors> {
  const t = performance.now();
  const embedder = providerEmbedder(p);
  const texts = ds.docs.map(documentContent);
  const docs: Float32Array[] = [];
  const step = 640;
  for (let i = 0; i < texts.length; i += step) {
    docs.push(...(await embedder.embed(texts.slice(i, i + step), "document")));
    onProgress?.(docs.length, texts.length);
  }
  const qv = await embedder.embed(
    ds.queries.map((q) => q.text),
    "query",
  );
  const queries = new Map(ds.queries.map((q, i) => [q.id, qv[i]!]));
  return { docs, queries, dims: embedder.dimensions, ms: performance.now() - t };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Dense-only run: per query, the top `limit` documents by cosine (trec_eval tie order). */
export function denseRun(ds: Dataset, v: DatasetVectors, limit: number): Map<string, string[]> {
  const run = new Map<string, string[]>();
  for (const q of ds.queries) {
    const qv = v.queries.get(q.id)!;
    const scored = ds.docs.map((d, i) => ({ id: d.id, score: dot(qv, v.docs[i]!) }));
    run.set(q.id, rankByScore(scored).slice(0, limit));
  }
  return run;
}
