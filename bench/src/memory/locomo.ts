/**
 * LoCoMo for the memory benches: the conversations as sessions of turns with their dates, the
 * questions of categories 1, 2 and 4, and the answer-coverage scorer (content units of an answer
 * found in a set of texts; dates normalised on both sides). Shared by bench:memory and the
 * similarity calibration tool (calibrate.ts), so both judge answers the same way.
 */
import fs from "node:fs";
import path from "node:path";
import { STOP_WORDS, stem, tokenize } from "@engram/index";

export const CATEGORIES = [1, 2, 4] as const;
export type Category = (typeof CATEGORIES)[number];
export const CATEGORY_NAME: Record<Category, string> = { 1: "multi-hop", 2: "temporal", 4: "single-hop" };
/** An answer is covered when this share of its content units occurs in the texts. */
export const COVERAGE_SHARE = 0.8;
// ---------------------------------------------------------------------------------------------
// LoCoMo

export interface Turn {
  diaId: string;
  speaker: string;
  text: string;
  /** Offsets of the turn's line ("Speaker: text") in its session's transcript. */
  start: number;
  end: number;
}
export interface Session {
  n: number;
  dateText: string;
  iso: string;
  turns: Turn[];
  content: string;
}
export interface Question {
  conv: number;
  index: number;
  question: string;
  answer: string;
  category: Category;
  evidence: string[];
}
export interface Conversation {
  index: number;
  sampleId: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
  /** dia_id → session number. */
  sessionOfTurn: Map<string, number>;
}

export const MONTH_NUMBER: Record<string, number> = {
  january: 1,
  jan: 1,
  janury: 1,
  januarty: 1,
  february: 2,
  feb: 2,
  febuary: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z" (the data carries no time zone; UTC keeps the calendar day). */
export function sessionDateIso(s: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(s.trim());
  const month = m ? MONTH_NUMBER[m[5]!.toLowerCase()] : undefined;
  if (!m || !month) throw new Error(`unreadable session date "${s}"`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  const pad = (n: number | string) => String(n).padStart(2, "0");
  return `${m[6]}-${pad(month)}-${pad(m[4]!)}T${pad(hour)}:${m[2]}:00Z`;
}

/** "D1:3", also the data's slips "D:11:26" and "D30:05". */
export function normaliseDiaId(s: string): string | undefined {
  const m = /^D:?(\d+):0*(\d+)$/.exec(s.trim());
  return m ? `D${m[1]}:${m[2]}` : undefined;
}

export function loadLocomo(dir: string): Conversation[] {
  const file = path.join(dir, "locomo10.json");
  if (!fs.existsSync(file)) throw new Error(`LoCoMo not found: ${file} (see --dataset-dir)`);
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>[];
  return raw.map((item, index) => {
    const c = item.conversation as Record<string, unknown>;
    const sessions: Session[] = [];
    const sessionOfTurn = new Map<string, number>();
    const numbers = Object.keys(c)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    for (const n of numbers) {
      const dateText = String(c[`session_${n}_date_time`] ?? "");
      const turns: Turn[] = [];
      let content = "";
      for (const t of c[`session_${n}`] as { speaker: string; dia_id: string; text: string }[]) {
        const line = `${t.speaker}: ${t.text.trim()}`; // trailing spaces trimmed, as a chat client writes a transcript
        if (content) content += "\n";
        turns.push({ diaId: t.dia_id, speaker: t.speaker, text: t.text.trim(), start: content.length, end: content.length + line.length });
        content += line;
        sessionOfTurn.set(t.dia_id, n);
      }
      sessions.push({ n, dateText, iso: sessionDateIso(dateText), turns, content });
    }
    const questions: Question[] = [];
    for (const q of item.qa as Record<string, unknown>[]) {
      const category = Number(q.category) as Category;
      if (!CATEGORIES.includes(category)) continue;
      const evidence = ((q.evidence as unknown[] | undefined) ?? [])
        .flatMap((e) => String(e).split(/[;,\s]+/))
        .map(normaliseDiaId)
        .filter((e): e is string => e !== undefined);
      questions.push({ conv: index, index: questions.length, question: String(q.question), answer: String(q.answer), category, evidence });
    }
    return { index, sampleId: String(item.sample_id), speakers: [String(c.speaker_a), String(c.speaker_b)], sessions, questions, sessionOfTurn };
  });
}

// ---------------------------------------------------------------------------------------------
// Answer coverage: content units of an answer, found in the top-k texts

export const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  [
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
    "_ first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth",
  ].flatMap((row) => row.split(" ").map((w, i) => [w, String(i)] as const)),
);
Object.assign(NUMBER_WORDS, {
  thirty: "30",
  forty: "40",
  fifty: "50",
  sixty: "60",
  seventy: "70",
  eighty: "80",
  ninety: "90",
  hundred: "100",
  thousand: "1000",
});
delete NUMBER_WORDS._;
export const WEEKDAYS = new Set("monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun".split(" "));
/** Hedges of the answers ("around", "nearly") carry no content. */
export const HEDGES = new Set("around approximately roughly nearly sometime circa".split(" "));

export const MON = String.raw`(january|janury|januarty|february|febuary|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?`;
export const SEASON_MONTHS: Record<string, number[]> = { summer: [6, 7, 8], winter: [12, 1, 2], spring: [3, 4, 5], fall: [9, 10, 11], autumn: [9, 10, 11] };

export const pad2 = (n: number) => String(n).padStart(2, "0");
export function dayIso(y: number, m: number, d: number): string | undefined {
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= 31 && y >= 1000 && y <= 2999)) return undefined;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1) return undefined; // 31 June
  return `${y}-${pad2(m)}-${pad2(d)}`;
}
export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
export const monthOf = (s: string) => Number(MONTH_NUMBER[s.toLowerCase().replace(/\.$/, "")]);

/** Spacing the data's slips out: "21Janury, 2022" → "21 Janury, 2022", "April.2023" → "April 2023", "18th" → "18". */
export function preNormalise(text: string): string {
  return text
    .replace(/`/g, "")
    .replace(/\b(\d{1,2})(st|nd|rd|th)\b/gi, "$1")
    .replace(/\b(\d{1,2})(?=[A-Za-z]{3,})/g, "$1 ")
    .replace(/([A-Za-z])\.(\d)/g, "$1 $2");
}

export interface DateSpan {
  start: number;
  end: number;
  /** Day (YYYY-MM-DD), month (YYYY-MM), year (YYYY), or a day range. */
  kind: "day" | "month" | "year" | "range";
  value: string;
  to?: string;
}

/** Absolute dates in a text, most specific forms first; each character belongs to at most one date. */
export function findDates(text: string): DateSpan[] {
  const out: DateSpan[] = [];
  const taken: boolean[] = new Array<boolean>(text.length).fill(false);
  const scan = (re: RegExp, make: (m: RegExpExecArray) => Omit<DateSpan, "start" | "end"> | undefined) => {
    for (const m of text.matchAll(re)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (taken.slice(start, end).some(Boolean)) continue;
      const d = make(m as RegExpExecArray);
      if (!d) continue;
      out.push({ ...d, start, end });
      for (let i = start; i < end; i++) taken[i] = true;
    }
  };
  const range = (y: number, m1: number, d1: number, m2: number, d2: number) => {
    const from = dayIso(y, m1, d1);
    const to = dayIso(y, m2, d2);
    return from && to && from <= to ? { kind: "range" as const, value: from, to } : undefined;
  };
  // Ranges: "October 19 and 24, 2023", "May 24-26, 2023", "19 to 24 October 2023", "19 October to 24 November 2023".
  scan(new RegExp(String.raw`\b${MON}\s+(\d{1,2})\s*(?:-|–|to|and)\s*(\d{1,2}),?\s+(\d{4})\b`, "gi"), (m) =>
    range(Number(m[4]), monthOf(m[1]!), Number(m[2]), monthOf(m[1]!), Number(m[3])),
  );
  scan(new RegExp(String.raw`\b(\d{1,2})\s+${MON}\s*(?:-|–|to|and)\s*(\d{1,2})\s+${MON},?\s+(\d{4})\b`, "gi"), (m) =>
    range(Number(m[5]), monthOf(m[2]!), Number(m[1]), monthOf(m[4]!), Number(m[3])),
  );
  scan(new RegExp(String.raw`\b(\d{1,2})\s*(?:-|–|to|and)\s*(\d{1,2})\s+${MON},?\s+(\d{4})\b`, "gi"), (m) =>
    range(Number(m[4]), monthOf(m[3]!), Number(m[1]), monthOf(m[3]!), Number(m[2])),
  );
  const day = (y: string, mo: number, d: string) => {
    const v = dayIso(Number(y), mo, Number(d));
    return v ? { kind: "day" as const, value: v } : undefined;
  };
  scan(/\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g, (m) => day(m[1]!, Number(m[2]), m[3]!));
  scan(new RegExp(String.raw`\b(\d{1,2})(?:\s+of)?\s+${MON},?\s*(\d{4})\b`, "gi"), (m) => day(m[3]!, monthOf(m[2]!), m[1]!));
  scan(new RegExp(String.raw`\b${MON}\s+(\d{1,2}),?\s+(\d{4})\b`, "gi"), (m) => day(m[3]!, monthOf(m[1]!), m[2]!));
  scan(/\b(\d{4})-(\d{2})\b(?!-\d)/g, (m) => (Number(m[2]) >= 1 && Number(m[2]) <= 12 ? { kind: "month", value: `${m[1]}-${m[2]}` } : undefined));
  scan(new RegExp(String.raw`\b${MON},?\s+(?:of\s+)?(\d{4})\b`, "gi"), (m) => ({ kind: "month", value: `${m[2]}-${pad2(monthOf(m[1]!))}` }));
  scan(/\b(1[89]\d{2}|20\d{2})\b/g, (m) => ({ kind: "year", value: m[1]! }));
  return out.sort((a, b) => a.start - b.start);
}

/** Content words of a text: tokens, number words as digits, minus stop words and weekday names, stemmed. */
export function contentWords(text: string, keepStopWords = false): string[] {
  const out: string[] = [];
  for (const raw of tokenize(text)) {
    const t = NUMBER_WORDS[raw] ?? raw;
    if (!keepStopWords && (STOP_WORDS.has(t) || WEEKDAYS.has(t) || HEDGES.has(t))) continue;
    out.push(stem(t));
  }
  return out;
}

/** What a set of texts says: its content words and the days, months and years it names. */
export interface TextUnits {
  words: Set<string>;
  days: Set<string>;
  months: Set<string>;
  years: Set<string>;
}

export function textUnits(texts: readonly string[]): TextUnits {
  const u: TextUnits = { words: new Set(), days: new Set(), months: new Set(), years: new Set() };
  for (const raw of texts) {
    const text = preNormalise(raw);
    let rest = "";
    let at = 0;
    for (const d of findDates(text)) {
      rest += text.slice(at, d.start) + " ";
      at = d.end;
      const days: string[] = [];
      if (d.kind === "day") days.push(d.value);
      if (d.kind === "range") for (let x = d.value, i = 0; x <= d.to! && i < 62; x = addDays(x, 1), i++) days.push(x);
      for (const x of days) {
        u.days.add(x);
        u.months.add(x.slice(0, 7));
        u.years.add(x.slice(0, 4));
      }
      if (d.kind === "month") {
        u.months.add(d.value);
        u.years.add(d.value.slice(0, 4));
      }
      if (d.kind === "year") u.years.add(d.value);
    }
    rest += text.slice(at);
    for (const w of contentWords(rest, true)) u.words.add(w);
  }
  return u;
}

export interface Requirement {
  label: string;
  met: (u: TextUnits) => boolean;
}

/**
 * The content units an answer needs, each a requirement on the texts: words, and dates at the
 * answer's own precision (a relative date as a window around its anchor).
 */
export function answerRequirements(answer: string, anchor?: string): Requirement[] {
  const text = preNormalise(answer);
  const reqs: Requirement[] = [];
  const spans: { start: number; end: number }[] = [];
  // "10 years ago": those words, or the year they make with the date of the session it was said in
  // (the extractor writes "in 2013" for "ten years ago" said in 2023).
  if (anchor)
    for (const m of text.matchAll(/\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?\s+ago\b/gi)) {
      const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : /^an?$/i.test(m[1]!) ? 1 : Number(NUMBER_WORDS[m[1]!.toLowerCase()]);
      const year = String(Number(anchor.slice(0, 4)) - n);
      const words = [String(n), stem("year"), "ago"];
      reqs.push({ label: `${m[0]} (or ${year})`, met: (u) => u.years.has(year) || words.every((w) => u.words.has(w)) });
      spans.push({ start: m.index!, end: m.index! + m[0].length });
    }
  const RELATIVE =
    /(?:\b(?:the|a|few|one|two|three|couple|several|last|on|of|night|day|days|week|weeks|weekend|weekends|morning|evening|afternoon|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+)*\b(before|after|of|prior to)\s+$/i;
  for (const d of findDates(text)) {
    if (spans.some((x) => d.start < x.end && d.end > x.start)) continue;
    let start = d.start;
    if (d.kind === "day") {
      // "the week before 9 June 2023", "The Sunday before …", "a few days before …", "the weekend of …", "after …"
      const rel = RELATIVE.exec(text.slice(0, d.start));
      if (rel) {
        start = rel.index;
        const kind = rel[1]!.toLowerCase();
        const [from, to] =
          kind === "after" ? [d.value, addDays(d.value, 14)] : kind === "of" ? [addDays(d.value, -7), addDays(d.value, 7)] : [addDays(d.value, -14), d.value];
        reqs.push({ label: `a day in ${from}…${to} (${text.slice(start, d.end).trim()})`, met: (u) => [...u.days].some((x) => x >= from && x <= to) });
      } else reqs.push({ label: `day ${d.value}`, met: (u) => u.days.has(d.value) });
    } else if (d.kind === "range") {
      const rel = RELATIVE.exec(text.slice(0, d.start)); // "the night of October 30 to 31, 2022": the range itself
      if (rel) start = rel.index;
      reqs.push({ label: `a day in ${d.value}…${d.to}`, met: (u) => [...u.days].some((x) => x >= d.value && x <= d.to!) });
    } else if (d.kind === "month") {
      // "last week of September 2023", "early August, 2023", "the end of May 2023": the month.
      const q =
        /(?:\b(?:the|a|first|last|second|third|fourth|early|late|mid|end|beginning|middle|week|weekend|half|part|of|few|day|days|before|after)\s+)+$/i.exec(
          text.slice(0, d.start),
        );
      if (q) start = q.index;
      reqs.push({ label: `month ${d.value}`, met: (u) => u.months.has(d.value) });
    } else {
      // "summer 2023" / "the summer of 2022": a month of that season, or the season's name with the year.
      const s = /\b(summer|winter|spring|fall|autumn)\s+(?:of\s+)?$/i.exec(text.slice(0, d.start));
      if (s) {
        start = s.index;
        const season = s[1]!.toLowerCase();
        const months = SEASON_MONTHS[season]!.map((m) => `${d.value}-${pad2(m)}`);
        const word = stem(season);
        reqs.push({ label: `${season} ${d.value}`, met: (u) => months.some((m) => u.months.has(m)) || (u.words.has(word) && u.years.has(d.value)) });
      } else reqs.push({ label: `year ${d.value}`, met: (u) => u.years.has(d.value) });
    }
    spans.push({ start, end: d.end });
  }
  let rest = "";
  let at = 0;
  for (const s of spans.sort((a, b) => a.start - b.start)) {
    rest += text.slice(at, Math.max(at, s.start)) + " ";
    at = Math.max(at, s.end);
  }
  rest += text.slice(at);
  let words = contentWords(rest);
  if (words.length === 0 && reqs.length === 0) words = contentWords(rest, true); // "No", "Yes"
  for (const w of new Set(words)) reqs.push({ label: w, met: (u) => u.words.has(w) });
  return reqs;
}

export function coverage(reqs: readonly Requirement[], units: TextUnits): { share: number; missing: string[] } {
  if (reqs.length === 0) return { share: 0, missing: ["(no content units)"] };
  const missing = reqs.filter((r) => !r.met(units)).map((r) => r.label);
  return { share: (reqs.length - missing.length) / reqs.length, missing };
}

/** Known cases, checked on every run: the scorer is part of what is measured. */
export function scorerSelfCheck(): void {
  const cases: [string, string[], boolean, string?][] = [
    ["10 years ago", ["A friend made it for Caroline's 18th birthday in 2013."], true, "2023-06-27"],
    ["10 years ago", ["A friend made it for Caroline's 18th birthday in 2012."], false, "2023-06-27"],
    ["7 May 2023", ["Caroline went to a LGBTQ support group on 2023-05-07."], true],
    ["7 May 2023", ["It happened on May 7, 2023"], true],
    ["7 May 2023", ["on 2023-05-08"], false],
    ["June 2023", ["Melanie is thinking about going camping in June 2023."], true],
    ["June 2023", ["camping on 2023-06-15"], true],
    ["June 2023", ["camping on 2023-07-01"], false],
    ["The week before 9 June 2023", ["Caroline gave a talk on 2023-06-02."], true],
    ["The week before 9 June 2023", ["Caroline gave a talk on 2023-05-20."], false],
    ["The sunday before 25 May 2023", ["Melanie ran a charity race on 2023-05-21."], true],
    ["the week before 21Janury, 2022", ["2022-01-15"], true],
    ["The weekend after 3June, 2022.", ["They went hiking on 2022-06-05"], true],
    ["2022", ["Melanie painted that lake sunrise in 2022."], true],
    ["2022", ["on 2022-03-04"], true],
    ["2022", ["on 2023-03-04"], false],
    ["10 years ago", ["Her 18th birthday was ten years ago."], true],
    ["Adoption agencies", ["Researching adoption agency options."], true],
    ["between October 19 and 24, 2023", ["on 2023-10-20"], true],
    ["summer 2023", ["a trip in July 2023"], true],
    ["The summer of 2022", ["that summer (2022)"], true],
    ["last week of September 2023", ["on 2023-09-27"], true],
    ["pottery, camping, painting, swimming", ["pottery and camping, painting"], false],
    ["pottery, camping, painting, swimming", ["pottery and camping, painting", "swimming with the kids"], true],
    ["Around May 2023", ["2023-05-30"], true],
  ];
  const bad = cases.filter(
    ([answer, texts, expected, anchor]) => coverage(answerRequirements(answer, anchor), textUnits(texts)).share >= COVERAGE_SHARE !== expected,
  );
  if (bad.length)
    throw new Error(
      `answer-coverage scorer self-check failed: ${bad
        .map(([a, t, e]) => `"${a}" vs ${JSON.stringify(t)} should be ${e ? "covered" : "missed"} (${answerRequirements(a).map((r) => r.label)})`)
        .join("; ")}`,
    );
}
