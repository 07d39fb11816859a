import { cleanTitle, fixMojibake, tidy } from "../normalize";
import type { Extracted } from "../types";

/** Plain text: newlines normalised, double-encoded UTF-8 repaired; the first line is the title when it is short. */
export function extractPlainText(decoded: string): Extracted {
  const text = tidy(fixMojibake(decoded));
  const first = text.split("\n").find((l) => l.trim()) ?? "";
  return { text, title: first.length <= 150 ? cleanTitle(first) : undefined, contentType: "text" };
}
