/** A word or punctuation mark with the whitespace before it, so text can be rebuilt after edits. */
export interface Tok {
  pre: string;
  text: string;
  /** Lower case, straight apostrophes. */
  lower: string;
  word: boolean;
  /** Written by a rewrite (a resolved name or pronoun): never rewritten again. */
  fixed?: boolean;
}

const TOKEN = /(\s*)([\p{L}\p{N}]+(?:['’][\p{L}]+)*|[^\s])/gu;

export function toks(text: string): Tok[] {
  const out: Tok[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[2]!;
    out.push({ pre: m[1]!, text: t, lower: t.toLowerCase().replace(/’/g, "'"), word: /^[\p{L}\p{N}]/u.test(t) });
  }
  return out;
}

export function join(tokens: Tok[]): string {
  let s = "";
  tokens.forEach((t, i) => (s += (i === 0 ? "" : t.pre) + t.text));
  return s;
}

export function tok(text: string, pre = " "): Tok {
  return { pre, text, lower: text.toLowerCase(), word: /^[\p{L}\p{N}]/u.test(text) };
}

const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof sr jr st mt ft vs etc inc ltd co corp dept univ gen col lt sgt capt rev hon jan feb mar apr jun jul aug sep sept oct nov dec approx no fig e.g i.e u.s u.k a.m p.m".split(
    " ",
  ),
);

/** Sentences of one line or paragraph, with offsets relative to it. Splits after . ! ? (not after abbreviations, initials or decimals). */
export function sentences(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  let start = 0;
  const re = /([.!?]+|…)(["')\]]*)(\s+|$)/g;
  for (const m of text.matchAll(re)) {
    const end = m.index + m[1]!.length + m[2]!.length;
    const before = text.slice(start, m.index);
    const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? "";
    const next = text.slice(m.index + m[0].length, m.index + m[0].length + 1);
    if (m[1] === "." && (ABBREVIATIONS.has(lastWord.replace(/\.$/, "")) || /^\p{Lu}$/u.test(lastWord) || /^[a-z]$/.test(lastWord))) continue;
    if (m[1] === "." && /\d$/.test(before) && /^\d/.test(next)) continue;
    if (next && /^[a-z]/.test(next) && m[1] === ".") continue; // "e.g. something", "3 p.m. today"
    const s = text.slice(start, end);
    if (s.trim()) out.push({ text: s.trim(), start: start + (s.length - s.trimStart().length), end });
    start = m.index + m[0].length;
  }
  const rest = text.slice(start);
  if (rest.trim()) out.push({ text: rest.trim(), start: start + (rest.length - rest.trimStart().length), end: text.length });
  return out;
}
