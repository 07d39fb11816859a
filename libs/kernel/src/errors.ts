/**
 * Domain errors. Domain and application code throw only these; one function
 * in @engram/grpc maps them to gRPC status codes, and one maps gRPC status to
 * HTTP. The `kind` names the failure, never the transport.
 */
export type ErrorKind =
  | "invalid_argument"
  | "not_found"
  | "already_exists"
  | "conflict"
  | "failed_precondition"
  | "unauthenticated"
  | "permission_denied"
  | "resource_exhausted"
  | "payload_too_large"
  | "insufficient_storage"
  | "unavailable"
  | "deadline_exceeded"
  | "unimplemented"
  | "internal";

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** Optional longer explanation, sent as `details` in the API error body. */
  readonly details: string | undefined;

  constructor(kind: ErrorKind, message: string, details?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
    this.details = details;
  }
}

export class InvalidArgumentError extends DomainError {
  constructor(message: string, details?: string) {
    super("invalid_argument", message, details);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, details?: string) {
    super("not_found", message, details);
  }
}

export class AlreadyExistsError extends DomainError {
  constructor(message: string, details?: string) {
    super("already_exists", message, details);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: string) {
    super("conflict", message, details);
  }
}

export class FailedPreconditionError extends DomainError {
  constructor(message: string, details?: string) {
    super("failed_precondition", message, details);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message: string, details?: string) {
    super("unauthenticated", message, details);
  }
}

export class PermissionDeniedError extends DomainError {
  constructor(message: string, details?: string) {
    super("permission_denied", message, details);
  }
}

export class ResourceExhaustedError extends DomainError {
  constructor(message: string, details?: string) {
    super("resource_exhausted", message, details);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(message: string, details?: string) {
    super("payload_too_large", message, details);
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string, details?: string, options?: { cause?: unknown }) {
    super("unavailable", message, details, options);
  }
}

export class UnimplementedError extends DomainError {
  constructor(operation: string, details?: string) {
    super("unimplemented", `${operation} is not available in this version of Engram`, details);
  }
}

export class InternalError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("internal", message, undefined, options);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
