/**
 * Memory ranking workbench for the offline default (issue #30): the persona set and LoCoMo's formed
 * memories ranked in process by the product's engine (SearchEngine, MEMORY_RANKING, ranking by
 * evidence on the shipped local model's calibrated scale), so that a change to the ranking is
 * measured in seconds instead of a whole `pnpm bench:memory` run (which stays the figure of record:
 * it goes through the API, with formation, versions and filters).
 *
 *   pnpm bench:memory -- --dump bench/results/locomo-dump.json      # once: the formed memories of the ten conversations
 *   node --import tsx bench/src/memory/evidence-lab.ts [--dump bench/results/locomo-dump.json] [--vectors bench/results/lab-vectors.json]
 *        [--verbose] [--only personas|locomo] [--no-subjects] [--compare-cosine]
 *
 * Vectors of every memory and question are computed once with the shipped model and cached in
 * `--vectors` (keyed by kind and text). Figures, at the API's default threshold (0.6), limit 10:
 * persona right first / right@3 / empty; LoCoMo memories answer-coverage @1 / @3 / @10 (the memory
 * bench's scorer) and the off-topic rate (50 questions of the other conversations per container,
 * drawn as the memory bench draws them).
 */
import fs from "node:fs";
import path from "node:path";
import { LocalModelEmbedder, MINILM_CALIBRATION } from "@engram/embed-model";
import { analyzeForStorage, MEMORY_RANKING, partitionKey, SearchEngine, subjectRuns, warmLexicon } from "@engram/index";
import { REPO_ROOT } from "@engram/testing";
import { prng } from "../lib";
import { DATASETS_DIR } from "../quality/datasets";
import { answerRequirements, type Conversation, coverage, COVERAGE_SHARE, loadLocomo, textUnits } from "./locomo";
import { loadPersonas } from "./personas";

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const DUMP = path.resolve(REPO_ROOT, opt("dump") ?? "bench/results/locomo-dump.json");
const VECTORS = path.resolve(REPO_ROOT, opt("vectors") ?? "bench/results/lab-vectors.json");
const VERBOSE = process.argv.includes("--verbose");
const ONLY = opt("only");
const THRESHOLD = 0.6;
const LIMIT = 10;
const SEED = 42;
const OFF_TOPIC = 50;
const DENSE_WEIGHT = 0.5;

const embedder = new LocalModelEmbedder();
type Kind = "document" | "query";
const cache: Record<string, number[]> = fs.existsSync(VECTORS) ? (JSON.parse(fs.readFileSync(VECTORS, "utf8")) as Record<string, number[]>) : {};
let dirty = false;
async function vectors(texts: string[], kind: Kind): Promise<Float32Array[]> {
  const missing = [...new Set(texts.filter((t) => !cache[`${kind}\u0000${t}`]))];
  for (let i = 0; i < missing.length; i += 64) {
    const batch = missing.slice(i, i + 64);
    const vs = await embedder.embed(batch, kind);
    batch.forEach((t, j) => (cache[`${kind}\u0000${t}`] = Array.from(vs[j]!, (x) => Math.round(x * 1e5) / 1e5)));
    dirty = true;
  }
  return texts.map((t) => Float32Array.from(cache[`${kind}\u0000${t}`]!));
}

/** Subject vectors, embedded up front by `prepareSubjects` (the engine's search is synchronous). */
function subjectVector(text: string): Float32Array {
  const v = cache[`query\u0000${text}`];
  if (!v) throw new Error(`subject not embedded: ${text}`);
  return Float32Array.from(v);
}
async function prepareSubjects(questions: string[]): Promise<void> {
  await vectors(
    questions.flatMap((q) => subjectRuns(q).map((r) => r.text)),
    "query",
  );
}

class Container {
  readonly engine: SearchEngine;
  readonly key: string;
  constructor(
    readonly texts: string[],
    vecs: Float32Array[],
    name: string,
  ) {
    this.key = partitionKey("lab", name);
    const records = texts.map((t, i) => ({ rid: i + 1, analyzed: analyzeForStorage(t), vector: vecs[i]!, model: embedder.id }));
    this.engine = new SearchEngine({ load: () => records, ranking: MEMORY_RANKING });
  }
  search(text: string, vector: Float32Array, threshold = THRESHOLD): { i: number; similarity: number; text: string }[] {
    const subjects = process.argv.includes("--no-subjects") ? [] : subjectRuns(text).map((r) => ({ terms: r.terms, vector: subjectVector(r.text) }));
    const hits = this.engine.search({
      subjects,
      partitions: [this.key],
      text,
      vector,
      model: embedder.id,
      denseWeight: DENSE_WEIGHT,
      calibration: MINILM_CALIBRATION,
      limit: LIMIT,
    });
    return hits.filter((h) => h.similarity >= threshold).map((h) => ({ i: h.rid - 1, similarity: h.similarity, text: this.texts[h.rid - 1]! }));
  }
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "—");

async function personas(): Promise<void> {
  const set = loadPersonas();
  let q = 0;
  let first = 0;
  let at3 = 0;
  let empty = 0;
  const misses: string[] = [];
  const cells: Record<string, number> = {};
  for (const p of set.people) {
    const facts = p.facts.map((f) => f.text);
    const c = new Container(facts, await vectors(facts, "document"), p.containerTag);
    const questions = p.facts.flatMap((f, fi) => f.questions.map((x) => ({ text: x.text, gold: fi })));
    await prepareSubjects(questions.map((x) => x.text));
    const qv = await vectors(
      questions.map((x) => x.text),
      "query",
    );
    questions.forEach((x, k) => {
      const hits = c.search(x.text, qv[k]!);
      q++;
      if (hits.length === 0) empty++;
      if (process.argv.includes("--compare-cosine")) {
        const cos = facts.map((_, fi) => {
          let d = 0;
          const a = qv[k]!;
          const b = Float32Array.from(cache[`document\u0000${facts[fi]}`]!);
          for (let z = 0; z < a.length; z++) d += a[z]! * b[z]!;
          return d;
        });
        const cbest = cos.indexOf(Math.max(...cos));
        const comb = hits[0]?.i === x.gold;
        const key = `${comb ? "C" : "c"}${cbest === x.gold ? "V" : "v"}`;
        cells[key] = (cells[key] ?? 0) + 1;
        if (comb !== (cbest === x.gold)) console.log(`${key} ${x.text} | comb: ${hits[0] ? facts[hits[0].i] : "-"} | cos: ${facts[cbest]}`);
      }
      if (hits[0]?.i === x.gold) first++;
      else {
        const all = c.search(x.text, qv[k]!, 0);
        const g = all.findIndex((h) => h.i === x.gold);
        misses.push(
          `  ${x.text}  → ${hits[0] ? `${hits[0].similarity.toFixed(3)} ${hits[0].text}` : "(none)"}   [gold #${g + 1} ${all[g]?.similarity.toFixed(3) ?? "-"}: ${facts[x.gold]}]`,
        );
      }
      if (hits.slice(0, 3).some((h) => h.i === x.gold)) at3++;
    });
  }
  if (process.argv.includes("--compare-cosine")) console.log(cells);
  // Unanswerable questions about the right person: other people's questions on a domain this person has no fact of, with
  // this person's name put in (the name is in every memory; nothing answers).
  let unAsked = 0;
  let unAnswered = 0;
  const unExamples: string[] = [];
  for (const p of set.people) {
    const facts = p.facts.map((f) => f.text);
    const domains = new Set(p.facts.map((f) => f.domain));
    const c = new Container(facts, await vectors(facts, "document"), p.containerTag);
    const foreign = set.people
      .filter((o) => o.id !== p.id)
      .flatMap((o) =>
        o.facts
          .filter((f) => !domains.has(f.domain))
          .flatMap((f) => f.questions.map((x) => x.text.split(o.name).join(p.name).split(o.firstName).join(p.firstName))),
      );
    const picked = [...new Set(foreign)].filter((_, i) => i % 3 === 0);
    await prepareSubjects(picked);
    const qv = await vectors(picked, "query");
    picked.forEach((t, k) => {
      const hits = c.search(t, qv[k]!);
      unAsked++;
      if (hits.length > 0) {
        unAnswered++;
        if (unExamples.length < 25) unExamples.push(`  ${t} → ${hits[0]!.similarity.toFixed(3)} ${hits[0]!.text}`);
      }
    });
  }
  console.log(
    `personas: right first ${pct(first, q)}, right@3 ${pct(at3, q)}, empty ${pct(empty, q)} (${q} questions); unanswerable answered ${pct(unAnswered, unAsked)} (${unAsked})`,
  );
  if (VERBOSE) console.log(`unanswerable, answered:\n${unExamples.join("\n")}`);
  if (VERBOSE) console.log(misses.join("\n"));
}

function anchorOf(question: Conversation["questions"][number], conv: Conversation): string | undefined {
  const n = question.evidence.map((e) => conv.sessionOfTurn.get(e)).find((x) => x !== undefined);
  return conv.sessions.find((s) => s.n === n)?.iso;
}

async function locomo(): Promise<void> {
  if (!fs.existsSync(DUMP)) {
    console.log(`locomo: no dump at ${DUMP} (pnpm bench:memory -- --dump ${path.relative(REPO_ROOT, DUMP)})`);
    return;
  }
  const convs = loadLocomo(path.join(DATASETS_DIR, "locomo"));
  const dump = JSON.parse(fs.readFileSync(DUMP, "utf8")) as { containers: { conversation: number; memories: { text: string }[] }[] };
  const containers = new Map<number, Container>();
  for (const d of dump.containers) {
    const texts = d.memories.map((m) => m.text);
    containers.set(d.conversation, new Container(texts, await vectors(texts, "document"), `locomo-${d.conversation}`));
  }
  let asked = 0;
  const at = { 1: 0, 3: 0, 10: 0 };
  let empty = 0;
  const misses: string[] = [];
  for (const conv of convs) {
    const c = containers.get(conv.index);
    if (!c) continue;
    await prepareSubjects(conv.questions.map((x) => x.question));
    const qv = await vectors(
      conv.questions.map((x) => x.question),
      "query",
    );
    conv.questions.forEach((x, k) => {
      const hits = c.search(x.question, qv[k]!);
      const reqs = answerRequirements(x.answer, anchorOf(x, conv));
      const ok = (n: number) => hits.length > 0 && coverage(reqs, textUnits(hits.slice(0, n).map((h) => h.text))).share >= COVERAGE_SHARE;
      asked++;
      if (hits.length === 0) empty++;
      if (ok(1)) at[1]++;
      if (ok(3)) at[3]++;
      if (ok(10)) at[10]++;
      else if (VERBOSE && misses.length < 40)
        misses.push(`  [${x.category}] ${x.question} (${x.answer}) → ${hits[0] ? `${hits[0].similarity.toFixed(3)} ${hits[0].text.slice(0, 120)}` : "(none)"}`);
    });
  }
  // Off-topic: the memory bench's draw.
  let offAsked = 0;
  let offAnswered = 0;
  const offExamples: string[] = [];
  for (const conv of convs) {
    const c = containers.get(conv.index);
    if (!c) continue;
    const pool = convs.filter((o) => o.index !== conv.index).flatMap((o) => o.questions);
    const rand = prng(SEED + conv.index);
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    const picked = pool.slice(0, OFF_TOPIC);
    await prepareSubjects(picked.map((x) => x.question));
    const qv = await vectors(
      picked.map((x) => x.question),
      "query",
    );
    picked.forEach((x, k) => {
      const hits = c.search(x.question, qv[k]!);
      offAsked++;
      if (hits.length > 0) {
        offAnswered++;
        if (offExamples.length < 30)
          offExamples.push(`  ${x.question} asked of ${conv.index} → ${hits[0]!.similarity.toFixed(3)} ${hits[0]!.text.slice(0, 120)}`);
      }
    });
  }
  console.log(
    `locomo memories: @1 ${pct(at[1], asked)}, @3 ${pct(at[3], asked)}, @10 ${pct(at[10], asked)}, empty ${pct(empty, asked)} (${asked} questions); off-topic ${pct(offAnswered, offAsked)} (${offAsked})`,
  );
  if (VERBOSE) console.log(`misses @10:\n${misses.join("\n")}\noff-topic answered:\n${offExamples.join("\n")}`);
}

async function main(): Promise<void> {
  await warmLexicon();
  if (ONLY !== "locomo") await personas();
  if (ONLY !== "personas") await locomo();
  if (dirty) {
    fs.mkdirSync(path.dirname(VECTORS), { recursive: true });
    fs.writeFileSync(VECTORS, JSON.stringify(cache));
  }
  await embedder.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
