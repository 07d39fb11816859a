import { parse as parseYaml } from "yaml";
import { cleanTitle, firstHeading, fixMojibake, tidy } from "../normalize";
import type { Extracted } from "../types";

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

function scalar(v: unknown): string | undefined {
  if (typeof v === "string") return v.trim() || undefined;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

function list(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.map(scalar).filter(Boolean).join(", ") || undefined;
  return scalar(v);
}

/**
 * Markdown keeps its structure. YAML front matter is parsed: its `title`
 * becomes the title and, unless the body already opens with that heading, a
 * `# title` line; `description`/`summary` follow as a paragraph and
 * `tags`/`keywords` as a "Tags:" line. Other keys (layout, source, dates...)
 * are dropped. Without front matter the title is the first heading.
 */
export function extractMarkdown(decoded: string): Extracted {
  let body = tidy(fixMojibake(decoded));
  let meta: Record<string, unknown> = {};
  const fm = FRONT_MATTER.exec(body);
  if (fm) {
    try {
      const parsed: unknown = parseYaml(fm[1]!);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
      body = body.slice(fm[0].length);
    } catch {
      // Not YAML: leave the block in the text.
    }
  }
  const heading = firstHeading(body);
  const fmTitle = cleanTitle(scalar(meta.title));
  const header: string[] = [];
  if (fmTitle && heading !== fmTitle) header.push(`# ${fmTitle}`);
  const description = scalar(meta.description) ?? scalar(meta.summary);
  if (description) header.push(description);
  const tags = list(meta.tags) ?? list(meta.keywords);
  if (tags) header.push(`Tags: ${tags}`);
  const text = tidy([...header, body].join("\n\n"));
  return { text, title: fmTitle ?? heading, contentType: "markdown" };
}
