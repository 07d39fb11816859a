/**
 * Offline extraction speed on ~1 KB conversation-style documents.
 * Run: pnpm --filter @engram/nlp bench   (or node --import tsx libs/nlp/bench/extract.bench.ts)
 * Prints figures only; no assertion.
 */
import { OfflineFactExtractor, OfflineMemoryRelator } from "../src";

const NAMES = ["Sarah", "Priya", "Tom", "Maria", "Kenji", "Amara", "Lucas", "Elena"];
const CITIES = ["Portland", "Denver", "Austin", "Seattle", "Boston", "Chicago", "Toronto", "Dublin"];
const JOBS = ["nurse", "teacher", "data scientist", "carpenter", "product manager", "chef", "pilot", "lawyer"];
const ORGS = ["Intel", "Stripe", "Acme", "Google", "Mercy Hospital", "the city council", "Shopify", "Airbus"];

/** A deterministic ~1 KB user/assistant conversation (index i varies names, places and phrasing). */
function conversation(i: number): string {
  const n = NAMES[i % 8]!;
  const city = CITIES[(i * 3) % 8]!;
  const other = CITIES[(i * 5 + 1) % 8]!;
  const job = JOBS[(i * 7) % 8]!;
  const org = ORGS[(i * 3 + 2) % 8]!;
  return [
    `User: Hi, I'm ${n}.`,
    `Assistant: Hello ${n}! How can I help you today?`,
    `User: I'm a ${job} and I live in ${city}. My brother Alex moved to ${other} last month.`,
    `Assistant: That's a big change for your family. How is he settling in?`,
    `User: He started working at ${org} yesterday and he loves it. I'm allergic to shellfish, by the way.`,
    `Assistant: Thanks for telling me, I'll keep that in mind for recipes.`,
    `User: Can you suggest a vegetarian dinner for Friday? We're having friends over next Friday.`,
    `Assistant: Sure! A mushroom risotto would be lovely. Do you have any other preferences?`,
    `User: I prefer quick recipes, under 30 minutes. My husband and I also grow our own tomatoes.`,
    `Assistant: Great, I'll suggest quick dishes that use fresh tomatoes.`,
    `User: Perfect. I usually cook on weekends and I run every morning before work.`,
    `Assistant: That's a healthy routine! Let me know if you want a plan.`,
  ].join("\n");
}

async function main(): Promise<void> {
  const extractor = new OfflineFactExtractor();
  const relator = new OfflineMemoryRelator();
  const docs = Array.from({ length: 400 }, (_, i) => conversation(i));
  const bytes = docs.reduce((a, d) => a + Buffer.byteLength(d), 0) / docs.length;
  const input = (d: string) => ({ chunks: [{ position: 0, content: d }], referenceDate: "2026-11-20T10:00:00Z", now: "2026-11-20T10:00:00Z" });

  const t0 = performance.now();
  await extractor.extract(input(docs[0]!));
  const cold = performance.now() - t0;
  for (const d of docs.slice(0, 100)) await extractor.extract(input(d)); // warm-up

  let facts = 0;
  const t1 = performance.now();
  for (const d of docs) facts += (await extractor.extract(input(d))).length;
  const ms = (performance.now() - t1) / docs.length;

  // Relating each fact to 5 candidates (dreaming=dynamic), as memory formation does.
  const all = (await extractor.extract(input(docs[1]!))).map((f, k) => ({ ...f, id: `m${k}` }));
  const t2 = performance.now();
  let relations = 0;
  for (let r = 0; r < 200; r++) {
    for (const f of all) {
      await relator.relate(
        f,
        all.slice(0, 5).map((c) => ({ id: c.id, content: c.content, similarity: 0.8, isStatic: c.isStatic })),
      );
      relations++;
    }
  }
  const relMs = (performance.now() - t2) / relations;

  const out = [
    `documents: ${docs.length}, average size ${bytes.toFixed(0)} bytes`,
    `first call (loads compromise lexicon and chrono): ${cold.toFixed(0)} ms`,
    `extraction: ${ms.toFixed(2)} ms per document (${(ms / (bytes / 1024)).toFixed(2)} ms per KB), ${(1000 / ms).toFixed(0)} documents/s on one core`,
    `facts per document: ${(facts / docs.length).toFixed(1)}`,
    `relate (5 candidates): ${(relMs * 1000).toFixed(0)} µs per fact`,
    "",
    "example facts:",
    ...all.map(
      (f) =>
        `  ${f.isStatic ? "static " : "dynamic"} ${f.isInference ? "(inferred) " : ""}${f.content}${f.eventDates.length ? `  [${f.eventDates.join(", ")}]` : ""}`,
    ),
  ];
  process.stdout.write(`${out.join("\n")}\n`);
}

void main();
