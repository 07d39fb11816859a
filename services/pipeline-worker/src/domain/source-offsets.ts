/**
 * Chunk offsets in a document's own content. Chunks are cut from the text
 * that extraction made of the content. For plain text and Markdown that text
 * is the content normalised: line endings to LF, spaces and tabs at line ends
 * and runs of blank lines removed, control, zero-width and terminal colour
 * codes dropped, double-encoded UTF-8 repaired, trimmed. HTML, JSON, CSV, code
 * and Markdown front matter are rewritten. `spansInContent` maps spans of the
 * text (the chunks') back into the content:
 *
 * - when the text is the content normalised, exactly: `content.slice(start,
 *   end)` runs from the chunk's first character to its last, and normalising
 *   it as extraction does gives the chunk's text;
 * - otherwise on the words both share: words that occur once in each anchor
 *   the alignment; between anchors, characters are matched in order and a
 *   word that differs is looked up a little further on. A span covers the
 *   chunk's source as far as it can be found; text that extraction added (a
 *   fence, a table's pipes, a heading made from front matter) maps to an
 *   empty span where it was added.
 *
 * Either way spans lie inside the content, start <= end, a later chunk never
 * starts before an earlier one, and no span splits a surrogate pair. Time
 * grows linearly with the texts: the look-ups further on share a budget of a
 * few times their length.
 */

export interface Span {
  start: number;
  end: number;
}

/** Letters, digits and combining marks: what anchors an alignment. */
const WORD = /[\p{L}\p{N}\p{M}]+/u;
const WORDS = /[\p{L}\p{N}\p{M}]+/gu;
const ENDS_IN_WORD = /[\p{L}\p{N}\p{M}]$/u;
const STARTS_WITH_WORD = /^[\p{L}\p{N}\p{M}]/u;
// eslint-disable-next-line no-control-regex -- terminal colour codes (ESC [ ... m), as extraction removes them
const ANSI = /\u001B\[[0-9;?]*[A-Za-z]/y;
const MOJIBAKE = /[\u00C2-\u00F4][\u0080-\u00BF]{1,3}/y;
const C1 = /[\u0080-\u009F]/;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** How far ahead a word that differs is looked up; a difference inside a word (an entity, a repaired letter) only nearby. */
const WINDOW = 4096;
const NEAR = 64;
/** A word is looked up by its first letters: enough to find it. */
const ANCHOR_MAX = 64;
/** At a difference, this many of the text's next words are looked up: the nearest found wins. */
const LOOKAHEAD = 3;

/** JavaScript's `\s` (what `trim` removes). */
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A lone surrogate: encoding the content as UTF-8 turned it into U+FFFD. */
function loneSurrogate(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (isHigh(c)) return !isLow(s.charCodeAt(i + 1));
  return isLow(c) && !isHigh(s.charCodeAt(i - 1));
}

/** Length of what extraction drops at `i` besides whitespace: a terminal colour code, a control or zero-width character; 0 for none. */
function droppedAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x1b) {
    ANSI.lastIndex = i;
    return ANSI.test(s) ? ANSI.lastIndex - i : 1;
  }
  return c <= 0x08 || (c >= 0x0e && c <= 0x1f) || c === 0x7f || c === 0x200b ? 1 : 0;
}

/** Double-encoded UTF-8 at `i` ("Ã©" for "é") and the text extraction repairs it to. */
function mojibakeAt(s: string, i: number): { length: number; text: string } | undefined {
  const c = s.charCodeAt(i);
  const next = s.charCodeAt(i + 1);
  if (c < 0xc2 || c > 0xf4 || !(next >= 0x80 && next <= 0xbf)) return undefined;
  MOJIBAKE.lastIndex = i;
  const seq = MOJIBAKE.exec(s)?.[0];
  if (!seq || !C1.test(seq)) return undefined;
  try {
    return { length: seq.length, text: UTF8.decode(Uint8Array.from(seq, (ch) => ch.charCodeAt(0))) };
  } catch {
    return undefined;
  }
}

/** Words that occur once in `s`, with their position (-1: more than once). */
function uniqueWords(s: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const m of s.matchAll(WORDS)) seen.set(m[0], seen.has(m[0]) ? -1 : m.index);
  return seen;
}

/** Words found once in each text, in an order both agree on (longest increasing run of content positions): [text position, content position, length]. */
function anchors(content: string, text: string): [number, number, number][] {
  const inContent = uniqueWords(content);
  const pairs: [number, number, number][] = [];
  // Map order is first occurrence: for words found once, text order.
  for (const [word, t] of uniqueWords(text)) {
    const c = inContent.get(word);
    if (t >= 0 && c !== undefined && c >= 0) pairs.push([t, c, word.length]);
  }
  const tails: number[] = [];
  const prev = new Array<number>(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const c = pairs[k]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < c) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const out: [number, number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) out.push(pairs[k]!);
  return out.reverse();
}

/**
 * Walks the text against the content, recording for each of `points` (sorted
 * text positions) the content range of its character. Strict: undefined at
 * the first difference normalisation does not explain.
 */
function align(content: string, text: string, points: readonly number[], strict: boolean): { from: number[]; to: number[] } | undefined {
  const from = new Array<number>(points.length);
  const to = new Array<number>(points.length);
  let i = 0;
  let j = 0;
  let q = 0;
  // Characters the look-ups may scan in all: bounds the time whatever the texts.
  let budget = 32 * (content.length + text.length) + (1 << 20);

  /** Text positions up to `upTo` (exclusive) come from content[start, end). */
  const record = (upTo: number, start: number, end: number) => {
    while (q < points.length && points[q]! < upTo) {
      from[q] = start;
      to[q] = end;
      q++;
    }
  };

  /** `word` in content[at, limit); `whole`: not preceded by a letter, and (`ends`) not followed by one. */
  const find = (word: string, at: number, limit: number, whole: boolean, ends: boolean): number => {
    if (limit - at < word.length) return -1;
    const window = content.slice(at, limit);
    for (let k = window.indexOf(word); k >= 0; k = window.indexOf(word, k + 1)) {
      const pos = at + k;
      const after = pos + word.length;
      if (whole && ENDS_IN_WORD.test(content.slice(Math.max(0, pos - 2), pos))) continue;
      if (whole && ends && STARTS_WITH_WORD.test(content.slice(after, after + 2))) continue;
      budget -= after - at;
      return pos;
    }
    budget -= window.length;
    return -1;
  };

  /**
   * At a difference: the nearest of the text's next few words found further on
   * in the content is where the walk goes on (the text before it was added by
   * extraction: markup, a link's target); when none is, the first word is
   * recorded as added.
   */
  const resync = (iEnd: number, jEnd: number) => {
    let best = -1;
    let bestAt = j;
    let firstEnd = j;
    let w = j;
    for (let n = 0; n < LOOKAHEAD && w < jEnd && budget > 0; n++) {
      let end = w;
      while (end < jEnd && end - w < 256 && !isSpace(text.charCodeAt(end))) end++;
      if (n === 0) firstEnd = end;
      const m = WORD.exec(text.slice(w, end));
      if (m) {
        const at = w + m.index;
        const inWord = ENDS_IN_WORD.test(text.slice(Math.max(0, at - 2), at));
        const limit = Math.min(iEnd, i + (inWord ? NEAR : WINDOW), best >= 0 ? best : Infinity);
        const k = find(m[0].slice(0, ANCHOR_MAX), i, limit, !inWord, m[0].length <= ANCHOR_MAX);
        if (k >= 0) {
          best = k;
          bestAt = at;
        }
      }
      w = end;
      while (w < jEnd && isSpace(text.charCodeAt(w))) w++;
    }
    if (best >= 0) {
      record(bestAt, best, best);
      j = bestAt;
      i = best;
      return;
    }
    if (firstEnd === j) firstEnd = j + 1;
    record(firstEnd, i, i);
    j = firstEnd;
  };

  /** Aligns text[j, jEnd) with content[i, iEnd). */
  const walk = (iEnd: number, jEnd: number): boolean => {
    while (j < jEnd && q < points.length) {
      const t = text.charCodeAt(j);
      if (isSpace(t)) {
        record(j + 1, i, i);
        j++;
        continue;
      }
      if (i < iEnd) {
        const fixed = mojibakeAt(content, i);
        if (fixed && i + fixed.length <= iEnd && j + fixed.text.length <= jEnd && text.startsWith(fixed.text, j)) {
          record(j + fixed.text.length, i, i + fixed.length);
          i += fixed.length;
          j += fixed.text.length;
          continue;
        }
        const s = content.charCodeAt(i);
        if (s === t || (t === 0xfffd && loneSurrogate(content, i))) {
          record(j + 1, i, i + 1);
          i++;
          j++;
          continue;
        }
        if (isSpace(s)) {
          i++;
          continue;
        }
        const dropped = droppedAt(content, i);
        if (dropped) {
          i = Math.min(iEnd, i + dropped);
          continue;
        }
      }
      if (strict) return false;
      resync(iEnd, jEnd);
    }
    return true;
  };

  if (strict) {
    if (!walk(content.length, text.length)) return undefined;
  } else {
    for (const [t, c, length] of anchors(content, text)) {
      walk(c, t);
      if (q >= points.length) break;
      i = c;
      j = t;
      for (let k = 0; k < length; k++) record(t + k + 1, c + k, c + k + 1);
      i = c + length;
      j = t + length;
    }
    walk(content.length, text.length);
  }
  record(Infinity, i, i);
  return { from, to };
}

/** `at` moved off the middle of a surrogate pair: back for a start, forward for an end. */
function unsplit(s: string, at: number, forward: boolean): number {
  if (at <= 0 || at >= s.length || !isLow(s.charCodeAt(at)) || !isHigh(s.charCodeAt(at - 1))) return at;
  return forward ? at + 1 : at - 1;
}

/**
 * Spans of `text`, which extraction made of `content`, as spans of `content`.
 * Each span must start and end on a character other than whitespace (a
 * chunk's span: `text.slice(start, end)` is its trimmed text).
 */
export function spansInContent(content: string, text: string, spans: readonly Span[]): Span[] {
  if (content === text) return spans.map((s) => ({ start: s.start, end: s.end }));
  const points = [...new Set(spans.flatMap((s) => [s.start, s.end - 1]))].sort((a, b) => a - b);
  const index = new Map(points.map((p, k) => [p, k]));
  const { from, to } = align(content, text, points, true) ?? align(content, text, points, false)!;
  return spans.map((s) => {
    const start = from[index.get(s.start)!]!;
    const end = Math.max(start, to[index.get(s.end - 1)!]!);
    return start === end
      ? { start: unsplit(content, start, false), end: unsplit(content, start, false) }
      : { start: unsplit(content, start, false), end: unsplit(content, end, true) };
  });
}
