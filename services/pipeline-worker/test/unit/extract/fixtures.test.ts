import "./esm-shims";
import fs from "node:fs";
import path from "node:path";
import { extractDocument } from "../../../src/adapters/extract";
import { FIXTURES_DIR, fixtureExists, manifest, readFixture, squash } from "./fixtures";

// The first document of a format loads its libraries (about a second for mammoth or exceljs), more on a busy machine.
jest.setTimeout(30_000);

const rows = manifest();
const present = rows.filter((r) => fixtureExists(r.file));
const missing = rows.filter((r) => !fixtureExists(r.file)).map((r) => r.file);

describe("shared fixtures (MANIFEST.tsv)", () => {
  it("has at least 30 of the manifest's documents", () => {
    if (missing.length) console.warn(`fixtures missing from ${FIXTURES_DIR}: ${missing.join(", ")}`);
    if (present.length < 30)
      throw new Error(`only ${present.length} of ${rows.length} manifest fixtures exist in ${FIXTURES_DIR}; missing: ${missing.join(", ")}`);
  });

  it.each(present.map((r) => [r.file, r.assertContains] as const))("%s contains its manifest text", async (file, expected) => {
    const out = await extractDocument({ bytes: readFixture(file), fileName: path.basename(file) });
    expect(out.text.trim()).not.toBe("");
    expect(squash(out.text)).toContain(squash(expected));
  });
});

/** Non-empty lines of Markdown. */
const lines = (md: string) =>
  md
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());

/** Rows of the pipe tables in Markdown (cells trimmed), the alignment row as "left"/"right"/"center"/"". */
function tableRows(md: string): string[][] {
  return lines(md)
    .filter((l) => l.trim().startsWith("|"))
    .map((l) =>
      l
        .trim()
        .slice(1, -1)
        .split("|")
        .map((c) => {
          const t = c.trim();
          if (/^:?-{3,}:?$/.test(t)) return t.startsWith(":") && t.endsWith(":") ? "center" : t.endsWith(":") ? "right" : "";
          return t;
        }),
    );
}

describe("Google Docs HTML exports against their expected Markdown", () => {
  const convert = async (name: string) => {
    const html = readFixture(`gdocs/${name}.export.html`);
    const expected = fs.readFileSync(path.join(FIXTURES_DIR, `gdocs/${name}.expected.md`), "utf8");
    const out = await extractDocument({ bytes: html, fileName: `${name}.html` });
    return { out, expected };
  };

  it("headings and paragraphs (with a hard line break) match line for line", async () => {
    const { out, expected } = await convert("headings-and-paragraphs");
    expect(lines(out.text)).toEqual(lines(expected));
  });

  it("nested bulleted and numbered lists match line for line, except checkbox marks", async () => {
    const { out, expected } = await convert("lists");
    // The export has no checkbox state (only the strike-through of done items): "- [x] ~~This is~~" comes out "- ~~This is~~".
    const withoutBoxes = lines(expected).map((l) => l.replace(/^(\s*- )\[[ x]\] /, "$1"));
    expect(lines(out.text)).toEqual(withoutBoxes);
    expect(out.text).toContain("\n      1. But numbered not bulleted!");
    expect(out.text).toContain("\n         - But bulleted not numbered!");
  });

  it("tables become pipe tables with the same cells and column alignment", async () => {
    const { out, expected } = await convert("tables");
    expect(tableRows(out.text)).toEqual(tableRows(expected));
    expect(lines(out.text)[0]).toBe("This is a test of table support.");
  });
});
