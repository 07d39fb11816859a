import { decodeAndAnalyse } from "./page-analysis";

/** One page, decoded and analysed in a worker thread (PageAnalysisPool): the crawler's CPU work, off the serving thread. */
export default function analyse(input: { body: Uint8Array; contentType?: string }): ReturnType<typeof decodeAndAnalyse> {
  return decodeAndAnalyse(input.body, input.contentType);
}
