import { definePDFJSModule, extractTextItems, getDocumentProxy, getMeta, type StructuredTextItem } from "unpdf";
import { UnprocessableDocumentError } from "../../../domain/errors";
import { cleanTitle, deligature, tidy } from "../normalize";
import type { Extracted } from "../types";

let pdfjsReady: Promise<void> | undefined;

/**
 * unpdf bundles a serverless PDF.js build as an ES module. Importing it from
 * here (rather than letting unpdf's CommonJS build import it) keeps the import
 * visible to the host's module system: tsx at run time, and a mock in jest,
 * which cannot import ES modules from CommonJS.
 */
function ensurePdfjs(): Promise<void> {
  pdfjsReady ??= definePDFJSModule(() => import("unpdf/pdfjs"));
  return pdfjsReady;
}

interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
}

function toLines(items: StructuredTextItem[]): Line[] {
  const lines: Line[] = [];
  let cur: Line | undefined;
  const end = () => {
    if (cur && cur.text.trim()) lines.push({ ...cur, text: deligature(cur.text).replace(/\s+/g, " ").trim() });
    cur = undefined;
  };
  let lastEnd = 0;
  for (const item of items) {
    const size = item.fontSize || item.height || 10;
    if (cur && item.str.trim() && Math.abs(item.y - cur.y) > Math.max(cur.size, size) * 0.6) end();
    if (item.str) {
      if (!cur) cur = { text: "", x: item.x, y: item.y, size: 0 };
      if (!cur.text.trim() && item.str.trim()) Object.assign(cur, { x: item.x, y: item.y });
      // Items that do not touch are separate words even when the PDF has no space between them.
      else if ((item.x - lastEnd > size * 0.15 || item.x < lastEnd - size) && !/\s$/.test(cur.text) && !/^\s/.test(item.str)) cur.text += " ";
      cur.text += item.str;
      lastEnd = item.x + item.width;
      if (item.str.trim()) cur.size = Math.max(cur.size, size);
    }
    if (item.hasEOL) end();
  }
  end();
  return lines;
}

/** Words of the document, to tell a hyphenated compound ("dual-encoder") from a word split at a line end ("us-ing"). */
interface Lexicon {
  words: Set<string>;
  compounds: Set<string>;
}

function lexicon(text: string): Lexicon {
  const words = new Set<string>();
  const compounds = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
    if (m[0].includes("-")) compounds.add(m[0]);
    else words.add(m[0]);
  }
  return { words, compounds };
}

/**
 * Joins two lines of one paragraph. A word hyphenated across the break loses
 * its hyphen ("us-" + "ing" = "using") unless the document writes it with a
 * hyphen elsewhere and never without ("dual-" + "encoder" = "dual-encoder").
 */
function joinLines(a: string, b: string, lex?: Lexicon): string {
  if (/\p{Ll}-$/u.test(a) && /^\p{Ll}/u.test(b)) {
    const left = /(\p{L}+)-$/u.exec(a)?.[1]?.toLowerCase() ?? "";
    const right = /^\p{L}+/u.exec(b)?.[0]?.toLowerCase() ?? "";
    const keep = lex && !lex.words.has(left + right) && lex.compounds.has(`${left}-${right}`);
    return keep ? a + b : a.slice(0, -1) + b;
  }
  if (/[-‐/]$/.test(a)) return a + b;
  return `${a} ${b}`;
}

/** Groups a page's lines into paragraphs by vertical gaps, column jumps and font size changes. */
function toParagraphs(lines: Line[], lex: Lexicon): string[] {
  const paragraphs: string[] = [];
  let text = "";
  let prev: Line | undefined;
  for (const line of lines) {
    if (prev) {
      const dy = prev.y - line.y;
      const size = Math.max(prev.size, line.size);
      const sizeChange = Math.abs(prev.size - line.size) > 0.15 * size;
      const breaks = dy <= 0.2 * size || dy > 1.75 * size || sizeChange;
      if (breaks) {
        paragraphs.push(text);
        text = line.text;
      } else text = joinLines(text, line.text, lex);
    } else text = line.text;
    prev = line;
  }
  if (text) paragraphs.push(text);
  return paragraphs;
}

function metaTitle(info: Record<string, unknown>): string | undefined {
  const t = typeof info.Title === "string" ? info.Title.trim() : "";
  if (!t || /^(untitled|microsoft word - .*|.*\.(docx?|pdf|pptx?|indd|tex|dvi))$/i.test(t)) return undefined;
  return cleanTitle(t);
}

/** The largest-type line near the top of the first page, when it stands out from the body text. */
function headlineTitle(lines: Line[]): string | undefined {
  const top = lines.slice(0, 20);
  if (!top.length) return undefined;
  const sizes = lines.map((l) => l.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)]!;
  const max = Math.max(...top.map((l) => l.size));
  if (max < median * 1.15) return cleanTitle(top[0]!.text.length <= 150 ? top[0]!.text : undefined);
  const i = top.findIndex((l) => l.size === max);
  // A title may wrap onto following lines of the same size.
  let title = top[i]!.text;
  for (let j = i + 1; j < top.length && top[j]!.size === max && j < i + 3; j++) title = joinLines(title, top[j]!.text);
  return cleanTitle(title);
}

function hasEofMarker(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 4096))).toString("latin1");
  return tail.includes("%%EOF");
}

const INVALID = "the file is not a valid PDF (it may be truncated or renamed)";

/**
 * PDF through unpdf (PDF.js): text items per page are grouped into lines and
 * paragraphs by position; words hyphenated at line ends are joined and
 * typographic ligatures (ﬁ, ﬂ) spelled out. The title comes from the
 * document info, else from the largest type on the first page. A file without
 * its end-of-file marker is refused as truncated rather than partly read.
 */
export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  if (!hasEofMarker(bytes)) throw new UnprocessableDocumentError(INVALID);
  await ensurePdfjs();
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js may detach the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "PasswordException") throw new UnprocessableDocumentError("the PDF is password-protected; remove the password and send it again");
    throw new UnprocessableDocumentError(INVALID);
  }
  try {
    const { totalPages, items } = await extractTextItems(pdf);
    const info = ((await getMeta(pdf).catch(() => undefined))?.info ?? {}) as Record<string, unknown>;
    const pages = items.map(toLines);
    const lex = lexicon(
      deligature(
        pages
          .flat()
          .map((l) => l.text)
          .join("\n"),
      ),
    );
    const text = tidy(deligature(pages.map((lines) => toParagraphs(lines, lex).join("\n\n")).join("\n\n")));
    if (!text.replace(/\s+/g, "")) {
      throw new UnprocessableDocumentError(
        "the PDF has no text layer (it is probably scanned or made of images); text extraction from scanned PDFs is not available in this build — send a PDF with selectable text",
      );
    }
    const title = metaTitle(info) ?? headlineTitle(pages.find((p) => p.length) ?? []);
    return { text, title: title && deligature(title), contentType: "pdf", pages: totalPages };
  } catch (err) {
    if (err instanceof UnprocessableDocumentError) throw err;
    throw new UnprocessableDocumentError(`the PDF could not be read (${(err as Error)?.message ?? "unknown error"}); it may be damaged`);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
