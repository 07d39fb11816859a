import * as grpc from "@grpc/grpc-js";
import { type DomainError, type ErrorKind, InsufficientStorageError, isDomainError, isOutage, storageFaultOf } from "@engram/kernel";
import { TrustRefusal } from "./trust";

/** Metadata keys that carry the domain error across gRPC. */
const KIND_KEY = "engram-error-kind";
const DETAILS_KEY = "engram-error-details";

const KIND_TO_GRPC: Record<ErrorKind, grpc.status> = {
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  not_found: grpc.status.NOT_FOUND,
  already_exists: grpc.status.ALREADY_EXISTS,
  conflict: grpc.status.ABORTED,
  failed_precondition: grpc.status.FAILED_PRECONDITION,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  permission_denied: grpc.status.PERMISSION_DENIED,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED,
  // gRPC has no "too large"; the kind travels in metadata so HTTP gets 413.
  payload_too_large: grpc.status.RESOURCE_EXHAUSTED,
  // A full (or unwritable) disk: RESOURCE_EXHAUSTED too, told apart from a rate limit, a too-large message or
  // any transport RESOURCE_EXHAUSTED by the kind in metadata, so HTTP gets 507.
  insufficient_storage: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  deadline_exceeded: grpc.status.DEADLINE_EXCEEDED,
  unimplemented: grpc.status.UNIMPLEMENTED,
  internal: grpc.status.INTERNAL,
};

/**
 * Domain error (or anything thrown) -> gRPC status. The one mapping on the server side. A TrustRefusal keeps its
 * code (UNAUTHENTICATED, PERMISSION_DENIED) without an error kind. Anything else is
 * INTERNAL, except an engine outage (`isOutage`: connection refused or reset, timeouts, no MongoDB primary,
 * SQLite busy or locked, Qdrant 502-504, Kafka unreachable), which is UNAVAILABLE (HTTP 503 with Retry-After),
 * and a storage fault no adapter named (`storageFaultOf`: ENOSPC, EDQUOT, SQLITE_FULL, EROFS, SQLITE_READONLY),
 * which is `insufficient_storage` (HTTP 507) without a part.
 */
export function toGrpcError(err: unknown): Partial<grpc.StatusObject> & { code: grpc.status; details: string } {
  const metadata = new grpc.Metadata();
  if (err instanceof TrustRefusal) {
    // A call refused by service-to-service trust: no error kind, so a gateway answers its own client with a generic 500.
    return { code: err.code, details: err.message, metadata };
  }
  if (isDomainError(err)) {
    metadata.set(KIND_KEY, err.kind);
    if (err.details) metadata.set(DETAILS_KEY, encodeURIComponent(err.details));
    return { code: KIND_TO_GRPC[err.kind], details: err.message, metadata };
  }
  if (isServiceError(err)) {
    // An error from a downstream call: pass its status through unchanged.
    return { code: err.code, details: err.details, metadata: err.metadata };
  }
  const fault = storageFaultOf(err);
  if (fault) return toGrpcError(new InsufficientStorageError(undefined, fault));
  if (isOutage(err)) {
    // An engine outage an adapter let through (a refused connection, a busy SQLite file, a timeout): retryable.
    metadata.set(KIND_KEY, "unavailable");
    return { code: grpc.status.UNAVAILABLE, details: "a storage engine is unavailable", metadata };
  }
  metadata.set(KIND_KEY, "internal");
  return { code: grpc.status.INTERNAL, details: "internal error", metadata };
}

/** Seconds an HTTP 503 asks the client to wait before retrying (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/** Seconds an HTTP 507 asks the client to wait: space has to be freed by an operator first. */
export const STORAGE_RETRY_AFTER_SECONDS = 60;

export function isServiceError(err: unknown): err is grpc.ServiceError {
  return typeof err === "object" && err !== null && "code" in err && "metadata" in err && typeof (err as { code: unknown }).code === "number";
}

const GRPC_TO_HTTP: Record<number, number> = {
  [grpc.status.OK]: 200,
  [grpc.status.INVALID_ARGUMENT]: 400,
  [grpc.status.NOT_FOUND]: 404,
  [grpc.status.ALREADY_EXISTS]: 409,
  [grpc.status.ABORTED]: 409,
  [grpc.status.FAILED_PRECONDITION]: 400,
  [grpc.status.OUT_OF_RANGE]: 400,
  [grpc.status.UNAUTHENTICATED]: 401,
  [grpc.status.PERMISSION_DENIED]: 403,
  [grpc.status.RESOURCE_EXHAUSTED]: 429,
  [grpc.status.UNIMPLEMENTED]: 501,
  [grpc.status.UNAVAILABLE]: 503,
  [grpc.status.DEADLINE_EXCEEDED]: 504,
};

/**
 * The bodies of server-side failures. They never carry a status's own text:
 * that names hosts, deadlines, load-balancer states or file paths ("Deadline
 * exceeded after 29.999s,Waiting for LB pick"). The gateway logs the status
 * in full instead.
 */
export const GENERIC_HTTP_ERRORS = {
  500: { error: "Internal server error" },
  501: { error: "Not implemented", details: "this operation is not available in this version of Engram" },
  503: { error: "Service temporarily unavailable", details: "a backend service is unavailable; retry shortly" },
  504: { error: "Gateway timeout", details: "a backend service did not answer in time; retry shortly" },
} as const;

export interface HttpError {
  status: number;
  error: string;
  details?: string;
  /**
   * True when the failure is the server's: the body is generic, so the
   * gateway logs the original error (with a stack for a 500).
   */
  internal: boolean;
}

const generic = (status: keyof typeof GENERIC_HTTP_ERRORS): HttpError => ({ status, ...GENERIC_HTTP_ERRORS[status], internal: true });

/**
 * gRPC status (from a client call) -> HTTP status and API error body. The one mapping on the gateway.
 *
 * A status that carries a domain error kind was made by Engram code, and its
 * message and details were written for API clients: 4xx bodies and 501 keep
 * them. Every other 5xx gets the generic body of its status. A status without
 * a kind was made by the gRPC transport itself (deadline, unreachable or
 * restarting backend, call cut off, message too large, method missing on an
 * older backend): its text describes the transport, so it never reaches the
 * body. CANCELLED can only come from the server side (the gateway does not
 * cancel its calls), so it is a 503 like UNAVAILABLE.
 */
export function grpcToHttp(err: grpc.ServiceError): HttpError {
  const kind = err.metadata?.get(KIND_KEY)[0]?.toString();
  if (!kind) {
    switch (err.code) {
      case grpc.status.UNAVAILABLE:
      case grpc.status.CANCELLED:
        return generic(503);
      case grpc.status.DEADLINE_EXCEEDED:
        return generic(504);
      case grpc.status.UNIMPLEMENTED:
        return generic(501);
      default:
        return generic(500);
    }
  }
  const rawDetails = err.metadata?.get(DETAILS_KEY)[0]?.toString();
  const details = rawDetails ? safeDecode(rawDetails) : undefined;
  const status = kind === "payload_too_large" ? 413 : kind === "insufficient_storage" ? 507 : (GRPC_TO_HTTP[err.code] ?? 500);
  if (status === 503 || status === 504) return generic(status);
  // 507 keeps its message and details: Engram wrote them for clients (which part cannot write, and that nothing was stored).
  if (status >= 500 && status !== 501 && status !== 507) return generic(500);
  return { status, error: err.details || "request failed", ...(details ? { details } : {}), internal: false };
}

/** Details travel percent-encoded; a malformed value (not from toGrpcError) is shown as it came. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Domain error thrown in the gateway itself -> HTTP (same table, no gRPC hop). */
export function domainToHttp(err: DomainError): HttpError {
  const grpcErr = toGrpcError(err);
  return grpcToHttp({ ...grpcErr, metadata: grpcErr.metadata ?? new grpc.Metadata(), name: err.name, message: err.message } as grpc.ServiceError);
}
