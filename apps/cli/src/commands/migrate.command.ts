import path from "node:path";
import Supermemory, { APIError } from "supermemory";
import { checkContainerTag, normaliseUrl } from "../config";
import type { CommandContext } from "../context";
import { ExitCode, UsageError, describeError, exitCodeFor, isFatal } from "../exit-codes";
import {
  type SourceDocument,
  type SourceMemory,
  type TargetDocument,
  type TargetMemory,
  batchesOf,
  formedFrom,
  planDocument,
  planMemory,
  ratePerSecond,
} from "../migrate/mapping";
import { createProgress, type Progress } from "../progress";
import { StateStore, defaultStatePath, sha256 } from "../state-file";

export interface MigrateOptions {
  fromUrl?: string;
  fromKey?: string;
  containerTag?: string[];
  concurrency?: string;
  batchSize?: string;
  retries?: string;
  state?: string;
}

/** One item that was not migrated, as the summary reports it. */
export interface MigrateProblem {
  kind: "document" | "memory";
  /** The source's id. */
  id: string;
  reason: string;
}

export interface MigrateSummary {
  source: string;
  target: string;
  containerTags: string[] | "all";
  documents: { listed: number; added: number; unchanged: number; pending: number; failed: number };
  memories: { listed: number; copied: number; unchanged: number; fromDocuments: number; skipped: number; failed: number };
  seconds: number;
  /** Documents added or found unchanged per second of the whole run. */
  documentsPerSecond: number;
  failures: MigrateProblem[];
  /** Documents still being processed on the source: a later run takes them. */
  pending: { id: string; status: string }[];
  stateFile: string;
  error?: string;
}

/** Bytes of content in one batch request: well under the target's JSON body limit (GATEWAY_JSON_LIMIT_BYTES, 16 MiB). */
const BATCH_MAX_BYTES = 4 * 1024 * 1024;
/** Memories per `POST /v4/memories` (the API's maximum). */
const MEMORIES_PER_REQUEST = 100;
/** Memory entries per page of `POST /v4/memories/list`. */
const MEMORY_PAGE = 500;

function intOption(name: string, v: string | undefined, dflt: number, min: number, max: number): number {
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got '${v}'`);
  return n;
}

interface Page<T> {
  items: T[];
  totalPages: number;
  totalItems: number;
}

/** A memory list entry with the container tag it was listed under. */
type TaggedMemory = SourceMemory & { containerTag: string };

/**
 * `engram migrate --from-url URL --from-key KEY [--container-tag …]`: copies
 * documents (content, customId, container tags, metadata) and directly
 * written memories from any server speaking the supermemory API into the
 * configured Engram, through the public API and the official SDK on both
 * sides. Resumable (a state file of what the target accepted) and idempotent
 * (customIds kept or derived from the source ids; the target's memory writes
 * deduplicate by content): a second run adds nothing.
 */
export async function migrateCommand(ctx: CommandContext, o: MigrateOptions): Promise<number> {
  if (!o.fromUrl) throw new UsageError("--from-url is required: the base URL of the server to migrate from");
  const fromUrl = normaliseUrl(o.fromUrl);
  const fromKey = o.fromKey ?? ctx.io.env.ENGRAM_MIGRATE_FROM_KEY;
  if (!fromKey || !fromKey.trim()) throw new UsageError("--from-key (or ENGRAM_MIGRATE_FROM_KEY) is required: an API key of the source server");
  const concurrency = intOption("--concurrency", o.concurrency, 2, 1, 16);
  const batchSize = intOption("--batch-size", o.batchSize, 100, 1, 600);
  const retries = intOption("--retries", o.retries, 5, 0, 20);
  const onlyTags = o.containerTag?.length ? [...new Set(o.containerTag.map(checkContainerTag))] : undefined;
  const targetUrl = ctx.config.url;
  const targetKey = ctx.apiKey;
  if (fromUrl === targetUrl && fromKey === targetKey) throw new UsageError("the source and the target are the same server and key");

  // The SDK retries 429, 408, 409, 5xx and connection errors with exponential backoff (and Retry-After) on both sides.
  const source = new Supermemory({ apiKey: fromKey, baseURL: fromUrl, maxRetries: retries, timeout: 120_000 });
  const target = new Supermemory({ apiKey: targetKey, baseURL: targetUrl, maxRetries: retries, timeout: 120_000 });
  const stateFile = o.state
    ? path.resolve(ctx.io.cwd, o.state)
    : defaultStatePath(ctx.config.configPath, targetUrl, targetKey, `migrate\n${fromUrl}\n${sha256(fromKey)}`);
  const state = StateStore.load(stateFile, targetUrl, `migrate from ${fromUrl}`);

  const started = Date.now();
  const summary: MigrateSummary = {
    source: fromUrl,
    target: targetUrl,
    containerTags: onlyTags ?? "all",
    documents: { listed: 0, added: 0, unchanged: 0, pending: 0, failed: 0 },
    memories: { listed: 0, copied: 0, unchanged: 0, fromDocuments: 0, skipped: 0, failed: 0 },
    seconds: 0,
    documentsPerSecond: 0,
    failures: [],
    pending: [],
    stateFile,
  };
  const run = new RunControl(summary);
  process.once("SIGINT", run.interrupt);
  try {
    const tags = onlyTags ?? (await discoverTags(source));
    const memories = await listMemories(source, tags, run);
    summary.memories.listed = memories.length;
    const sourceDocuments = new Set<string>();
    if (!run.stopped) {
      ctx.printer.note(`migrating from ${fromUrl} to ${targetUrl} (${tags.length} container tag(s), ${memories.length} memories listed)`);
      await migrateDocuments(ctx, { source, target, state, run, summary, onlyTags, batchSize, concurrency, formed: formedFrom(memories), sourceDocuments });
    }
    if (!run.stopped) await migrateMemories(ctx, { target, state, run, summary, memories, sourceDocuments, concurrency });
  } catch (err) {
    run.fail(err);
  } finally {
    process.removeListener("SIGINT", run.interrupt);
    state.flush();
  }
  const ms = Date.now() - started;
  summary.seconds = Math.round(ms / 100) / 10;
  summary.documentsPerSecond = ratePerSecond(summary.documents.added + summary.documents.unchanged, ms);
  printSummary(ctx, summary);
  if (run.exitCode !== undefined) return run.exitCode;
  return summary.documents.failed + summary.memories.failed + summary.documents.pending > 0 ? ExitCode.Partial : ExitCode.Ok;
}

/** Stop conditions of a run: Ctrl-C, or the first fatal error (authentication refused, server unreachable) on either side. */
class RunControl {
  stopped = false;
  exitCode: number | undefined;
  constructor(private readonly summary: MigrateSummary) {}
  readonly interrupt = (): void => {
    // No new request starts; the ones in flight finish and are recorded, and the next run resumes.
    if (!this.stopped) this.summary.error ??= "interrupted: run the same command again to resume";
    this.exitCode ??= ExitCode.Partial;
    this.stopped = true;
  };
  /** Ends the run with `err`'s exit code. */
  fail(err: unknown): void {
    if (this.exitCode === undefined) {
      this.exitCode = exitCodeFor(err);
      this.summary.error = describeError(err);
    }
    this.stopped = true;
  }
}

/**
 * Every container tag of the source: `GET /v3/container-tags/list`; a source
 * without it (404, 405, 501) is asked for its documents' tags instead (memories
 * of a tag without documents are then not found: name such tags with --container-tag).
 */
async function discoverTags(source: Supermemory): Promise<string[]> {
  try {
    const list = await source.get<{ containerTag?: string | null; name?: string | null }[]>("/v3/container-tags/list");
    if (Array.isArray(list)) return [...new Set(list.map((t) => t.containerTag ?? t.name ?? "").filter(Boolean))].sort();
  } catch (err) {
    if (!(err instanceof APIError) || ![404, 405, 501].includes(err.status ?? 0)) throw err;
  }
  const tags = new Set<string>();
  for (let page = 1; ; page++) {
    const p = await listDocuments(source, { page, limit: 1000, includeContent: false });
    for (const d of p.items) for (const t of d.containerTags ?? []) tags.add(t);
    if (page >= p.totalPages || p.items.length === 0) break;
  }
  return [...tags].sort();
}

async function listDocuments(
  source: Supermemory,
  body: { page: number; limit: number; includeContent: boolean; containerTags?: string[] },
): Promise<Page<SourceDocument>> {
  const res = (await source.documents.list({ ...body, sort: "createdAt", order: "asc" })) as unknown as {
    memories?: SourceDocument[];
    documents?: SourceDocument[];
    pagination?: { totalPages?: number; totalItems?: number };
  };
  const items = res.memories ?? res.documents ?? [];
  return { items, totalPages: res.pagination?.totalPages ?? 1, totalItems: res.pagination?.totalItems ?? items.length };
}

/** The latest version of every memory of the tags, oldest first. */
async function listMemories(source: Supermemory, tags: string[], run: RunControl): Promise<TaggedMemory[]> {
  const out: TaggedMemory[] = [];
  for (const tag of tags) {
    for (let page = 1; !run.stopped; page++) {
      const res = await source.post<{ memoryEntries?: SourceMemory[]; pagination?: { totalPages?: number } }>("/v4/memories/list", {
        body: { containerTags: [tag], page, limit: MEMORY_PAGE, sort: "createdAt", order: "asc" },
      });
      const entries = res.memoryEntries ?? [];
      for (const m of entries) out.push({ ...m, containerTag: tag });
      if (entries.length === 0 || page >= (res.pagination?.totalPages ?? 1)) break;
    }
  }
  return out;
}

/** Runs tasks with at most `limit` in flight; `wait` settles them all. */
class Pool {
  private readonly inFlight = new Set<Promise<void>>();
  /** `onError` takes what a task throws (a task never rejects the pool). */
  constructor(
    private readonly limit: number,
    private readonly onError: (err: unknown) => void,
  ) {}
  async start(task: () => Promise<void>): Promise<void> {
    while (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
    const p = task()
      .catch(this.onError)
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }
  async wait(): Promise<void> {
    await Promise.all(this.inFlight);
  }
}

type Planned = { src: SourceDocument; doc: TargetDocument; hash: string; dropped: string[] };

async function migrateDocuments(
  ctx: CommandContext,
  a: {
    source: Supermemory;
    target: Supermemory;
    state: StateStore;
    run: RunControl;
    summary: MigrateSummary;
    onlyTags: string[] | undefined;
    batchSize: number;
    concurrency: number;
    formed: ReadonlySet<string>;
    sourceDocuments: Set<string>;
  },
): Promise<void> {
  const { summary, state, run } = a;
  const counts = summary.documents;
  const progress = createProgress(ctx.io, { json: ctx.printer.json, noun: "documents" });
  const pool = new Pool(a.concurrency, (err) => run.fail(err));
  const failed = (p: Progress, id: string, reason: string) => {
    counts.failed++;
    summary.failures.push({ kind: "document", id, reason });
    p.item("failed", id, reason);
  };
  // With --container-tag, one listing per tag; else one listing of everything.
  const scopes: (string[] | undefined)[] = a.onlyTags ? a.onlyTags.map((t) => [t]) : [undefined];
  let total = 0;
  for (const containerTags of scopes)
    total += (await listDocuments(a.source, { page: 1, limit: 1, includeContent: false, ...(containerTags ? { containerTags } : {}) })).totalItems;
  progress.start(total);
  try {
    for (const containerTags of scopes) {
      for (let page = 1; !run.stopped; page++) {
        const p = await listDocuments(a.source, { page, limit: a.batchSize, includeContent: true, ...(containerTags ? { containerTags } : {}) });
        const planned: Planned[] = [];
        for (const src of p.items) {
          if (a.sourceDocuments.has(src.id)) continue; // listed again (a document of several tags, or a page that shifted)
          a.sourceDocuments.add(src.id);
          counts.listed++;
          let plan = planDocument(src, a.formed);
          let full = src;
          if (plan.kind === "read") {
            // The listing's content budget left it out: read it alone.
            try {
              full = { ...src, ...((await a.source.documents.get(src.id)) as unknown as SourceDocument), contentOmitted: false };
              plan = planDocument(full, a.formed);
              if (plan.kind === "read") plan = { kind: "failed", reason: "the source gave no content for it" };
            } catch (err) {
              if (isFatal(err)) throw err;
              plan = { kind: "failed", reason: `reading it from the source: ${describeError(err)}` };
            }
          }
          if (plan.kind === "pending") {
            counts.pending++;
            summary.pending.push({ id: src.id, status: plan.status });
            progress.item("skipped", src.id, `still ${plan.status} on the source`);
          } else if (plan.kind === "failed") failed(progress, src.id, plan.reason);
          else if (plan.kind === "send") {
            if (state.unchanged(`doc:${src.id}`, plan.hash)) {
              counts.unchanged++;
              progress.item("skipped", src.id, "migrated before");
            } else planned.push({ src: full, doc: plan.doc, hash: plan.hash, dropped: plan.droppedMetadata });
          }
        }
        for (const batch of batchesOf(planned, a.batchSize, BATCH_MAX_BYTES)) {
          if (run.stopped) break;
          await pool.start(() => sendDocuments(a.target, batch, state, counts, summary, progress));
        }
        if (p.items.length === 0 || page >= p.totalPages) break;
      }
    }
  } finally {
    await pool.wait();
    progress.stop();
  }
}

/** One batch add on the target; each document's outcome is recorded (accepted ones in the state file). */
async function sendDocuments(
  target: Supermemory,
  batch: Planned[],
  state: StateStore,
  counts: MigrateSummary["documents"],
  summary: MigrateSummary,
  progress: Progress,
): Promise<void> {
  const first = batch[0]!.doc;
  let results: { id: string; status: string; error?: string; details?: string }[];
  try {
    const res = (await target.documents.batchAdd({
      documents: batch.map(({ doc }) => {
        const { taskType: _t, ...item } = doc;
        return item;
      }),
      taskType: first.taskType,
      ...(first.containerTags ? { containerTags: first.containerTags } : {}),
    })) as unknown as { results?: { id: string; status: string; error?: string; details?: string }[] };
    results = res.results ?? [];
  } catch (err) {
    if (isFatal(err)) throw err;
    for (const b of batch) {
      counts.failed++;
      summary.failures.push({ kind: "document", id: b.src.id, reason: describeError(err) });
      progress.item("failed", b.src.id, describeError(err));
    }
    return;
  }
  // Accepted documents come first, in request order; refused ones after, named by their customId.
  const refused = new Map(results.filter((r) => r.status === "error").map((r) => [r.id, r]));
  const accepted = results.filter((r) => r.status !== "error");
  let i = 0;
  for (const b of batch) {
    const no = refused.get(b.doc.customId);
    if (no) {
      const reason = `refused by the target: ${no.details ?? no.error ?? "error"}`;
      counts.failed++;
      summary.failures.push({ kind: "document", id: b.src.id, reason });
      progress.item("failed", b.src.id, reason);
      continue;
    }
    const ok = accepted[i++];
    if (!ok) {
      counts.failed++;
      summary.failures.push({ kind: "document", id: b.src.id, reason: "the target's answer does not name it" });
      progress.item("failed", b.src.id, "the target's answer does not name it");
      continue;
    }
    state.record(`doc:${b.src.id}`, { sha256: b.hash, documentId: ok.id, customId: b.doc.customId });
    // New work is "queued"; an unchanged duplicate of a document the target holds answers its current state (a run whose state file was lost).
    if (ok.status !== "queued") {
      counts.unchanged++;
      progress.item("skipped", b.src.id, `already on the target as ${ok.id}`);
      continue;
    }
    counts.added++;
    progress.item("added", b.src.id, b.dropped.length ? `${ok.id} (metadata not carried: ${b.dropped.join(", ")})` : ok.id);
  }
}

async function migrateMemories(
  ctx: CommandContext,
  a: {
    target: Supermemory;
    state: StateStore;
    run: RunControl;
    summary: MigrateSummary;
    memories: TaggedMemory[];
    sourceDocuments: ReadonlySet<string>;
    concurrency: number;
  },
): Promise<void> {
  const { summary, state, run } = a;
  const counts = summary.memories;
  const now = new Date();
  const byTag = new Map<string, { src: TaggedMemory; memory: TargetMemory; hash: string }[]>();
  for (const m of a.memories) {
    const plan = planMemory(m, m.containerTag, a.sourceDocuments, now);
    if (plan.kind === "from-document") counts.fromDocuments++;
    else if (plan.kind === "skip") counts.skipped++;
    else if (state.unchanged(`mem:${m.id}`, plan.hash)) counts.unchanged++;
    else {
      const list = byTag.get(plan.containerTag) ?? [];
      list.push({ src: m, memory: plan.memory, hash: plan.hash });
      byTag.set(plan.containerTag, list);
    }
  }
  const total = [...byTag.values()].reduce((n, l) => n + l.length, 0);
  if (total === 0) return;
  const progress = createProgress(ctx.io, { json: ctx.printer.json, noun: "memories" });
  progress.start(total);
  const pool = new Pool(a.concurrency, (err) => run.fail(err));
  try {
    for (const [containerTag, list] of byTag) {
      for (let i = 0; i < list.length && !run.stopped; i += MEMORIES_PER_REQUEST) {
        const chunk = list.slice(i, i + MEMORIES_PER_REQUEST);
        await pool.start(async () => {
          try {
            const res = await a.target.post<{ memories?: { id: string }[] }>("/v4/memories", {
              body: { containerTag, memories: chunk.map((c) => c.memory) },
            });
            chunk.forEach((c, k) => {
              const id = res.memories?.[k]?.id ?? "";
              state.record(`mem:${c.src.id}`, { sha256: c.hash, documentId: id });
              counts.copied++;
              progress.item("added", c.src.id, id);
            });
          } catch (err) {
            if (isFatal(err)) throw err;
            for (const c of chunk) {
              counts.failed++;
              summary.failures.push({ kind: "memory", id: c.src.id, reason: describeError(err) });
              progress.item("failed", c.src.id, describeError(err));
            }
          }
        });
      }
    }
  } finally {
    await pool.wait();
    progress.stop();
  }
}

function printSummary(ctx: CommandContext, s: MigrateSummary): void {
  const p = ctx.printer;
  p.result(s, () => {
    const d = s.documents;
    const m = s.memories;
    p.line(
      `documents: ${d.listed} listed, ${d.added} added, ${d.unchanged} unchanged since an earlier run, ${d.pending} still processing on the source, ${d.failed} failed`,
    );
    p.line(
      `memories: ${m.listed} listed, ${m.copied} copied, ${m.unchanged} unchanged since an earlier run, ${m.fromDocuments} formed again from their documents, ${m.skipped} skipped (forgotten or expired), ${m.failed} failed`,
    );
    p.line(`in ${s.seconds} s: ${s.documentsPerSecond} documents/s`);
    if (d.pending) p.line(`run the same command again once the source has processed the ${d.pending} pending document(s)`);
    for (const f of s.failures) p.line(p.color.red(`  failed ${f.kind} ${f.id}: ${f.reason}`));
  });
  if (s.error) p.note(`error: ${s.error}`);
}
