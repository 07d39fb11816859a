import picomatch from "picomatch";
import type { JsonValue } from "@engram/kernel";
import type { ConnectionProvider } from "./connection";

/**
 * The organisation's import filter (PATCH /v3/settings `includeItems`,
 * `excludeItems`), applied to every item a connector imports. The OpenAPI
 * description leaves both as free JSON; Engram reads them as glob patterns
 * (picomatch, case-insensitive; a pattern without `/` also matches a base
 * name):
 *
 * - a string: one pattern for every provider;
 * - an array of strings: patterns for every provider;
 * - an object whose keys are provider names (`github`, `google-drive`, …) or
 *   `*` (every provider), each a string or an array of strings.
 *
 * Other values (numbers, booleans, nested objects) name no pattern and are
 * ignored. An item is named by its filepath, its title and its URL (the whole
 * URL and its path): it matches a pattern when one of its names does. With
 * include patterns for the provider, an item must match one; an item that
 * matches an exclude pattern is never imported (exclude wins). Pure.
 */

export interface ImportItemNames {
  title?: string;
  filepath?: string;
  url?: string;
}

export type ImportFilterVerdict = { admit: true } | { admit: false; reason: string };

type Matcher = { pattern: string; test: (s: string) => boolean };

function patternsFor(value: JsonValue | null | undefined, provider: ConnectionProvider): string[] {
  if (value === null || value === undefined) return [];
  const strings = (v: unknown): string[] => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  if (typeof value === "string" || Array.isArray(value)) return strings(value).filter((p) => p.trim() !== "");
  if (typeof value === "object") {
    const o = value as Record<string, unknown>;
    return [...strings(o["*"]), ...strings(o[provider])].filter((p) => p.trim() !== "");
  }
  return [];
}

function matcher(pattern: string): Matcher {
  return { pattern, test: picomatch(pattern, { nocase: true, dot: true, basename: !pattern.includes("/") }) };
}

/** The names an item is matched by: its filepath, title and URL (whole and path). */
function namesOf(item: ImportItemNames): string[] {
  const names = [item.filepath, item.title, item.url].filter((n): n is string => !!n);
  if (item.url) {
    try {
      const path = decodeURIComponent(new URL(item.url).pathname);
      if (path && path !== "/") names.push(path, path.replace(/^\/+/, ""));
    } catch {
      // Not a URL: its text is already a name.
    }
  }
  return names;
}

export class ImportFilter {
  private constructor(
    private readonly include: Matcher[],
    private readonly exclude: Matcher[],
  ) {}

  /** The organisation's filter for one provider's items. */
  static of(settings: { includeItems?: JsonValue | null; excludeItems?: JsonValue | null }, provider: ConnectionProvider): ImportFilter {
    return new ImportFilter(patternsFor(settings.includeItems, provider).map(matcher), patternsFor(settings.excludeItems, provider).map(matcher));
  }

  /** Whether the filter lets anything out at all (none: nothing to check). */
  get active(): boolean {
    return this.include.length > 0 || this.exclude.length > 0;
  }

  admits(item: ImportItemNames): ImportFilterVerdict {
    const names = namesOf(item);
    const excluded = this.exclude.find((m) => names.some((n) => m.test(n)));
    if (excluded) return { admit: false, reason: `excluded by the organisation's excludeItems pattern ${JSON.stringify(excluded.pattern)}` };
    if (this.include.length > 0 && !this.include.some((m) => names.some((n) => m.test(n))))
      return { admit: false, reason: "matches none of the organisation's includeItems patterns" };
    return { admit: true };
  }
}
