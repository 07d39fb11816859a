import type { CommandContext } from "../context";
import { UsageError, batchExitCode, describeError, isFatal } from "../exit-codes";
import { parseNumber, truncate } from "./search.command";

/** `engram documents list`: POST /v3/documents/list (one container tag when chosen, else every one). */
export async function documentsList(ctx: CommandContext, o: { limit?: string; page?: string }): Promise<number> {
  const pc = ctx.printer.color;
  const limit = parseNumber("--limit", o.limit, 1, 1100, true) ?? 20;
  const page = parseNumber("--page", o.page, 1, 1_000_000, true) ?? 1;
  const tag = ctx.chosenContainerTag;
  const res = await ctx.client.documents.list({ limit, page, ...(tag ? { containerTags: [tag] } : {}) });
  const p = ctx.printer;
  p.result(res, () => {
    if (res.memories.length === 0) p.line(pc.dim(tag ? `no documents in ${tag}` : "no documents"));
    for (const d of res.memories) {
      const status = d.status === "done" ? pc.green(d.status) : d.status === "failed" ? pc.red(d.status) : pc.yellow(d.status);
      p.line(
        `${pc.dim(d.id)}  ${status}  ${truncate(d.title || d.customId || "(untitled)", 80)}${d.containerTags?.length ? pc.dim(`  [${d.containerTags.join(", ")}]`) : ""}`,
      );
    }
    const pg = res.pagination;
    if (pg) p.line(pc.dim(`page ${pg.currentPage} of ${Math.max(1, pg.totalPages)}, ${pg.totalItems} document(s)`));
  });
  return 0;
}

/** `engram documents get <id>`: GET /v3/documents/{id} (a service id or a customId). */
export async function documentsGet(ctx: CommandContext, id: string): Promise<number> {
  const pc = ctx.printer.color;
  const d = await ctx.client.documents.get(id);
  const p = ctx.printer;
  p.result(d, () => {
    p.line(`${pc.bold(d.title || "(untitled)")}  ${pc.dim(d.id)}`);
    p.fields([
      ["status", d.status],
      ["customId", d.customId],
      ["containerTags", d.containerTags?.join(", ")],
      ["type", d.type],
      ["source", d.source],
      ["url", d.url],
      ["createdAt", d.createdAt],
      ["updatedAt", d.updatedAt],
      ["metadata", d.metadata && Object.keys(d.metadata).length ? JSON.stringify(d.metadata) : undefined],
    ]);
    if (d.content) p.line(`\n${truncate(d.content, 1200)}`);
  });
  return 0;
}

/** `engram documents delete <id…>`: DELETE /v3/documents/{id} for each; unknown ids make the exit code 1. */
export async function documentsDelete(ctx: CommandContext, ids: string[]): Promise<number> {
  const pc = ctx.printer.color;
  if (ids.length === 0) throw new UsageError("documents delete needs at least one id");
  const deleted: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const id of ids) {
    try {
      await ctx.client.documents.delete(id);
      deleted.push(id);
    } catch (err) {
      if (isFatal(err)) throw err;
      failed.push({ id, error: describeError(err) });
    }
  }
  const p = ctx.printer;
  p.result({ deleted, failed }, () => {
    for (const id of deleted) p.line(`deleted ${id}`);
    for (const f of failed) p.line(pc.red(`failed ${f.id}: ${f.error}`));
  });
  return batchExitCode(failed.length);
}
