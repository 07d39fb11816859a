import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { APIConnectionError, APIError } from "supermemory";
import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";

/** A request the SDK has no method for (raw bodies), with the SDK's errors so the exit codes are the same. */
async function raw(ctx: CommandContext, method: string, route: string, init: { body?: Readable; contentType?: string } = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(new URL(route, ctx.config.url), {
      method,
      headers: { authorization: `Bearer ${ctx.apiKey}`, ...(init.contentType ? { "content-type": init.contentType } : {}) },
      ...(init.body ? { body: Readable.toWeb(init.body) as ReadableStream, duplex: "half" } : {}),
    } as RequestInit);
  } catch (err) {
    throw new APIConnectionError({ cause: err as Error });
  }
  if (!res.ok) {
    const text = await res.text();
    let body: object | undefined;
    try {
      body = JSON.parse(text) as object;
    } catch {
      body = undefined;
    }
    throw APIError.generate(res.status, body, text.slice(0, 200) || res.statusText, res.headers);
  }
  return res;
}

/**
 * `engram export [file]`: GET /v3/export (admin scope), the key's tenant as
 * one archive (docs/export-format.md). Written to a temporary file beside
 * the target and renamed once complete, so a cut-off download never leaves
 * a file that looks whole.
 */
export async function exportCommand(ctx: CommandContext, file: string | undefined): Promise<number> {
  const target = path.resolve(ctx.io.cwd, file ?? `engram-export-${new Date().toISOString().replace(/[:.]/g, "-")}.tar`);
  if (fs.existsSync(target)) throw new UsageError(`${target} exists: give another file name`);
  const started = Date.now();
  const res = await raw(ctx, "GET", "/v3/export");
  const partial = `${target}.partial`;
  try {
    await pipeline(Readable.fromWeb(res.body! as import("node:stream/web").ReadableStream), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, target);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  const bytes = fs.statSync(target).size;
  const seconds = (Date.now() - started) / 1000;
  ctx.printer.result({ file: target, bytes, seconds }, () => ctx.printer.line(`exported to ${target} (${bytes} bytes in ${seconds.toFixed(1)} s)`));
  return 0;
}

/** `engram import-archive <file>`: POST /v3/import (admin scope), the archive loaded into the key's tenant. */
export async function importArchiveCommand(ctx: CommandContext, file: string): Promise<number> {
  const source = path.resolve(ctx.io.cwd, file);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new UsageError(`${source} is not a file`);
  const started = Date.now();
  const res = await raw(ctx, "POST", "/v3/import", { body: fs.createReadStream(source), contentType: "application/x-tar" });
  const summary = (await res.json()) as {
    documents: { imported: number; existing: number; failed: number; errors: { id: string; error: string }[] };
    memories: { imported: number; skipped: number };
    files: number;
    containerTags: number;
    connections: { skipped: number };
  };
  const seconds = (Date.now() - started) / 1000;
  const p = ctx.printer;
  p.result({ ...summary, seconds }, () => {
    const d = summary.documents;
    p.line(`documents: ${d.imported} imported, ${d.existing} already there, ${d.failed} failed (${summary.files} with their files)`);
    p.line(`memories: ${summary.memories.imported} imported, ${summary.memories.skipped} already there`);
    p.line(`container tags: ${summary.containerTags}; connections not created (no credentials in archives): ${summary.connections.skipped}`);
    for (const e of d.errors) p.line(p.color.red(`  ${e.id}: ${e.error}`));
    p.line(`in ${seconds.toFixed(1)} s`);
  });
  return summary.documents.failed > 0 ? 1 : 0;
}
