import chardet from "chardet";
import iconv from "iconv-lite";

/** Text of a byte buffer and the encoding it was read with. */
export interface Decoded {
  text: string;
  encoding: string;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/g;
/** Control characters that real text never holds (ESC of terminal colours and the DOS end-of-file mark are tolerated). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BINARY_CONTROL = /[\u0000-\u0008\u000E-\u0019\u001C-\u001F\u007F]/g;

function utf16Guess(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero / pairs > 0.3 && evenZero / pairs < 0.05) return "utf-16le";
  if (evenZero / pairs > 0.3 && oddZero / pairs < 0.05) return "utf-16be";
  return undefined;
}

function decodeWith(bytes: Uint8Array, encoding: string, skip = 0): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset + skip, bytes.byteLength - skip), encoding);
}

/**
 * Decodes text: a BOM wins (UTF-8, UTF-16 LE/BE, UTF-32), then UTF-16 without
 * BOM (by its zero bytes), then strict UTF-8, then a statistical guess
 * (chardet) decoded with iconv-lite. Returns undefined when the bytes are not
 * text (NUL bytes or many control characters).
 */
export function decodeText(bytes: Uint8Array): Decoded | undefined {
  const b = bytes;
  let decoded: Decoded;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) decoded = { text: decodeWith(b, "utf-8", 3), encoding: "utf-8" };
  else if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) decoded = { text: decodeWith(b, "utf-32le", 4), encoding: "utf-32le" };
  else if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) decoded = { text: decodeWith(b, "utf-32be", 4), encoding: "utf-32be" };
  else if (b[0] === 0xff && b[1] === 0xfe) decoded = { text: decodeWith(b, "utf-16le", 2), encoding: "utf-16le" };
  else if (b[0] === 0xfe && b[1] === 0xff) decoded = { text: decodeWith(b, "utf-16be", 2), encoding: "utf-16be" };
  else {
    const utf16 = utf16Guess(b);
    if (utf16) decoded = { text: decodeWith(b, utf16), encoding: utf16 };
    else {
      if (b.includes(0)) return undefined;
      try {
        decoded = { text: new TextDecoder("utf-8", { fatal: true }).decode(b), encoding: "utf-8" };
      } catch {
        const guess = chardet.detect(b);
        const encoding = guess && iconv.encodingExists(guess) ? guess : "windows-1252";
        decoded = { text: decodeWith(b, encoding), encoding: encoding.toLowerCase() };
      }
    }
  }
  const controls = decoded.text.match(BINARY_CONTROL)?.length ?? 0;
  if (controls > decoded.text.length * 0.002) return undefined;
  return decoded;
}

/** CRLF/CR to LF, form feeds to paragraph breaks, other control characters and zero-width marks removed. */
export function normalizeNewlines(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      .replace(/\f/g, "\n\n")
      .replace(/[\u2028\u2029]/g, "\n")
      // eslint-disable-next-line no-control-regex -- terminal colour codes (ESC [ ... m)
      .replace(/\u001B\[[0-9;?]*[A-Za-z]/g, "")
      .replace(CONTROL, "")
      .replace(/[\uFEFF\u200B]/g, "")
  );
}

/** Final clean-up of every extraction: newlines normalised, trailing spaces and runs of blank lines removed. */
export function tidy(text: string): string {
  return normalizeNewlines(text)
    .replace(/\u00A0/g, " ")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\s+|\s+$/g, "");
}

const LIGATURES: Record<string, string> = { "\uFB00": "ff", "\uFB01": "fi", "\uFB02": "fl", "\uFB03": "ffi", "\uFB04": "ffl", "\uFB05": "st", "\uFB06": "st" };

/** Typographic ligatures (ﬁ, ﬂ, ...) to their letters. */
export function deligature(text: string): string {
  return text.replace(/[\uFB00-\uFB06]/g, (c) => LIGATURES[c] ?? c);
}

/**
 * Repairs UTF-8 text that was decoded as Latin-1 and encoded again ("â\u0080\u0093" for "–").
 * Only sequences that contain a C1 control character (never in real text) are touched.
 */
export function fixMojibake(text: string): string {
  return text.replace(/[\u00C2-\u00F4][\u0080-\u00BF]{1,3}/g, (seq) => {
    if (!/[\u0080-\u009F]/.test(seq)) return seq;
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(seq, "latin1"));
    } catch {
      return seq;
    }
  });
}

/** A title candidate cleaned up: markup removed, whitespace collapsed, at most 200 characters. */
export function cleanTitle(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  const t = raw
    .replace(/^#{1,6}\s+/, "")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!t) return undefined;
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}

/** The first ATX or setext heading of Markdown text (outside fenced code). */
export function firstHeading(markdown: string): string | undefined {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = /^\s{0,3}(```|~~~)/.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (line.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence) continue;
    const atx = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (atx) return cleanTitle(atx[1]);
    const next = lines[i + 1];
    if (line.trim() && next && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s*[-*+]\s/.test(line) && !line.includes("|")) return cleanTitle(line);
  }
  return undefined;
}

export type Align = "left" | "center" | "right" | undefined;

/** One table cell made safe for a pipe table: single line, pipes escaped. */
export function pipeCell(value: string): string {
  return value
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/\s+/g, " ")
    .trim();
}

/** Cell Markdown on one line: a nested pipe table becomes "a, b; c, d", other lines are joined with spaces. */
export function flattenCell(markdown: string): string {
  const lines = markdown
    .split("\n")
    .map((l) => l.replace(/\\$/, ""))
    .filter((l) => l.trim() && !/^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(l.trim()));
  const parts = lines.map((l) => {
    const t = l.trim();
    if (t.startsWith("|") && t.endsWith("|"))
      return t
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((s) => s.trim().replace(/\\\|/g, "|"))
        .filter(Boolean)
        .join(", ");
    return t;
  });
  const nestedTable = lines.some((l) => l.trim().startsWith("|"));
  return pipeCell(parts.join(nestedTable ? "; " : " "));
}

/** Renders rows as a GitHub pipe table; the first row is the header. Columns that are empty in every row are dropped. */
export function pipeTable(rows: string[][], align: Align[] = []): string {
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (!rows.length || !width) return "";
  const cells = rows.map((r) => Array.from({ length: width }, (_, i) => pipeCell(r[i] ?? "")));
  const keep = Array.from({ length: width }, (_, i) => i).filter((i) => cells.some((r) => r[i]));
  if (!keep.length) return "";
  const line = (r: string[]) => `| ${keep.map((i) => r[i]).join(" | ")} |`;
  const sep = keep.map((i) => (align[i] === "center" ? ":---:" : align[i] === "right" ? "---:" : "---"));
  return [line(cells[0]!), `| ${sep.join(" | ")} |`, ...cells.slice(1).map(line)].join("\n");
}

/**
 * Splits leading rows that hold a single value above a wider table (title
 * lines of a sheet or CSV export) from the table itself.
 */
export function leadingTitleRows(rows: string[][]): { lines: string[]; rows: string[][] } {
  const count = (r: string[]) => r.filter((c) => c.trim()).length;
  if (Math.max(0, ...rows.map(count)) < 2) return { lines: [], rows };
  let i = 0;
  while (i < rows.length - 1 && count(rows[i]!) === 1) i++;
  return { lines: rows.slice(0, i).map((r) => r.find((c) => c.trim())!.trim()), rows: rows.slice(i) };
}

/** Removes rows that are entirely empty. */
export function dropEmptyRows(rows: string[][]): string[][] {
  return rows.filter((r) => r.some((c) => c.trim()));
}

/** Wraps text in a fenced code block whose fence is longer than any fence inside it. */
export function fenced(code: string, language = ""): string {
  const longest = Math.max(2, ...(code.match(/`{3,}/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${code.replace(/\n+$/, "")}\n${fence}`;
}
