/**
 * The document as the extractor reads it: chunks (which overlap) joined back
 * into one text whose ranges map to chunk positions, and that text cut into
 * units: the lines of a chat turn, the paragraphs and list items of prose.
 */
import type { ExtractionInput } from "../ports";
import { BOILERPLATE } from "./filters";

export interface Assembled {
  text: string;
  spans: { start: number; end: number; position: number }[];
}

/** Joins chunks in position order, dropping the overlap a chunk repeats from the previous one, and remembers which range each chunk covers. */
export function assemble(chunks: ExtractionInput["chunks"]): Assembled {
  const sorted = [...chunks].filter((c) => c.content.trim()).sort((a, b) => a.position - b.position);
  let text = "";
  const spans: Assembled["spans"] = [];
  for (const c of sorted) {
    const content = c.content.replace(/\r\n?/g, "\n");
    let overlap = 0;
    if (text) {
      const tail = text.slice(-Math.min(text.length, content.length + 16));
      const probe = content.slice(0, Math.min(16, content.length));
      for (let at = tail.indexOf(probe); at >= 0; at = tail.indexOf(probe, at + 1)) {
        const repeated = tail.slice(at).trimEnd();
        if (repeated.length >= 16 && content.startsWith(repeated)) {
          overlap = repeated.length;
          break;
        }
      }
    }
    if (overlap > 0) {
      const start = text.trimEnd().length - overlap;
      text = text.trimEnd() + content.slice(overlap);
      spans.push({ start, end: text.length, position: c.position });
    } else {
      if (text) text += "\n\n";
      spans.push({ start: text.length, end: text.length + content.length, position: c.position });
      text += content;
    }
  }
  return { text, spans };
}

export function positionsOf(doc: Assembled, start: number, end: number): number[] {
  const out = doc.spans.filter((s) => s.start < Math.max(end, start + 1) && s.end > start).map((s) => s.position);
  if (out.length === 0 && doc.spans.length) {
    // Offsets of JSON transcripts are approximate: fall back to the chunk containing the start.
    const s = doc.spans.find((x) => x.start <= start && x.end >= start) ?? doc.spans[doc.spans.length - 1]!;
    out.push(s.position);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

export function splitLines(text: string, base: number): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    if (line.trim()) out.push({ text: line, start: base + offset });
    offset += line.length + 1;
  }
  return out;
}

/** Paragraph text of a prose document, without headings, code, tables, boilerplate and link-only lines; list items become their own blocks. */
export function proseBlocks(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let fence = false;
  let para: { text: string; start: number } | undefined;
  const flush = () => {
    if (para && para.text.trim()) out.push(para);
    para = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = offset;
    offset += line.length + 1;
    const trimmed = line.trim();
    if (/^(?:```|~~~)/.test(trimmed)) {
      fence = !fence;
      flush();
      continue;
    }
    if (fence) continue;
    const next = lines[i + 1]?.trim() ?? "";
    const skip =
      !trimmed ||
      /^#{1,6}\s/.test(trimmed) ||
      /^[=\-*_]{3,}$/.test(trimmed) ||
      (/^[=-]{3,}$/.test(next) && trimmed.length < 80) ||
      /^(?: {4}|\t)/.test(line) ||
      (trimmed.match(/\|/g)?.length ?? 0) >= 2 ||
      (trimmed.split(/\s+/).length <= 12 && BOILERPLATE.test(trimmed)) ||
      letterShare(trimmed) < 0.5 ||
      isHeadingLike(trimmed);
    if (skip) {
      flush();
      continue;
    }
    const item = /^(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      out.push({ text: item[1]!, start: start + line.indexOf(item[1]!) });
      continue;
    }
    if (para) para.text += ` ${line}`;
    else para = { text: line, start };
  }
  flush();
  return out;
}

function letterShare(s: string): number {
  const letters = s.match(/[\p{L}\s]/gu)?.length ?? 0;
  return letters / Math.max(1, s.length);
}

function isHeadingLike(line: string): boolean {
  if (/[.!?:;]["')]*$/.test(line) && !/:$/.test(line)) return false;
  if (/:$/.test(line)) return true;
  const words = line.split(/\s+/);
  if (words.length > 8) return false;
  const capitalised = words.filter((w) => /^[\p{Lu}\d]/u.test(w)).length;
  return capitalised / words.length >= 0.6 || line === line.toUpperCase();
}
