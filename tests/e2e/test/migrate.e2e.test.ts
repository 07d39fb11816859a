import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "@engram/cli";
import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { type Api, stopQuietly } from "./helpers";

const SOURCE_KEY = "migrate-source-key-0123456789abcdef";
const TARGET_KEY = "migrate-target-key-0123456789abcdef";
const TARGET_KEY_B = "migrate-target-b-key-0123456789abcd";

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

const DOCS = 1000;
/** Documents that form memories (the rest are superrag: chunks only, quick). */
const FORMING = 6;
const TAGS = ["mig_alpha", "mig_beta"];
/** A tag holding only directly written memories. */
const MEMORY_TAG = "mig_notes";
const PEOPLE = ["Ada Byron", "Oskar Lund", "Mirela Dobre", "Tomas Berg", "Ines Vidal", "Kofi Mensah"];
const CITIES = ["Vesthavn", "Lisbon", "Tartu", "Porto", "Bergen", "Accra"];

/** The i-th source document: a customId for most, none for every tenth (the target derives one from the source id). */
function sourceDoc(i: number) {
  const forming = i < FORMING;
  return {
    content: forming
      ? `${PEOPLE[i]} lives in ${CITIES[i]} and works as a harbour pilot.`
      : `Logbook entry ${i}: the ferry ${i % 37} left pier ${i % 11} at ${String(i % 24).padStart(2, "0")}:15 with ${i * 3} passengers.`,
    containerTag: TAGS[i % 2],
    ...(i % 10 === 9 ? {} : { customId: `log-${i}` }),
    metadata: { n: i, kind: forming ? "profile" : "log", even: i % 2 === 0, labels: [`l${i % 3}`] },
    forming,
  };
}

const DIRECT_MEMORIES = [
  { tag: TAGS[1]!, memory: { content: "The harbour office closes at six on Fridays", isStatic: true, metadata: { source: "chat" } } },
  { tag: TAGS[1]!, memory: { content: "The pilot boat Sjøorm is in dry dock", forgetAfter: "2099-01-01T00:00:00.000Z", forgetReason: "repairs end" } },
  { tag: MEMORY_TAG, memory: { content: "Radio channel 12 is used for the harbour", metadata: { channel: 12 } } },
  { tag: MEMORY_TAG, memory: { content: "The breakwater light flashes green every four seconds" } },
];

async function allDocuments(api: Api): Promise<Body[]> {
  const out: Body[] = [];
  for (let page = 1; ; page++) {
    const res = await api("POST", "/v3/documents/list", { limit: 500, page, includeContent: true, sort: "createdAt", order: "asc" });
    expect(res.status).toBe(200);
    out.push(...res.body.memories);
    if (page >= res.body.pagination.totalPages) return out;
  }
}

async function memoriesOf(api: Api, tag: string): Promise<Body[]> {
  const res = await api("POST", "/v4/memories/list", { containerTags: [tag], limit: 1000, sort: "createdAt", order: "asc" });
  expect(res.status).toBe(200);
  return res.body.memoryEntries;
}

/** Waits until `count` documents are listed and every one is done or failed (polled without content), then lists them with it. */
async function allDone(api: Api, count: number, what: string): Promise<Body[]> {
  await waitFor(
    async () => {
      const res = await api("POST", "/v3/documents/list", { limit: 1100 });
      const docs: Body[] = res.body?.memories ?? [];
      return res.status === 200 && res.body.pagination.totalItems === count && docs.every((d) => d.status === "done" || d.status === "failed");
    },
    { timeoutMs: 90_000, intervalMs: 500, what },
  );
  return allDocuments(api);
}

/** What the migration must carry of a document, keyed by the target's customId. */
function documentViews(docs: Body[], customIdOf: (d: Body) => string) {
  return new Map(docs.map((d) => [customIdOf(d), { content: d.content, containerTags: d.containerTags, metadata: d.metadata }]));
}

/** A memory as the migration carries it (ids differ between servers). */
const memoryView = (m: Body) => ({
  memory: m.memory,
  isStatic: m.isStatic,
  metadata: m.metadata ?? null,
  forgetAfter: m.forgetAfter ?? null,
  forgetReason: m.forgetReason ?? null,
  fromDocument: (m.documentIds ?? []).length > 0,
});
const sortedViews = (ms: Body[]) => ms.map(memoryView).sort((x, y) => x.memory.localeCompare(y.memory));

interface Migration {
  code: number;
  summary: Body;
  stderr: string;
}

/**
 * `engram migrate` in-process (as the CLI tests run it), with --json;
 * `onProgress` sees each progress line (the migration's stderr).
 */
async function migrate(
  target: { url: string; key: string },
  source: { url: string; key: string },
  stateFile: string,
  onProgress?: (line: string) => void,
): Promise<Migration> {
  let out = "";
  let err = "";
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: {
      write: (s: string) => {
        err += s;
        onProgress?.(s);
        return true;
      },
      isTTY: false,
    },
    env: { HOME: os.tmpdir(), ENGRAM_CONFIG: path.join(path.dirname(stateFile), "config.json") },
    cwd: path.dirname(stateFile),
  };
  const code = await runCli(
    [
      "--json",
      "--url",
      target.url,
      "--api-key",
      target.key,
      "migrate",
      "--from-url",
      source.url,
      "--from-key",
      source.key,
      "--state",
      stateFile,
      "--retries",
      "2",
    ],
    io,
  );
  let summary: Body;
  try {
    summary = JSON.parse(out);
  } catch {
    throw new Error(`migrate printed no JSON (exit ${code}):\n${out}\n${err.slice(-2000)}`);
  }
  return { code, summary, stderr: err };
}

/**
 * Issue #34, "migration from any server that speaks the API": two all-in-one
 * stacks, 1,000 documents and some direct memories in the source, `engram
 * migrate` into the target through the public API. The target then holds
 * every document with its content, customId, container tag and metadata, the
 * direct memories, and the memories formed again from the documents; a second
 * run adds nothing; a run interrupted midway and run again ends identical,
 * without duplicates, and so does a run that lost its state file.
 */
describe("engram migrate (Engram to Engram)", () => {
  const stacks = {} as { source: EngramProcess; target: EngramProcess; src: Api; dst: Api; dstB: Api };
  /** Intermediate states (chunking, embedding, indexing) of these one-chunk documents are not published: less work per document. */
  const quick = { PIPELINE_PROGRESS_INTERVAL_MS: "60000" };
  let targetStarting: Promise<EngramProcess>;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-migrate-"));
    // The target starts meanwhile; the first test loads the source as soon as it serves.
    targetStarting = startEngram({ apiKey: TARGET_KEY, env: { ENGRAM_API_KEYS: `${TARGET_KEY_B}=tenant-b`, ...quick }, timeoutMs: 120_000 });
    targetStarting.catch(() => undefined);
    stacks.source = await startEngram({ apiKey: SOURCE_KEY, env: quick, timeoutMs: 120_000 });
    stacks.src = apiClient(stacks.source.url, SOURCE_KEY);
  }, 130_000);
  afterAll(async () => {
    await Promise.all([stopQuietly(stacks.source), targetStarting?.then(stopQuietly, () => undefined)]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const targetReady = async () => {
    stacks.target ??= await targetStarting;
    stacks.dst = apiClient(stacks.target.url, TARGET_KEY);
    stacks.dstB = apiClient(stacks.target.url, TARGET_KEY_B);
  };

  const source = () => ({ url: stacks.source.url, key: SOURCE_KEY });
  let sourceDocs: Body[] = [];
  /** Source id -> the customId the target must hold. */
  const expectedCustomId = (d: Body) => d.customId ?? `migrated:${d.id}`;
  const sourceMemories: Record<string, Body[]> = {};

  it("loads 1,000 documents and direct memories into the source", async () => {
    const src = stacks.src;
    const docs = Array.from({ length: DOCS }, (_, i) => sourceDoc(i));
    for (const taskType of ["memory", "superrag"] as const) {
      const items = docs.filter((d) => (d.forming ? "memory" : "superrag") === taskType).map(({ forming: _f, ...d }) => d);
      for (let i = 0; i < items.length; i += 500) {
        const res = await src("POST", "/v3/documents/batch", { documents: items.slice(i, i + 500), taskType });
        expect(res.status).toBe(200);
        expect(res.body.failed ?? 0).toBe(0);
      }
    }
    for (const { tag, memory } of DIRECT_MEMORIES) expect((await src("POST", "/v4/memories", { containerTag: tag, memories: [memory] })).status).toBe(201);
    sourceDocs = await allDone(src, DOCS, "the source's documents to be processed");
    expect(sourceDocs.filter((d) => d.status === "failed")).toEqual([]);
    for (const tag of [...TAGS, MEMORY_TAG]) sourceMemories[tag] = await memoriesOf(src, tag);
    expect(sourceMemories[TAGS[0]!]!.filter((m) => m.documentIds.length > 0).length).toBeGreaterThanOrEqual(FORMING / 2);
    expect(sourceMemories[MEMORY_TAG]).toHaveLength(2);
  }, 120_000);

  let firstIds: string[] = [];

  it("migrates every document with its content, customId, container tag and metadata, and the memories", async () => {
    await targetReady();
    const target = { url: stacks.target.url, key: TARGET_KEY };
    const run = await migrate(target, source(), path.join(dir, "a", "state.json"));
    expect(run.code).toBe(0);
    const s = run.summary;
    console.log(`engram migrate: ${s.documents.added} documents in ${s.seconds} s (${s.documentsPerSecond} documents/s)`);
    expect(s.documents).toEqual({ listed: DOCS, added: DOCS, unchanged: 0, pending: 0, failed: 0 });
    expect(s.memories.copied).toBe(DIRECT_MEMORIES.length);
    expect(s.memories.failed).toBe(0);
    expect(s.memories.fromDocuments).toBe(
      Object.values(sourceMemories)
        .flat()
        .filter((m) => m.documentIds.length > 0).length,
    );
    expect(s.failures).toEqual([]);

    const migrated = await allDocuments(stacks.dst);
    expect(migrated).toHaveLength(DOCS);
    expect(documentViews(migrated, (d) => d.customId)).toEqual(documentViews(sourceDocs, expectedCustomId));
    firstIds = migrated.map((d) => d.id).sort();

    // The memories: the direct ones copied, the ones of documents formed again on the target from the migrated documents
    // (which the target processes first: the migration sends documents oldest first).
    const views = async () => Promise.all([...TAGS, MEMORY_TAG].map(async (tag) => sortedViews(await memoriesOf(stacks.dst, tag))));
    const expected = [...TAGS, MEMORY_TAG].map((tag) => sortedViews(sourceMemories[tag]!));
    await waitFor(async () => JSON.stringify(await views()) === JSON.stringify(expected), {
      timeoutMs: 60_000,
      intervalMs: 300,
      what: "the memories on the target",
    }).catch(() => undefined);
    expect(await views()).toEqual(expected);
  }, 120_000);

  it("adds nothing on a second run", async () => {
    const target = { url: stacks.target.url, key: TARGET_KEY };
    const memoriesBefore = await Promise.all([...TAGS, MEMORY_TAG].map((t) => memoriesOf(stacks.dst, t)));
    const run = await migrate(target, source(), path.join(dir, "a", "state.json"));
    expect(run.code).toBe(0);
    expect(run.summary.documents).toEqual({ listed: DOCS, added: 0, unchanged: DOCS, pending: 0, failed: 0 });
    expect(run.summary.memories).toMatchObject({ copied: 0, unchanged: DIRECT_MEMORIES.length, failed: 0 });
    expect((await allDocuments(stacks.dst)).map((d) => d.id).sort()).toEqual(firstIds);
    const memoriesAfter = await Promise.all([...TAGS, MEMORY_TAG].map((t) => memoriesOf(stacks.dst, t)));
    expect(memoriesAfter.map((l) => l.map((m) => m.id).sort())).toEqual(memoriesBefore.map((l) => l.map((m) => m.id).sort()));
  }, 60_000);

  it("resumes a run interrupted midway: the same documents and memories, none twice, also when the state file was lost", async () => {
    const target = { url: stacks.target.url, key: TARGET_KEY_B };
    const state = path.join(dir, "b", "state.json");
    let added = 0;
    let interrupted = false;
    const first = await migrate(target, source(), state, (line) => {
      if (/\] added /.test(line)) added++;
      if (added >= 300 && !interrupted) {
        interrupted = true;
        process.emit("SIGINT");
      }
    });
    expect(first.code).toBe(1);
    expect(first.summary.error).toMatch(/interrupted/);
    const done = first.summary.documents.added;
    expect(done).toBeGreaterThanOrEqual(300);
    expect(done).toBeLessThan(DOCS);
    expect(first.summary.memories.copied).toBe(0);

    const second = await migrate(target, source(), state);
    expect(second.code).toBe(0);
    expect(second.summary.documents).toEqual({ listed: DOCS, added: DOCS - done, unchanged: done, pending: 0, failed: 0 });
    expect(second.summary.memories.copied).toBe(DIRECT_MEMORIES.length);

    const migrated = await allDocuments(stacks.dstB);
    expect(migrated).toHaveLength(DOCS);
    expect(new Set(migrated.map((d) => d.customId)).size).toBe(DOCS);
    expect(documentViews(migrated, (d) => d.customId)).toEqual(documentViews(sourceDocs, expectedCustomId));
    const ids = migrated.map((d) => d.id).sort();
    const directBefore = (await memoriesOf(stacks.dstB, MEMORY_TAG)).map((m) => m.id).sort();
    expect(directBefore).toHaveLength(2);

    // The state file lost: everything is sent again, and the target recognises it (customIds, memory content). A document
    // the target has not processed yet answers "queued" to the repeated add and is counted as added: only the sum is fixed.
    const lost = await migrate(target, source(), path.join(dir, "c", "state.json"));
    expect(lost.code).toBe(0);
    expect(lost.summary.documents).toMatchObject({ listed: DOCS, pending: 0, failed: 0 });
    expect(lost.summary.documents.added + lost.summary.documents.unchanged).toBe(DOCS);
    expect((await allDocuments(stacks.dstB)).map((d) => d.id).sort()).toEqual(ids);
    expect((await memoriesOf(stacks.dstB, MEMORY_TAG)).map((m) => m.id).sort()).toEqual(directBefore);
  }, 120_000);
});
