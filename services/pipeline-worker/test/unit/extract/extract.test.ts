import "./esm-shims";
import crypto from "node:crypto";
import JSZip from "jszip";
import { extractDocument, type ExtractInput } from "../../../src/adapters/extract";
import { UnprocessableDocumentError } from "../../../src/domain/errors";
import { readFixture } from "./fixtures";
import { makePdf } from "./make-pdf";

// The first document of a format loads its libraries (about a second for mammoth or exceljs), more on a busy machine.
jest.setTimeout(30_000);

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

async function reason(input: ExtractInput): Promise<string> {
  try {
    await extractDocument(input);
  } catch (err) {
    expect(err).toBeInstanceOf(UnprocessableDocumentError);
    return (err as UnprocessableDocumentError).reason;
  }
  throw new Error("extraction succeeded but should have failed");
}

describe("unprocessable input fails with a reason", () => {
  it("a truncated PDF (the first half of fake-memo.pdf)", async () => {
    const pdf = readFixture("pdf/fake-memo.pdf");
    expect(await reason({ bytes: pdf.subarray(0, pdf.length / 2), fileName: "memo.pdf" })).toBe("the file is not a valid PDF (it may be truncated or renamed)");
  });

  it("random bytes named x.pdf", async () => {
    const bytes = new Uint8Array(crypto.randomBytes(4096));
    expect(await reason({ bytes, fileName: "x.pdf" })).toBe("the file is not a valid PDF (it may be truncated or renamed)");
  });

  it("random bytes declared as a PDF by mime type or fileType hint", async () => {
    const bytes = new Uint8Array(crypto.randomBytes(4096));
    expect(await reason({ bytes, mimeType: "application/pdf" })).toMatch(/not a valid PDF/);
    expect(await reason({ bytes, fileType: "pdf" })).toMatch(/not a valid PDF/);
  });

  it("text renamed to .pdf or .docx", async () => {
    expect(await reason({ bytes: utf8("just some notes\n"), fileName: "notes.pdf" })).toMatch(/not a valid PDF \(it contains plain text/);
    expect(await reason({ bytes: utf8("just some notes\n"), fileName: "notes.docx" })).toMatch(/not a valid Word document/);
  });

  it("an empty file, and one of only whitespace", async () => {
    expect(await reason({ bytes: new Uint8Array(), fileName: "empty.txt" })).toBe("the file is empty");
    expect(await reason({ bytes: utf8(" \n\t\n"), fileName: "blank.md" })).toMatch(/only whitespace/);
  });

  it("random binary without a name", async () => {
    expect(await reason({ bytes: new Uint8Array(crypto.randomBytes(2048)) })).toMatch(/^the file type is not supported/);
  });

  it("a damaged Office file (truncated ZIP)", async () => {
    const docx = readFixture("docx/fake.docx");
    expect(await reason({ bytes: docx.subarray(0, 2000), fileName: "fake.docx" })).toMatch(/not a valid Word document .*damaged or truncated/);
  });

  it("a ZIP archive that is not a document", async () => {
    const zip = new JSZip();
    zip.file("a.txt", "hello");
    const bytes = await zip.generateAsync({ type: "uint8array" });
    expect(await reason({ bytes, fileName: "bundle.zip" })).toMatch(/^ZIP archives are not supported/);
  });

  it("legacy OLE Office files (.doc, .xls) and encrypted OOXML", async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...crypto.randomBytes(512)]);
    expect(await reason({ bytes: ole, fileName: "old.doc" })).toMatch(/legacy or password-protected Microsoft Office/);
  });

  it("a PNG without its header chunk (not even handed to the OCR engine)", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...crypto.randomBytes(64)]);
    expect(await reason({ bytes: png, fileName: "cut.png" })).toBe("the image could not be read; it may be damaged or in an unsupported variant of its format");
  });

  it("a PDF without any text layer", async () => {
    expect(await reason({ bytes: makePdf([[]]), fileName: "scan.pdf" })).toMatch(/no text layer/);
  });

  it("a damaged image", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...Buffer.from("IHDR"), ...crypto.randomBytes(200)]);
    expect(await reason({ bytes: png, fileName: "broken.png" })).toBe(
      "the image could not be read; it may be damaged or in an unsupported variant of its format",
    );
  }, 30_000);
});

describe("type detection by content, then name, then declared type", () => {
  const cases: [string, ExtractInput, string][] = [
    ["a PDF named .txt", { bytes: readFixture("pdf/fake-memo.pdf"), fileName: "memo.txt" }, "pdf"],
    ["a DOCX without a name", { bytes: readFixture("docx/fake.docx") }, "docx"],
    ["a PPTX named .zip", { bytes: readFixture("pptx/fake-power-point.pptx"), fileName: "deck.zip" }, "pptx"],
    ["an XLSX", { bytes: readFixture("xlsx/stanley-cups.xlsx"), fileName: "cups.xlsx" }, "xlsx"],
    ["an ODT by its mimetype entry", { bytes: readFixture("other/fake.odt"), fileName: "f.bin" }, "odt"],
    ["an EPUB by its mimetype entry", { bytes: readFixture("other/winter-sports.epub") }, "epub"],
    ["RTF by {\\rtf", { bytes: readFixture("other/fake-doc.rtf"), fileName: "doc.txt" }, "rtf"],
    ["JSON by content", { bytes: utf8('{"title":"Config","items":[1,2]}') }, "json"],
    ["HTML by leading markup", { bytes: utf8("<!DOCTYPE html><html><body><p>Hello there</p></body></html>"), fileName: "page.txt" }, "html"],
    ["a web page (sourceUrl)", { bytes: utf8("<html><body><h1>Hi</h1><p>Text</p></body></html>"), sourceUrl: "https://example.com/a" }, "webpage"],
    ["Markdown by extension", { bytes: utf8("plain words"), fileName: "notes.md" }, "markdown"],
    ["Markdown by shape", { bytes: utf8("# Title\n\nSome *text*.\n\n- a\n- b\n") }, "markdown"],
    ["CSV by mime type", { bytes: utf8("a,b\n1,2\n"), mimeType: "text/csv" }, "csv"],
    ["TSV by shape", { bytes: utf8("name\tage\nann\t3\nbob\t4\n") }, "csv"],
    ["code by extension", { bytes: utf8("def f():\n    return 1\n"), fileName: "f.py" }, "code"],
    ["plain text", { bytes: utf8("Nothing special here.\nJust lines.") }, "text"],
  ];
  it.each(cases)("%s", async (_name, input, type) => {
    expect((await extractDocument(input)).contentType).toBe(type);
  });
});

describe("text encodings", () => {
  const body = "Grüße aus Köln – ein Test.\r\nZweite Zeile.";
  const expected = "Grüße aus Köln – ein Test.\nZweite Zeile.";

  it("UTF-16 BE with a BOM", async () => {
    const be = Buffer.from(body, "utf16le").swap16();
    const out = await extractDocument({ bytes: new Uint8Array([0xfe, 0xff, ...be]), fileName: "be.txt" });
    expect(out.text).toBe(expected);
  });

  it("UTF-16 LE without a BOM", async () => {
    const out = await extractDocument({ bytes: new Uint8Array(Buffer.from(body, "utf16le")), fileName: "le.txt" });
    expect(out.text).toBe(expected);
  });

  it("UTF-8 with a BOM (stripped) and CRLF newlines", async () => {
    const out = await extractDocument({ bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(body)]), fileName: "bom.txt" });
    expect(out.text).toBe(expected);
  });

  it("a legacy 8-bit encoding (windows-1252) is detected", async () => {
    const latin = Buffer.from("Le café de la gare était fermé. Les élèves attendaient à côté du théâtre, près de l'hôtel.\n", "latin1");
    const out = await extractDocument({ bytes: new Uint8Array(latin), fileName: "fr.txt" });
    expect(out.text).toContain("café de la gare était fermé");
  });

  it("double-encoded UTF-8 (mojibake) is repaired", async () => {
    const out = await extractDocument({ bytes: utf8("1986\u00e2\u0080\u00931990 Watford\n"), fileName: "m.txt" });
    expect(out.text).toBe("1986–1990 Watford");
  });
});

describe("formats", () => {
  it("CSV with tabs becomes a pipe table (original rows kept below it)", async () => {
    const out = await extractDocument({ bytes: utf8("Name\tCity\tScore\nAda\tLondon\t10\nLin\tTaipei, TW\t7\n"), fileName: "scores.tsv" });
    expect(out.contentType).toBe("csv");
    expect(out.text).toContain("| Name | City | Score |\n| --- | --- | --- |\n| Ada | London | 10 |\n| Lin | Taipei, TW | 7 |");
    expect(out.text).toContain("```csv\nName\tCity\tScore");
  });

  it("CSV with a title row above the header, quoted cells and semicolons", async () => {
    const cups = await extractDocument({ bytes: readFixture("csv/stanley-cups.csv"), fileName: "stanley-cups.csv" });
    expect(cups.title).toBe("Stanley Cups");
    expect(cups.text).toContain("| Team | Location | Stanley Cups |\n| --- | --- | --- |");
    expect(cups.text).toContain("| Maple Leafs | TOR | 13 |");
    const quoted = await extractDocument({ bytes: readFixture("csv/table-multi-row-column-cells-actual.csv"), fileName: "t.csv" });
    expect(quoted.text).toContain("| Blind | 5 | 1 | 4 | 34.5%, n=1 | 1199 sec, n=1 |");
    const semi = await extractDocument({ bytes: readFixture("csv/semicolon-delimited.csv"), fileName: "s.csv" });
    expect(semi.text).toContain("| Lorem, ipsum | dolor sit | amet |");
  });

  it("PDF: pages, title from the largest type, lines joined, hyphenated words mended", async () => {
    const pdf = makePdf(
      [["Quarterly Report"], ["Dense retrieval works by us-", "ing learned vectors, and a dual-encoder", "architecture. A dual-", "encoder is simple."]],
      { fontSize: 11 },
    );
    const out = await extractDocument({ bytes: pdf, fileName: "r.pdf" });
    expect(out.pages).toBe(2);
    expect(out.contentType).toBe("pdf");
    expect(out.text).toContain("Dense retrieval works by using learned vectors, and a dual-encoder architecture. A dual-encoder is simple.");
    const titled = await extractDocument({ bytes: makePdf([["x y z"]], { title: "Annual Review" }) });
    expect(titled.title).toBe("Annual Review");
  });

  it("PDF: ligatures are spelled out and the title found", async () => {
    const out = await extractDocument({ bytes: readFixture("pdf/layout-parser-paper-fast.pdf"), fileName: "lp.pdf" });
    expect(out.title).toBe("LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis");
    expect(out.text).not.toMatch(/[\uFB00-\uFB06]/);
    expect(out.pages).toBe(2);
  });

  it("DOCX: headers and footers are included once, hidden merged-cell text is not", async () => {
    const out = await extractDocument({ bytes: readFixture("docx/docx-hdrftr.docx"), fileName: "h.docx" });
    expect(out.text).toContain("First header para");
    expect(out.text).toContain("Last header para");
    expect(out.text).toContain("Main document");
    expect(out.text).not.toContain("I should not be included");
    expect(out.text.split("First header para").length).toBe(2);
  });

  it("DOCX: tables, nested tables and lists", async () => {
    const tables = await extractDocument({ bytes: readFixture("docx/docx-tables.docx"), fileName: "t.docx" });
    expect(tables.text).toContain("| Header Col 1 | Header Col 2 |\n| --- | --- |\n| Lorem ipsum |");
    const lists = await extractDocument({ bytes: readFixture("docx/example-list-items-multiple.docx"), fileName: "l.docx" });
    expect(lists.text).toContain("1. This is simply dummy text of the printing and typesetting industry.\n2. This is simply");
    expect(lists.text).toContain("\n   1. The quick brown fox jumps over the lazy dog.");
  });

  it("PPTX: slides in order with titles, nested bullets and tables", async () => {
    const out = await extractDocument({ bytes: readFixture("pptx/sample-presentation.pptx"), fileName: "s.pptx" });
    expect(out.pages).toBe(4);
    expect(out.text).toMatch(/## Slide 1: Title Slide[\s\S]*## Slide 2: This is the first content slide[\s\S]*## Slide 3[\s\S]*## Slide 4/);
    expect(out.text).toContain("- And a list of bulleted information\n  - With a sub-bullet\n  - And another one\n    - This one is a sub-sub-bullet");
    expect(out.text).toContain("| Table | A | B | C |\n| --- | --- | --- | --- |\n| 1 | A1 | B1 | C1 |");
    const table = await extractDocument({ bytes: readFixture("pptx/fake-power-point-table.pptx") });
    expect(table.title).toBe("A Slide with a Table");
    expect(table.text).toContain("| Tangerine | Pink | Aqua |");
  });

  it("XLSX: every sheet with its name, formula results and merged header cells", async () => {
    const cups = await extractDocument({ bytes: readFixture("xlsx/stanley-cups.xlsx"), fileName: "c.xlsx" });
    expect(cups.text).toContain("## Stanley Cups\n");
    expect(cups.text).toContain("## Stanley Cups Since 67\n");
    expect(cups.text).toContain("| Maple Leafs | TOR | 13 |");
    const nestle = await extractDocument({ bytes: readFixture("xlsx/2023-half-year-analyses-by-segment.xlsx"), fileName: "n.xlsx" });
    expect(nestle.text).toContain("| Nestlé Health Science | 3,318 | 432 | 372 | -60 | -11 | -31 | -152 |");
  });

  it("ODT, RTF and EPUB keep paragraphs, headings and tables", async () => {
    const odt = await extractDocument({ bytes: readFixture("other/fake.odt") });
    expect(odt.text).toContain("| Leader | Sarah | Mark | Ryan |");
    const rtf = await extractDocument({ bytes: readFixture("other/fake-doc.rtf") });
    expect(rtf).toMatchObject({ contentType: "rtf", title: "My First Heading" });
    expect(rtf.text).toContain("# My First Heading\n\nMy first paragraph.");
    expect(rtf.text).toContain("| Column 1 | Column 2 |\n| --- | --- |\n| Row 1, Cell 1 | Row 1, Cell 2 |");
    const epub = await extractDocument({ bytes: readFixture("other/winter-sports.epub") });
    expect(epub.title).toBe("Winter Sports in Switzerland");
    expect(epub.text.indexOf("The Project Gutenberg eBook of Winter Sports")).toBeLessThan(epub.text.indexOf("CHAPTER I"));
  });

  it("RTF: code pages, \\u escapes, skipped destinations and the info title", async () => {
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}{\\info{\\title Price list}}{\\*\\generator Test;}\\f0 Caf\\\'e9 costs 3\\u8364? {\\field{\\*\\fldinst HYPERLINK "x"}{\\fldrslt here}}.\\par Second\\line line\\par}';
    const out = await extractDocument({ bytes: utf8(rtf), fileName: "p.rtf" });
    expect(out.title).toBe("Price list");
    expect(out.text).toBe("Café costs 3€ here.\n\nSecond\nline");
  });

  it("HTML: main content only, boilerplate removed, title from <title>", async () => {
    const nav = Array.from({ length: 30 }, (_, i) => `<li><a href="/p${i}">Menu entry ${i}</a></li>`).join("");
    const para = "Retrieval quality depends on clean text. ".repeat(20);
    const html = `<html><head><title>Clean text matters</title></head><body><nav><ul>${nav}</ul></nav><article><h1>Clean text matters</h1><p>${para}</p><p>${para}</p></article><footer>Copyright footer text</footer></body></html>`;
    const out = await extractDocument({ bytes: utf8(html), fileName: "a.html" });
    expect(out.title).toBe("Clean text matters");
    expect(out.text).toContain("Retrieval quality depends on clean text.");
    expect(out.text).not.toContain("Menu entry 7");
    expect(out.text).not.toContain("Copyright footer");
  });

  it("HTML: a small page is converted whole (headings, nested list, table)", async () => {
    const out = await extractDocument({ bytes: readFixture("html/fake-html.html"), fileName: "fake-html.html" });
    expect(out.title).toBe("My First Heading");
    expect(out.text).toContain("- A test list\n  - With sub-bullets!\n  - And another\n- Back at the root");
    expect(out.text).toContain("| Column 1 | Column 2 |\n| --- | --- |\n| Row 1, Cell 1 | Row 1, Cell 2 |");
  });

  it("Markdown: front matter gives the title; otherwise the first heading", async () => {
    const fm = await extractDocument({ bytes: utf8("---\ntitle: Release notes\ntags: [api, v2]\nlayout: post\n---\n\nBody text.\n"), fileName: "r.md" });
    expect(fm.title).toBe("Release notes");
    expect(fm.text).toBe("# Release notes\n\nTags: api, v2\n\nBody text.");
    const pag = await extractDocument({ bytes: readFixture("md/drf-pagination.md"), fileName: "pagination.md" });
    expect(pag.title).toBe("Pagination");
    expect(pag.text.startsWith("# Pagination")).toBe(true);
  });

  it("JSON is pretty-printed with its title; code is fenced with its language", async () => {
    const json = await extractDocument({ bytes: utf8('{"name":"engram","version":1}'), fileName: "package.json" });
    expect(json).toEqual({ text: '{\n  "name": "engram",\n  "version": 1\n}', title: "engram", contentType: "json" });
    const code = await extractDocument({ bytes: utf8("export const x = 1;\n"), fileName: "src/x.ts" });
    expect(code).toEqual({ text: "```typescript\nexport const x = 1;\n```", title: "x.ts", contentType: "code" });
  });
});
