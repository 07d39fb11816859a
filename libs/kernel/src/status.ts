/** Document processing states (spec, States). */
export const DOCUMENT_STATUSES = ["unknown", "queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"] as const;

export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<DocumentStatus> = new Set(["done", "failed"]);

export function isFinalStatus(s: DocumentStatus): boolean {
  return FINAL_STATUSES.has(s);
}

/** Position of a state in the pipeline; final states rank highest. */
export function statusRank(s: DocumentStatus): number {
  return DOCUMENT_STATUSES.indexOf(s);
}

export const TASK_TYPES = ["memory", "superrag"] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const DEFAULT_TASK_TYPE: TaskType = "memory";

export const DREAMING_MODES = ["dynamic", "instant"] as const;
export type Dreaming = (typeof DREAMING_MODES)[number];
export const DEFAULT_DREAMING: Dreaming = "dynamic";

/** Where a document's content came from. */
export const SOURCE_KINDS = ["text", "url", "file", "connector", "conversation"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** How a memory relates to another: a newer version, an extension, a derived fact. */
export const MEMORY_RELATIONS = ["updates", "extends", "derives"] as const;
export type MemoryRelationKind = (typeof MEMORY_RELATIONS)[number];

export const SEARCH_MODES = ["memories", "documents", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
