import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";

export interface SearchOptions {
  mode?: string;
  threshold?: string;
  limit?: string;
}

const MODES = ["memories", "documents", "hybrid"] as const;

export function parseNumber(name: string, v: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw new UsageError(`${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got '${v}'`);
  return n;
}

/** `engram search <query>`: POST /v4/search (memories, document chunks, or both). */
export async function searchCommand(ctx: CommandContext, words: string[], o: SearchOptions): Promise<number> {
  const pc = ctx.printer.color;
  const q = words.join(" ").trim();
  if (!q) throw new UsageError("search needs a query");
  const mode = (o.mode ?? "memories") as (typeof MODES)[number];
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be one of ${MODES.join(", ")}, got '${o.mode}'`);
  const threshold = parseNumber("--threshold", o.threshold, 0, 1);
  const limit = parseNumber("--limit", o.limit, 1, 100, true);
  const res = await ctx.client.search.memories({
    q,
    containerTag: ctx.containerTag,
    searchMode: mode,
    ...(threshold !== undefined ? { threshold } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  const p = ctx.printer;
  p.result(res, () => {
    if (res.results.length === 0) {
      p.line(pc.dim(`no results for "${q}" in ${ctx.containerTag} (mode ${mode}${threshold !== undefined ? `, threshold ${threshold}` : ""})`));
      return;
    }
    res.results.forEach((r, i) => {
      const text = (r.memory ?? r.chunk ?? "").replace(/\s+/g, " ").trim();
      const kind = r.memory !== undefined ? "memory" : "chunk ";
      const from = r.documents?.length
        ? r.documents.map((d) => d.title || d.id)
        : (r as { documentId?: string }).documentId
          ? [(r as { documentId?: string }).documentId!]
          : [];
      const file = typeof r.metadata?.path === "string" ? `  ${r.metadata.path}` : "";
      p.line(`${String(i + 1).padStart(2)}. ${pc.bold(r.similarity.toFixed(2))} ${pc.cyan(kind)} ${truncate(text, 160)}`);
      p.line(pc.dim(`    ${r.id}${from.length ? `  from ${from.join(", ")}` : ""}${file}`));
    });
    p.line(pc.dim(`${res.total} result(s) in ${res.timing} ms`));
  });
  return 0;
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
