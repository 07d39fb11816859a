import { checkProfileBuckets, InvalidArgumentError, normalizeProfileBuckets, type ProfileBucket, spaceIdOf, validateNamespace } from "@engram/kernel";

/**
 * Container tags (= v5 namespaces) as managed objects: the settings a tag
 * carries (display name, entity context, memory filesystem paths, its own
 * profile buckets) and what a tag is made of for the API (its documents'
 * count and times). Pure: no I/O.
 *
 * A tag exists while it holds documents or memories, or once its settings
 * were set: the settings record is written by PATCH only, so the hot path
 * of adding documents never writes a tag record.
 */

export interface ContainerTagSettings {
  tenantId: string;
  namespace: string;
  name: string | null;
  entityContext: string | null;
  memoryFilesystemPaths: string[] | null;
  profileBuckets: ProfileBucket[];
  createdAt: string;
  updatedAt: string;
}

/** PATCH /v3/container-tags/{tag}: per field, undefined = keep, null = clear, a value = set. */
export interface ContainerTagPatch {
  name?: string | null;
  entityContext?: string | null;
  memoryFilesystemPaths?: string[] | null;
  profileBuckets?: { key: string; description?: string | null }[];
}

/** What a tenant's documents say about one of its tags. */
export interface NamespaceDocumentStats {
  namespace: string;
  documentCount: number;
  /** The oldest document's creation time. */
  firstCreatedAt: string;
  /** The latest document change. */
  lastUpdatedAt: string;
}

/** A tag as the API shows it (before the memories' counts are added). */
export interface ContainerTagView {
  id: string;
  namespace: string;
  settings?: ContainerTagSettings;
  documentCount: number;
  createdAt: string;
  updatedAt: string;
  /** Latest document activity; undefined without documents. */
  lastActivityAt?: string;
}

export const CONTAINER_TAG_LIMITS = { name: 100, entityContext: 1500, paths: 100, path: 1024 } as const;

function checkText(problems: string[], field: string, v: unknown, max: number, nonEmpty = false): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "string") problems.push(`${field}: must be a string or null`);
  else if (v.length > max) problems.push(`${field}: must be at most ${max} characters (got ${v.length})`);
  else if (nonEmpty && v.length === 0) problems.push(`${field}: must not be empty`);
}

/** Validates a patch (every problem at once) and applies it to the tag's settings, creating them when there are none. */
export function applyContainerTagPatch(
  current: ContainerTagSettings | undefined,
  scope: { tenantId: string; namespace: string },
  patch: ContainerTagPatch,
  now: string,
): ContainerTagSettings {
  validateNamespace(scope.namespace, "containerTag");
  const problems: string[] = [];
  const L = CONTAINER_TAG_LIMITS;
  if (patch.name === null) problems.push("name: must be a string of 1 to 100 characters (it cannot be cleared)");
  checkText(problems, "name", patch.name, L.name, true);
  checkText(problems, "entityContext", patch.entityContext, L.entityContext);
  const paths = patch.memoryFilesystemPaths;
  if (paths !== undefined && paths !== null) {
    if (!Array.isArray(paths)) problems.push("memoryFilesystemPaths: must be an array of strings or null");
    else {
      if (paths.length > L.paths) problems.push(`memoryFilesystemPaths: at most ${L.paths} paths (got ${paths.length})`);
      paths.forEach((p: unknown, i) => {
        if (typeof p !== "string" || p.length === 0 || p.length > L.path)
          problems.push(`memoryFilesystemPaths[${i}]: must be a path of 1 to ${L.path} characters`);
      });
    }
  }
  if (patch.profileBuckets === null) problems.push("profileBuckets: must be an array ([] clears the tag's own buckets)");
  checkProfileBuckets(problems, patch.profileBuckets);
  if (problems.length) throw new InvalidArgumentError("invalid container tag settings", problems.join("; "));
  const base: ContainerTagSettings = current ?? {
    ...scope,
    name: null,
    entityContext: null,
    memoryFilesystemPaths: null,
    profileBuckets: [],
    createdAt: now,
    updatedAt: now,
  };
  return {
    ...base,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.entityContext !== undefined ? { entityContext: patch.entityContext } : {}),
    ...(patch.memoryFilesystemPaths !== undefined ? { memoryFilesystemPaths: patch.memoryFilesystemPaths ? [...patch.memoryFilesystemPaths] : null } : {}),
    ...(patch.profileBuckets !== undefined ? { profileBuckets: normalizeProfileBuckets(patch.profileBuckets) } : {}),
    updatedAt: now,
  };
}

/** A tag from what is known of it: its settings, its documents' statistics, or both; undefined when neither exists. */
export function containerTagView(
  tenantId: string,
  namespace: string,
  settings: ContainerTagSettings | undefined,
  stats: NamespaceDocumentStats | undefined,
): ContainerTagView | undefined {
  if (!settings && !stats) return undefined;
  const created = [settings?.createdAt, stats?.firstCreatedAt].filter((t): t is string => !!t).sort()[0]!;
  const updated = [settings?.updatedAt, stats?.lastUpdatedAt]
    .filter((t): t is string => !!t)
    .sort()
    .at(-1)!;
  return {
    id: spaceIdOf(tenantId, namespace),
    namespace,
    ...(settings ? { settings } : {}),
    documentCount: stats?.documentCount ?? 0,
    createdAt: created,
    updatedAt: updated,
    ...(stats ? { lastActivityAt: stats.lastUpdatedAt } : {}),
  };
}

export type MergeStatus = "queued" | "running" | "completed" | "failed";

/** A container-tag merge job: the source tags' documents moved into the target, then the sources' settings removed. */
export interface ContainerTagMerge {
  id: string;
  tenantId: string;
  target: string;
  sources: string[];
  status: MergeStatus;
  movedDocuments: number;
  /** Memory rows the memories service moved before the job was queued. */
  movedMemories: number;
  error?: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** Who runs it and until when (a replica's claim; another takes over once it lapses). */
  leaseHolder?: string;
  leaseUntil?: string;
}

/**
 * The tags of a merge request (OpenAPI: exactly two in containerTags, and a
 * target): the sources are the tags other than the target, at least one.
 */
export function mergeSources(containerTags: unknown, target: unknown): { sources: string[]; target: string } {
  const problems: string[] = [];
  if (!Array.isArray(containerTags) || containerTags.length !== 2) problems.push("containerTags: exactly 2 container tags");
  if (typeof target !== "string") problems.push("targetContainerTag: required");
  if (problems.length) throw new InvalidArgumentError("invalid merge request", problems.join("; "));
  const tags = containerTags as unknown[];
  tags.forEach((t, i) => validateNamespace(String(t), `containerTags[${i}]`));
  validateNamespace(target as string, "targetContainerTag");
  const sources = [...new Set(tags.map(String))].filter((t) => t !== target);
  if (sources.length === 0) throw new InvalidArgumentError("nothing to merge", "containerTags must name at least one tag other than targetContainerTag");
  return { sources, target: target as string };
}

/** Which document stays when a moved document's caller id is taken in the target: the more recently changed one. */
export function mergeKeeps(source: { updatedAt: string }, target: { updatedAt: string }): "source" | "target" {
  return source.updatedAt > target.updatedAt ? "source" : "target";
}
