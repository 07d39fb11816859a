import { analyze } from "../text";

/**
 * Persisted form of a record's analysed terms: the stems of `analyze()` in
 * text order, separated by single spaces (stems never contain whitespace).
 * Order is kept, so proximity features work on a loaded record exactly as on
 * a freshly analysed one; loading is a `split`, with no tokenising or stemming.
 */
export function analyzeForStorage(text: string): string {
  return analyze(text).join(" ");
}

/** Terms of a stored analysis (inverse of `analyzeForStorage`). */
export function parseStoredTerms(stored: string): string[] {
  return stored.length === 0 ? [] : stored.split(" ");
}

/** Terms of a record: the stored analysis when present, else the text analysed now. */
export function recordTerms(r: { text?: string; analyzed?: string }): string[] {
  if (r.analyzed !== undefined) return parseStoredTerms(r.analyzed);
  return r.text === undefined ? [] : analyze(r.text);
}
