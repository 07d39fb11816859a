import fs from "node:fs";
import path from "node:path";

/** The extraction fixtures (tests/fixtures/documents in the repository, or ENGRAM_FIXTURES_DIR). */
export const FIXTURES_DIR = process.env.ENGRAM_FIXTURES_DIR ?? path.resolve(__dirname, "../../../../../tests/fixtures/documents");

export interface ManifestRow {
  file: string;
  bytes: number;
  source: string;
  license: string;
  assertContains: string;
  notes: string;
}

/** MANIFEST.tsv rows with an assertion (ground-truth rows, whose assertion is a parenthesised note, are left out). */
export function manifest(): ManifestRow[] {
  const tsv = fs.readFileSync(path.join(FIXTURES_DIR, "MANIFEST.tsv"), "utf8");
  return tsv
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [file = "", bytes = "0", source = "", license = "", assertContains = "", notes = ""] = l.split("\t");
      return { file, bytes: Number(bytes), source, license, assertContains, notes };
    })
    .filter((r) => r.assertContains && !/^\(.*\)$/.test(r.assertContains.trim()));
}

export const readFixture = (file: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, file)));
export const fixtureExists = (file: string): boolean => fs.existsSync(path.join(FIXTURES_DIR, file));

/** Whitespace runs to one space (the manifest's comparison, nothing else). */
export const squash = (s: string): string => s.replace(/\s+/g, " ");
