/**
 * The persona part of `pnpm bench:memory` (issue #30, item 5): does the first result a client reads
 * hold the fact the question is about?
 *
 * Input: bench/data/personas.json (made by ./personas.ts; checked against the generator at every
 * run). Each person's facts go into the person's own container tag, by default written directly as
 * memories with one `POST /v4/memories {containerTag, memories: [{content}, …]}` per person (so the
 * figures measure recall, not extraction); with `--personas-via-documents` instead as one document
 * per person (`POST /ns/{tag}/document?taskType=memory`, the facts one per line), which the stack's
 * extractor turns into memories. Every question is then asked of its person's container with
 * `POST /v4/search {q, containerTag, searchMode, limit}` and no threshold (the API's default), in
 * `memories` mode (the API's default mode) and in `hybrid` mode, one request at a time.
 *
 * Which fact a result is: a memory result is the fact whose created memory has its id (direct
 * memories), else the fact whose text it is after normalisation (lower case, spaces collapsed, the
 * final full stop dropped), else (a memory the extractor rewrote or split, with
 * --personas-via-documents) the one fact that holds the most of the memory's content units (the
 * LoCoMo scorer's: stop words out, Porter2 stems, number words as digits; the person's name left
 * out), if it holds at least half of them and no other fact holds as many; a chunk result is every
 * fact whose normalised text it contains.
 *
 * Figures, per mode, over all questions and by subset (questions that share no content word with
 * their fact but the person's name, by the template's link kind, by domain, by name form):
 *   - right first: the first result is the gold fact;
 *   - right@3: the gold fact is among the first three results;
 *   - MRR: the mean of 1/rank of the gold fact among the results (0 when it is not among them);
 *   - empty: the share of questions answered with no result at all;
 *   - wrong fact first: the first result is another fact of the same person.
 * The issue's fixed container (Mirela Horvat, six facts, six questions) is reported on its own:
 * "issue table: N of 6 first".
 */
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@engram/testing";
import { type JsonClient, percentile, round } from "../lib";
import { contentWords } from "./locomo";
import {
  DEFAULT_SEED,
  generatePersonas,
  loadPersonas,
  overlapStats,
  type Persona,
  type PersonaFact,
  type PersonaQuestion,
  PERSONAS_FILE,
  personasJson,
  sharedTerms,
} from "./personas";

export const PERSONA_MODES = ["memories", "hybrid"] as const;
export type PersonaMode = (typeof PERSONA_MODES)[number];
/** A rewritten memory is taken for the one fact holding the most of its content units, when that fact holds at least this share of them. */
const REWRITE_SHARE = 0.5;

export interface PersonaTally {
  questions: number;
  first: number;
  at3: number;
  /** Sum of 1/rank of the gold fact (0 when not returned); MRR = rrSum / questions. */
  rrSum: number;
  empty: number;
  wrongFactFirst: number;
}
const emptyTally = (): PersonaTally => ({ questions: 0, first: 0, at3: 0, rrSum: 0, empty: 0, wrongFactFirst: 0 });

export interface PersonaAnswer {
  person: string;
  fact: string;
  question: string;
  /** 1-based rank of the gold fact among the results, 0 when it is not among them. */
  rank: number;
  results: number;
  sharesWord: boolean;
  first?: { kind: "memory" | "chunk"; similarity: number; text: string; facts: string[] };
}
export interface PersonaRun {
  mode: PersonaMode;
  all: PersonaTally;
  /** Questions sharing no content word with their fact but the name, and those sharing one. */
  disjoint: PersonaTally;
  sharing: PersonaTally;
  byLink: Record<string, PersonaTally>;
  byDomain: Record<string, PersonaTally>;
  byNameForm: Record<string, PersonaTally>;
  issue: PersonaTally & { rows: { question: string; gold: string; rank: number; first: string }[] };
  latencyMs: { p50: number; p95: number };
  /** First results that were chunks (hybrid mode). */
  chunkFirst: number;
  /** Questions whose first result is not the gold fact, with what came first. */
  misses: PersonaAnswer[];
}
export interface PersonaReport {
  file: string;
  seed: number;
  /** The committed file equals the generator's output for its seed. */
  inSync: boolean;
  via: "memories" | "documents";
  people: number;
  facts: number;
  questions: number;
  disjointQuestions: number;
  ingest: { wallMs: number; memoriesListed: number; containersShort: string[] };
  limit: number;
  runs: PersonaRun[];
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]+$/, "");

interface Container {
  person: Persona;
  /** memory id → fact id (direct memories). */
  byId: Map<string, string>;
  byText: Map<string, string>;
  units: { id: string; words: Set<string> }[];
  /** The person's name as content units (left out when a rewritten memory is matched to a fact). */
  nameUnits: Set<string>;
}

function factsOfResult(r: Record<string, unknown>, c: Container): { kind: "memory" | "chunk"; text: string; facts: string[] } {
  if (typeof r.memory === "string") {
    const text = r.memory;
    const id = c.byId.get(String(r.id)) ?? c.byText.get(norm(text));
    if (id) return { kind: "memory", text, facts: [id] };
    // A memory the extractor rewrote or split: the one fact that holds the most of its content units.
    const words = new Set(contentWords(text).filter((w) => !c.nameUnits.has(w)));
    let best: { id: string; hit: number } | undefined;
    let tie = false;
    for (const u of c.units) {
      let hit = 0;
      for (const w of words) if (u.words.has(w)) hit++;
      if (best && hit === best.hit) tie = true;
      else if (!best || hit > best.hit) [best, tie] = [{ id: u.id, hit }, false];
    }
    const ok = best && !tie && best.hit > 0 && best.hit / words.size >= REWRITE_SHARE;
    return { kind: "memory", text, facts: ok ? [best!.id] : [] };
  }
  const text = String(r.chunk ?? r.content ?? "");
  const n = norm(text);
  return { kind: "chunk", text, facts: c.person.facts.filter((f) => n.includes(norm(f.text))).map((f) => f.id) };
}

function add(t: PersonaTally, a: PersonaAnswer): void {
  t.questions++;
  if (a.rank === 1) t.first++;
  if (a.rank >= 1 && a.rank <= 3) t.at3++;
  if (a.rank >= 1) t.rrSum += 1 / a.rank;
  if (a.results === 0) t.empty++;
  if (a.first && a.rank !== 1 && a.first.facts.some((f) => f !== a.fact)) t.wrongFactFirst++;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runPersonas(
  api: JsonClient,
  o: { limit: number; viaDocuments: boolean; problems: string[]; progress: (msg: string) => void; documentTimeoutMs?: number },
): Promise<PersonaReport> {
  const data = loadPersonas();
  const inSync = personasJson(generatePersonas(data.seed ?? DEFAULT_SEED)) === fs.readFileSync(PERSONAS_FILE, "utf8");
  if (!inSync)
    o.problems.push(
      `${path.relative(REPO_ROOT, PERSONAS_FILE)} differs from the generator's output for seed ${data.seed}: run node --import tsx bench/src/memory/personas.ts`,
    );
  const stats = overlapStats(data);
  const facts = data.people.reduce((a, p) => a + p.facts.length, 0);
  o.progress(
    `personas: ${data.people.length} people, ${facts} facts, ${stats.questions} questions (${stats.disjoint} share no content word with their fact but the name); writing them as ${o.viaDocuments ? "one document per person" : "memories"}`,
  );

  // 1. The facts into one container per person.
  const containers = new Map<string, Container>();
  const t0 = performance.now();
  let memoriesListed = 0;
  const containersShort: string[] = [];
  for (const p of data.people) {
    const c: Container = {
      person: p,
      byId: new Map(),
      byText: new Map(p.facts.map((f) => [norm(f.text), f.id])),
      units: p.facts.map((f) => ({ id: f.id, words: new Set(contentWords(f.text)) })),
      nameUnits: new Set(contentWords(p.name)),
    };
    containers.set(p.id, c);
    if (!o.viaDocuments) {
      const res = await api("POST", "/v4/memories", { containerTag: p.containerTag, memories: p.facts.map((f) => ({ content: f.text })) });
      if (res.status !== 201 && res.status !== 200) {
        o.problems.push(`personas: POST /v4/memories for ${p.containerTag} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        continue;
      }
      const created = (res.body?.memories ?? []) as { id: string; memory: string }[];
      created.forEach((m, i) => {
        const byText = c.byText.get(norm(m.memory));
        const id = byText ?? (created.length === p.facts.length ? p.facts[i]!.id : undefined);
        if (id) c.byId.set(m.id, id);
      });
    } else {
      const res = await api("POST", `/ns/${p.containerTag}/document?taskType=memory`, { id: "facts", content: p.facts.map((f) => f.text).join("\n") });
      if (res.status !== 200) {
        o.problems.push(`personas: adding the document of ${p.containerTag} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        continue;
      }
      const tAdd = performance.now();
      let status = "";
      while (performance.now() - tAdd < (o.documentTimeoutMs ?? 60_000)) {
        const g = await api("GET", `/ns/${p.containerTag}/document/facts`);
        status = g.status === 200 ? String(g.body.system?.status) : `HTTP ${g.status}`;
        if (status === "done" || status === "failed") break;
        await sleep(25);
      }
      if (status !== "done") o.problems.push(`personas: the document of ${p.containerTag} ended ${status || "unknown"}`);
    }
    const listed = await api("POST", `/ns/${p.containerTag}/list/memories?limit=1`, {});
    const n = Number(listed.body?.pagination?.totalItems ?? NaN);
    memoriesListed += Number.isFinite(n) ? n : 0;
    if (!o.viaDocuments && n !== p.facts.length) containersShort.push(`${p.containerTag}: ${n} memories listed for ${p.facts.length} facts`);
  }
  const wallMs = round(performance.now() - t0, 0);
  o.progress(`personas: written in ${wallMs} ms; ${memoriesListed} memories listed${containersShort.length ? `; ${containersShort.join("; ")}` : ""}`);

  // 2. Every question in both modes, at the defaults (after 10 warm-up searches per mode, which are not counted).
  const runs: PersonaRun[] = [];
  const warm = data.people[data.people.length - 1]!;
  for (const mode of PERSONA_MODES)
    for (let i = 0; i < 10; i++)
      await api("POST", "/v4/search", {
        q: warm.facts[i % warm.facts.length]!.questions[0]!.text,
        containerTag: warm.containerTag,
        searchMode: mode,
        limit: o.limit,
      });
  for (const mode of PERSONA_MODES) {
    const run: PersonaRun = {
      mode,
      all: emptyTally(),
      disjoint: emptyTally(),
      sharing: emptyTally(),
      byLink: {},
      byDomain: {},
      byNameForm: {},
      issue: { ...emptyTally(), rows: [] },
      latencyMs: { p50: NaN, p95: NaN },
      chunkFirst: 0,
      misses: [],
    };
    const ms: number[] = [];
    for (const p of data.people) {
      const c = containers.get(p.id)!;
      for (const f of p.facts)
        for (const q of f.questions) {
          const a = await ask(api, c, f, q, mode, o.limit, ms, o.problems);
          const shares = a.sharesWord;
          for (const t of [
            run.all,
            shares ? run.sharing : run.disjoint,
            (run.byLink[q.link ?? "none"] ??= emptyTally()),
            (run.byDomain[f.domain] ??= emptyTally()),
            (run.byNameForm[q.nameForm] ??= emptyTally()),
          ])
            add(t, a);
          if (a.first?.kind === "chunk") run.chunkFirst++;
          if (p.fixed === "issue-30") {
            add(run.issue, a);
            run.issue.rows.push({ question: q.text, gold: f.text, rank: a.rank, first: a.first ? a.first.text : "(no result)" });
          }
          if (a.rank !== 1) run.misses.push(a);
        }
    }
    run.latencyMs = { p50: round(percentile(ms, 50), 1), p95: round(percentile(ms, 95), 1) };
    runs.push(run);
    o.progress(
      `personas, ${mode}: right first ${pct(run.all.first, run.all.questions)}, right@3 ${pct(run.all.at3, run.all.questions)}, MRR ${mrr(run.all)}, empty ${pct(run.all.empty, run.all.questions)}; issue table ${run.issue.first} of ${run.issue.questions} first`,
    );
  }
  return {
    file: path.relative(REPO_ROOT, PERSONAS_FILE),
    seed: data.seed,
    inSync,
    via: o.viaDocuments ? "documents" : "memories",
    people: data.people.length,
    facts,
    questions: stats.questions,
    disjointQuestions: stats.disjoint,
    ingest: { wallMs, memoriesListed, containersShort },
    limit: o.limit,
    runs,
  };
}

async function ask(
  api: JsonClient,
  c: Container,
  f: PersonaFact,
  q: PersonaQuestion,
  mode: PersonaMode,
  limit: number,
  ms: number[],
  problems: string[],
): Promise<PersonaAnswer> {
  const t = performance.now();
  const res = await api("POST", "/v4/search", { q: q.text, containerTag: c.person.containerTag, searchMode: mode, limit });
  ms.push(performance.now() - t);
  if (res.status !== 200 && problems.length < 200) problems.push(`personas: search ${mode} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
  const results = (res.status === 200 ? (res.body.results ?? []) : []) as Record<string, unknown>[];
  const seen = results.map((r) => ({ ...factsOfResult(r, c), similarity: round(Number(r.similarity), 3) }));
  const rank = seen.findIndex((s) => s.facts.includes(f.id)) + 1;
  return {
    person: c.person.name,
    fact: f.id,
    question: q.text,
    rank,
    results: results.length,
    sharesWord: sharedTerms(q.text, f.text, c.person.name).length > 0,
    ...(seen[0] ? { first: seen[0] } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "—");
const mrr = (t: PersonaTally) => (t.questions ? (t.rrSum / t.questions).toFixed(3) : "—");

/** The figures of a tally as shares (JSON). */
export function personaFigures(t: PersonaTally) {
  const share = (n: number) => (t.questions ? round(n / t.questions, 4) : null);
  return {
    questions: t.questions,
    rightFirst: share(t.first),
    rightAt3: share(t.at3),
    mrr: share(t.rrSum),
    empty: share(t.empty),
    wrongFactFirst: share(t.wrongFactFirst),
  };
}

export function printPersonas(r: PersonaReport, o: { verbose: boolean; examples: number }): void {
  console.log(
    `\nPersona set (${r.file}, seed ${r.seed}${r.inSync ? "" : ", NOT the generator's output"}): ${r.people} people, ${r.facts} facts, ${r.questions} questions, ` +
      `${r.disjointQuestions} (${pct(r.disjointQuestions, r.questions)}) sharing no content word with their fact but the person's name; ` +
      `facts written ${r.via === "memories" ? "directly as memories (POST /v4/memories)" : `as one document per person (taskType memory), ${r.ingest.memoriesListed} memories formed`}; default threshold, limit ${r.limit}`,
  );
  const w = 44;
  const col = (s: string, n = 12) => s.padStart(n);
  console.log("".padEnd(w) + col("right first") + col("right@3") + col("MRR", 8) + col("empty", 9) + col("wrong fact 1st", 16) + col("questions", 11));
  const row = (label: string, t: PersonaTally) =>
    console.log(
      label.padEnd(w) +
        col(pct(t.first, t.questions)) +
        col(pct(t.at3, t.questions)) +
        col(mrr(t), 8) +
        col(pct(t.empty, t.questions), 9) +
        col(pct(t.wrongFactFirst, t.questions), 16) +
        col(String(t.questions), 11),
    );
  for (const run of r.runs) row(run.mode, run.all);
  for (const run of r.runs) {
    row(`${run.mode}, no shared content word`, run.disjoint);
    row(`${run.mode}, sharing a content word`, run.sharing);
  }
  for (const link of ["is-a", "derivation", "paraphrase", "none"])
    for (const run of r.runs) if (run.byLink[link]) row(`${run.mode}, template link ${link}`, run.byLink[link]!);
  for (const form of ["first", "full"])
    for (const run of r.runs) if (run.byNameForm[form]) row(`${run.mode}, ${form} name in the question`, run.byNameForm[form]!);
  console.log(
    `issue table (Mirela Horvat, the issue's six facts and questions): ${r.runs.map((run) => `${run.mode} ${run.issue.first} of ${run.issue.questions} first (${run.issue.at3} in the top 3)`).join("; ")}`,
  );
  const [m, h] = r.runs;
  if (m)
    m.issue.rows.forEach((row, i) => {
      const hr = h?.issue.rows[i];
      const rank = (n: number) => (n ? `#${n}` : "—");
      console.log(
        `  ${JSON.stringify(row.question).padEnd(36)} → ${JSON.stringify(row.gold).padEnd(52)} memories ${rank(row.rank).padStart(3)}${hr ? `, hybrid ${rank(hr.rank).padStart(3)}` : ""}; first: ${row.first.slice(0, 60)}`,
      );
    });
  console.log(
    `search latency (one request at a time): ${r.runs.map((run) => `${run.mode} p50 ${run.latencyMs.p50} ms, p95 ${run.latencyMs.p95} ms`).join("; ")}` +
      (r.runs.some((x) => x.chunkFirst) ? `; first results that were chunks: ${r.runs.map((x) => `${x.mode} ${x.chunkFirst}`).join(", ")}` : ""),
  );
  if (r.ingest.containersShort.length) console.log(`note: ${r.ingest.containersShort.join("; ")}`);
  if (o.verbose)
    for (const run of r.runs) {
      console.log(`\npersona misses, ${run.mode} (first result not the gold fact; up to ${o.examples * 4})`);
      for (const a of spread(run.misses, o.examples * 4))
        console.log(
          `  ${a.question}  — gold ${a.fact}, rank ${a.rank || "—"} of ${a.results}${a.sharesWord ? "" : " (no shared word)"}; first: ${a.first ? `${a.first.similarity} ${a.first.text.replace(/\s+/g, " ").slice(0, 120)}` : "(no result)"}`,
        );
    }
}

/** `n` items spread evenly over a list. */
const spread = <T>(xs: readonly T[], n: number): T[] => (xs.length <= n ? [...xs] : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!));

/** The persona figures for the JSON output (misses capped). */
export function personaJson(r: PersonaReport) {
  const tallies = (o: Record<string, PersonaTally>) => Object.fromEntries(Object.entries(o).map(([k, t]) => [k, personaFigures(t)]));
  return {
    ...r,
    runs: r.runs.map((run) => ({
      mode: run.mode,
      all: personaFigures(run.all),
      noSharedWord: personaFigures(run.disjoint),
      sharingAWord: personaFigures(run.sharing),
      byLink: tallies(run.byLink),
      byDomain: tallies(run.byDomain),
      byNameForm: tallies(run.byNameForm),
      issueTable: { ...personaFigures(run.issue), first: run.issue.first, rows: run.issue.rows },
      latencyMs: run.latencyMs,
      chunkFirst: run.chunkFirst,
      misses: run.misses.slice(0, 60),
    })),
  };
}
