/**
 * The API's filepath rule (search filters, list and delete filters, a container
 * tag's memory path allowlist): `wanted` names a file exactly, or a folder
 * when it ends with "/" (every path under it). No `wanted` matches everything;
 * a document without a path matches no `wanted`.
 */
export function matchesFilepath(filepath: string | undefined, wanted: string | undefined): boolean {
  if (!wanted) return true;
  if (!filepath) return false;
  return wanted.endsWith("/") ? filepath.startsWith(wanted) : filepath === wanted;
}
