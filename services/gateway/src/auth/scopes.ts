/**
 * Scoped keys (docs/api-decisions.md, "Scoped keys"): what a key may do and,
 * optionally, which container tags it may touch. Pure: no I/O.
 */

/** `read` reads and searches, `write` adds and changes content, `admin` manages keys, settings, connections and the organisation. */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a key may do; keys stored before scopes existed have every scope and no tag limit. */
export interface KeyRights {
  scopes: readonly Scope[];
  /** The container tags the key is limited to; absent = every tag of its tenant. */
  containerTags?: readonly string[];
}

export const FULL_RIGHTS: KeyRights = { scopes: SCOPES };

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** The stored form (possibly absent or unknown words) as rights: absent = every scope (legacy keys). */
export function rightsOf(stored: { scopes?: readonly string[] | null; containerTags?: readonly string[] | null }): KeyRights {
  const scopes = stored.scopes === undefined || stored.scopes === null ? SCOPES : SCOPES.filter((s) => stored.scopes!.includes(s));
  return stored.containerTags === undefined || stored.containerTags === null ? { scopes } : { scopes, containerTags: [...stored.containerTags] };
}

export const hasScope = (r: KeyRights, s: Scope): boolean => r.scopes.includes(s);

/** The tags of `tags` outside the key's limit (none when the key is not limited). */
export function tagsOutside(r: KeyRights, tags: readonly string[]): string[] {
  if (!r.containerTags) return [];
  const own = new Set(r.containerTags);
  return tags.filter((t) => !own.has(t));
}

/**
 * Why a key with `parent` rights may not create a key with `child` rights, or
 * undefined when it may: scopes ⊆ own, and a tag-limited key only creates keys
 * limited to some of its own tags.
 */
export function exceedsRights(parent: KeyRights, child: KeyRights): string | undefined {
  const extra = child.scopes.filter((s) => !parent.scopes.includes(s));
  if (extra.length) return `the new key would have scope${extra.length > 1 ? "s" : ""} ${extra.join(", ")}, which the calling key does not have`;
  if (parent.containerTags) {
    if (!child.containerTags) return `the calling key is limited to container tags (${parent.containerTags.join(", ")}): give containerTags among them`;
    const outside = tagsOutside(parent, child.containerTags);
    if (outside.length) return `the calling key is not allowed container tag${outside.length > 1 ? "s" : ""} ${outside.join(", ")}`;
  }
  return undefined;
}
