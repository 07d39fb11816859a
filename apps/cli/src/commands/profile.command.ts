import type { CommandContext } from "../context";
import { parseNumber, truncate } from "./search.command";

/** `engram profile [--query q]`: POST /v4/profile (static and dynamic facts, plus memory search results for a query). */
export async function profileCommand(ctx: CommandContext, o: { query?: string; threshold?: string }): Promise<number> {
  const pc = ctx.printer.color;
  const threshold = parseNumber("--threshold", o.threshold, 0, 1);
  const res = await ctx.client.profile({
    containerTag: ctx.containerTag,
    ...(o.query ? { q: o.query } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
  });
  const p = ctx.printer;
  p.result(res, () => {
    p.line(pc.bold(`profile of ${ctx.containerTag}`));
    p.line("static:");
    if (res.profile.static.length === 0) p.line(pc.dim("  (none)"));
    for (const f of res.profile.static) p.line(`  - ${f}`);
    p.line("dynamic:");
    if (res.profile.dynamic.length === 0) p.line(pc.dim("  (none)"));
    for (const f of res.profile.dynamic) p.line(`  - ${f}`);
    if (res.searchResults) {
      p.line(`results for "${o.query}":`);
      for (const r of res.searchResults.results as { memory?: string; chunk?: string; similarity?: number }[])
        p.line(`  ${(r.similarity ?? 0).toFixed(2)}  ${truncate((r.memory ?? r.chunk ?? "").replace(/\s+/g, " "), 140)}`);
    }
  });
  return 0;
}
