import { fenced, normalizeNewlines } from "../normalize";
import type { Extracted } from "../types";

/** Source code: one fenced block tagged with the language; the file name is the title. */
export function extractCode(decoded: string, language: string, fileName?: string): Extracted {
  const code = normalizeNewlines(decoded)
    .replace(/[ \t]+$/gm, "")
    .replace(/^\n+|\s+$/g, "");
  const title = fileName?.split(/[\\/]/).pop() || undefined;
  return { text: fenced(code, language), title, contentType: "code" };
}
