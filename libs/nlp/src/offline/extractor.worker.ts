import type { ExtractedFact, ExtractionInput } from "../ports";
import { OfflineFactExtractor } from "./extractor";

const extractor = new OfflineFactExtractor();

/** Piscina task: the offline fact extractor on a worker thread (see ThreadedFactExtractor). */
export default function extract(input: ExtractionInput): Promise<ExtractedFact[]> {
  return extractor.extract(input);
}
