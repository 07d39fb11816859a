import path from "node:path";
import { runTsxCheck } from "@engram/testing";

/* jest compiles TypeScript itself (swc) and worker threads cannot load .ts here: the check runs under `node --import tsx`. */
describe("ThreadedFactExtractor (worker threads under node --import tsx)", () => {
  let result: { same: boolean; facts: number; id: string; bigFacts: number; limit?: { name: string; reason: string } };

  beforeAll(async () => {
    result = await runTsxCheck(path.join(__dirname, "threaded-check.ts"));
  }, 120_000);

  it("extracts on a worker thread exactly what the extractor extracts on the calling thread", () => {
    expect(result.facts).toBeGreaterThanOrEqual(3);
    expect(result.same).toBe(true);
    expect(result.id).toBe("offline-v1");
    expect(result.bigFacts).toBeGreaterThan(0);
  });

  it("stops a document over its budget with ExtractionLimitError and a readable reason", () => {
    expect(result.limit).toEqual({
      name: "ExtractionLimitError",
      reason: "reading memories from the document took longer than 100 ms and was stopped; split it into smaller documents",
    });
  });
});
