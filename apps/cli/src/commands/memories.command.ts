import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";
import { parseNumber, truncate } from "./search.command";

interface MemoryEntry {
  id: string;
  memory: string;
  version: number;
  isStatic: boolean;
  isForgotten: boolean;
  updatedAt: string;
  documentIds?: string[];
}

/** `engram memories list`: POST /v4/memories/list (latest versions). */
export async function memoriesList(ctx: CommandContext, o: { limit?: string; page?: string; includeForgotten?: boolean }): Promise<number> {
  const pc = ctx.printer.color;
  const limit = parseNumber("--limit", o.limit, 1, 1100, true) ?? 20;
  const page = parseNumber("--page", o.page, 1, 1_000_000, true) ?? 1;
  const res = await ctx.client.post<{ memoryEntries: MemoryEntry[]; pagination: { currentPage: number; totalItems: number; totalPages: number } }>(
    "/v4/memories/list",
    { body: { containerTags: [ctx.containerTag], limit, page, ...(o.includeForgotten ? { includeForgotten: true } : {}) } },
  );
  const p = ctx.printer;
  p.result(res, () => {
    if (res.memoryEntries.length === 0) p.line(pc.dim(`no memories in ${ctx.containerTag}`));
    for (const m of res.memoryEntries)
      p.line(`${pc.dim(m.id)}  v${m.version}${m.isStatic ? pc.yellow(" static") : ""}${m.isForgotten ? pc.red(" forgotten") : ""}  ${truncate(m.memory, 140)}`);
    const pg = res.pagination;
    p.line(
      pc.dim(`page ${pg.currentPage} of ${Math.max(1, pg.totalPages)}, ${pg.totalItems} memor${pg.totalItems === 1 ? "y" : "ies"} in ${ctx.containerTag}`),
    );
  });
  return 0;
}

/** `engram memories add <content…>`: POST /v4/memories (a memory written directly, searchable at once). */
export async function memoriesAdd(ctx: CommandContext, words: string[], o: { static?: boolean }): Promise<number> {
  const content = words.join(" ").trim();
  if (!content) throw new UsageError("memories add needs the memory's content");
  const res = await ctx.client.post<{ memories: { id: string; memory?: string }[] }>("/v4/memories", {
    body: { containerTag: ctx.containerTag, memories: [{ content, isStatic: Boolean(o.static) }] },
  });
  const p = ctx.printer;
  p.result(res, () => {
    for (const m of res.memories) p.line(`added memory ${m.id} to ${ctx.containerTag}`);
  });
  return 0;
}

interface ForgetMatching {
  dryRun: boolean;
  count: number;
  forgetBatchId: string | null;
  summary: string;
  candidates?: { id: string; memory: string; score: number }[];
  forgotten?: { id: string; memory: string; score: number }[];
}

/**
 * `engram memories forget <id>` forgets one memory (DELETE /v4/memories);
 * `engram memories forget --query "…"` previews the memories matching the
 * query (POST /v4/memories/forget-matching, dry run) and forgets them only
 * with `--yes`.
 */
export async function memoriesForget(
  ctx: CommandContext,
  id: string | undefined,
  o: { query?: string; yes?: boolean; reason?: string; threshold?: string },
): Promise<number> {
  const pc = ctx.printer.color;
  const p = ctx.printer;
  if (id && o.query) throw new UsageError("give either a memory id or --query, not both");
  if (id) {
    const res = await ctx.client.memories.forget({ id, containerTag: ctx.containerTag, ...(o.reason ? { reason: o.reason } : {}) });
    p.result(res, () => p.line(`forgot memory ${res.id}`));
    return 0;
  }
  if (!o.query) throw new UsageError('memories forget needs a memory id or --query "…"');
  const threshold = parseNumber("--threshold", o.threshold, 0, 1);
  const res = await ctx.client.post<ForgetMatching>("/v4/memories/forget-matching", {
    body: {
      containerTag: ctx.containerTag,
      query: o.query,
      dryRun: !o.yes,
      ...(o.reason ? { reason: o.reason } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
    },
  });
  p.result(res, () => {
    const rows = (res.dryRun ? res.candidates : res.forgotten) ?? [];
    for (const m of rows) p.line(`${pc.dim(m.id)}  ${m.score.toFixed(2)}  ${truncate(m.memory, 140)}`);
    if (res.dryRun)
      p.line(
        res.count === 0
          ? pc.dim("dry run: no memory matches")
          : `dry run: ${res.count} memor${res.count === 1 ? "y" : "ies"} would be forgotten; add --yes to forget them`,
      );
    else p.line(`forgot ${res.count} memor${res.count === 1 ? "y" : "ies"}${res.forgetBatchId ? ` (batch ${res.forgetBatchId})` : ""}`);
  });
  return 0;
}
