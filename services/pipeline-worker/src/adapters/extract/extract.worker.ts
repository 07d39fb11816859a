import { UnprocessableDocumentError } from "../../domain/errors";
import { type PreparedDocument, type PrepareInput, prepareDocument } from "../../domain/prepare";
import { extractDocument } from "./index";
import type { ExtractInput, Extracted } from "./types";

/** What crosses the thread boundary: errors are data, so the reason survives structured cloning. */
export type WorkerResult<T = Extracted> = { ok: true; value: T } | { ok: false; name: string; reason: string };

/** Piscina task (the default): extracts one document in a worker thread. */
export default async function extract(input: ExtractInput): Promise<WorkerResult> {
  try {
    return { ok: true, value: await extractDocument(input) };
  } catch (err) {
    if (err instanceof UnprocessableDocumentError) return { ok: false, name: err.name, reason: err.reason };
    throw err;
  }
}

/** Piscina task `prepare`: chunks, analyses and (hashing embedder) embeds one document's text in a worker thread. */
export function prepare(input: PrepareInput): WorkerResult<PreparedDocument> {
  return { ok: true, value: prepareDocument(input) };
}
