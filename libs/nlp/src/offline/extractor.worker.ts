import type { ExtractedFact, ExtractionInput, RelationCandidate, RelationDecision } from "../ports";
import { OfflineFactExtractor } from "./extractor";
import { OfflineMemoryRelator } from "./relator";

const extractor = new OfflineFactExtractor();
const relator = new OfflineMemoryRelator();

/** Piscina task: the offline fact extractor on a worker thread (see ThreadedFactExtractor). */
export default function extract(input: ExtractionInput): Promise<ExtractedFact[]> {
  return extractor.extract(input);
}

/** Piscina task `relate`: the offline relator on the same threads (ThreadedFactExtractor.relator). */
export function relate(task: { fact: ExtractedFact; candidates: RelationCandidate[] }): RelationDecision {
  return relator.relateSync(task.fact, task.candidates);
}
