import { prng } from "@engram/testing";
import { rm3QueryModel, type FeedbackParams } from "../src/engine/feedback";
import { Partition } from "../src/engine/partition";

/** The model computed the plain way: one map per term text, every entry sorted by weight, then text. */
function reference(
  queryTf: ReadonlyMap<string, number>,
  feedback: readonly { part: Partition; slot: number; score: number }[],
  params: FeedbackParams,
  df: (term: string) => number,
  n: number,
): Map<string, number> {
  const model = new Map<string, number>();
  let qTotal = 0;
  for (const c of queryTf.values()) qTotal += c;
  const fb = new Map<string, number>();
  const best = feedback[0]!.score;
  for (const f of feedback) {
    const seq = f.part.termsOf(f.slot);
    if (seq.length === 0) continue;
    const w = (params.sharpness > 0 ? Math.exp(params.sharpness * (f.score - best)) : f.score) / seq.length;
    for (const id of seq) {
      const term = f.part.termText[id]!;
      fb.set(term, (fb.get(term) ?? 0) + w);
    }
  }
  const ranked: [string, number][] = [];
  for (const e of [...fb.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (ranked.length >= params.terms) break;
    if (e[0].length >= 2 && df(e[0]) <= params.maxDfRatio * n) ranked.push(e);
  }
  let fbTotal = 0;
  for (const [, w] of ranked) fbTotal += w;
  const a = params.originalWeight;
  for (const [t, c] of queryTf) model.set(t, (a * c) / qTotal);
  if (fbTotal > 0) for (const [t, w] of ranked) model.set(t, (model.get(t) ?? 0) + ((1 - a) * w) / fbTotal);
  return model;
}

describe("rm3QueryModel", () => {
  it("gives exactly the plain per-text computation (several partitions, equal weights, df cut-offs)", () => {
    const rand = prng(99);
    for (let round = 0; round < 60; round++) {
      const vocab = Array.from({ length: 20 + Math.floor(rand() * 400) }, (_, i) => (i % 17 === 0 ? `x${i}`.slice(0, 1) : `t${i}`));
      const parts = Array.from({ length: 1 + (round % 3) }, (_, i) => new Partition(`p${i}`, new Set()));
      const feedback: { part: Partition; slot: number; score: number }[] = [];
      const shared = Array.from({ length: 30 }, () => vocab[Math.floor(rand() * vocab.length)]!);
      for (let r = 0; r < 1 + Math.floor(rand() * 12); r++) {
        const part = parts[Math.floor(rand() * parts.length)]!;
        // Some records repeat one text: equal weights across terms and records.
        const terms = rand() < 0.3 ? shared : Array.from({ length: Math.floor(rand() * 150) }, () => vocab[Math.floor(vocab.length * rand() ** 2)]!);
        part.add(part.slots + 1 + r * 1000, terms);
        feedback.push({ part, slot: part.slots - 1, score: 10 - r * rand() });
      }
      feedback.sort((a, b) => b.score - a.score);
      const counts = new Map(vocab.map((t) => [t, Math.floor(rand() * 100)]));
      const df = (t: string) => counts.get(t) ?? 0;
      const params: FeedbackParams = {
        docs: feedback.length,
        terms: [5, 40, 120][round % 3]!,
        originalWeight: 0.5,
        maxDfRatio: [0.1, 0.5, 1][Math.floor(round / 3) % 3]!,
        sharpness: round % 4 === 0 ? 0 : 1,
      };
      const queryTf = new Map([
        [vocab[0]!, 2],
        ["absent", 1],
      ]);
      expect([...rm3QueryModel(queryTf, feedback, params, df, 200)]).toEqual([...reference(queryTf, feedback, params, df, 200)]);
      // The partitions' scratch indexes are left clean.
      for (const p of parts) expect(Array.from(p.termIndexScratch()).every((x) => x === -1)).toBe(true);
    }
  });
});
