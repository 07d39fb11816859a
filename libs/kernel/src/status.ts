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

/** The platforms a connection links (the API's provider names). */
export const CONNECTOR_PROVIDERS = ["google-drive", "gmail", "notion", "onedrive", "github", "granola", "web-crawler", "s3"] as const;
export type ConnectorProvider = (typeof CONNECTOR_PROVIDERS)[number];

/** A connection's state (see the connections domain for what moves it). */
export const CONNECTION_STATUSES = ["pending_authorization", "active", "auth_expired", "expired", "deleting"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** A connection's last sync run, as the API reports it. */
export const SYNC_RUN_STATUSES = ["queued", "running", "succeeded", "partial", "failed"] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];
export const SYNC_ERROR_CODES = ["auth_expired", "rate_limited", "plan_required", "provider_unavailable", "internal"] as const;
export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];
/** What started a sync run. */
export const SYNC_TRIGGERS = ["initial", "scheduled", "manual", "webhook"] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

/** How a memory relates to another: a newer version, an extension, a derived fact. */
export const MEMORY_RELATIONS = ["updates", "extends", "derives"] as const;
export type MemoryRelationKind = (typeof MEMORY_RELATIONS)[number];

export const SEARCH_MODES = ["memories", "documents", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
