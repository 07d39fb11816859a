import {
  CONNECTION_STATUSES,
  type ConnectionStatus,
  FailedPreconditionError,
  InvalidArgumentError,
  type JsonObject,
  newId,
  SCOPE_PATTERN,
  SYNC_TRIGGERS,
  type SyncTrigger,
} from "@engram/kernel";
import { itemsProblem } from "./settings";

/**
 * Connections: the link between one tenant's scope and one account on an
 * external platform, the sync runs that import its content, and the ledger of
 * the provider items each connection imported. Pure: no I/O; times are ISO
 * 8601 strings passed in by the caller.
 */

/** Connector identifiers as the REST API spells them (proto `Provider`, lower-case). */
export const CONNECTION_PROVIDERS = ["google-drive", "gmail", "notion", "onedrive", "github", "granola", "web-crawler", "s3"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/** Providers connected with credentials given at creation (API key, access keys, or none): no OAuth consent. */
export const DIRECT_PROVIDERS = ["granola", "web-crawler", "s3"] as const satisfies readonly ConnectionProvider[];

export function isConnectionProvider(p: string): p is ConnectionProvider {
  return (CONNECTION_PROVIDERS as readonly string[]).includes(p);
}

export function isDirectProvider(p: ConnectionProvider): boolean {
  return (DIRECT_PROVIDERS as readonly string[]).includes(p);
}

/**
 * Limits. documentLimit follows the API (1 to 10000); the others are
 * Engram's (the spec is silent) and keep a connection record small enough to
 * read on every sync page. Lengths count UTF-16 code units.
 */
export const CONNECTION_LIMITS = {
  documentLimitMin: 1,
  documentLimitMax: 10_000,
  /** containerTags, the namespace included. */
  containerTags: 20,
  metadataKeys: 50,
  metadataKey: 128,
  metadataString: 2048,
  email: 320,
  /** A provider cursor (page token, history id, delta link). */
  cursor: 64 * 1024,
  /** Sealed credentials (tokens, API keys), as bytes. */
  credentialsBytes: 64 * 1024,
  itemKey: 2048,
  itemVersion: 512,
  documentId: 256,
  url: 4096,
  /** A ledger item's provider state (the crawler's validators and links). */
  itemState: 64 * 1024,
  /** Failed items a run keeps the reason of (the count covers them all). */
  itemFailureSamples: 10,
  itemFailureReason: 500,
  runError: 2000,
} as const;

// ---------------------------------------------------------------------------
// Lifecycle
// ---------------------------------------------------------------------------

/**
 * The states of a connection (proto `ConnectionStatus`, lower-case):
 *
 * - `pending_authorization`: created for an OAuth provider; waiting for the
 *   user to complete the consent at authLink.
 * - `active`: authorized (or a direct connection); syncs run. A sync is a
 *   SyncRun, not a state: a connection stays `active` while it syncs.
 * - `auth_expired`: the provider refused the credentials (refresh failed,
 *   access revoked, API key deleted); syncs stop until re-authorization.
 * - `expired`: the connection reached `expiresAt` (or its authorization link
 *   lapsed before consent). Final: only deletion leaves it.
 * - `deleting`: deletion accepted; documents are being removed. Final.
 *
 * There is no "error" state: failures belong to runs (`lastSyncRun.errorCode`),
 * and a connection whose provider is down stays `active` and is retried on
 * the schedule. Revocation is `auth_expired`, as the proto defines it.
 */
export { CONNECTION_STATUSES, type ConnectionStatus };

/**
 * What moves a connection between states:
 * - `authorized`: the OAuth callback stored tokens, or direct credentials were accepted.
 * - `authorization_lost`: the provider answered 401/403 after a refresh attempt, or a refresh failed.
 * - `expired`: `expiresAt` passed (the expiry sweep), or the authorization link lapsed.
 * - `deletion_requested`: DELETE of the connection.
 */
export const CONNECTION_EVENTS = ["authorized", "authorization_lost", "expired", "deletion_requested"] as const;
export type ConnectionEvent = (typeof CONNECTION_EVENTS)[number];

/**
 * The transition table. Events that leave the state as it is are listed where
 * repeating them is harmless (a second consent, a second 401, a retried
 * delete), so that retries are idempotent; anything absent is refused.
 */
export const CONNECTION_TRANSITIONS: Readonly<Record<ConnectionStatus, Readonly<Partial<Record<ConnectionEvent, ConnectionStatus>>>>> = {
  pending_authorization: { authorized: "active", expired: "expired", deletion_requested: "deleting" },
  active: { authorized: "active", authorization_lost: "auth_expired", expired: "expired", deletion_requested: "deleting" },
  auth_expired: { authorized: "active", authorization_lost: "auth_expired", expired: "expired", deletion_requested: "deleting" },
  expired: { expired: "expired", deletion_requested: "deleting" },
  deleting: { deletion_requested: "deleting" },
};

/** The state a connection starts in: direct providers are connected at once, OAuth ones wait for consent. */
export function initialStatus(provider: ConnectionProvider): ConnectionStatus {
  return isDirectProvider(provider) ? "active" : "pending_authorization";
}

/** The next state, or FailedPreconditionError when the event is not allowed in `status`. */
export function nextStatus(status: ConnectionStatus, event: ConnectionEvent): ConnectionStatus {
  const next = CONNECTION_TRANSITIONS[status]?.[event];
  if (!next) {
    throw new FailedPreconditionError(
      `a connection that is ${status} cannot take the event ${event}`,
      `allowed in ${status}: ${allowedEvents(status).join(", ") || "none"}`,
    );
  }
  return next;
}

export function allowedEvents(status: ConnectionStatus): ConnectionEvent[] {
  return CONNECTION_EVENTS.filter((e) => CONNECTION_TRANSITIONS[status]?.[e] !== undefined);
}

/** Applies an event: the next state and `updatedAt`. Pure. */
export function applyConnectionEvent(conn: Connection, event: ConnectionEvent, now: string): Connection {
  return { ...conn, status: nextStatus(conn.status, event), updatedAt: now };
}

/** The state as of `now`: a connection past its `expiresAt` reads as `expired` before the sweep records it. */
export function statusAt(conn: Pick<Connection, "status" | "expiresAt">, now: string): ConnectionStatus {
  if (conn.expiresAt !== undefined && conn.expiresAt <= now && conn.status !== "deleting") return "expired";
  return conn.status;
}

/** Whether a sync may start: only an active connection that has not expired. */
export function canSync(conn: Pick<Connection, "status" | "expiresAt">, now: string): boolean {
  return statusAt(conn, now) === "active";
}

// ---------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------

/** Flat metadata set at creation: string, finite number or boolean values. */
export type ConnectionMetadata = Record<string, string | number | boolean>;

export interface Connection {
  /** `n_` + 20 base62 characters (kernel `newId("connection")`). */
  id: string;
  tenantId: string;
  provider: ConnectionProvider;
  /** Scope of the imported documents (REST containerTag); fixed at creation. */
  namespace: string;
  /** Legacy containerTags: the namespace first, no duplicates; fixed at creation. */
  containerTags: string[];
  /** Most documents this connection imports; absent = unlimited. */
  documentLimit?: number;
  metadata: ConnectionMetadata;
  status: ConnectionStatus;
  /** Account identity on the provider. */
  email?: string;
  /**
   * The provider-side account the connection reads (a Gmail address, a
   * Notion workspace id, a OneDrive drive id): how a notification that does
   * not name the connection (Gmail's Pub/Sub push, Notion's integration
   * webhook) finds it. Set at authorization; never returned by the API.
   */
  account?: string;
  /** Absent = never expires. */
  expiresAt?: string;
  /**
   * OAuth tokens or direct credentials, sealed (encrypted) by the service:
   * opaque bytes here, never returned by the API. Absent until authorized.
   */
  sealedCredentials?: Uint8Array;
  /**
   * Provider sync position (page token, history id, delta link): opaque.
   * Moved only by the repository's `applySyncPage`, never by `update`.
   */
  cursor?: string;
  /** Provider configuration (the crawler's start URL, GitHub's selected repositories, ...). */
  config?: JsonObject;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every `update`; the optimistic-concurrency check. Starts at 1. */
  revision: number;
}

/** A connection as it may leave the service: never the credentials, the cursor or the revision. */
export type ConnectionView = Omit<Connection, "sealedCredentials" | "cursor" | "revision" | "account"> & { credentialsSet: boolean };

export function connectionView(c: Connection): ConnectionView {
  const { sealedCredentials, cursor: _cursor, revision: _revision, account: _account, ...rest } = c;
  return { ...rest, containerTags: [...c.containerTags], metadata: { ...c.metadata }, credentialsSet: sealedCredentials !== undefined };
}

export interface NewConnectionInput {
  tenantId: string;
  provider: string;
  /** REST containerTag; when absent, the first of containerTags. */
  namespace?: string;
  containerTags?: string[];
  documentLimit?: number;
  metadata?: Record<string, unknown>;
  email?: string;
  expiresAt?: string;
  sealedCredentials?: Uint8Array;
  config?: JsonObject;
}

export const newConnectionId = (): string => newId("connection");

/**
 * Changes to a connection after creation. Per field: undefined = keep,
 * null = clear, a value = set. The provider, scope, metadata and creation
 * time are fixed at creation; the status moves only through events, the
 * cursor only with the items it covers.
 */
export interface ConnectionPatch {
  email?: string | null;
  account?: string | null;
  expiresAt?: string | null;
  sealedCredentials?: Uint8Array | null;
  config?: JsonObject | null;
  documentLimit?: number | null;
}

function tooLong(v: string, max: number): boolean {
  return v.length > max;
}

function scopeProblem(field: string, v: unknown): string | undefined {
  if (typeof v !== "string" || !SCOPE_PATTERN.test(v)) return `${field}: must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`;
  return undefined;
}

function checkDocumentLimit(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  const L = CONNECTION_LIMITS;
  if (typeof v !== "number" || !Number.isInteger(v) || v < L.documentLimitMin || v > L.documentLimitMax) {
    problems.push(`documentLimit: must be an integer from ${L.documentLimitMin} to ${L.documentLimitMax}`);
  }
}

function checkMetadata(problems: string[], v: unknown): void {
  if (v === undefined) return;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    problems.push("metadata: must be an object");
    return;
  }
  const L = CONNECTION_LIMITS;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > L.metadataKeys) problems.push(`metadata: at most ${L.metadataKeys} keys (got ${entries.length})`);
  for (const [k, x] of entries) {
    if (k.length === 0 || k.length > L.metadataKey) problems.push(`metadata: keys must be 1-${L.metadataKey} characters`);
    else if (typeof x === "string") {
      if (tooLong(x, L.metadataString)) problems.push(`metadata.${k}: strings must be at most ${L.metadataString} characters`);
    } else if (typeof x === "number") {
      if (!Number.isFinite(x)) problems.push(`metadata.${k}: numbers must be finite`);
    } else if (typeof x !== "boolean") problems.push(`metadata.${k}: values must be strings, numbers or booleans (metadata is flat)`);
  }
}

function checkInstant(problems: string[], field: string, v: unknown): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "string" || Number.isNaN(Date.parse(v))) problems.push(`${field}: must be an ISO 8601 date-time`);
}

function checkEmail(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "string" || v.length === 0 || tooLong(v, CONNECTION_LIMITS.email)) problems.push(`email: must be 1-${CONNECTION_LIMITS.email} characters`);
}

function checkAccount(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "string" || v.length === 0 || tooLong(v, CONNECTION_LIMITS.email)) problems.push(`account: must be 1-${CONNECTION_LIMITS.email} characters`);
}

function checkCredentials(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  if (!(v instanceof Uint8Array) || v.byteLength === 0) problems.push("credentials: must be sealed bytes");
  else if (v.byteLength > CONNECTION_LIMITS.credentialsBytes) problems.push(`credentials: at most ${CONNECTION_LIMITS.credentialsBytes} bytes sealed`);
}

function checkConfig(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "object" || Array.isArray(v)) {
    problems.push("config: must be an object");
    return;
  }
  const p = itemsProblem(v);
  if (p) problems.push(`config: ${p}`);
}

const iso = (v: string): string => new Date(Date.parse(v)).toISOString();

function refuse(what: string, problems: string[]): void {
  if (problems.length) throw new InvalidArgumentError(`invalid ${what}`, problems.join("; "));
}

/**
 * The scope of a new connection: the namespace (or, when absent, the first
 * container tag) and the container tags with the namespace first and no
 * duplicates. Problems are added to `problems`.
 */
export function resolveScope(
  problems: string[],
  namespace: string | undefined,
  containerTags: string[] | undefined,
): { namespace: string; containerTags: string[] } {
  const tags = containerTags ?? [];
  if (!Array.isArray(tags)) {
    problems.push("containerTags: must be an array of strings");
    return { namespace: "", containerTags: [] };
  }
  tags.forEach((t, i) => {
    const p = scopeProblem(`containerTags[${i}]`, t);
    if (p) problems.push(p);
  });
  const ns = namespace === undefined || namespace === "" ? tags[0] : namespace;
  if (ns === undefined) {
    problems.push("namespace: required (or at least one container tag)");
    return { namespace: "", containerTags: [] };
  }
  const p = scopeProblem("namespace", ns);
  if (p) problems.push(p);
  const all = [...new Set([ns, ...tags])];
  if (all.length > CONNECTION_LIMITS.containerTags) problems.push(`containerTags: at most ${CONNECTION_LIMITS.containerTags} (the namespace included)`);
  return { namespace: ns, containerTags: all };
}

/**
 * A new connection, validated (InvalidArgumentError listing every problem).
 * Its status is the provider's initial one; revision 1.
 */
export function newConnection(input: NewConnectionInput, now: string, id: string = newConnectionId()): Connection {
  const problems: string[] = [];
  if (typeof input.tenantId !== "string" || input.tenantId.length === 0) problems.push("tenantId: required");
  const providerOk = typeof input.provider === "string" && isConnectionProvider(input.provider);
  if (!providerOk) problems.push(`provider: must be one of ${CONNECTION_PROVIDERS.join(", ")}`);
  const scope = resolveScope(problems, input.namespace, input.containerTags);
  checkDocumentLimit(problems, input.documentLimit);
  checkMetadata(problems, input.metadata);
  checkEmail(problems, input.email);
  checkInstant(problems, "expiresAt", input.expiresAt);
  checkCredentials(problems, input.sealedCredentials);
  checkConfig(problems, input.config);
  refuse("connection", problems);
  const provider = input.provider as ConnectionProvider;
  return compact<Connection>({
    id,
    tenantId: input.tenantId,
    provider,
    namespace: scope.namespace,
    containerTags: scope.containerTags,
    documentLimit: input.documentLimit,
    metadata: { ...((input.metadata ?? {}) as ConnectionMetadata) },
    status: initialStatus(provider),
    email: input.email,
    expiresAt: input.expiresAt === undefined ? undefined : iso(input.expiresAt),
    sealedCredentials: input.sealedCredentials,
    config: input.config,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  });
}

/** Applies a validated patch (undefined = keep, null = clear). Pure; the revision is the store's to move. */
export function patchConnection(conn: Connection, patch: ConnectionPatch, now: string): Connection {
  const problems: string[] = [];
  checkEmail(problems, patch.email);
  checkAccount(problems, patch.account);
  checkInstant(problems, "expiresAt", patch.expiresAt);
  checkCredentials(problems, patch.sealedCredentials);
  checkConfig(problems, patch.config);
  checkDocumentLimit(problems, patch.documentLimit);
  refuse("connection change", problems);
  const next: Connection = { ...conn, updatedAt: now };
  const set = <K extends keyof ConnectionPatch & keyof Connection>(k: K, v: Connection[K] | null | undefined) => {
    if (v === undefined) return;
    if (v === null) delete next[k];
    else next[k] = v;
  };
  set("email", patch.email);
  set("account", patch.account);
  set("expiresAt", patch.expiresAt === undefined || patch.expiresAt === null ? patch.expiresAt : iso(patch.expiresAt));
  set("sealedCredentials", patch.sealedCredentials);
  set("config", patch.config);
  set("documentLimit", patch.documentLimit);
  return next;
}

/** Whether `count` imported documents leave room for another under the connection's documentLimit. */
export function underDocumentLimit(conn: Pick<Connection, "documentLimit">, count: number): boolean {
  return conn.documentLimit === undefined || count < conn.documentLimit;
}

/** Drops undefined fields, so that records compare and store the same in every adapter. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

// ---------------------------------------------------------------------------
// Sync runs
// ---------------------------------------------------------------------------

/** What started a run (proto `SyncTrigger`): the kernel's list, shared with the gateway. */
export { SYNC_TRIGGERS, type SyncTrigger };

/**
 * `running` until finished; then `succeeded` (every item applied),
 * `partial` (the run completed but some items failed: see itemFailures) or
 * `failed` (the run stopped: see errorCode). The proto has no `partial` yet:
 * until it has, `partial` is answered as SUCCEEDED.
 */
export const SYNC_RUN_STATUSES = ["running", "succeeded", "partial", "failed"] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** Why a run failed (OpenAPI lastSyncRun.errorCode, proto `SyncErrorCode`). */
export const SYNC_ERROR_CODES = ["auth_expired", "rate_limited", "plan_required", "provider_unavailable", "internal"] as const;
export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];

/** Per-item failures of a run: how many, and the reasons of the first few. */
export interface ItemFailures {
  count: number;
  samples: { itemKey: string; reason: string }[];
}

export interface SyncRun {
  /** `r_` + 20 base62 characters. */
  id: string;
  tenantId: string;
  connectionId: string;
  trigger: SyncTrigger;
  status: SyncRunStatus;
  errorCode?: SyncErrorCode;
  /** Readable reason of a failed run. */
  error?: string;
  startedAt: string;
  completedAt?: string;
  documentsImported: number;
  itemFailures: ItemFailures;
}

/**
 * A sync run id. The kernel has no id kind for runs yet: this gives the
 * kernel's shape (a letter, '_', 20 base62 characters) with the letter `r`,
 * from a fresh kernel id's random body. Replace with `newId("syncRun")` once
 * the kernel lists `syncRun: "r"`.
 */
export const newSyncRunId = (): string => `r_${newId("event").slice(2)}`;

export const emptyItemFailures = (): ItemFailures => ({ count: 0, samples: [] });

/** Records one failed item: counted always, its reason kept for the first few. Pure. */
export function addItemFailure(f: ItemFailures, itemKey: string, reason: string): ItemFailures {
  const L = CONNECTION_LIMITS;
  const samples =
    f.samples.length < L.itemFailureSamples
      ? [...f.samples, { itemKey: itemKey.slice(0, L.itemKey), reason: reason.slice(0, L.itemFailureReason) }]
      : f.samples;
  return { count: f.count + 1, samples };
}

export function newSyncRun(input: { tenantId: string; connectionId: string; trigger: SyncTrigger }, now: string, id: string = newSyncRunId()): SyncRun {
  if (!(SYNC_TRIGGERS as readonly string[]).includes(input.trigger))
    throw new InvalidArgumentError(`invalid sync trigger ${JSON.stringify(input.trigger)}`, `one of ${SYNC_TRIGGERS.join(", ")}`);
  return {
    id,
    tenantId: input.tenantId,
    connectionId: input.connectionId,
    trigger: input.trigger,
    status: "running",
    startedAt: now,
    documentsImported: 0,
    itemFailures: emptyItemFailures(),
  };
}

/** How a run ended. A `failure` makes it `failed`; otherwise failed items make it `partial`. */
export interface SyncOutcome {
  documentsImported: number;
  itemFailures?: ItemFailures;
  failure?: { code: SyncErrorCode; message?: string };
}

/** The finished run. FailedPreconditionError when it is not running any more. Pure. */
export function finishSyncRun(run: SyncRun, outcome: SyncOutcome, now: string): SyncRun {
  if (run.status !== "running") throw new FailedPreconditionError(`sync run ${run.id} already finished (${run.status})`);
  const problems: string[] = [];
  if (!Number.isInteger(outcome.documentsImported) || outcome.documentsImported < 0) problems.push("documentsImported: must be a non-negative integer");
  if (outcome.failure && !(SYNC_ERROR_CODES as readonly string[]).includes(outcome.failure.code))
    problems.push(`failure.code: one of ${SYNC_ERROR_CODES.join(", ")}`);
  refuse("sync outcome", problems);
  const itemFailures = outcome.itemFailures ?? emptyItemFailures();
  const status: SyncRunStatus = outcome.failure ? "failed" : itemFailures.count > 0 ? "partial" : "succeeded";
  return compact<SyncRun>({
    ...run,
    status,
    errorCode: outcome.failure?.code,
    error: outcome.failure?.message?.slice(0, CONNECTION_LIMITS.runError),
    completedAt: now,
    documentsImported: outcome.documentsImported,
    itemFailures: { count: itemFailures.count, samples: itemFailures.samples.slice(0, CONNECTION_LIMITS.itemFailureSamples) },
  });
}

/** The reason recorded on a run cut short by a shutdown (the service stopped); a sync request resumes it at the next start. */
export const INTERRUPTED_RUN_ERROR = "interrupted: the service stopped during the sync; it resumes after the restart";

/** The reason recorded on a run whose worker stopped without finishing it (found when the next run starts). */
export const ABANDONED_RUN_ERROR = "the sync stopped without finishing (its worker exited or lost the lease)";

/** A run left `running` by a worker that is gone, closed as failed (internal). */
export function abandonSyncRun(run: SyncRun, now: string): SyncRun {
  return finishSyncRun(
    run,
    { documentsImported: run.documentsImported, itemFailures: run.itemFailures, failure: { code: "internal", message: ABANDONED_RUN_ERROR } },
    now,
  );
}

// ---------------------------------------------------------------------------
// Scheduled syncs
// ---------------------------------------------------------------------------

/** Every connector syncs on a schedule every 4 hours (the spec's "every 4 h")... */
export const SCHEDULED_SYNC_INTERVAL_MS = 4 * 3_600_000;

/**
 * ...except the web crawler, which recrawls a site once its last run is at
 * least `recrawlIntervalDays` old (the connection's config, camelCase like
 * `startUrl` and `maxPages`; proto `WebCrawlerConfig.recrawl_interval_days`):
 * absent, 0 or not an integer = 7 days; "at least 7", so 1 to 6 read as 7;
 * more than 3650 reads as 3650 (ten years keep every computed time a
 * four-digit-year ISO string, which the stores compare as text).
 */
export const RECRAWL_INTERVAL_DAYS = { default: 7, min: 7, max: 3650 } as const;

const DAY_MS = 86_400_000;

/** How long after a run started the connection's next scheduled sync is due. Pure. */
export function syncIntervalMs(conn: Pick<Connection, "provider" | "config">): number {
  if (conn.provider !== "web-crawler") return SCHEDULED_SYNC_INTERVAL_MS;
  const R = RECRAWL_INTERVAL_DAYS;
  const days = conn.config?.recrawlIntervalDays;
  if (typeof days !== "number" || !Number.isInteger(days) || days <= 0) return R.default * DAY_MS;
  return Math.min(Math.max(days, R.min), R.max) * DAY_MS;
}

/**
 * When the connection's next scheduled sync is due: `syncIntervalMs` after
 * the start of its most recent finished run, or at its creation when none
 * finished yet (a connection that never synced is due at once). An ISO
 * string as `toISOString` writes it, so that stores compare it as text. Pure.
 */
export function nextSyncAt(conn: Pick<Connection, "provider" | "config" | "createdAt">, lastSyncStartedAt: string | undefined): string {
  if (lastSyncStartedAt === undefined) return iso(conn.createdAt);
  return new Date(Date.parse(lastSyncStartedAt) + syncIntervalMs(conn)).toISOString();
}

// ---------------------------------------------------------------------------
// Item ledger and leases
// ---------------------------------------------------------------------------

/**
 * One provider item a connection imported: which document holds it and the
 * version it was imported at. Drives skipping unchanged items, pruning (every
 * item key), deleteDocuments (every document id) and documentLimit (count).
 */
export interface ConnectionItem {
  connectionId: string;
  /** Provider item id or canonical URL; unique per connection. */
  itemKey: string;
  documentId: string;
  /** ETag, revision or content hash at import. */
  version: string;
  url?: string;
  /**
   * Provider-specific state of the item that the connector hands back on the
   * next sync (the web crawler's validators and links): opaque text.
   */
  state?: string;
  updatedAt: string;
}

/** InvalidArgumentError unless the item fits the ledger. */
export function validateItem(item: ConnectionItem): void {
  const L = CONNECTION_LIMITS;
  const problems: string[] = [];
  const str = (field: string, v: unknown, max: number, nonEmpty = true) => {
    if (typeof v !== "string" || (nonEmpty && v.length === 0) || v.length > max) problems.push(`${field}: must be ${nonEmpty ? 1 : 0}-${max} characters`);
  };
  str("connectionId", item.connectionId, 64);
  str("itemKey", item.itemKey, L.itemKey);
  str("documentId", item.documentId, L.documentId);
  str("version", item.version, L.itemVersion, false);
  if (item.url !== undefined) str("url", item.url, L.url);
  if (item.state !== undefined) str("state", item.state, L.itemState, false);
  checkInstant(problems, "updatedAt", item.updatedAt);
  refuse("connection item", problems);
}

/** The right to sync one connection, held by one worker until `expiresAt`. */
export interface Lease {
  connectionId: string;
  holder: string;
  /** ISO time the lease lapses unless renewed. */
  expiresAt: string;
}

export const LEASE_LIMITS = { holder: 200, ttlMinMs: 1000, ttlMaxMs: 86_400_000 } as const;

/** InvalidArgumentError unless the holder is 1-200 characters and the time to live 1 s to 1 day (whole milliseconds). */
export function validateLease(holder: string, ttlMs: number): void {
  const L = LEASE_LIMITS;
  const problems: string[] = [];
  if (typeof holder !== "string" || holder.length === 0 || holder.length > L.holder) problems.push(`holder: must be 1-${L.holder} characters`);
  if (!Number.isInteger(ttlMs) || ttlMs < L.ttlMinMs || ttlMs > L.ttlMaxMs) problems.push(`ttlMs: must be an integer from ${L.ttlMinMs} to ${L.ttlMaxMs}`);
  refuse("lease", problems);
}

/** Where a provider sends a connection's notifications: the gateway's public webhook route, naming the connection. */
export function webhookUrl(publicBase: string, conn: Pick<Connection, "id" | "tenantId" | "provider">): string {
  const q = new URLSearchParams({ connection: conn.id, tenant: conn.tenantId });
  return `${publicBase.replace(/\/+$/, "")}/v3/connections/webhooks/${conn.provider}?${q}`;
}
