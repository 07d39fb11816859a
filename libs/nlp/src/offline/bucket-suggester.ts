import { analyze } from "@engram/index";
import type { BucketSuggester, BucketSuggestionInput } from "../ports";
import { BUCKET_THEMES } from "./themes";

/** Themes offered when the context names fewer than three, in this order. */
const FALLBACK = ["preferences", "goals", "work", "schedule"];

export const SUGGESTIONS_MIN = 3;
export const SUGGESTIONS_MAX = 6;

/**
 * Offline bucket suggestions: the built-in themes (BUCKET_THEMES) ranked by
 * how much the workspace prompt (each of a theme's words found counts 2) and
 * the sampled memories (each memory that uses one of its words counts 1)
 * talk about them.
 * Themes the context names are offered, most named first, at most six;
 * fewer than three are completed from general themes. Buckets the
 * organisation already has are never offered again.
 */
export class OfflineBucketSuggester implements BucketSuggester {
  readonly id = "offline-v1";
  private readonly themes = BUCKET_THEMES.map((t) => ({ ...t, stems: new Set(analyze(t.words)) }));

  async suggest(input: BucketSuggestionInput): Promise<{ key: string; description: string }[]> {
    const taken = new Set(input.existing.map((b) => b.key));
    const promptStems = new Set(analyze(input.prompt ?? ""));
    const memoryStems = input.memories.map((m) => new Set(analyze(m)));
    const scored = this.themes
      .filter((t) => !taken.has(t.key))
      .map((t) => {
        let score = 0;
        for (const s of t.stems) if (promptStems.has(s)) score += 2;
        for (const m of memoryStems) if ([...t.stems].some((s) => m.has(s))) score += 1;
        return { t, score };
      })
      .filter((x) => x.score >= 2)
      .sort((a, b) => b.score - a.score || a.t.key.localeCompare(b.t.key))
      .slice(0, SUGGESTIONS_MAX)
      .map((x) => x.t);
    for (const key of FALLBACK) {
      if (scored.length >= SUGGESTIONS_MIN) break;
      const t = this.themes.find((x) => x.key === key)!;
      if (!taken.has(key) && !scored.includes(t)) scored.push(t);
    }
    return scored.map((t) => ({ key: t.key, description: t.description }));
  }
}
