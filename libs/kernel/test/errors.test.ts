import {
  AlreadyExistsError,
  ConflictError,
  DomainError,
  type ErrorKind,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  isDomainError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
  UnimplementedError,
} from "../src/errors";

describe("domain errors", () => {
  const cases: [ErrorKind, DomainError, string][] = [
    ["invalid_argument", new InvalidArgumentError("bad", "why"), "InvalidArgumentError"],
    ["not_found", new NotFoundError("bad", "why"), "NotFoundError"],
    ["already_exists", new AlreadyExistsError("bad", "why"), "AlreadyExistsError"],
    ["conflict", new ConflictError("bad", "why"), "ConflictError"],
    ["failed_precondition", new FailedPreconditionError("bad", "why"), "FailedPreconditionError"],
    ["unauthenticated", new UnauthenticatedError("bad", "why"), "UnauthenticatedError"],
    ["permission_denied", new PermissionDeniedError("bad", "why"), "PermissionDeniedError"],
    ["resource_exhausted", new ResourceExhaustedError("bad", "why"), "ResourceExhaustedError"],
    ["payload_too_large", new PayloadTooLargeError("bad", "why"), "PayloadTooLargeError"],
    ["unavailable", new UnavailableError("bad", "why"), "UnavailableError"],
  ];

  it.each(cases)("%s carries kind, message, details and its class name", (kind, err, name) => {
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toBeInstanceOf(Error);
    expect(err.kind).toBe(kind);
    expect(err.message).toBe("bad");
    expect(err.details).toBe("why");
    expect(err.name).toBe(name);
    expect(isDomainError(err)).toBe(true);
  });

  it("details are optional", () => {
    expect(new NotFoundError("gone").details).toBeUndefined();
  });

  it("UnimplementedError names the operation", () => {
    const err = new UnimplementedError("MemoriesService.ListMemories", "later");
    expect(err.kind).toBe("unimplemented");
    expect(err.message).toContain("MemoriesService.ListMemories");
    expect(err.details).toBe("later");
  });

  it("InternalError and UnavailableError keep their cause", () => {
    const cause = new Error("disk on fire");
    const internal = new InternalError("boom", { cause });
    expect(internal.kind).toBe("internal");
    expect(internal.cause).toBe(cause);
    expect(new UnavailableError("down", undefined, { cause }).cause).toBe(cause);
  });

  it("isDomainError rejects plain errors and non-errors", () => {
    expect(isDomainError(new Error("x"))).toBe(false);
    expect(isDomainError({ kind: "not_found", message: "x" })).toBe(false);
    expect(isDomainError(undefined)).toBe(false);
  });
});
