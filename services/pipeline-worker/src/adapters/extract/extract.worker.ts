import { UnprocessableDocumentError } from "../../domain/errors";
import { extractDocument } from "./index";
import type { ExtractInput, Extracted } from "./types";

/** What crosses the thread boundary: errors are data, so the reason survives structured cloning. */
export type WorkerResult = { ok: true; value: Extracted } | { ok: false; name: string; reason: string };

/** Piscina task: extracts one document in a worker thread. */
export default async function extract(input: ExtractInput): Promise<WorkerResult> {
  try {
    return { ok: true, value: await extractDocument(input) };
  } catch (err) {
    if (err instanceof UnprocessableDocumentError) return { ok: false, name: err.name, reason: err.reason };
    throw err;
  }
}
