/*
 * Extraction time per fixture, printed as a Markdown table:
 *   pnpm bench:extract
 * "first" includes loading the format's libraries in a fresh process, "again"
 * is a second run of the same file. Ends with a generated 100-page PDF, direct
 * and through the worker pool.
 */
import fs from "node:fs";
import path from "node:path";
import { extractDocument, type ExtractInput } from "../../services/pipeline-worker/src/adapters/extract";
import { ExtractionPool } from "../../services/pipeline-worker/src/adapters/extract/pool";
import { fixtureExists, manifest, readFixture } from "../../services/pipeline-worker/test/unit/extract/fixtures";
import { bigPdf } from "../../services/pipeline-worker/test/unit/extract/make-pdf";

async function time(input: ExtractInput): Promise<number> {
  const t0 = performance.now();
  await extractDocument(input);
  return performance.now() - t0;
}

async function main() {
  const rows: [string, number, number, number][] = [];
  const inputs: [string, ExtractInput][] = manifest()
    .filter((r) => fixtureExists(r.file))
    .map((r) => [r.file, { bytes: readFixture(r.file), fileName: path.basename(r.file) }]);
  inputs.push([
    "(test) fixtures/memo.png",
    {
      bytes: new Uint8Array(fs.readFileSync(path.join(__dirname, "../../services/pipeline-worker/test/unit/extract/fixtures/memo.png"))),
      fileName: "memo.png",
    },
  ]);
  for (const [name, input] of inputs) rows.push([name, input.bytes.length, await time(input), await time(input)]);
  const big = bigPdf(100);
  rows.push(["(generated) 100-page PDF", big.length, await time({ bytes: big, fileName: "big.pdf" }), await time({ bytes: big, fileName: "big.pdf" })]);
  const pool = new ExtractionPool({ threads: 1, timeoutMs: 120_000 });
  const pooled = async () => {
    const t0 = performance.now();
    await pool.run({ bytes: big, fileName: "big.pdf" });
    return performance.now() - t0;
  };
  rows.push(["(generated) 100-page PDF via ExtractionPool", big.length, await pooled(), await pooled()]);
  await pool.close();
  console.log("| file | bytes | first ms | again ms |\n| --- | ---: | ---: | ---: |");
  for (const [name, bytes, first, again] of rows) console.log(`| ${name} | ${bytes} | ${first.toFixed(0)} | ${again.toFixed(0)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
