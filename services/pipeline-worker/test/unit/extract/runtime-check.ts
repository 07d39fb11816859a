/*
 * Exercises the extraction pool the way the service runs it: TypeScript under
 * `node --import tsx`, worker threads loading extract.worker.ts. Started by
 * pool.test.ts (jest cannot run TypeScript in worker threads); prints one JSON
 * object. Run by hand: node --import tsx --import ./no-network.ts runtime-check.ts
 */
import fs from "node:fs";
import path from "node:path";
import { ExtractionPool } from "../../../src/adapters/extract/pool";
import { UnprocessableDocumentError } from "../../../src/domain/errors";
import { prepareDocument } from "../../../src/domain/prepare";
import { FIXTURES_DIR } from "./fixtures";
import { bigPdf } from "./make-pdf";

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
    return { failed: false };
  } catch (err) {
    return {
      failed: true,
      unprocessable: err instanceof UnprocessableDocumentError,
      name: (err as Error).name,
      reason: (err as UnprocessableDocumentError).reason,
    };
  }
};

/** Longest pause of the event loop while `work` runs (a 5 ms interval timer that should keep ticking). */
async function maxLoopGap<T>(work: () => Promise<T>): Promise<{ value: T; maxGapMs: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, maxGapMs: Math.max(maxGapMs, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const pool = new ExtractionPool({ threads: 2, timeoutMs: 60_000 });
  const memo = new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, "pdf/fake-memo.pdf")));
  const pdf = await pool.run({ bytes: memo, fileName: "fake-memo.pdf" });
  const random = new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
  const invalid = await failure(pool.run({ bytes: random, fileName: "x.pdf" }));
  const image = await pool.run({ bytes: new Uint8Array(fs.readFileSync(path.join(__dirname, "fixtures/memo.png"))), fileName: "memo.png" });
  const big = bigPdf(100);
  const pooled = await maxLoopGap(() => pool.run({ bytes: big, fileName: "big.pdf" }));
  // Chunking and analysis in a worker: the same pieces, terms and hashing vectors as on this thread.
  const prose = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: the committee reviewed running costs and agreed on storage budgets.`).join("\n\n");
  const chunking = { maxTokens: 64, overlapTokens: 8 };
  const { chunks: prepared, summary } = await pool.prepare({ text: prose, chunking, hashingDimensions: 64 });
  const inline = prepareDocument({ text: prose, chunking, hashingDimensions: 64 });
  const sameAsInline =
    JSON.stringify(prepared.map((c) => ({ ...c, vector: Array.from(c.vector!) }))) ===
      JSON.stringify(inline.chunks.map((c) => ({ ...c, vector: Array.from(c.vector!) }))) && summary === inline.summary;
  const oneWord = (await pool.prepare({ text: "z".repeat(1_000_000), chunking: { maxTokens: 512, overlapTokens: 64 } })).chunks;
  await pool.close();

  const slow = new ExtractionPool({ threads: 1, timeoutMs: 150 });
  const started = performance.now();
  const timeout = await failure(slow.run({ bytes: big, fileName: "big.pdf" }));
  const timeoutAfterMs = performance.now() - started;
  const prepareTimeout = await failure(slow.prepare({ text: prose.repeat(200), chunking, hashingDimensions: 384 }));
  await slow.close();

  const out = {
    pdf: { title: pdf.title, pages: pdf.pages, text: pdf.text },
    invalid,
    image: { contentType: image.contentType, text: image.text },
    pooled: { pages: pooled.value.pages, chars: pooled.value.text.length, maxLoopGapMs: Math.round(pooled.maxGapMs) },
    timeout: { ...timeout, afterMs: Math.round(timeoutAfterMs) },
    prepare: {
      chunks: prepared.length,
      sameAsInline,
      summary,
      withVectors: prepared.every((c) => c.vector instanceof Float32Array && c.vector.length === 64),
      oneWord: { chunks: oneWord.length, maxChars: Math.max(...oneWord.map((c) => c.content.length)), vectors: oneWord.some((c) => c.vector) },
      timeout: prepareTimeout,
    },
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
