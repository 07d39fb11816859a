/**
 * Structure-aware chunking: the text is split into blocks (headings,
 * paragraphs, list runs, fenced code, tables), blocks are packed into chunks
 * of at most `maxTokens`, and consecutive chunks overlap by about
 * `overlapTokens`. A block larger than a chunk is split on sentence, then
 * word boundaries. A chunk's offsets are its exact span in the text:
 * `text.slice(startOffset, endOffset) === content`, which starts and ends on a
 * character other than whitespace.
 */
export interface ChunkerOptions {
  maxTokens: number;
  overlapTokens: number;
}

/** The chunk sizes a tenant's `chunkSize` setting may choose, in tokens (values outside are clamped). */
export const TENANT_CHUNK_TOKENS = { min: 32, max: 8192 } as const;

/**
 * The chunking of a tenant's documents: the deployment's (CHUNK_MAX_TOKENS)
 * unless the organisation set `chunkSize` (PATCH /v3/settings) to a positive
 * number of tokens, clamped to TENANT_CHUNK_TOKENS; the overlap stays the
 * deployment's, at most a quarter of the chunk. Pure.
 */
export function chunkingFor(base: ChunkerOptions, chunkSize: number | undefined): ChunkerOptions {
  if (chunkSize === undefined || !Number.isFinite(chunkSize) || chunkSize <= 0) return base;
  const maxTokens = Math.min(Math.max(Math.trunc(chunkSize), TENANT_CHUNK_TOKENS.min), TENANT_CHUNK_TOKENS.max);
  return { maxTokens, overlapTokens: Math.min(base.overlapTokens, Math.floor(maxTokens / 4)) };
}

export interface TextChunk {
  position: number;
  content: string;
  startOffset: number;
  endOffset: number;
  tokenCount: number;
}

interface Span {
  start: number;
  end: number;
  heading?: boolean;
}

const WORD = /\S+/g;

/** Token estimate: words plus punctuation-heavy runs (close to BPE counts for prose). */
export function countTokens(text: string): number {
  let n = 0;
  for (const w of text.match(WORD) ?? []) n += Math.max(1, Math.ceil(w.length / 6));
  return n;
}

function blocks(text: string): Span[] {
  const out: Span[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let cur: Span | undefined;
  let inFence = false;
  const flush = () => {
    if (cur && text.slice(cur.start, cur.end).trim()) out.push(cur);
    cur = undefined;
  };
  for (const line of lines) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const trimmed = line.trim();
    if (/^(```|~~~)/.test(trimmed)) {
      if (!inFence) {
        flush();
        inFence = true;
        cur = { start, end };
      } else {
        inFence = false;
        cur = { start: cur?.start ?? start, end };
        flush();
      }
      continue;
    }
    if (inFence) {
      cur = { start: cur?.start ?? start, end };
      continue;
    }
    if (!trimmed) {
      flush();
      continue;
    }
    if (/^#{1,6}\s/.test(trimmed)) {
      flush();
      out.push({ start, end, heading: true });
      continue;
    }
    cur = cur ? { start: cur.start, end } : { start, end };
  }
  flush();
  return out;
}

/** `at`, moved back one code unit when it would split a surrogate pair. */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** Splits an oversized span at sentence ends, then at word boundaries, then inside words larger than a chunk. */
function splitSpan(text: string, span: Span, maxTokens: number): Span[] {
  const out: Span[] = [];
  const piece = text.slice(span.start, span.end);
  // Contiguous pieces (leading punctuation joins its sentence): offsets are summed below, so no character may be skipped.
  const sentences = piece.match(/[.!?]*[^.!?\n]*(?:[.!?]+|\n|$)\s*/g) ?? [piece];
  let pos = span.start;
  for (const s of sentences) {
    const sStart = pos;
    pos += s.length;
    if (countTokens(s) <= maxTokens) {
      out.push({ start: sStart, end: pos });
      continue;
    }
    let wStart = sStart;
    let tokens = 0;
    for (const m of s.matchAll(WORD)) {
      const t = Math.max(1, Math.ceil(m[0].length / 6));
      const abs = sStart + m.index!;
      if (tokens + t > maxTokens && tokens > 0) {
        out.push({ start: wStart, end: abs });
        wStart = abs;
        tokens = 0;
      }
      if (t > maxTokens) {
        // One "word" larger than a chunk (base64, a pasted run without spaces): cut it at chunk size.
        const width = maxTokens * 6;
        const wEnd = abs + m[0].length;
        let at = abs;
        while (wEnd - at > width) {
          const cut = safeCut(text, at + width);
          out.push({ start: at, end: cut });
          at = cut;
        }
        wStart = at;
        tokens = Math.max(1, Math.ceil((wEnd - at) / 6));
        continue;
      }
      tokens += t;
    }
    out.push({ start: wStart, end: pos });
  }
  return out.filter((s) => text.slice(s.start, s.end).trim());
}

export function chunkText(text: string, opts: ChunkerOptions): TextChunk[] {
  const units: (Span & { tokens: number })[] = [];
  for (const b of blocks(text)) {
    const tokens = countTokens(text.slice(b.start, b.end));
    if (tokens <= opts.maxTokens) units.push({ ...b, tokens });
    else for (const s of splitSpan(text, b, opts.maxTokens)) units.push({ ...s, tokens: countTokens(text.slice(s.start, s.end)) });
  }
  const chunks: TextChunk[] = [];
  let i = 0;
  while (i < units.length) {
    let j = i;
    let tokens = 0;
    while (j < units.length && (tokens + units[j]!.tokens <= opts.maxTokens || j === i)) {
      tokens += units[j]!.tokens;
      j++;
    }
    // A heading never ends a chunk: carry it (and a heading run, e.g. "# A" then "## B") to the next one with its section.
    while (j - 1 > i && units[j - 1]!.heading && j < units.length) {
      j--;
      tokens -= units[j]!.tokens;
    }
    const span = text.slice(units[i]!.start, units[j - 1]!.end);
    const content = span.trim();
    const start = units[i]!.start + span.length - span.trimStart().length;
    chunks.push({ position: chunks.length, content, startOffset: start, endOffset: start + content.length, tokenCount: tokens });
    if (j >= units.length) break;
    // Overlap: step back over trailing units worth about overlapTokens, leaving room in the next
    // chunk for the unit at j (with the block a heading there introduces), so it never repeats only overlap.
    let need = 0;
    for (let k = j; k < units.length; k++) {
      need += units[k]!.tokens;
      if (!units[k]!.heading) break;
    }
    let back = j;
    let overlap = 0;
    while (back - 1 > i && overlap + units[back - 1]!.tokens <= opts.overlapTokens && overlap + units[back - 1]!.tokens + need <= opts.maxTokens) {
      back--;
      overlap += units[back]!.tokens;
    }
    i = back;
  }
  return chunks;
}
