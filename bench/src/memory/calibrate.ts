/**
 * Similarity calibration workbench (issue #15): candidate similarity functions evaluated in
 * process, in seconds, on the three kinds of evidence a threshold must separate:
 *   - LoCoMo questions asked of their own conversation's container (memories and chunks dumped by
 *     `pnpm bench:memory -- --dump bench/results/locomo-dump.json`): answer-coverage@10 among the
 *     results that clear the threshold, and the share of questions left with nothing;
 *   - LoCoMo questions asked of another conversation's container: the share that returns anything;
 *   - msmarco-dl19-5k and Cranfield: nDCG@10 of the results that clear the threshold next to the
 *     unfiltered ranking.
 * Ranking is the engine's keyword side (the offline default: the hashing embedder's dense weight is 0).
 *
 *   node --import tsx bench/src/memory/calibrate.ts [--dump bench/results/locomo-dump.json] [--threshold 0.6]
 *       [--sweep 0.5,0.6,0.7] (thresholds) [--evidence 0.3,0.35,0.4] (other evidence points mapped to 0.6)
 *       [--distributions] (top-1 similarity quantiles, on-topic vs off-topic, and at ranks 1 and 10 of the judged sets)
 */
import fs from "node:fs";
import path from "node:path";
import {
  analyze,
  analyzeForStorage,
  EVIDENCE_AT_DEFAULT_THRESHOLD,
  MEMORY_RANKING,
  partitionKey,
  type RankingConfig,
  SearchEngine,
  similarityTerms,
  termCoverage,
} from "@engram/index";
import { REPO_ROOT } from "@engram/testing";
import { DATASETS_DIR, documentContent, loadDataset } from "../quality/datasets";
import { evaluate, rankByScore } from "../quality/metrics";
import { answerRequirements, coverage, COVERAGE_SHARE, loadLocomo, textUnits } from "./locomo";

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
/** The memory containers' ranking: the product's (MEMORY_RANKING), with --set name=value overrides (experiments). */
const MEMORY_CONTAINER_RANKING: Partial<RankingConfig> = {
  ...MEMORY_RANKING,
  ...Object.fromEntries(process.argv.flatMap((a, i) => (process.argv[i - 1] === "--set" ? [[a.split("=")[0]!, Number(a.split("=")[1])]] : []))),
};
const DUMP = path.resolve(REPO_ROOT, opt("dump") ?? "bench/results/locomo-dump.json");
let THRESHOLD = Number(opt("threshold") ?? "0.6");

/** evidence → similarity with `at` mapped to 0.6 (similarity.ts's curve, another point). */
function calibrate(evidence: number, at: number): number {
  return evidence <= 0 ? 0 : Math.pow(Math.min(1, evidence), Math.log(0.6) / Math.log(at));
}

interface HitView {
  rank: number;
  score: number;
  similarity: number;
  keywordScore: number;
  text: string;
  terms: Set<string>;
}
interface QueryView {
  text: string;
  terms: string[];
  hits: HitView[];
  /** Documents in the searched partition and each query term's document frequency there. */
  n: number;
  df: Map<string, number>;
}
type SimilarityFn = (q: QueryView, h: HitView) => number;

class Container {
  readonly engine: SearchEngine;
  readonly analyzed: string[][];
  private readonly stored: string[];
  readonly df = new Map<string, number>();
  constructor(
    readonly texts: string[],
    readonly key: string,
    ranking: Partial<RankingConfig> = {},
  ) {
    this.analyzed = texts.map((t) => analyze(t));
    this.stored = texts.map((t) => analyzeForStorage(t));
    for (const a of this.analyzed) for (const t of new Set(a)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    const stored = this.stored;
    this.engine = new SearchEngine({ load: () => stored.map((analyzed, i) => ({ rid: i + 1, analyzed })), ranking });
  }
  search(text: string, limit: number): QueryView {
    const hits = this.engine.search({ partitions: [this.key], text, denseWeight: 0, limit });
    const terms = [...new Set(analyze(text))];
    return {
      text,
      terms,
      n: this.texts.length,
      df: new Map(terms.map((t) => [t, this.df.get(t) ?? 0])),
      hits: hits.map((h, i) => ({
        rank: i + 1,
        score: h.score,
        similarity: h.similarity,
        keywordScore: h.keywordScore,
        text: this.texts[h.rid - 1]!,
        terms: new Set(this.analyzed[h.rid - 1]!),
      })),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Candidates

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

function coverageBy(weight: (t: string, q: QueryView) => number): SimilarityFn {
  return (q, h) => {
    let total = 0;
    let hit = 0;
    for (const t of q.terms) {
      const w = weight(t, q);
      total += w;
      if (h.terms.has(t)) hit += w;
    }
    return total > 0 ? hit / total : 0;
  };
}

/** The product's rule: the engine's own similarity of the hit. */
const product: SimilarityFn = (_q, h) => h.similarity;
/** Sweeps: the product's evidence scale with another point mapped to the default threshold. */
const evidenceAt =
  (e: number): SimilarityFn =>
  (_q, h) =>
    calibrate(Math.pow(h.similarity, Math.log(EVIDENCE_AT_DEFAULT_THRESHOLD) / Math.log(0.6)), e);

/** The product's rule with the word weights raised to `power` and `at` mapped to 0.6 (experiments). */
function weighted(power: number, at: number): SimilarityFn {
  const cache = new WeakMap<QueryView, number[]>();
  return (q, h) => {
    let sims = cache.get(q);
    if (!sims) {
      // similarityTerms weighs by squared surprisal (with query counts): back to surprisal, then to the power asked.
      const terms = similarityTerms(q.text).map((t) => ({ term: t.term, weight: Math.pow(Math.sqrt(t.weight), power) }));
      const ev = q.hits.map((x) => ({ evidence: termCoverage(terms, (t) => x.terms.has(t)), score: x.score }));
      const best = ev[0];
      sims = ev.map((r) => calibrate(Math.max(r.evidence, best && r.evidence > 0 ? best.evidence * (r.score / best.score) : 0), at));
      cache.set(q, sims);
    }
    return sims[h.rank - 1]!;
  };
}

const CANDIDATES: Record<string, SimilarityFn> = {
  "engram (similarity.ts)": product,
  "before #15: container-idf coverage, uncalibrated": coverageBy((t, q) => idf(q.n, q.df.get(t)!)),
};
for (const e of (opt("evidence") ?? "").split(",").filter(Boolean).map(Number)) CANDIDATES[`evidence ${e} at 0.6`] = evidenceAt(e);
for (const pe of (opt("power") ?? "").split(",").filter(Boolean)) {
  const [p, e] = pe.split("@").map(Number);
  CANDIDATES[`weights^${p}, evidence ${e} at 0.6`] = weighted(p!, e!);
}

// ---------------------------------------------------------------------------------------------

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "—");

function main(): void {
  const convs = loadLocomo(path.join(DATASETS_DIR, "locomo"));
  const dump = JSON.parse(fs.readFileSync(DUMP, "utf8")) as {
    containers: { conversation: number; memories: { text: string }[]; chunks: { text: string }[] }[];
  };
  const memC = new Map<number, Container>();
  const chunkC = new Map<number, Container>();
  const source = opt("memory-source") ?? "dump";
  for (const c of dump.containers) {
    const conv = convs.find((x) => x.index === c.conversation)!;
    const dateOf = new Map(conv.sessions.map((s) => [s.n, s.dateText.replace(/^.* on /, "")]));
    const turns = (dated: boolean) => conv.sessions.flatMap((s) => s.turns.map((t) => `${dated ? `On ${dateOf.get(s.n)}, ` : ""}${t.speaker}: ${t.text}`));
    const texts: Record<string, () => string[]> = {
      dump: () => c.memories.map((m) => m.text),
      "turn-memories": () => c.memories.map((m) => m.text).filter((t) => /\(\p{Lu}[\p{L}' -]*, \d{1,2} \p{L}+ \d{4}\)$/u.test(t)),
      turns: () => turns(false),
      "dated-turns": () => turns(true),
      "dated-sentences": () =>
        conv.sessions.flatMap((s) =>
          s.turns.flatMap((t) =>
            (t.text.match(/[^.!?]+[.!?]*/g) ?? [t.text])
              .map((x) => x.trim())
              .filter((x) => x.split(/\s+/).length >= 3)
              .map((x) => `On ${dateOf.get(s.n)}, ${t.speaker}: ${x}`),
          ),
        ),
      "dated-turns-no-questions": () =>
        conv.sessions.flatMap((s) =>
          s.turns.map((t) => `On ${dateOf.get(s.n)}, ${t.speaker}: ${(t.text.match(/[^.!?]+[.!?]*/g) ?? [t.text]).filter((x) => !/\?\s*$/.test(x)).join(" ")}`),
        ),
      "dated-memories": () =>
        (c.memories as { text: string; sessions: number[] }[]).map((m) => (m.sessions.length ? `${m.text} (${dateOf.get(m.sessions[0]!)})` : m.text)),
      "memories+dated-turns": () => [...c.memories.map((m) => m.text), ...turns(true)],
    };
    if (!texts[source]) throw new Error(`--memory-source: one of ${Object.keys(texts).join(", ")}`);
    memC.set(c.conversation, new Container(texts[source]!(), partitionKey("m", String(c.conversation)), MEMORY_CONTAINER_RANKING));
    chunkC.set(
      c.conversation,
      new Container(
        c.chunks.map((m) => m.text),
        partitionKey("c", String(c.conversation)),
      ),
    );
  }
  const used = convs.filter((c) => memC.has(c.index));
  // Queries once per container kind; candidates evaluated on the same hits.
  const onTopic: { kind: string; q: QueryView; reqs: ReturnType<typeof answerRequirements> }[] = [];
  const offTopic: { kind: string; q: QueryView }[] = [];
  for (const conv of used) {
    for (const qu of conv.questions) {
      const anchor = undefined;
      const reqs = answerRequirements(qu.answer, anchor);
      onTopic.push({ kind: "memories", q: memC.get(conv.index)!.search(qu.question, 10), reqs });
      onTopic.push({ kind: "documents", q: chunkC.get(conv.index)!.search(qu.question, 10), reqs });
    }
    const others = used.filter((o) => o.index !== conv.index).flatMap((o) => o.questions);
    for (let i = 0; i < 50; i++) {
      const qu = others[Math.floor((i * others.length) / 50)]!;
      offTopic.push({ kind: "memories", q: memC.get(conv.index)!.search(qu.question, 10) });
      offTopic.push({ kind: "documents", q: chunkC.get(conv.index)!.search(qu.question, 10) });
    }
  }
  const judged = (["msmarco", "cranfield"] as const).map((key) => {
    const ds = loadDataset(key);
    const c = new Container(
      ds.docs.map((d) => documentContent(d)),
      partitionKey("q", key),
    );
    return { key, ds, views: ds.queries.map((q) => ({ id: q.id, view: c.search(q.text, 100), docs: ds.docs })) };
  });
  const idOf = new Map<string, string>();
  for (const j of judged) for (const d of j.ds.docs) idOf.set(documentContent(d), d.id);

  for (const th of (opt("sweep") ?? String(THRESHOLD)).split(",").map(Number)) {
    THRESHOLD = th;
    console.log(`threshold ${THRESHOLD}; coverage share ${COVERAGE_SHARE}`);
    if (process.argv.includes("--distributions")) {
      const q = (xs: number[]) => {
        const s = [...xs].sort((a, b) => a - b);
        return [5, 10, 20, 50, 80, 90, 95].map((p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2)).join(" ");
      };
      for (const [name, fn] of Object.entries(CANDIDATES)) {
        console.log(name + "  (top-1 value quantiles 5 10 20 50 80 90 95)");
        for (const kind of ["memories", "documents"]) {
          const on = onTopic.filter((o) => o.kind === kind && o.q.hits.length);
          const off = offTopic.filter((o) => o.kind === kind && o.q.hits.length);
          console.log(`  ${kind} on-topic  ${q(on.map((o) => fn(o.q, o.q.hits[0]!)))}`);
          console.log(`  ${kind} off-topic ${q(off.map((o) => fn(o.q, o.q.hits[0]!)))}`);
        }
        for (const j of judged)
          console.log(
            `  ${j.key} top-1 ${q(j.views.filter((v) => v.view.hits.length).map((v) => fn(v.view, v.view.hits[0]!)))}  rank-10 ${q(j.views.filter((v) => v.view.hits.length >= 10).map((v) => fn(v.view, v.view.hits[9]!)))}`,
          );
      }
      return;
    }
    for (const [name, fn] of Object.entries(CANDIDATES)) {
      const cells: string[] = [];
      for (const kind of ["memories", "documents"]) {
        const on = onTopic.filter((o) => o.kind === kind);
        let covered0 = 0;
        let covered = 0;
        let empty = 0;
        for (const o of on) {
          const kept = o.q.hits.filter((h) => fn(o.q, h) >= THRESHOLD);
          if (kept.length === 0) empty++;
          if (coverage(o.reqs, textUnits(o.q.hits.map((h) => h.text))).share >= COVERAGE_SHARE) covered0++;
          if (kept.length && coverage(o.reqs, textUnits(kept.map((h) => h.text))).share >= COVERAGE_SHARE) covered++;
        }
        const off = offTopic.filter((o) => o.kind === kind);
        const answered = off.filter((o) => o.q.hits.some((h) => fn(o.q, h) >= THRESHOLD)).length;
        cells.push(`${kind}: cov ${pct(covered, on.length)} (th0 ${pct(covered0, on.length)}) empty ${pct(empty, on.length)} off ${pct(answered, off.length)}`);
      }
      for (const j of judged) {
        const all = new Map<string, string[]>();
        const kept = new Map<string, string[]>();
        for (const v of j.views) {
          const ids = v.view.hits.map((h) => idOf.get(h.text)!);
          all.set(v.id, rankByScore(ids.map((id, i) => ({ id, score: -i }))));
          kept.set(
            v.id,
            rankByScore(
              v.view.hits
                .map((h, i) => ({ id: ids[i]!, score: -i, keep: fn(v.view, h) >= THRESHOLD }))
                .filter((x) => x.keep)
                .map(({ id, score }) => ({ id, score })),
            ),
          );
        }
        const a = evaluate(all, j.ds.qrels).ndcg10;
        const k = evaluate(kept, j.ds.qrels).ndcg10;
        cells.push(`${j.key} ${k.toFixed(4)} (th0 ${a.toFixed(4)})`);
      }
      console.log(`${name}\n  ${cells.join("\n  ")}`);
    }
  }
}

main();
