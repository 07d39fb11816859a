/*
 * Runs the threaded fact extractor the way the service does: TypeScript under
 * `node --import tsx`, worker threads loading extractor.worker.ts. Started by
 * threaded-extractor.test.ts (jest cannot run TypeScript in worker threads);
 * prints one JSON object.
 */
import { ExtractionLimitError } from "../src/ports";
import { OfflineFactExtractor } from "../src/offline/extractor";
import { ThreadedFactExtractor } from "../src/offline/threaded-extractor";

const chunks = [
  { position: 0, content: "user: I'm Ilse Marr and I live in Rotterdam.\nuser: I am allergic to penicillin." },
  { position: 1, content: "user: Next March I will run the Lisbon half marathon." },
];

async function main() {
  const input = {
    chunks,
    referenceDate: "2024-01-10T00:00:00.000Z",
    now: "2024-01-10T00:00:00.000Z",
    buckets: [{ key: "health", description: "allergies, illnesses and medicine" }],
  };
  const threaded = new ThreadedFactExtractor({ threads: 1, timeoutMs: 30_000 });
  const inThread = await threaded.extract(input);
  const direct = await new OfflineFactExtractor().extract(input);
  const big = Array.from({ length: 60 }, (_, i) => ({
    position: i,
    content: chunks
      .map((c) => c.content)
      .join("\n")
      .repeat(40),
  }));
  const bigFacts = await threaded.extract({ chunks: big, referenceDate: "2024-01-10T00:00:00.000Z", now: "2024-01-10T00:00:00.000Z" });
  await threaded.close();

  const slow = new ThreadedFactExtractor({ threads: 1, timeoutMs: 100 });
  let limit: { name: string; reason: string } | undefined;
  try {
    await slow.extract({
      chunks: Array.from({ length: 400 }, (_, i) => ({ position: i, content: big[0]!.content })),
      referenceDate: "2024-01-10T00:00:00.000Z",
      now: "2024-01-10T00:00:00.000Z",
    });
  } catch (err) {
    if (err instanceof ExtractionLimitError) limit = { name: err.name, reason: err.reason };
  }
  await slow.close();
  process.stdout.write(
    `${JSON.stringify({ same: JSON.stringify(inThread) === JSON.stringify(direct), facts: inThread.length, id: threaded.id, bigFacts: bigFacts.length, limit })}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
