import * as grpc from "@grpc/grpc-js";
import { type DomainError, type ErrorKind, isDomainError } from "@engram/kernel";

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
  unavailable: grpc.status.UNAVAILABLE,
  deadline_exceeded: grpc.status.DEADLINE_EXCEEDED,
  unimplemented: grpc.status.UNIMPLEMENTED,
  internal: grpc.status.INTERNAL,
};

/** Domain error (or anything thrown) -> gRPC status. The one mapping on the server side. */
export function toGrpcError(err: unknown): Partial<grpc.StatusObject> & { code: grpc.status; details: string } {
  const metadata = new grpc.Metadata();
  if (isDomainError(err)) {
    metadata.set(KIND_KEY, err.kind);
    if (err.details) metadata.set(DETAILS_KEY, encodeURIComponent(err.details));
    return { code: KIND_TO_GRPC[err.kind], details: err.message, metadata };
  }
  if (isServiceError(err)) {
    // An error from a downstream call: pass its status through unchanged.
    return { code: err.code, details: err.details, metadata: err.metadata };
  }
  metadata.set(KIND_KEY, "internal");
  return { code: grpc.status.INTERNAL, details: "internal error", metadata };
}

export function isServiceError(err: unknown): err is grpc.ServiceError {
  return typeof err === "object" && err !== null && "code" in err && "metadata" in err && typeof (err as { code: unknown }).code === "number";
}

const GRPC_TO_HTTP: Record<number, number> = {
  [grpc.status.OK]: 200,
  [grpc.status.CANCELLED]: 499,
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

export interface HttpError {
  status: number;
  error: string;
  details?: string;
  /** True when the failure is the server's (5xx): log it with a stack. */
  internal: boolean;
}

/** gRPC status (from a client call) -> HTTP status and API error body. The one mapping on the gateway. */
export function grpcToHttp(err: grpc.ServiceError): HttpError {
  const kind = err.metadata?.get(KIND_KEY)[0]?.toString();
  const rawDetails = err.metadata?.get(DETAILS_KEY)[0]?.toString();
  const details = rawDetails ? decodeURIComponent(rawDetails) : undefined;
  let status = GRPC_TO_HTTP[err.code] ?? 500;
  if (kind === "payload_too_large") status = 413;
  if (status >= 500 && err.code !== grpc.status.UNIMPLEMENTED && err.code !== grpc.status.UNAVAILABLE && err.code !== grpc.status.DEADLINE_EXCEEDED) {
    return { status: 500, error: "Internal server error", internal: true };
  }
  if (err.code === grpc.status.UNAVAILABLE && !kind) {
    return { status: 503, error: "Service temporarily unavailable", details: "a backend service could not be reached; retry shortly", internal: true };
  }
  return { status, error: err.details || "request failed", ...(details ? { details } : {}), internal: false };
}

/** Domain error thrown in the gateway itself -> HTTP (same table, no gRPC hop). */
export function domainToHttp(err: DomainError): HttpError {
  const grpcErr = toGrpcError(err);
  return grpcToHttp({ ...grpcErr, metadata: grpcErr.metadata ?? new grpc.Metadata(), name: err.name, message: err.message } as grpc.ServiceError);
}
