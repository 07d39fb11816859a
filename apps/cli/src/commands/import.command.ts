import fs from "node:fs";
import path from "node:path";
import { checkContainerTag } from "../config";
import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";
import { sha256 } from "../state-file";
import { type AddRun, type ItemReport, addItems, openState, parseConcurrency, planItems, report, runItems } from "./add.command";

/** One line of a JSON Lines import. */
export interface ImportRecord {
  content: string;
  containerTag?: string;
  customId?: string;
  metadata?: Record<string, string | number | boolean>;
}

/** A line read from the file: a record, or why it cannot be one. */
export type ParsedLine = { line: number; raw: string; record: ImportRecord } | { line: number; raw: string; error: string };

/** Parses JSON Lines (blank lines ignored); each bad line is reported with its number. */
export function parseJsonLines(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (err) {
      out.push({ line, raw, error: `not JSON (${(err as Error).message})` });
      return;
    }
    const error = checkRecord(v);
    if (error) out.push({ line, raw, error });
    else out.push({ line, raw, record: v as ImportRecord });
  });
  return out;
}

function checkRecord(v: unknown): string | undefined {
  if (!v || typeof v !== "object" || Array.isArray(v)) return "expected an object {content, containerTag?, customId?, metadata?}";
  const r = v as Record<string, unknown>;
  if (typeof r.content !== "string" || !r.content.trim()) return "content must be a non-empty string";
  if (r.containerTag !== undefined && (typeof r.containerTag !== "string" || !/^[A-Za-z0-9._:-]{1,100}$/.test(r.containerTag)))
    return "containerTag must be 1-100 letters, digits, '-', '_', '.' or ':'";
  if (r.customId !== undefined && (typeof r.customId !== "string" || !/^[A-Za-z0-9._:-]{1,100}$/.test(r.customId)))
    return "customId must be 1-100 letters, digits, '-', '_', '.' or ':'";
  if (r.metadata !== undefined && (!r.metadata || typeof r.metadata !== "object" || Array.isArray(r.metadata))) return "metadata must be an object";
  const unknown = Object.keys(r).filter((k) => !["content", "containerTag", "customId", "metadata"].includes(k));
  if (unknown.length) return `unknown field(s): ${unknown.join(", ")}`;
  return undefined;
}

export interface ImportOptions {
  concurrency?: string;
  force?: boolean;
  state?: string;
}

/**
 * `engram import <file.jsonl | folder>`: a folder is added like `engram add`;
 * a JSON Lines file is added record by record (each record's own
 * containerTag, else the command's). Records added before (same file, same
 * line content) are skipped through the same state file as `add`.
 */
export async function importCommand(ctx: CommandContext, source: string, opts: ImportOptions): Promise<number> {
  const abs = path.resolve(ctx.io.cwd, source);
  if (!fs.existsSync(abs)) throw new UsageError(`no such file or folder: ${source}`);
  const concurrency = parseConcurrency(opts.concurrency);
  if (fs.statSync(abs).isDirectory()) {
    const run = await addItems(ctx, planItems([abs], [], ctx.io.cwd), { concurrency, force: Boolean(opts.force), stateFile: opts.state, noun: "files" });
    return report(ctx, run);
  }
  return report(ctx, await importJsonLines(ctx, abs, source, { concurrency, force: Boolean(opts.force), state: opts.state }));
}

async function importJsonLines(ctx: CommandContext, abs: string, label: string, o: { concurrency: number; force: boolean; state?: string }): Promise<AddRun> {
  const lines = parseJsonLines(fs.readFileSync(abs, "utf8"));
  const client = ctx.client;
  const tag = checkContainerTag(ctx.containerTag);
  const state = openState(ctx, tag, o.state);
  const source = (l: ParsedLine) => `${label}:${l.line}`;
  return runItems(ctx, lines, {
    concurrency: o.concurrency,
    noun: "records",
    state,
    label: source,
    kind: () => "text",
    send: async (l): Promise<ItemReport> => {
      if ("error" in l) return { source: source(l), kind: "text", result: "failed", reason: l.error };
      const key = `jsonl:${abs}#${sha256(l.raw)}`;
      const prev = state.get(key);
      if (!o.force && prev) return { source: source(l), kind: "text", result: "skipped", id: prev.documentId, reason: "imported before" };
      const rec = l.record;
      const res = await client.add({
        content: rec.content,
        containerTag: rec.containerTag ?? tag,
        ...(rec.customId ? { customId: rec.customId } : {}),
        ...(rec.metadata ? { metadata: rec.metadata } : {}),
      });
      state.record(key, { sha256: sha256(l.raw), documentId: res.id, ...(rec.customId ? { customId: rec.customId } : {}) });
      return { source: source(l), kind: "text", result: "added", id: res.id, status: res.status, ...(rec.customId ? { customId: rec.customId } : {}) };
    },
  });
}
