import { DomainError, type ErrorKind, type SyncErrorCode } from "@engram/kernel";

const KIND: Record<SyncErrorCode, ErrorKind> = {
  auth_expired: "failed_precondition",
  plan_required: "failed_precondition",
  rate_limited: "resource_exhausted",
  provider_unavailable: "unavailable",
  internal: "internal",
};

/**
 * A provider call that failed, with the sync error code the API reports on
 * `lastSyncRun` (auth_expired, rate_limited, plan_required,
 * provider_unavailable, internal) and whether trying again later may work.
 */
export class ConnectorError extends DomainError {
  readonly retryable: boolean;
  constructor(
    readonly code: SyncErrorCode,
    message: string,
    options?: { details?: string; retryAfterMs?: number; cause?: unknown },
  ) {
    super(KIND[code], message, options?.details, { cause: options?.cause });
    this.retryable = code === "rate_limited" || code === "provider_unavailable";
    this.retryAfterMs = options?.retryAfterMs;
  }
  readonly retryAfterMs: number | undefined;
}
