import * as chrono from "chrono-node";

/** A reference instant and the UTC offset (minutes) its ISO string was written in: relative dates resolve in that zone. */
export interface DateReference {
  instant: Date;
  offsetMinutes: number;
}

export function parseReference(iso: string, name = "referenceDate"): DateReference {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`${name} is not an ISO 8601 date: ${JSON.stringify(iso)}`);
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(iso.trim());
  const offsetMinutes = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { instant, offsetMinutes };
}

export interface ResolvedDates {
  /** The text with relative expressions replaced by absolute ones. */
  text: string;
  /** YYYY-MM-DD or YYYY-MM of each date found, in order, without repeats. */
  dates: string[];
  /** Some date expression was found (relative or explicit, year-only included). */
  dated: boolean;
}

/** Cheap pre-check: only sentences with one of these words go through chrono (most sentences have none). */
const DATE_CUE =
  /\b(?:today|tonight|yesterday|tomorrow|ago|last|next|this|coming|past|weeks?|months?|years?|days?|weekend|morning|afternoon|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|spring|summer|autumn|fall|winter|\d{4}|\d{1,2}[/.]\d{1,2})\b/i;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const MONTH_WORD =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i;
const WEEKDAY_FULL = /^(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
const RELATIVE =
  /\b(?:today|tonight|yesterday|tomorrow|ago|last|next|this|coming|past|in\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|\d+)\s+(?:days?|weeks?|months?|years?))\b|^(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
const PREPOSITION_BEFORE = /\b(on|in|at|by|until|till|since|before|after|from|to|during|around|for|of)\s*$/i;
const PAST_CUE =
  /\b(?:was|were|had|did|went|got|came|saw|met|moved|started|visited|finished|bought|told|said|left|took|made|ate|ran|flew|drove|celebrated|attended|[a-z]{3,}ed)\b/i;

/** Words that put a sentence in the future, whatever else it says ("I'm excited to go in March"). */
const FUTURE_CUE = /\b(?:will|shall|going to|gonna|plan(?:s|ning)? to|hope to|want to|next|upcoming|soon)\b|'ll\b/i;

const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

function shiftDays(y: number, m: number, d: number, days: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}

const SEASONS: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };
const SEASON = /\b(last|this|next|past|coming)\s+(spring|summer|autumn|fall|winter)\b/gi;

/** Where chrono starts from when the text has no reference: only the parts a date states are used then. */
const NO_REFERENCE: DateReference = { instant: new Date(Date.UTC(2000, 0, 1, 12)), offsetMinutes: 0 };

/**
 * Finds date expressions with chrono (against the reference, in its time
 * zone) and rewrites the relative ones as absolute dates: "yesterday" →
 * "on 2026-11-19", "last month" → "in October 2026", "next Friday" → "on
 * 2026-11-27", "two years ago" → "in 2024", "last summer" → "in summer 2026".
 * Explicit dates stay as written. Bare weekdays, and months without a year,
 * in a past-tense sentence resolve to the previous occurrence; a bare weekday
 * in a sentence about the future to the next one. Time-only expressions ("at 3pm"),
 * durations ("for 10 years") and ambiguous words ("march", "sat") are
 * ignored. Without a reference (the document's date is not known) relative
 * dates and dates without their year stay as written and give no event date:
 * only dates with their year are listed.
 */
export function resolveDates(text: string, reference: DateReference | undefined): ResolvedDates {
  if (!DATE_CUE.test(text)) return { text, dates: [], dated: false };
  const ref = reference ?? NO_REFERENCE;
  const dates: string[] = [];
  let dated = /\b(?:19|20)\d{2}\b/.test(text);
  const edits: { start: number; end: number; replacement: string }[] = [];
  const past = PAST_CUE.test(text);
  const pastOnly = past && !FUTURE_CUE.test(text);
  const localNow = new Date(ref.instant.getTime() + ref.offsetMinutes * 60_000);
  const nowY = localNow.getUTCFullYear();

  let results: chrono.ParsedResult[] = [];
  try {
    results = chrono.parse(text, { instant: ref.instant, timezone: ref.offsetMinutes });
  } catch {
    results = [];
  }
  for (const r of results) {
    const phrase = r.text;
    const known = r.start;
    const hasDay = known.isCertain("day") || known.isCertain("weekday");
    const hasMonth = known.isCertain("month");
    const hasYear = known.isCertain("year");
    // Ignore time-only matches, durations, and lone ambiguous words ("march", "sat", "sun", "may").
    if (!hasDay && !hasMonth && !hasYear && !/\b(?:today|tonight|morning|afternoon|evening)\b/i.test(phrase)) continue;
    if (/^for\s/i.test(phrase)) continue;
    // Recurring times ("every morning", "each Monday") are habits, not dates.
    if (/\b(?:every|each)\s*$/i.test(text.slice(0, r.index))) continue;
    const single = phrase.trim().split(/\s+/).length === 1;
    if (single && (MONTH_WORD.test(phrase) ? !/^[A-Z]/.test(phrase) || /^May$/.test(phrase) : false)) continue;
    if (single && known.isCertain("weekday") && !known.isCertain("day") && !WEEKDAY_FULL.test(phrase)) continue;

    let y = known.get("year") ?? nowY;
    let m = known.get("month") ?? 1;
    let d = known.get("day") ?? 1;
    const relative = RELATIVE.test(phrase) || (!hasYear && !hasMonth && /\b(?:today|tonight|morning|afternoon|evening)\b/i.test(phrase));
    if (!reference && (relative || !hasYear)) {
      // Nothing to resolve it against: "on Friday", "next week", "on 2 June" stay as written (still a date: not a lasting trait).
      dated = true;
      continue;
    }
    // A month without its year in a past-tense sentence is the last one ("moved there in March", said in
    // November, is this year's March, not next year's, which chrono's nearest-date guess would give).
    if (pastOnly && hasMonth && !hasYear && !relative && Date.UTC(y, m - 1, d) > Date.UTC(nowY, localNow.getUTCMonth(), localNow.getUTCDate())) y -= 1;
    // A bare weekday in a past-tense sentence is the previous one ("I saw him on Monday"); in a sentence about the
    // future, the next one ("Dana will ship it on Friday", said on a Saturday, is six days on, not the day before).
    if (WEEKDAY_FULL.test(phrase.trim()) && past) {
      const candidate = Date.UTC(y, m - 1, d);
      if (candidate > Date.UTC(nowY, localNow.getUTCMonth(), localNow.getUTCDate())) [y, m, d] = shiftDays(y, m, d, -7);
    } else if (WEEKDAY_FULL.test(phrase.trim()) && FUTURE_CUE.test(text)) {
      const candidate = Date.UTC(y, m - 1, d);
      if (candidate < Date.UTC(nowY, localNow.getUTCMonth(), localNow.getUTCDate())) [y, m, d] = shiftDays(y, m, d, 7);
    }
    dated = true;
    let core: string;
    let granularity: "day" | "week" | "month" | "year";
    if (/\bweeks?\b/i.test(phrase) && !/\bago\b|\bin\s+\S+\s+weeks?\b/i.test(phrase)) {
      // "last week" / "next week": the week, named by its Monday.
      const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
      [y, m, d] = shiftDays(y, m, d, -((dow + 6) % 7));
      granularity = "week";
      core = `the week of ${ymd(y, m, d)}`;
    } else if (/\byears?\b/i.test(phrase) && !hasMonth) {
      granularity = "year";
      core = String(y);
    } else if (/\bmonths?\b/i.test(phrase) || (hasMonth && !known.isCertain("day") && !known.isCertain("weekday"))) {
      granularity = "month";
      core = `${MONTHS[m - 1]} ${y}`;
    } else {
      granularity = "day";
      core = ymd(y, m, d);
    }
    if (granularity === "day" || granularity === "week") dates.push(ymd(y, m, d));
    else if (granularity === "month") dates.push(`${y}-${pad(m)}`);
    if (!relative) {
      // Explicit dates stay as written, but a month without its year ("in August", "on 2 June") gets the
      // year it was resolved to, so the memory still says when once it is read out of its document.
      if (hasMonth && !hasYear && !/\b(?:19|20)\d{2}\b/.test(phrase))
        edits.push({ start: r.index, end: r.index + phrase.length, replacement: `${phrase} ${y}` });
      continue;
    }
    const fuzzy = /\b(?:few|couple|several)\b/i.test(phrase) ? "around " : "";
    // chrono includes a leading "on"/"in" in some matches ("on Monday", "in two weeks"): the whole match is replaced.
    const lead = /^(?:on|in|at)\s/i.test(phrase);
    const precededByPreposition = !lead && PREPOSITION_BEFORE.test(text.slice(0, r.index));
    const prep = fuzzy || precededByPreposition ? "" : granularity === "day" ? "on " : "in ";
    edits.push({ start: r.index, end: r.index + phrase.length, replacement: `${fuzzy}${prep}${core}` });
  }

  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
  out = out.replace(SEASON, (all: string, which: string, season: string) => {
    dated = true;
    if (!reference) return all;
    const lower = which.toLowerCase();
    const month = SEASONS[season.toLowerCase()]!;
    const nowM = localNow.getUTCMonth() + 1;
    let year = nowY;
    if (lower === "last" || lower === "past") year = month < nowM ? nowY : nowY - 1;
    else if (lower === "next" || lower === "coming") year = month > nowM ? nowY : nowY + 1;
    return `in ${season.toLowerCase()} ${year}`;
  });
  return { text: out.replace(/\b(on|in) (on|in) /gi, "$2 "), dates: [...new Set(dates)], dated };
}

/** "8 May 2023": the reference's calendar day in its own offset. */
export function dayOf(ref: DateReference): string {
  const local = new Date(ref.instant.getTime() + ref.offsetMinutes * 60_000);
  return `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}
