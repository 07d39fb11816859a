import { parse } from "csv-parse/sync";
import { cleanTitle, dropEmptyRows, fenced, leadingTitleRows, normalizeNewlines, pipeTable, tidy } from "../normalize";
import type { Extracted } from "../types";

const DELIMITERS = ["\t", ";", ",", "|"] as const;

/** Delimiters outside double quotes on one line. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) n++;
  }
  return n;
}

/**
 * Picks the delimiter whose count per line is the most consistent over the
 * first lines (quotes respected). `confident` when at least three lines agree
 * exactly, which is how text without a .csv name is recognised as a table.
 */
export function sniffDelimiter(text: string): { delimiter: string; confident: boolean } {
  const lines = normalizeNewlines(text)
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, 50);
  let best = { delimiter: ",", score: -1, columns: 0, confident: false };
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    let mode = 0;
    let modeN = 0;
    for (const [c, n] of freq) if (n > modeN || (n === modeN && c > mode)) [mode, modeN] = [c, n];
    if (!mode) continue;
    // Lines with fewer delimiters (a title row) count half: they do not contradict the table.
    const fewer = counts.filter((c) => c < mode && c > 0).length + counts.filter((c) => c === 0).length;
    const score = (modeN + fewer * 0.25) / lines.length;
    if (score > best.score || (score === best.score && mode > best.columns)) {
      best = { delimiter: d, score, columns: mode, confident: lines.length >= 3 && modeN === lines.length && lines.every((l) => l.length < 2000) };
    }
  }
  return { delimiter: best.delimiter, confident: best.confident };
}

/** Keeps the original rows verbatim (in a fenced block) for files up to this size; larger ones get the table only. */
const RAW_COPY_MAX_CHARS = 1_000_000;

/**
 * CSV/TSV: the delimiter is sniffed (comma, semicolon, tab, pipe), quoted
 * cells may hold delimiters and newlines. A leading row with a single value
 * above a wider header (a title row) becomes the title. Rendered as a pipe
 * table, followed by the original rows in a fenced `csv` block so that a
 * search for a row exactly as written still matches.
 */
export function extractCsv(text: string): Extracted {
  const source = tidy(text);
  const { delimiter } = sniffDelimiter(source);
  let rows: string[][];
  try {
    rows = parse(source, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
  } catch {
    // Not parseable as a table: keep it as text rather than lose it.
    return { text: source, contentType: "csv", title: cleanTitle(source.split("\n")[0]) };
  }
  rows = dropEmptyRows(rows);
  const lead = leadingTitleRows(rows);
  const title = cleanTitle(lead.lines[0]);
  const parts = [title ? `# ${title}` : "", ...lead.lines.slice(1), pipeTable(lead.rows)];
  if (source.length <= RAW_COPY_MAX_CHARS) parts.push(fenced(source, "csv"));
  return { text: tidy(parts.filter(Boolean).join("\n\n")), title, contentType: "csv" };
}
