/**
 * Memory recall on LoCoMo (issue #15, "Recall that answers out of the box") and on the persona set
 * (issue #30, item 5): the all-in-one stack at its offline defaults, through the REST API only.
 * The persona set (bench/data/personas.json, see memory/personas.ts and memory/persona-recall.ts for
 * what is measured) runs first, on the fresh stack, then LoCoMo in the same stack.
 *
 *   pnpm bench:memory                                   # the persona set and all 10 conversations (1.5 to 7 minutes on 2 cores)
 *   pnpm bench:memory -- --conversations 3              # quick mode: the persona set and the first 3 conversations (~0.5 to 2 minutes)
 *   pnpm bench:memory -- --verbose                      # also print missed questions per category with what came back
 *   pnpm bench:memory -- --dataset-dir ../shared/datasets/locomo --json bench/results/memory.json --limit 10
 *   pnpm bench:memory -- --self-check                   # only the answer-coverage scorer's own checks
 *   pnpm bench:memory -- --only personas                # only the persona set (~25 s with start-up); --only locomo: only LoCoMo
 *   pnpm bench:memory -- --personas-via-documents       # the persona facts as one document per person instead of direct memories
 * Other options: --off-topic 50, --seed 42, --parallel 10 (conversations ingested at once), --dump <file>
 * (the formed memories and chunks of every container, for bench/src/memory/calibrate.ts),
 * --provider-url <url> --provider-model <name> (embed with an OpenAI-compatible provider instead of offline),
 * --session-timeout 120 (s), --deadline 45 (min), --examples 5 (misses per category with --verbose), --log-level warn.
 *
 * Each conversation goes into its own container tag (`locomo-<i>`) of one tenant. Its sessions are
 * added in order, one document per session (`POST /ns/{ns}/document?taskType=memory`, caller id
 * `s<n>`, `date` = the session's date-time as ISO, `metadata.session` = n, content = the turns as a
 * `Speaker: text` transcript — turn text only: image captions (`blip_caption`) are left out, as a
 * product that receives only the chat text would not see them). A session is added once the
 * previous one of its conversation is done (sessions are days apart in the data); the conversations
 * are ingested side by side. Then every question of categories 1 (multi-hop), 2 (temporal) and 4
 * (single-hop) is asked of its conversation's container through `POST /v4/search` in `memories`,
 * `hybrid` and `documents` mode, at the API's default threshold (none sent) and at threshold 0,
 * `limit` 10, one request at a time (their latency is the search p50/p95).
 *
 * Figures, per category and overall:
 *   - answer-coverage@10: at least 80 % of the answer's content units occur in the top-10 texts
 *     (memory text or chunk text). Units: lower-cased tokens minus stop words (@engram/index's
 *     list), Porter2-stemmed, number words as digits; weekday names and hedges ("around") ignored;
 *     dates normalised on both sides (`2023-05-07`, `7 May 2023`, `May 7, 2023` are one day; a day
 *     also counts for its month and year, a month for its year); a relative answer ("the week
 *     before 9 June 2023") is one unit met by any day from 14 days before to the anchor day
 *     ("after": the anchor to 14 days after; "the weekend of": ±7 days); ranges by any day inside;
 *     "summer 2023" by a month of that summer or by "summer" with the year; "10 years ago" by those
 *     words or by the year they make with the date of the evidence's session. Self-checked at start.
 *   - evidence@10: an evidence turn (`dia_id`) inside a returned chunk (chunk offsets → turns) or
 *     in a returned memory's source. The REST API names a memory's source documents but not the
 *     chunk positions, so two figures: "source session" (any turn of a source session counts) and
 *     "matched turn" (the turn of its source sessions whose content units best cover the memory).
 *   - empty: the share of questions answered with no result.
 *   - What a client reads (issue #30): clients (a prompt, a UI) read the first 1 to 3 results, so
 *     answer-coverage@1 and @3 are the same scorer on the texts of the first 1 or 3 results
 *     together; MRR is the mean of 1/r over questions, r the rank of the first result that covers
 *     the answer on its own (same scorer, one result's text), 0 when no result of the top `--limit`
 *     (10) does; "right first" (the first result is about the right fact) is met when the first
 *     result covers the answer on its own, or when it comes from the evidence: a memory one of whose
 *     source documents is a session holding an evidence turn of the question (the "source session"
 *     rule of evidence@10, so any memory of such a session counts), or a chunk that overlaps an
 *     evidence turn. Also the stricter "matched turn" variant (a memory counts when its matched turn
 *     is an evidence turn; rightFirstTurn in the JSON). A question answered only by two results
 *     together counts for @3 / @10 but not for MRR. The JSON's clientFigures holds all of them as
 *     shares per run and category, with the off-topic rate of the mode.
 *   - off-topic rate: per container, `--off-topic` (50) questions drawn with a seeded PRNG from the
 *     other conversations, asked at the default threshold; the share that returns anything.
 * Also memories formed per session, formation time (add → done, per session, per conversation and
 * overall), and two kinds of reference rows computed in this process with the same scorer: a BM25
 * ranking of the raw turns (the issue's 45.3 % baseline; with and without the session date in front
 * of each turn), and ceilings — the share of answers that one single turn, or one single memory of
 * the container, covers on its own (a miss that a memory covers is a ranking or threshold miss).
 *
 * Only 127.0.0.1 is contacted; every wait is bounded (a session: `--session-timeout` s; the whole
 * run: `--deadline` minutes, after which the stack is killed); the stack is stopped and its data
 * dir removed on every exit. Exit code 1 when the bench could not run (the stack did not start, a
 * session failed or timed out, a search answered non-200, bench/data/personas.json is not the
 * generator's output); a missed target prints MISS only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type EngramProcess, REPO_ROOT, startEngram, tempDataDir } from "@engram/testing";
import { jsonClient, type JsonClient, machineFacts, percentile, prng, providerEnv, round, rssMb, sourceState, speedProbeMs } from "./lib";
import { BM25_DEFAULTS, Bm25Index } from "./quality/bm25";
import { DATASETS_DIR } from "./quality/datasets";
import {
  answerRequirements,
  CATEGORIES,
  CATEGORY_NAME,
  type Category,
  type Conversation,
  contentWords,
  coverage,
  COVERAGE_SHARE,
  loadLocomo,
  type Question,
  scorerSelfCheck,
  type Session,
  textUnits,
} from "./memory/locomo";
import { type PersonaReport, personaJson, printPersonas, runPersonas } from "./memory/persona-recall";

// ---------------------------------------------------------------------------------------------
// Options

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
function num(name: string, def: number, min = 0): number {
  const v = opt(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} wants a number ≥ ${min}, got ${v}`);
  return n;
}

const CONVERSATIONS = Math.floor(num("conversations", 10, 1));
/** Default: ../shared/datasets/locomo beside the repository (or under ENGRAM_DATASETS_DIR), as the other benches find theirs. */
const DATASET_DIR = path.resolve(REPO_ROOT, opt("dataset-dir") ?? path.join(DATASETS_DIR, "locomo"));
const JSON_OUT = path.resolve(REPO_ROOT, opt("json") ?? "bench/results/memory.json");
const LIMIT = Math.floor(num("limit", 10, 1));
if (LIMIT > 100) throw new Error("--limit: /v4/search answers at most 100 results");
const OFF_TOPIC = Math.floor(num("off-topic", 50));
const SEED = Math.floor(num("seed", 42));
const PARALLEL = Math.floor(num("parallel", 10, 1));
const SESSION_TIMEOUT_MS = num("session-timeout", 120, 1) * 1000;
const DEADLINE_MS = num("deadline", 45, 1) * 60_000;
const EXAMPLES = Math.floor(num("examples", 5));
const VERBOSE = process.argv.includes("--verbose");
const LOG_LEVEL = opt("log-level") ?? "warn";
/** --dump <file>: the formed memories and chunks of every container as JSON (input of memory/calibrate.ts). */
const DUMP = opt("dump");
/**
 * --provider-url <OpenAI-compatible /v1 root> --provider-model <name>: the stack embeds with it
 * (EMBEDDER=openai; EMBEDDING_API_KEY from the environment) instead of the offline hashing embedder.
 */
const PROVIDER_URL = opt("provider-url");
const PROVIDER_MODEL = opt("provider-model");
const PROVIDER_ENV = providerEnv(PROVIDER_URL, PROVIDER_MODEL) ?? {};
/** Misses kept per category and run in the JSON (spread evenly over the questions); --verbose prints --examples of them. */
const MISSES_KEPT = 20;

/** --only personas | locomo: one part only (default both, the persona set first). */
const ONLY = opt("only");
if (ONLY !== undefined && ONLY !== "personas" && ONLY !== "locomo") throw new Error(`--only wants personas or locomo, got ${ONLY}`);
const RUN_PERSONAS = ONLY !== "locomo";
const RUN_LOCOMO = ONLY !== "personas";
/** --personas-via-documents: each person's facts as one document (taskType memory) instead of direct memories. */
const PERSONAS_VIA_DOCUMENTS = process.argv.includes("--personas-via-documents");

const MODES = ["memories", "hybrid", "documents"] as const;
type Mode = (typeof MODES)[number];
/** undefined = the API's default (no threshold sent). */
const THRESHOLDS: readonly (number | undefined)[] = [undefined, 0];
const thresholdLabel = (t: number | undefined) => (t === undefined ? "default" : String(t));

const TARGETS = {
  memoriesCoverage: 0.55,
  hybridCoverage: 0.65,
  memoriesEmptyMax: 0.05,
  offTopicMax: 0.2,
  rawTurnsBm25Baseline: 0.453,
};

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[memory ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function checkDeadline(): void {
  if (performance.now() - started > DEADLINE_MS) throw new Error(`not finished within --deadline ${DEADLINE_MS / 60_000} minutes`);
}

// ---------------------------------------------------------------------------------------------
// Memories' provenance: the turns a memory most likely came from

function contentSet(text: string): Set<string> {
  return new Set(contentWords(text));
}

/** The turns of the memory's source sessions whose content units cover the most of the memory's (ties all kept). */
function matchedTurns(memory: string, sessions: readonly Session[]): string[] {
  const m = contentSet(memory);
  if (m.size === 0) return [];
  let best = 0;
  let out: string[] = [];
  for (const s of sessions)
    for (const t of s.turns) {
      const words = contentSet(`${t.speaker} ${t.text}`);
      let hit = 0;
      for (const w of m) if (words.has(w)) hit++;
      if (hit > best) [best, out] = [hit, [t.diaId]];
      else if (hit === best && hit > 0) out.push(t.diaId);
    }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ingestion

interface SessionFormation {
  session: number;
  status: string;
  addToDoneMs: number;
  /** Memories the document lists as formed from it (GET …?include=memories). */
  memoriesListed: number;
  /** Growth of the container's memory count (latest versions) while the session was processed. */
  newMemories: number;
}
interface ConversationFormation {
  conversation: number;
  sampleId: string;
  namespace: string;
  sessions: SessionFormation[];
  wallSeconds: number;
  memories: number;
}

const nsOf = (c: Conversation) => `locomo-${c.index}`;

async function memoryCount(api: JsonClient, ns: string): Promise<number> {
  const res = await api("POST", `/ns/${ns}/list/memories?limit=1`, {});
  if (res.status !== 200) throw new Error(`memory list of ${ns} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return Number(res.body.pagination?.totalItems ?? NaN);
}

async function ingestConversation(api: JsonClient, conv: Conversation, problems: string[]): Promise<ConversationFormation> {
  const ns = nsOf(conv);
  const t0 = performance.now();
  const sessions: SessionFormation[] = [];
  let count = await memoryCount(api, ns);
  for (const s of conv.sessions) {
    checkDeadline();
    const tAdd = performance.now();
    const body = { id: `s${s.n}`, content: s.content, date: s.iso, metadata: { session: s.n, conversation: conv.sampleId } };
    const res = await api("POST", `/ns/${ns}/document?taskType=memory`, body);
    if (res.status !== 200) {
      problems.push(`${ns} s${s.n}: add answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      continue;
    }
    let status = "";
    let failure = "";
    for (let polls = 0; ; polls++) {
      const g = await api("GET", `/ns/${ns}/document/s${s.n}`);
      status = g.status === 200 ? String(g.body.system?.status) : `HTTP ${g.status}`;
      failure = g.body?.system?.failureReason ?? "";
      if (status === "done" || status === "failed") break;
      if (performance.now() - tAdd > SESSION_TIMEOUT_MS || polls > 100_000) {
        status = `stuck (${status})`;
        break;
      }
      await sleep(performance.now() - tAdd < 1_000 ? 25 : 100);
    }
    const addToDoneMs = performance.now() - tAdd;
    if (status !== "done")
      problems.push(`${ns} s${s.n} (${s.content.length} characters): ${status}${failure ? `: ${failure}` : ""} after ${Math.round(addToDoneMs)} ms`);
    const listed = await api("GET", `/ns/${ns}/document/s${s.n}?include=memories`);
    const after = await memoryCount(api, ns);
    sessions.push({
      session: s.n,
      status,
      addToDoneMs: round(addToDoneMs, 0),
      memoriesListed: Array.isArray(listed.body?.memories) ? listed.body.memories.length : NaN,
      newMemories: after - count,
    });
    count = after;
  }
  return {
    conversation: conv.index,
    sampleId: conv.sampleId,
    namespace: ns,
    sessions,
    wallSeconds: round((performance.now() - t0) / 1000, 1),
    memories: count,
  };
}

interface MemoryInfo {
  text: string;
  sessions: number[];
  turns: string[];
  isStatic: boolean;
  isInference: boolean;
  eventDates: number;
}
interface Provenance {
  /** chunk id → the turns it overlaps, with its session. */
  chunks: Map<string, { session: number; turns: string[]; text: string }>;
  memories: Map<string, MemoryInfo>;
  chunkOffsetMismatches: number;
}

/** Chunk and memory ids of a conversation's container mapped back to its sessions and turns, through the API. */
async function provenance(api: JsonClient, conv: Conversation): Promise<Provenance> {
  const ns = nsOf(conv);
  const sessionOfDoc = new Map<string, number>();
  const docs = await api("POST", "/v3/documents/list", { containerTags: [ns], limit: 1100 });
  if (docs.status !== 200) throw new Error(`document list of ${ns} answered ${docs.status}`);
  for (const d of docs.body.memories as { id: string; customId: string | null }[]) {
    const n = /^s(\d+)$/.exec(d.customId ?? "")?.[1];
    if (n) sessionOfDoc.set(d.id, Number(n));
  }
  const chunks = new Map<string, { session: number; turns: string[]; text: string }>();
  let chunkOffsetMismatches = 0;
  for (const s of conv.sessions) {
    const res = await api("GET", `/ns/${ns}/document/s${s.n}?include=chunks`);
    if (res.status !== 200) continue;
    for (const c of res.body.chunks as { id: string; content: string; startOffset: number; endOffset: number }[]) {
      let [start, end] = [c.startOffset, c.endOffset];
      if (s.content.slice(start, end).trim() !== c.content.trim()) {
        chunkOffsetMismatches++;
        const at = s.content.indexOf(c.content.trim());
        if (at >= 0) [start, end] = [at, at + c.content.trim().length];
      }
      chunks.set(c.id, { session: s.n, turns: s.turns.filter((t) => t.start < end && t.end > start).map((t) => t.diaId), text: c.content });
    }
  }
  const memories = new Map<string, MemoryInfo>();
  const byNumber = new Map(conv.sessions.map((s) => [s.n, s]));
  for (let page = 1; page <= 100; page++) {
    const res = await api("POST", `/ns/${ns}/list/memories?limit=1100&page=${page}`, {});
    if (res.status !== 200) throw new Error(`memory list of ${ns} answered ${res.status}`);
    const items = res.body.memories as {
      id: string;
      memory: string;
      documentIds: string[];
      isStatic: boolean;
      isInference: boolean | null;
      temporalContext: { eventDate: string[] | null } | null;
    }[];
    for (const m of items) {
      const sessions = [...new Set(m.documentIds.map((id) => sessionOfDoc.get(id)).filter((n): n is number => n !== undefined))];
      memories.set(m.id, {
        text: m.memory,
        sessions,
        turns: matchedTurns(
          m.memory,
          sessions.map((n) => byNumber.get(n)!),
        ),
        isStatic: m.isStatic,
        isInference: !!m.isInference,
        eventDates: m.temporalContext?.eventDate?.length ?? 0,
      });
    }
    if (items.length < 1100) break;
  }
  return { chunks, memories, chunkOffsetMismatches };
}

// ---------------------------------------------------------------------------------------------
// Questions

interface Hit {
  kind: "memory" | "chunk";
  id: string;
  text: string;
  similarity: number;
  sessions: number[];
  turns: string[];
}
interface Answered {
  question: Question;
  ms: number;
  status: number;
  hits: Hit[];
  share: number;
  covered: boolean;
  missing: string[];
  evidenceSession: boolean;
  evidenceTurn: boolean;
  covered1: boolean;
  covered3: boolean;
  /** 1/rank of the first result that covers the answer on its own; 0 when none does. */
  rr: number;
  rightFirst: boolean;
  rightFirstTurn: boolean;
}
interface Tally {
  questions: number;
  covered: number;
  evidenceSession: number;
  evidenceTurn: number;
  empty: number;
  /** answer-coverage@1 and @3. */
  covered1: number;
  covered3: number;
  /** Sum of the reciprocal ranks: MRR = rrSum / questions. */
  rrSum: number;
  /** The first result is about the right fact (covers the answer, or comes from an evidence session / turn). */
  rightFirst: number;
  /** The same with a memory's matched turn instead of its source sessions. */
  rightFirstTurn: number;
}
const emptyTally = (): Tally => ({
  questions: 0,
  covered: 0,
  evidenceSession: 0,
  evidenceTurn: 0,
  empty: 0,
  covered1: 0,
  covered3: 0,
  rrSum: 0,
  rightFirst: 0,
  rightFirstTurn: 0,
});

function search(api: JsonClient, ns: string, q: string, mode: Mode, threshold: number | undefined) {
  return api("POST", "/v4/search", { q, containerTag: ns, searchMode: mode, limit: LIMIT, ...(threshold !== undefined ? { threshold } : {}) });
}

/** The hits of a /v4/search answer with their sessions and turns. */
function hitsOf(body: { results?: Record<string, unknown>[] } | undefined, prov: Provenance, unmapped: { n: number }): Hit[] {
  return (body?.results ?? []).map((r) => {
    const id = String(r.id);
    if (typeof r.memory === "string") {
      const m = prov.memories.get(id);
      if (!m) unmapped.n++;
      const fallback = Number((r.metadata as { session?: unknown } | null)?.session);
      return {
        kind: "memory" as const,
        id,
        text: r.memory,
        similarity: Number(r.similarity),
        sessions: m?.sessions ?? (Number.isFinite(fallback) ? [fallback] : []),
        turns: m?.turns ?? [],
      };
    }
    const c = prov.chunks.get(id);
    if (!c) unmapped.n++;
    return { kind: "chunk" as const, id, text: String(r.chunk ?? ""), similarity: Number(r.similarity), sessions: c ? [c.session] : [], turns: c?.turns ?? [] };
  });
}

/** The date of the session the question's first evidence turn is in: the anchor of "N years ago". */
function anchorOf(question: Question, conv: Conversation): string | undefined {
  const n = question.evidence.map((e) => conv.sessionOfTurn.get(e)).find((x) => x !== undefined);
  return conv.sessions.find((s) => s.n === n)?.iso;
}

function judge(question: Question, conv: Conversation, hits: Hit[], ms: number, status: number): Answered {
  const reqs = answerRequirements(question.answer, anchorOf(question, conv));
  const { share, missing } = coverage(reqs, textUnits(hits.map((h) => h.text)));
  const evidence = new Set(question.evidence);
  const evidenceSessions = new Set(question.evidence.map((e) => conv.sessionOfTurn.get(e)).filter((n): n is number => n !== undefined));
  const evidenceSession = hits.some((h) => (h.kind === "memory" ? h.sessions.some((n) => evidenceSessions.has(n)) : h.turns.some((t) => evidence.has(t))));
  const evidenceTurn = hits.some((h) => h.turns.some((t) => evidence.has(t)));
  // What a client reads: the first results, each on its own and the first three together.
  const alone = hits.map((h) => coverage(reqs, textUnits([h.text])).share >= COVERAGE_SHARE);
  const firstAlone = alone.indexOf(true);
  const covered3 = hits.length > 0 && coverage(reqs, textUnits(hits.slice(0, 3).map((h) => h.text))).share >= COVERAGE_SHARE;
  const first = hits[0];
  const firstFromSession =
    !!first && (first.kind === "memory" ? first.sessions.some((n) => evidenceSessions.has(n)) : first.turns.some((t) => evidence.has(t)));
  const firstFromTurn = !!first && first.turns.some((t) => evidence.has(t));
  return {
    question,
    ms,
    status,
    hits,
    share,
    covered: share >= COVERAGE_SHARE,
    missing,
    evidenceSession,
    evidenceTurn,
    covered1: alone[0] === true,
    covered3,
    rr: firstAlone >= 0 ? 1 / (firstAlone + 1) : 0,
    rightFirst: alone[0] === true || firstFromSession,
    rightFirstTurn: alone[0] === true || firstFromTurn,
  };
}

interface RunSummary {
  mode: Mode | "bm25-raw-turns" | "bm25-raw-turns-dated";
  threshold: string;
  perCategory: Record<string, Tally>;
  all: Tally;
  latencyMs?: { p50: number; p95: number; mean: number };
  errors: number;
  unmappedResults: number;
  /** Up to MISSES_KEPT misses per category, spread over the questions, with what came back. */
  misses: Record<
    string,
    {
      question: string;
      answer: string;
      conversation: number;
      missing: string[];
      evidence: string[];
      top: { kind: string; similarity: number; text: string }[];
    }[]
  >;
}

function summarise(mode: RunSummary["mode"], threshold: string, answered: Answered[], unmapped = 0): RunSummary {
  const perCategory: Record<string, Tally> = Object.fromEntries(CATEGORIES.map((c) => [String(c), emptyTally()]));
  const all = emptyTally();
  const misses: RunSummary["misses"] = Object.fromEntries(CATEGORIES.map((c) => [String(c), []]));
  for (const a of answered) {
    for (const t of [perCategory[String(a.question.category)]!, all]) {
      t.questions++;
      if (a.covered) t.covered++;
      if (a.evidenceSession) t.evidenceSession++;
      if (a.evidenceTurn) t.evidenceTurn++;
      if (a.hits.length === 0) t.empty++;
      if (a.covered1) t.covered1++;
      if (a.covered3) t.covered3++;
      t.rrSum += a.rr;
      if (a.rightFirst) t.rightFirst++;
      if (a.rightFirstTurn) t.rightFirstTurn++;
    }
  }
  // Misses spread evenly over the questions of each category (so every conversation shows up), with what came back.
  for (const c of CATEGORIES) {
    const missed = answered.filter((a) => a.question.category === c && !a.covered);
    const step = Math.max(1, missed.length / MISSES_KEPT);
    for (let i = 0; i < Math.min(MISSES_KEPT, missed.length); i++) {
      const a = missed[Math.floor(i * step)]!;
      misses[String(c)]!.push({
        question: a.question.question,
        answer: a.question.answer,
        conversation: a.question.conv,
        missing: a.missing,
        evidence: a.question.evidence,
        top: a.hits.map((h) => ({ kind: h.kind, similarity: round(h.similarity, 3), text: h.text.length > 400 ? h.text.slice(0, 400) + "…" : h.text })),
      });
    }
  }
  const ms = answered.map((a) => a.ms).filter((x) => x >= 0);
  return {
    mode,
    threshold,
    perCategory,
    all,
    ...(ms.length
      ? { latencyMs: { p50: round(percentile(ms, 50), 1), p95: round(percentile(ms, 95), 1), mean: round(ms.reduce((a, b) => a + b, 0) / ms.length, 1) } }
      : {}),
    errors: answered.filter((a) => a.status !== 200 && a.status !== -1).length,
    unmappedResults: unmapped,
    misses,
  };
}

/** The issue's baseline, in process: the raw turns of each conversation ranked by BM25, the same scorer. */
function bm25Baseline(convs: readonly Conversation[], dated: boolean): RunSummary {
  const answered: Answered[] = [];
  for (const conv of convs) {
    const turns = conv.sessions.flatMap((s) => s.turns.map((t) => ({ t, s })));
    const byId = new Map(turns.map((x) => [x.t.diaId, x]));
    const index = new Bm25Index(
      turns.map(({ t, s }) => ({ id: t.diaId, text: `${dated ? `(${s.dateText}) ` : ""}${t.speaker}: ${t.text}` })),
      BM25_DEFAULTS,
    );
    for (const q of conv.questions) {
      const hits: Hit[] = index.search(q.question, LIMIT).map((r) => {
        const { t, s } = byId.get(r.id)!;
        return {
          kind: "chunk",
          id: r.id,
          text: `${dated ? `(${s.dateText}) ` : ""}${t.speaker}: ${t.text}`,
          similarity: r.score,
          sessions: [s.n],
          turns: [t.diaId],
        };
      });
      answered.push(judge(q, conv, hits, -1, -1));
    }
  }
  return summarise(dated ? "bm25-raw-turns-dated" : "bm25-raw-turns", "—", answered);
}

/**
 * Ceilings: whether some single memory of the container (or some single turn of the conversation)
 * covers the answer on its own. A question a memory covers but the search did not return is a
 * ranking or threshold miss; one no memory covers was not extracted as one fact (or needs several).
 */
function ceiling(convs: readonly Conversation[], textsOf: (conv: Conversation) => string[]): { perCategory: Record<string, Tally>; all: Tally } {
  const perCategory: Record<string, Tally> = Object.fromEntries(CATEGORIES.map((c) => [String(c), emptyTally()]));
  const all = emptyTally();
  for (const conv of convs) {
    const units = textsOf(conv).map((t) => textUnits([t]));
    for (const q of conv.questions) {
      const reqs = answerRequirements(q.answer, anchorOf(q, conv));
      const covered = units.some((u) => coverage(reqs, u).share >= COVERAGE_SHARE);
      for (const t of [perCategory[String(q.category)]!, all]) {
        t.questions++;
        if (covered) t.covered++;
      }
    }
  }
  return { perCategory, all };
}

// ---------------------------------------------------------------------------------------------
// Main

/** `n` items spread evenly over a list. */
const spread = <T>(xs: readonly T[], n: number): T[] => (xs.length <= n ? [...xs] : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!));
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "—");
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

async function main(): Promise<void> {
  scorerSelfCheck();
  if (process.argv.includes("--self-check")) {
    console.log("answer-coverage scorer self-check ok");
    return;
  }
  const dataset = RUN_LOCOMO ? loadLocomo(DATASET_DIR) : [];
  const convs = dataset.slice(0, CONVERSATIONS);
  const questions = convs.flatMap((c) => c.questions);
  const src = sourceState();
  const probe: { before: number; after?: number } = { before: speedProbeMs() };
  if (RUN_LOCOMO)
    progress(
      `LoCoMo from ${DATASET_DIR}: ${convs.length} conversations, ${convs.reduce((a, c) => a + c.sessions.length, 0)} sessions, ${questions.length} questions (categories ${CATEGORIES.join(", ")}); speed probe ${probe.before} ms`,
    );

  const problems: string[] = [];
  const dataDir = tempDataDir("engram-bench-memory-");
  let engram: EngramProcess | undefined;
  const cleanUp = () => {
    if (engram && engram.child.exitCode === null && engram.child.signalCode === null) engram.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const abort = (why: string, code: number) => {
    console.error(`memory bench: ${why}; stopping the stack`);
    cleanUp();
    process.exit(code);
  };
  const watchdog = setTimeout(() => abort(`aborted after --deadline ${DEADLINE_MS / 60_000} minutes`, 1), DEADLINE_MS + 60_000);
  watchdog.unref();
  process.once("SIGINT", () => abort("received SIGINT", 130));
  process.once("SIGTERM", () => abort("received SIGTERM", 143));

  const baselines = RUN_LOCOMO ? [bm25Baseline(convs, false), bm25Baseline(convs, true)] : [];
  const ceilings: Record<string, { perCategory: Record<string, Tally>; all: Tally }> = {
    "one turn": ceiling(convs, (c) => c.sessions.flatMap((s) => s.turns.map((t) => `${t.speaker}: ${t.text}`))),
    "one turn + its session date": ceiling(convs, (c) => c.sessions.flatMap((s) => s.turns.map((t) => `(${s.dateText}) ${t.speaker}: ${t.text}`))),
  };
  const runs: RunSummary[] = [];
  const offTopic: Record<string, { asked: number; answered: number; examples: { from: string; question: string; top: string[] }[] }> = {};
  let formation: ConversationFormation[] = [];
  let formationWallSeconds = NaN;
  let rss: number | undefined;
  const memoryStats = { memories: 0, static: 0, inferences: 0, withEventDates: 0, withPronouns: 0, words: 0, withoutSession: 0, chunkOffsetMismatches: 0 };
  let personas: PersonaReport | undefined;
  try {
    engram = await startEngram({ dataDir, timeoutMs: 60_000, env: { LOG_LEVEL, ...PROVIDER_ENV } });
    if (new URL(engram.url).hostname !== "127.0.0.1") throw new Error(`the stack is not on 127.0.0.1: ${engram.url}`);
    const api = jsonClient(engram.url, engram.apiKey, 32);

    // 0. The persona set, on the fresh stack (memory/persona-recall.ts).
    if (RUN_PERSONAS) personas = await runPersonas(api, { limit: LIMIT, viaDocuments: PERSONAS_VIA_DOCUMENTS, problems, progress });

    if (RUN_LOCOMO) {
      // 1. Sessions in order, conversations side by side.
      progress(`ingesting: sessions in order, ${Math.min(PARALLEL, convs.length)} conversations at a time`);
      const tForm = performance.now();
      let next = 0;
      const results: ConversationFormation[] = [];
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL, convs.length) }, async () => {
          while (next < convs.length) {
            const conv = convs[next++]!;
            const f = await ingestConversation(api, conv, problems);
            results.push(f);
            progress(
              `${f.namespace} (${conv.sampleId}): ${f.sessions.length} sessions done in ${f.wallSeconds} s, ${f.memories} memories (${(f.memories / Math.max(1, f.sessions.length)).toFixed(1)} per session)`,
            );
          }
        }),
      );
      formationWallSeconds = round((performance.now() - tForm) / 1000, 1);
      formation = results.sort((a, b) => a.conversation - b.conversation);
      const processing = await api("GET", "/v3/documents/processing");
      if (processing.status !== 200 || processing.body.totalCount !== 0)
        problems.push(`after ingestion, /v3/documents/processing answered ${processing.status} with ${processing.body?.totalCount} documents`);

      // 2. Provenance maps.
      const prov = new Map<number, Provenance>();
      for (const conv of convs) {
        const p = await provenance(api, conv);
        prov.set(conv.index, p);
        memoryStats.chunkOffsetMismatches += p.chunkOffsetMismatches;
        for (const m of p.memories.values()) {
          memoryStats.memories++;
          if (m.isStatic) memoryStats.static++;
          if (m.isInference) memoryStats.inferences++;
          if (m.eventDates > 0) memoryStats.withEventDates++;
          if (/\b(I|me|my|mine|we|us|our|you|your)\b/i.test(m.text)) memoryStats.withPronouns++;
          if (m.sessions.length === 0) memoryStats.withoutSession++;
          memoryStats.words += m.text.split(/\s+/).filter(Boolean).length;
        }
      }
      if (DUMP) {
        const containers = convs.map((c) => ({
          conversation: c.index,
          namespace: nsOf(c),
          memories: [...prov.get(c.index)!.memories.values()].map((m) => ({ text: m.text, sessions: m.sessions })),
          chunks: [...prov.get(c.index)!.chunks.values()].map((ch) => ({ text: ch.text, session: ch.session, turns: ch.turns })),
        }));
        fs.mkdirSync(path.dirname(path.resolve(REPO_ROOT, DUMP)), { recursive: true });
        fs.writeFileSync(path.resolve(REPO_ROOT, DUMP), JSON.stringify({ source: src, containers }));
        progress(`dumped the containers to ${DUMP}`);
      }
      ceilings["one memory of the container"] = ceiling(convs, (c) => [...prov.get(c.index)!.memories.values()].map((m) => m.text));
      progress(`provenance: ${memoryStats.memories} memories, ${[...prov.values()].reduce((a, p) => a + p.chunks.size, 0)} chunks mapped to turns`);

      // 3. Every question, every mode, both thresholds; one request at a time.
      const warm = convs[0]!;
      for (const mode of MODES)
        for (let i = 0; i < 20; i++) await search(api, nsOf(warm), warm.questions[i % warm.questions.length]!.question, mode, undefined);
      for (const threshold of THRESHOLDS)
        for (const mode of MODES) {
          checkDeadline();
          const answered: Answered[] = [];
          const unmapped = { n: 0 };
          for (const conv of convs)
            for (const q of conv.questions) {
              const t = performance.now();
              const res = await search(api, nsOf(conv), q.question, mode, threshold);
              const ms = performance.now() - t;
              if (res.status !== 200 && problems.length < 200)
                problems.push(`search ${mode} threshold ${thresholdLabel(threshold)} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
              answered.push(judge(q, conv, res.status === 200 ? hitsOf(res.body, prov.get(conv.index)!, unmapped) : [], ms, res.status));
            }
          const run = summarise(mode, thresholdLabel(threshold), answered, unmapped.n);
          runs.push(run);
          progress(
            `${mode}, threshold ${run.threshold}: answer-coverage@${LIMIT} ${pct(run.all.covered, run.all.questions)}, evidence@${LIMIT} ${pct(run.all.evidenceSession, run.all.questions)}, empty ${pct(run.all.empty, run.all.questions)}, p50 ${run.latencyMs?.p50} ms`,
          );
        }

      // 4. Off-topic: questions of the other conversations (all ten in the data set), default threshold.
      for (const mode of MODES) {
        const tally = { asked: 0, answered: 0, examples: [] as { from: string; question: string; top: string[] }[] };
        for (const conv of convs) {
          const pool = dataset.filter((c) => c.index !== conv.index).flatMap((c) => c.questions);
          const rand = prng(SEED + conv.index);
          for (let i = pool.length - 1; i > 0; i--) {
            const j = Math.floor(rand() * (i + 1));
            [pool[i], pool[j]] = [pool[j]!, pool[i]!];
          }
          for (const q of pool.slice(0, OFF_TOPIC)) {
            const res = await search(api, nsOf(conv), q.question, mode, undefined);
            if (res.status !== 200) {
              if (problems.length < 200) problems.push(`off-topic search ${mode} answered ${res.status}`);
              continue;
            }
            tally.asked++;
            const results = (res.body.results ?? []) as Record<string, unknown>[];
            if (results.length > 0) {
              tally.answered++;
              if (tally.examples.length < 10)
                tally.examples.push({
                  from: `${dataset[q.conv]!.sampleId} asked of ${nsOf(conv)}`,
                  question: q.question,
                  top: results.slice(0, 3).map((r) => `${round(Number(r.similarity), 3)} ${String(r.memory ?? r.chunk).slice(0, 160)}`),
                });
            }
          }
        }
        offTopic[mode] = tally;
        progress(`off-topic, ${mode}: ${tally.answered} of ${tally.asked} questions of other conversations returned something`);
      }
    }
    rss = rssMb(engram.child.pid!);
    api.close();
  } catch (err) {
    // The run failed (often: the stack went away mid-run): show what the stack said last.
    if (engram)
      console.error(
        `memory bench: the run failed (${String(err).slice(0, 200)}); the stack's exit code ${engram.child.exitCode}, signal ${engram.child.signalCode}; its last output:\n${engram.output.slice(-30).join("\n")}`,
      );
    throw err;
  } finally {
    clearTimeout(watchdog);
    if (engram) {
      const stopped = await engram.stop("SIGTERM").catch(() => undefined);
      if (stopped && (stopped.code !== 0 || stopped.signal)) problems.push(`the stack exited with code ${stopped.code} signal ${stopped.signal} after SIGTERM`);
      const warnings = engram.output.filter((l) => /"level":"(warn|error|fatal)"|"level":(40|50|60)\b/.test(l));
      if (warnings.length) problems.push(`${warnings.length} log lines at warn or above, e.g. ${warnings.slice(0, 3).join(" | ").slice(0, 600)}`);
    }
    cleanUp();
  }
  probe.after = speedProbeMs();
  report({ convs, questions, runs, baselines, ceilings, offTopic, formation, formationWallSeconds, memoryStats, problems, probe, src, rss, personas });
  if (problems.length) process.exitCode = 1;
}

interface Report {
  convs: Conversation[];
  questions: Question[];
  runs: RunSummary[];
  baselines: RunSummary[];
  ceilings: Record<string, { perCategory: Record<string, Tally>; all: Tally }>;
  offTopic: Record<string, { asked: number; answered: number; examples: { from: string; question: string; top: string[] }[] }>;
  formation: ConversationFormation[];
  formationWallSeconds: number;
  memoryStats: Record<string, number>;
  problems: string[];
  probe: { before: number; after?: number };
  src: { commit?: string; uncommitted?: string[] };
  rss: number | undefined;
  personas: PersonaReport | undefined;
}

function report(r: Report): void {
  console.log(
    `\nEngram memory recall (${[RUN_PERSONAS ? "persona set" : "", RUN_LOCOMO ? "LoCoMo" : ""].filter(Boolean).join(", ")}) — ${new Date().toISOString()}, ${os.cpus().length} cores, node ${process.version}, ${PROVIDER_URL ? `embedder ${PROVIDER_MODEL} at ${PROVIDER_URL}, offline language components` : "the stack's offline defaults (no embedder or language settings passed)"}`,
  );
  console.log(
    `commit ${r.src.commit?.slice(0, 10) ?? "?"}${r.src.uncommitted?.length ? ` + ${r.src.uncommitted.length} uncommitted paths (${r.src.uncommitted.slice(0, 6).join(", ")}${r.src.uncommitted.length > 6 ? ", …" : ""})` : ""}; ` +
      `machine speed probe (lower is faster): ${r.probe.before} ms before, ${r.probe.after} ms after; load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  if (r.personas) printPersonas(r.personas, { verbose: VERBOSE, examples: EXAMPLES });
  const targets = RUN_LOCOMO ? reportLocomo(r) : [];
  summary(r);
  if (r.problems.length) {
    console.log(`\nproblems (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 30)) console.log(`  ${p}`);
  }

  const { convs, questions, runs, baselines, offTopic, formation, memoryStats: ms } = r;
  const sessions = formation.flatMap((f) => f.sessions);
  const catCount = (c: Category) => questions.filter((q) => q.category === c).length;
  const out = {
    machine: { ...machineFacts(), loadAverage: os.loadavg(), speedProbeMs: r.probe },
    source: r.src,
    command: `pnpm bench:memory ${process.argv.slice(2).join(" ")}`.trim(),
    settings: {
      parts: [RUN_PERSONAS ? "personas" : "", RUN_LOCOMO ? "locomo" : ""].filter(Boolean),
      conversations: convs.length,
      datasetDir: DATASET_DIR,
      limit: LIMIT,
      offTopic: OFF_TOPIC,
      seed: SEED,
      parallel: PARALLEL,
      coverageShare: COVERAGE_SHARE,
      personasVia: PERSONAS_VIA_DOCUMENTS ? "documents" : "memories",
    },
    personas: r.personas ? personaJson(r.personas) : null,
    ...(RUN_LOCOMO
      ? {
          targets: TARGETS,
          verdicts: targets,
          dataset: { sessions: sessions.length, questions: Object.fromEntries(CATEGORIES.map((c) => [c, catCount(c)])) },
          formation: { wallSeconds: r.formationWallSeconds, conversations: formation, memoryStats: ms, rssAtEndMb: r.rss },
          clientFigures: [...runs, ...baselines].map((s) => ({
            mode: s.mode,
            threshold: s.threshold,
            all: clientFigures(s.all),
            perCategory: Object.fromEntries(Object.entries(s.perCategory).map(([c, t]) => [c, clientFigures(t)])),
            ...(s.threshold === "default" && offTopic[s.mode] ? { offTopic: offShare(offTopic[s.mode]) } : {}),
          })),
          runs,
          baselines,
          ceilings: r.ceilings,
          offTopic,
        }
      : {}),
    problems: r.problems,
  };
  fs.mkdirSync(path.dirname(JSON_OUT), { recursive: true });
  fs.writeFileSync(JSON_OUT, JSON.stringify(out, null, 2) + "\n");
  console.log(`\nfigures written to ${path.relative(REPO_ROOT, JSON_OUT)}`);
}

/** The figures of issue #30 as shares: answer-coverage@1, @3, @limit, MRR, right first. */
function clientFigures(t: Tally) {
  const share = (n: number) => (t.questions ? round(n / t.questions, 4) : null);
  return {
    questions: t.questions,
    coverageAt1: share(t.covered1),
    coverageAt3: share(t.covered3),
    [`coverageAt${LIMIT}`]: share(t.covered),
    mrr: share(t.rrSum),
    rightFirst: share(t.rightFirst),
    rightFirstTurn: share(t.rightFirstTurn),
    empty: share(t.empty),
  };
}
const offShare = (o: { asked: number; answered: number } | undefined) => (o && o.asked ? round(o.answered / o.asked, 4) : null);

/** The compact table of what clients read: the persona set, the issue's table, LoCoMo at the default threshold. */
function summary(r: Report): void {
  const w = 36;
  const col = (s: string, n = 12) => s.padStart(n);
  console.log(`\nSummary: what clients read (default threshold, no threshold sent; limit ${LIMIT})`);
  if (r.personas) {
    console.log(`persona set (${r.personas.questions} questions)`.padEnd(w) + col("right first") + col("right@3") + col("MRR", 8) + col("empty", 9));
    for (const run of r.personas.runs)
      console.log(
        run.mode.padEnd(w) +
          col(pct(run.all.first, run.all.questions)) +
          col(pct(run.all.at3, run.all.questions)) +
          col(run.all.questions ? (run.all.rrSum / run.all.questions).toFixed(3) : "—", 8) +
          col(pct(run.all.empty, run.all.questions), 9),
      );
    console.log(`issue table: ${r.personas.runs.map((run) => `${run.mode} ${run.issue.first} of ${run.issue.questions} first`).join(", ")}`);
  }
  if (RUN_LOCOMO) {
    const n = r.questions.length;
    console.log(
      `LoCoMo (${n} questions)`.padEnd(w) + col("@1", 9) + col("@3", 9) + col(`@${LIMIT}`, 9) + col("MRR", 8) + col("right first") + col("off-topic"),
    );
    const rows: [string, RunSummary | undefined][] = [
      ...MODES.map((m): [string, RunSummary | undefined] => [m, r.runs.find((x) => x.mode === m && x.threshold === "default")]),
      ["raw turns + date + BM25", r.baselines[1]],
    ];
    for (const [label, s] of rows) {
      if (!s) continue;
      const off = r.offTopic[s.mode];
      console.log(
        label.padEnd(w) +
          col(pct(s.all.covered1, s.all.questions), 9) +
          col(pct(s.all.covered3, s.all.questions), 9) +
          col(pct(s.all.covered, s.all.questions), 9) +
          col(s.all.questions ? (s.all.rrSum / s.all.questions).toFixed(3) : "—", 8) +
          col(pct(s.all.rightFirst, s.all.questions)) +
          col(off ? pct(off.answered, off.asked) : "—"),
      );
    }
  }
}

/** The LoCoMo tables; returns the verdicts on the targets. */
function reportLocomo(r: Report): { target: string; value: number; ok: boolean }[] {
  const { convs, questions, runs, baselines, offTopic, formation, memoryStats: ms } = r;
  const run = (mode: Mode, t: string) => runs.find((x) => x.mode === mode && x.threshold === t);
  const share = (t: Tally | undefined, k: keyof Tally) => (t && t.questions ? t[k] / t.questions : NaN);
  const sessions = formation.flatMap((f) => f.sessions);
  const perSession = sessions.map((s) => s.newMemories);
  const addToDone = sessions.map((s) => s.addToDoneMs);
  const catCount = (c: Category) => questions.filter((q) => q.category === c).length;

  console.log(
    `\nLoCoMo: ${convs.length} conversations, ${sessions.length} sessions, ${convs.reduce((a, c) => a + c.sessions.reduce((b, s) => b + s.turns.length, 0), 0)} turns; ` +
      `${questions.length} questions: ${CATEGORIES.map((c) => `category ${c} (${CATEGORY_NAME[c]}) ${catCount(c)}`).join(", ")}; limit ${LIMIT}; ` +
      `covered = ≥ ${COVERAGE_SHARE * 100} % of the answer's content units in the top ${LIMIT} texts`,
  );

  console.log(`\nMemory formation (sessions added in order, each once the previous one was done; conversations side by side)`);
  console.log(
    `  sessions done ${sessions.filter((s) => s.status === "done").length} of ${sessions.length}; formation wall time ${r.formationWallSeconds} s in all; ` +
      `add → done per session p50 ${round(percentile(addToDone, 50), 0)} ms, p95 ${round(percentile(addToDone, 95), 0)} ms, max ${round(Math.max(...addToDone), 0)} ms`,
  );
  console.log(
    `  memories ${ms.memories}: per session mean ${(perSession.reduce((a, b) => a + b, 0) / Math.max(1, perSession.length)).toFixed(1)}, ` +
      `p50 ${percentile(perSession, 50)}, min ${Math.min(...perSession)}, max ${Math.max(...perSession)}; ` +
      `static ${pct(ms.static!, ms.memories!)}, inferences ${pct(ms.inferences!, ms.memories!)}, with event dates ${pct(ms.withEventDates!, ms.memories!)}, ` +
      `with first/second-person pronouns ${pct(ms.withPronouns!, ms.memories!)}, mean ${(ms.words! / Math.max(1, ms.memories!)).toFixed(1)} words; RSS at the end ${round(r.rss ?? NaN, 0)} MB`,
  );
  console.log(`  ${"container".padEnd(11)} ${"sample".padEnd(8)} sessions  memories  per session  wall s  add→done p50 ms`);
  for (const f of formation)
    console.log(
      `  ${f.namespace.padEnd(11)} ${f.sampleId.padEnd(8)} ${String(f.sessions.length).padStart(8)}  ${String(f.memories).padStart(8)}  ${(f.memories / Math.max(1, f.sessions.length)).toFixed(1).padStart(11)}  ${String(f.wallSeconds).padStart(6)}  ${String(
        round(
          percentile(
            f.sessions.map((s) => s.addToDoneMs),
            50,
          ),
          0,
        ),
      ).padStart(15)}`,
    );

  const w = 40;
  const col = (s: string) => s.padStart(14);
  const rows: { label: string; s: RunSummary | undefined }[] = [
    ...MODES.flatMap((m) => THRESHOLDS.map((t) => ({ label: `${m}, threshold ${thresholdLabel(t)}`, s: run(m, thresholdLabel(t)) }))),
    { label: "raw turns + BM25 (in process)", s: baselines[0] },
    { label: "raw turns + date + BM25", s: baselines[1] },
  ];
  const table = (
    title: string,
    k: keyof Tally,
    target: (label: string, s: RunSummary) => string,
    withBaselines = true,
    fmt: (n: number, d: number) => string = pct,
  ) => {
    console.log(`\n${title}`);
    console.log("".padEnd(w) + CATEGORIES.map((c) => col(`${c} ${CATEGORY_NAME[c]}`)).join("") + col("all") + "  target");
    for (const { label, s } of rows) {
      if (!s || (!withBaselines && s.mode.startsWith("bm25"))) continue;
      console.log(
        label.padEnd(w) +
          CATEGORIES.map((c) => col(fmt(s.perCategory[String(c)]![k], s.perCategory[String(c)]!.questions))).join("") +
          col(fmt(s.all[k], s.all.questions)) +
          "  " +
          target(label, s),
      );
    }
  };
  const md = run("memories", "default");
  const hd = run("hybrid", "default");
  table(`answer-coverage@${LIMIT}`, "covered", (label, s) => {
    if (label === "memories, threshold default")
      return `≥ ${Math.round(TARGETS.memoriesCoverage * 100)} %: ${verdict(share(s.all, "covered") >= TARGETS.memoriesCoverage)}`;
    if (label === "hybrid, threshold default")
      return `≥ ${Math.round(TARGETS.hybridCoverage * 100)} %: ${verdict(share(s.all, "covered") >= TARGETS.hybridCoverage)}`;
    if (label.startsWith("raw turns + BM25")) return `(the issue's baseline: ${round(TARGETS.rawTurnsBm25Baseline * 100, 1)} %)`;
    return "";
  });
  for (const [label, c] of Object.entries(r.ceilings))
    console.log(
      `(ceiling) ${label}`.padEnd(w) +
        CATEGORIES.map((k) => col(pct(c.perCategory[String(k)]!.covered, c.perCategory[String(k)]!.questions))).join("") +
        col(pct(c.all.covered, c.all.questions)) +
        "  (covers the answer alone)",
    );
  table(`evidence@${LIMIT}: an evidence turn in a returned chunk, or in a returned memory's source session`, "evidenceSession", () => "");
  table(`evidence@${LIMIT}, memories by matched turn: the turn of its source sessions that best covers the memory`, "evidenceTurn", () => "");
  table(
    "empty answers (no result)",
    "empty",
    (label, s) =>
      label === "memories, threshold default"
        ? `≤ ${Math.round(TARGETS.memoriesEmptyMax * 100)} %: ${verdict(share(s.all, "empty") <= TARGETS.memoriesEmptyMax)}`
        : "",
    false,
  );
  const mean = (n: number, d: number) => (d ? (n / d).toFixed(3) : "—");
  table("answer-coverage@1: the first result's text alone (what a client reading one result gets)", "covered1", () => "");
  table("answer-coverage@3: the first three results' texts together", "covered3", () => "");
  table(`MRR: 1/rank of the first result that covers the answer on its own (0 when none of the top ${LIMIT} does)`, "rrSum", () => "", true, mean);
  table(
    "right first: the first result covers the answer alone, or is a memory of an evidence session, or a chunk holding an evidence turn",
    "rightFirst",
    () => "",
  );
  table("right first, memories by matched turn: the first result covers the answer alone, or its matched turn is an evidence turn", "rightFirstTurn", () => "");
  console.log(`\nsearch latency, one request at a time (${questions.length} questions per row)`);
  for (const { label, s } of rows)
    if (s?.latencyMs)
      console.log(
        `${label.padEnd(w)} p50 ${String(s.latencyMs.p50).padStart(6)} ms  p95 ${String(s.latencyMs.p95).padStart(6)} ms  mean ${String(s.latencyMs.mean).padStart(6)} ms  errors ${s.errors}  unmapped results ${s.unmappedResults}`,
      );
  console.log(`\noff-topic rate: ${OFF_TOPIC} questions of other conversations per container (seed ${SEED}), default threshold, that return anything`);
  for (const mode of MODES) {
    const o = offTopic[mode];
    if (!o) continue;
    const rate = o.asked ? o.answered / o.asked : NaN;
    console.log(
      `${mode.padEnd(w)} ${pct(o.answered, o.asked).padStart(8)} (${o.answered} of ${o.asked})` +
        (mode === "memories" ? `  ≤ ${Math.round(TARGETS.offTopicMax * 100)} %: ${verdict(rate <= TARGETS.offTopicMax)}` : ""),
    );
  }

  const offRate = offTopic.memories && offTopic.memories.asked ? offTopic.memories.answered / offTopic.memories.asked : NaN;
  const targets = [
    {
      target: `memories, default threshold: answer-coverage@${LIMIT} ≥ 55 %`,
      value: share(md?.all, "covered"),
      ok: share(md?.all, "covered") >= TARGETS.memoriesCoverage,
    },
    {
      target: `hybrid, default threshold: answer-coverage@${LIMIT} ≥ 65 %`,
      value: share(hd?.all, "covered"),
      ok: share(hd?.all, "covered") >= TARGETS.hybridCoverage,
    },
    { target: "memories, default threshold: empty answers ≤ 5 %", value: share(md?.all, "empty"), ok: share(md?.all, "empty") <= TARGETS.memoriesEmptyMax },
    { target: "memories, default threshold: off-topic rate ≤ 20 %", value: offRate, ok: offRate <= TARGETS.offTopicMax },
  ];
  console.log("\ntargets (offline default)");
  for (const t of targets)
    console.log(`  ${t.target.padEnd(60)} ${(Number.isFinite(t.value) ? `${(t.value * 100).toFixed(1)} %` : "—").padStart(8)}  ${verdict(t.ok)}`);
  console.log(`  (msmarco-dl19-5k and Cranfield hybrid at the default threshold within 0.01 nDCG@10 of threshold 0: pnpm bench:quality -- --threshold)`);
  if (ms.chunkOffsetMismatches)
    console.log(
      `note: ${ms.chunkOffsetMismatches} chunks whose text differs from the document's content at their offsets (located by their text where found, else taken at their offsets)`,
    );
  if (ms.withoutSession) console.log(`note: ${ms.withoutSession} memories name no session document as a source`);

  if (VERBOSE) {
    for (const s of [md, run("memories", "0"), hd, run("documents", "default")]) {
      if (!s) continue;
      console.log(`\nmisses, ${s.mode} at threshold ${s.threshold} (up to ${EXAMPLES} per category)`);
      for (const c of CATEGORIES)
        for (const m of spread(s.misses[String(c)]!, EXAMPLES)) {
          console.log(
            `  [${c} ${CATEGORY_NAME[c]}, ${convs[m.conversation]?.sampleId}] ${m.question}  — answer: ${JSON.stringify(m.answer)}; missing: ${m.missing.join(" | ")}; evidence ${m.evidence.join(", ")}`,
          );
          if (m.top.length === 0) console.log("      (no result)");
          for (const h of m.top.slice(0, 3)) console.log(`      ${h.kind} ${h.similarity}: ${h.text.replace(/\s+/g, " ").slice(0, 200)}`);
        }
    }
    for (const mode of MODES)
      for (const e of offTopic[mode]?.examples.slice(0, 3) ?? []) console.log(`  off-topic ${mode}: ${e.from}: ${e.question} → ${e.top.join(" | ")}`);
  }
  return targets;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
