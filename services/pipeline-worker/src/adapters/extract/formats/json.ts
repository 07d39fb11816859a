import { cleanTitle, fenced, normalizeNewlines } from "../normalize";
import type { Extracted } from "../types";

function titleOf(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const t = typeof v.title === "string" ? v.title : typeof v.name === "string" ? v.name : undefined;
  return cleanTitle(t);
}

/**
 * JSON: pretty-printed with two-space indentation (JSON Lines: each record,
 * separated by a blank line). The title is a top-level string "title" or
 * "name". Text that does not parse is kept as a fenced json block.
 */
export function extractJson(decoded: string): Extracted {
  const source = normalizeNewlines(decoded).trim();
  try {
    const value: unknown = JSON.parse(source);
    return { text: JSON.stringify(value, null, 2), title: titleOf(value), contentType: "json" };
  } catch {
    const lines = source.split("\n").filter((l) => l.trim());
    try {
      const values = lines.map((l) => JSON.parse(l) as unknown);
      return { text: values.map((v) => JSON.stringify(v, null, 2)).join("\n\n"), title: titleOf(values[0]), contentType: "json" };
    } catch {
      return { text: fenced(source, "json"), contentType: "json" };
    }
  }
}
