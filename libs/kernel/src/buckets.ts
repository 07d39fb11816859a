/**
 * Profile buckets (OpenAPI profileBuckets): the organisation's, set with
 * PATCH /v3/settings, and a container tag's own, added on top of them with
 * PATCH /v3/container-tags/{tag}. One definition of what a valid list is.
 */

export interface ProfileBucket {
  key: string;
  description: string;
}

export const PROFILE_BUCKET_LIMITS = { buckets: 50, key: 64, description: 2000 } as const;
export const BUCKET_KEY_RE = /^[a-z0-9][a-z0-9_-]*$/;

/** Adds every problem of a bucket list to `problems` (`field` names it in the messages); null and undefined are the caller's to judge. */
export function checkProfileBuckets(problems: string[], buckets: unknown, field = "profileBuckets"): void {
  if (buckets === undefined || buckets === null) return;
  if (!Array.isArray(buckets)) {
    problems.push(`${field}: must be an array`);
    return;
  }
  const L = PROFILE_BUCKET_LIMITS;
  if (buckets.length > L.buckets) problems.push(`${field}: at most ${L.buckets} buckets (got ${buckets.length})`);
  const seen = new Set<string>();
  buckets.forEach((raw: unknown, i) => {
    const b = (raw ?? {}) as { key?: unknown; description?: unknown };
    const where = `${field}[${i}]`;
    if (typeof b.key !== "string" || b.key.length < 1 || b.key.length > L.key || !BUCKET_KEY_RE.test(b.key)) {
      problems.push(`${where}.key: must be 1-${L.key} characters of lowercase letters, digits, '_' and '-', starting with a letter or digit`);
    } else if (seen.has(b.key)) {
      problems.push(`${where}.key: duplicate bucket key '${b.key}'`);
    } else seen.add(b.key);
    const d = b.description;
    if (d !== undefined && d !== null) {
      if (typeof d !== "string") problems.push(`${where}.description: must be a string or null`);
      else if (d.length > L.description) problems.push(`${where}.description: must be at most ${L.description} characters (got ${d.length})`);
    }
  });
}

/** A validated list as stored: descriptions default to "". */
export function normalizeProfileBuckets(buckets: readonly { key: string; description?: string | null }[]): ProfileBucket[] {
  return buckets.map((b) => ({ key: b.key, description: b.description ?? "" }));
}
