import fs from "node:fs";
import path from "node:path";
import { toFile, type Supermemory } from "supermemory";
import type { DocumentUploadFileParams } from "supermemory/resources/documents";
import { mapLimit, type StopSignal } from "../concurrency";
import type { CommandContext } from "../context";
import { ExitCode, UsageError, batchExitCode, describeError, exitCodeFor, isFatal } from "../exit-codes";
import { createProgress, type ItemOutcome } from "../progress";
import { StateStore, defaultStatePath, fileCustomId, sha256 } from "../state-file";
import { skipReason, walkFiles } from "../walk";

/** One thing to add: a file, a URL or a text. */
export type AddItem =
  | { kind: "file"; path: string; size: number; root: string; label: string }
  | { kind: "url"; url: string; label: string }
  | { kind: "text"; text: string; label: string }
  /** Refused before any request: not found, unsupported type, too large. */
  | { kind: "skip"; label: string; reason: string; failed: boolean };

/** What happened to one item, as `--json` reports it. */
export interface ItemReport {
  source: string;
  /** A file's absolute path. */
  path?: string;
  kind: "file" | "url" | "text";
  result: ItemOutcome;
  id?: string;
  customId?: string;
  status?: string;
  reason?: string;
}

export interface AddSummary {
  added: number;
  skipped: number;
  failed: number;
  documents: ItemReport[];
  /** Set when the run stopped early (authentication refused, server unreachable). */
  error?: string;
  stateFile?: string;
}

export interface AddOptions {
  text?: string[];
  concurrency?: string;
  metadata?: string;
  force?: boolean;
  state?: string;
  wait?: boolean;
  waitTimeout?: string;
}

const URL_RE = /^https?:\/\//i;

/**
 * Turns the command line into items: `--text` values, http(s) URLs, files and
 * folders (walked recursively). An argument that is none of these is a text
 * when it holds whitespace, else a missing file (a failure).
 */
export function planItems(inputs: string[], texts: string[], cwd: string): AddItem[] {
  const items: AddItem[] = [];
  const short = (t: string) => (t.length > 40 ? `${t.slice(0, 37).replace(/\s+/g, " ")}…` : t.replace(/\s+/g, " "));
  for (const t of texts) items.push({ kind: "text", text: t, label: `text "${short(t)}"` });
  for (const input of inputs) {
    if (URL_RE.test(input)) {
      items.push({ kind: "url", url: input, label: input });
      continue;
    }
    const abs = path.resolve(cwd, input);
    if (!fs.existsSync(abs)) {
      if (/\s/.test(input.trim())) items.push({ kind: "text", text: input, label: `text "${short(input)}"` });
      else items.push({ kind: "skip", label: input, reason: "no such file or directory (use --text to add it as text)", failed: true });
      continue;
    }
    const root = fs.statSync(abs).isDirectory() ? abs : path.dirname(abs);
    for (const f of walkFiles(abs)) {
      const label = path.relative(cwd, f.path) || path.basename(f.path);
      const reason = skipReason(f.path, f.size);
      if (reason) items.push({ kind: "skip", label, reason, failed: false });
      else items.push({ kind: "file", path: f.path, size: f.size, root, label });
    }
  }
  return items;
}

export function parseConcurrency(v: string | undefined): number {
  const n = v === undefined ? 4 : Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--concurrency must be an integer from 1 to 64, got '${v}'`);
  return n;
}

export function parseMetadata(v: string | undefined): Record<string, string | number | boolean> | undefined {
  if (v === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new UsageError(`--metadata must be a JSON object, got '${v}'`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError("--metadata must be a JSON object");
  for (const [k, val] of Object.entries(parsed))
    if (!["string", "number", "boolean"].includes(typeof val)) throw new UsageError(`--metadata: the value of '${k}' must be a string, number or boolean`);
  return parsed as Record<string, string | number | boolean>;
}

/** `engram add`: adds every item, resumable through the state file; returns the exit code. */
export async function addCommand(ctx: CommandContext, inputs: string[], opts: AddOptions): Promise<number> {
  const texts = opts.text ?? [];
  if (inputs.length === 0 && texts.length === 0) throw new UsageError('nothing to add: give files, folders, URLs, or --text "…"');
  const concurrency = parseConcurrency(opts.concurrency);
  const metadata = parseMetadata(opts.metadata);
  const items = planItems(inputs, texts, ctx.io.cwd);
  const run = await addItems(ctx, items, { concurrency, metadata, force: Boolean(opts.force), stateFile: opts.state, noun: "items" });
  if (opts.wait && run.exitCode === undefined) await waitForProcessing(ctx, run, Number(opts.waitTimeout ?? 120) * 1000);
  return report(ctx, run);
}

/** A finished run: its summary, state, and the exit code of the error that stopped it early. */
export interface AddRun {
  summary: AddSummary;
  state: StateStore | undefined;
  exitCode: number | undefined;
}

/** Prints the summary (JSON or human) and gives the exit code. */
export function report(ctx: CommandContext, run: AddRun): number {
  const { summary } = run;
  const p = ctx.printer;
  p.result(summary, () => {
    const unchanged = summary.documents.filter((d) => d.result === "skipped" && d.id).length;
    const refused = summary.skipped - unchanged;
    const why = [unchanged ? `${unchanged} unchanged` : "", refused ? `${refused} not accepted` : ""].filter(Boolean).join(", ");
    p.line(`${summary.added} added, ${summary.skipped} skipped${why ? ` (${why})` : ""}, ${summary.failed} failed`);
    for (const d of summary.documents) if (d.result === "skipped" && !d.id) p.line(`  skipped ${d.source}: ${d.reason}`);
    for (const d of summary.documents) if (d.result === "failed") p.line(`  failed ${d.source}: ${d.reason}`);
  });
  if (summary.error) p.note(`error: ${summary.error}`);
  return run.exitCode ?? batchExitCode(summary.failed);
}

export interface AddRunOptions {
  concurrency: number;
  metadata?: Record<string, string | number | boolean>;
  force: boolean;
  stateFile?: string;
  noun: string;
}

/** Adds the items with bounded concurrency and a progress display; stops at the first fatal error. */
export async function addItems(ctx: CommandContext, items: AddItem[], o: AddRunOptions): Promise<AddRun> {
  const client = ctx.client;
  const tag = ctx.containerTag;
  const state = items.some((i) => i.kind === "file") ? openState(ctx, tag, o.stateFile) : undefined;
  return runItems(ctx, items, {
    concurrency: o.concurrency,
    noun: o.noun,
    state,
    label: (item) => item.label,
    kind: (item) => (item.kind === "skip" ? "file" : item.kind),
    send: (item) => addOne(client, item, tag, o, state),
  });
}

/** The state file of this server, key and tag (or `--state`). */
export function openState(ctx: CommandContext, tag: string, stateFile: string | undefined): StateStore {
  const file = stateFile ? path.resolve(ctx.io.cwd, stateFile) : defaultStatePath(ctx.config.configPath, ctx.config.url, ctx.apiKey, tag);
  return StateStore.load(file, ctx.config.url, tag);
}

/**
 * The loop of `add` and `import`: `send` each item with at most `concurrency`
 * in flight, count and show the outcomes, and stop starting new items at the
 * first fatal error (authentication refused, server unreachable: its exit
 * code is the run's) or at Ctrl-C (exit code 1). What was accepted is in the
 * state file either way, so the same command resumes.
 */
export async function runItems<T>(
  ctx: CommandContext,
  items: readonly T[],
  o: {
    concurrency: number;
    noun: string;
    state: StateStore | undefined;
    label: (item: T) => string;
    kind: (item: T) => ItemReport["kind"];
    send: (item: T) => Promise<ItemReport>;
  },
): Promise<AddRun> {
  const summary: AddSummary = { added: 0, skipped: 0, failed: 0, documents: [], ...(o.state ? { stateFile: o.state.file } : {}) };
  const progress = createProgress(ctx.io, { json: ctx.printer.json, noun: o.noun });
  const signal: StopSignal = { stopped: false };
  let exitCode: number | undefined;
  const onSigint = () => {
    // Ctrl-C: no new item starts, the ones in flight finish and are recorded; the next run resumes.
    if (!signal.stopped) summary.error = "interrupted: run the same command again to resume";
    exitCode ??= ExitCode.Partial;
    signal.stopped = true;
  };
  process.once("SIGINT", onSigint);
  progress.start(items.length);
  try {
    const reports = await mapLimit(
      items,
      o.concurrency,
      async (item): Promise<ItemReport | undefined> => {
        if (signal.stopped) return undefined;
        let r: ItemReport;
        try {
          r = await o.send(item);
        } catch (err) {
          if (isFatal(err)) {
            if (exitCode === undefined) {
              exitCode = exitCodeFor(err);
              summary.error = describeError(err) + (exitCode === ExitCode.Auth ? " (check the API key)" : "");
            }
            signal.stopped = true;
            return undefined;
          }
          r = { source: o.label(item), kind: o.kind(item), result: "failed", reason: describeError(err) };
        }
        summary[r.result]++;
        progress.item(r.result, o.label(item), r.result === "added" ? r.id : r.reason);
        return r;
      },
      signal,
    );
    summary.documents = reports.filter((r): r is ItemReport => r !== undefined);
  } finally {
    progress.stop();
    process.removeListener("SIGINT", onSigint);
    o.state?.flush();
  }
  return { summary, state: o.state, exitCode };
}

async function addOne(client: Supermemory, item: AddItem, tag: string, o: AddRunOptions, state: StateStore | undefined): Promise<ItemReport> {
  switch (item.kind) {
    case "skip":
      return { source: item.label, kind: "file", result: item.failed ? "failed" : "skipped", reason: item.reason };
    case "text":
    case "url": {
      const content = item.kind === "url" ? item.url : item.text;
      const customId = `${item.kind}:${sha256(content).slice(0, 40)}`;
      const res = await client.add({ content, containerTag: tag, customId, ...(o.metadata ? { metadata: o.metadata } : {}) });
      return { source: item.label, kind: item.kind, result: "added", id: res.id, customId, status: res.status };
    }
    case "file": {
      const bytes = await fs.promises.readFile(item.path);
      const hash = sha256(bytes);
      const customId = fileCustomId(item.path);
      if (!o.force && state?.unchanged(item.path, hash)) {
        const prev = state.get(item.path)!;
        return { source: item.label, path: item.path, kind: "file", result: "skipped", id: prev.documentId, customId, reason: "unchanged since it was added" };
      }
      const rel = path.relative(item.root, item.path).split(path.sep).join("/");
      const params = {
        file: await toFile(bytes, path.basename(item.path)),
        containerTag: tag,
        customId,
        filepath: rel,
        metadata: JSON.stringify({ ...o.metadata, path: rel }),
      } as DocumentUploadFileParams; // customId is an upload part Engram takes (docs/api-decisions.md) that the SDK's type lacks
      const res = await client.documents.uploadFile(params);
      state?.record(item.path, { sha256: hash, documentId: res.id, customId });
      return { source: item.label, path: item.path, kind: "file", result: "added", id: res.id, customId, status: res.status };
    }
  }
}

/** `--wait`: polls the added documents until each is done or failed; a failed one becomes a failure of the run. */
export async function waitForProcessing(ctx: CommandContext, run: AddRun, timeoutMs: number): Promise<void> {
  const { summary, state } = run;
  const client = ctx.client;
  const deadline = Date.now() + timeoutMs;
  const pending = summary.documents.filter((d) => d.result === "added" && d.id);
  if (pending.length > 0 && !ctx.printer.json) ctx.printer.note(`waiting for ${pending.length} document(s) to be processed…`);
  await mapLimit(pending, 4, async (d) => {
    for (;;) {
      const doc = (await client.documents.get(d.id!)) as { status?: string; failureReason?: string };
      if (doc.status === "done" || doc.status === "failed") {
        d.status = doc.status;
        if (doc.status === "failed") {
          d.result = "failed";
          d.reason = `processing failed${doc.failureReason ? `: ${doc.failureReason}` : ""}`;
          summary.added--;
          summary.failed++;
          // Not recorded as added: the next run sends the file again.
          if (d.path) state?.forget(d.path);
        }
        return;
      }
      if (Date.now() > deadline) {
        d.status = doc.status;
        return;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  });
  state?.flush();
}
