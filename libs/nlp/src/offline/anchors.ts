/**
 * The document's own dates, for a document the caller gave no date: what its
 * relative dates ("on Friday", "next week", "yesterday") resolve against.
 * The dates are found by chrono, in the lines that date a document or a
 * passage of it:
 *
 * - the first line, when it reads as a title ("# Standup 3 Nov", "Notes —
 *   2024-03-12", "Meeting, March 3rd 2025", "Weekly sync, 3 Nov 2026" above a
 *   transcript): it dates the whole text;
 * - a `Date:` or `Sent:` header (an e-mail's "Date: Tue, 3 Nov 2026 09:12:00
 *   +0000", front matter's "date: 2024-03-12");
 * - a dated heading (markdown `#`, setext, a line in bold) or a line that is
 *   only a date ("Monday, 2 November"): it dates the text under it until the
 *   next such line (a journal's `## 2 Nov` … `## 5 Nov` sections);
 * - the caller's title ("Standup 3 Nov"), for text above any of these.
 *
 * A date with a day and a month counts; relative ones ("## Today") do not,
 * nor digits alone without a year ("## Section 3/4", "12/03"). A
 * date without its year is the latest such date not after the time the
 * document was received: "3 Nov" received on 29 November 2026 is
 * 2026-11-03, "20 Dec" is 2025-12-20. A date without a time is taken at noon
 * in the received time's UTC offset; one with a time and an offset keeps them.
 */
import * as chrono from "chrono-node";
import type { DateReference } from "./dates";
import type { Turn } from "./transcript";

/** The reference dates of a text by offset (undefined: the text there states no date). */
export type ReferenceAt = (offset: number) => DateReference | undefined;

interface Anchor {
  /** Offset of the dating line: the anchor holds from here to the next one. */
  start: number;
  ref: DateReference;
}

const DATE_HEADER = /^\s*(?:\*\*|__)?(?:date|sent)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(\S.*)$/i;
const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const BOLD_LINE = /^\s*(?:\*\*|__)([^*_][^*_]*?)(?:\*\*|__)\s*:?\s*$/;
const SETEXT_UNDERLINE = /^\s*(?:={3,}|-{3,})\s*$/;
const LIST_ITEM = /^\s*(?:[-*+•>]|\d{1,3}[.)])\s+/;
const FENCE = /^\s*(?:```|~~~)/;
/** Dates that are relative themselves, or durations: never an anchor. */
const NOT_AN_ANCHOR =
  /\b(?:today|tonight|yesterday|tomorrow|ago|last|next|this|coming|past|now|later|earlier|seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|years?)\b/i;
/** Cheap pre-check before chrono: a month's name, or digits with a year ("2024-03-12", "3.11.2026"). */
const DATE_SHAPE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b/i;
/** A first line longer than this, or ending as a sentence does, is text rather than a title. */
const TITLE_MAX = 100;
/** A line that is only a date ("Tuesday, 3 Nov:") is at most this long. */
const DATE_LINE_MAX = 60;

const msPerMinute = 60_000;

/** The first day-and-month date in a line, as a reference (see the module comment for year, time and offset). */
export function dateOf(line: string, received: DateReference): { ref: DateReference; index: number; text: string } | undefined {
  if (!/\d/.test(line) || !DATE_SHAPE.test(line)) return undefined;
  let results: chrono.ParsedResult[];
  try {
    results = chrono.parse(line, { instant: received.instant, timezone: received.offsetMinutes });
  } catch {
    return undefined;
  }
  for (const r of results) {
    const c = r.start;
    if (!c.isCertain("day") || !c.isCertain("month") || NOT_AN_ANCHOR.test(r.text)) continue;
    // Digits alone without a year ("Section 3/4", "24/7 support", "12/03") are too often not a date, and d/m or m/d.
    if (!c.isCertain("year") && !/\p{L}/u.test(r.text)) continue;
    let year = c.get("year");
    const month = c.get("month");
    const day = c.get("day");
    if (year === null || month === null || day === null) continue;
    const timed = c.isCertain("hour");
    const offsetMinutes = timed && c.isCertain("timezoneOffset") ? (c.get("timezoneOffset") ?? received.offsetMinutes) : received.offsetMinutes;
    if (!c.isCertain("year")) {
      // The latest such date not after the time received (in its offset); 29 February goes back to a leap year.
      const local = new Date(received.instant.getTime() + received.offsetMinutes * msPerMinute);
      const today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
      year = local.getUTCFullYear();
      for (let i = 0; i < 8 && (Date.UTC(year, month - 1, day) > today || new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day); i++) year -= 1;
    }
    const [hour, minute, second] = timed ? [c.get("hour") ?? 12, c.get("minute") ?? 0, c.get("second") ?? 0] : [12, 0, 0];
    const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * msPerMinute);
    if (Number.isNaN(instant.getTime())) continue;
    return { ref: { instant, offsetMinutes }, index: r.index, text: r.text };
  }
  return undefined;
}

/** A line that says nothing but a date (and at most one other word: "Journal 2 Nov", "Tuesday, 3 Nov:"). */
function onlyDate(line: string, at: { index: number; text: string }): boolean {
  const rest = `${line.slice(0, at.index)} ${line.slice(at.index + at.text.length)}`;
  return rest.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length <= 1;
}

/**
 * The dates that anchor the relative dates of a text, by offset: see the
 * module comment. `turns`, when the text is a transcript, keeps what its
 * speakers say from being read as a title or a date line.
 */
export function documentDates(text: string, opts: { received: DateReference; title?: string; turns?: Turn[] }): ReferenceAt {
  const { received } = opts;
  const fromTitle = opts.title ? dateOf(opts.title, received)?.ref : undefined;
  const anchors: Anchor[] = [];
  // A JSON message array has no lines of its own: only the title can date it.
  const json = opts.turns !== undefined && /^\s*[[{]/.test(text);
  const turns = opts.turns ?? [];
  // Lines come in order, and turns too: a cursor keeps the check linear in a long transcript.
  let cursor = 0;
  const spoken = (start: number, end: number) => {
    while (cursor < turns.length && turns[cursor]!.end <= start) cursor++;
    return cursor < turns.length && turns[cursor]!.start < end;
  };
  const lines = json ? [] : text.split("\n");
  let offset = 0;
  let first = true;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = offset;
    offset += line.length + 1;
    const trimmed = line.trim();
    if (!trimmed) continue;
    const isFirst = first;
    first = false;
    if (FENCE.test(trimmed)) fence = !fence;
    if (fence || FENCE.test(trimmed) || !/\d/.test(trimmed) || !DATE_SHAPE.test(trimmed)) continue;

    let found: ReturnType<typeof dateOf>;
    const header = DATE_HEADER.exec(line);
    const heading = ATX_HEADING.exec(line) ?? BOLD_LINE.exec(line);
    if (header) found = dateOf(header[1]!, received);
    else if (heading) found = dateOf(heading[1]!, received);
    else if (LIST_ITEM.test(line) || spoken(start, start + line.length)) continue;
    else if (SETEXT_UNDERLINE.test(lines[i + 1] ?? "") && trimmed.length <= TITLE_MAX) found = dateOf(trimmed, received);
    else if (isFirst && trimmed.length <= TITLE_MAX && !/[.!?]["')\]]*$/.test(trimmed)) found = dateOf(trimmed, received);
    else if (trimmed.length <= DATE_LINE_MAX) {
      const at = dateOf(trimmed, received);
      if (at && onlyDate(trimmed, at)) found = at;
    }
    if (found) anchors.push({ start, ref: found.ref });
  }

  if (anchors.length === 0) return () => fromTitle;
  return (at: number) => {
    // The last anchor at or before the offset (binary search: a long journal has many).
    let lo = 0;
    let hi = anchors.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (anchors[mid]!.start <= at) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best >= 0 ? anchors[best]!.ref : fromTitle;
  };
}
