// Which container tag the console opens on, and how the tag picker orders and narrows the tenant's tags.

// DOM-free (its unit test runs in Node): the type comes from the generated description, not from the client.
import type { components } from "./api-types.gen";

type ContainerTag = components["schemas"]["ContainerTag"];

/** The tag every page works in when the tenant has none yet. */
export const DEFAULT_TAG = "default";

/** Tags the picker shows at first and adds with each "Show more" (a tenant may have thousands). */
export const PICKER_PAGE = 50;

/** The latest activity first; tags without any (settings only) last, by name. */
export function byActivity(tags: readonly ContainerTag[]): ContainerTag[] {
  return [...tags].sort((a, b) => {
    const x = a.lastActivityAt ?? "";
    const y = b.lastActivityAt ?? "";
    if (x !== y) return x < y ? 1 : -1;
    return a.containerTag < b.containerTag ? -1 : a.containerTag > b.containerTag ? 1 : 0;
  });
}

/**
 * The tag to open on: this tab's current tag when it has one (a reload stays where it was, even on a tag with nothing
 * in it yet); else the user's last explicit choice while the tenant still has that tag; else the most recently active
 * tag; else the default one.
 */
export function openingTag(tags: readonly ContainerTag[], tabTag: string | null, chosen: string | null): string {
  if (tabTag) return tabTag;
  if (chosen && tags.some((t) => t.containerTag === chosen)) return chosen;
  return byActivity(tags)[0]?.containerTag ?? DEFAULT_TAG;
}

/** The tags whose tag or display name holds `query` (any case), most recently active first. */
export function filterTags(tags: readonly ContainerTag[], query: string): ContainerTag[] {
  const q = query.trim().toLowerCase();
  const sorted = byActivity(tags);
  if (!q) return sorted;
  return sorted.filter((t) => t.containerTag.toLowerCase().includes(q) || t.name.toLowerCase().includes(q));
}
