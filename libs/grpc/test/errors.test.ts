import * as grpc from "@grpc/grpc-js";
import {
  AlreadyExistsError,
  ConflictError,
  DomainError,
  type ErrorKind,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
  UnimplementedError,
} from "@engram/kernel";
import { domainToHttp, grpcToHttp, isServiceError, toGrpcError } from "../src/errors";

/** What a client sees: the status object produced on the server, as a ServiceError. */
function asServiceError(st: ReturnType<typeof toGrpcError>): grpc.ServiceError {
  return Object.assign(new Error(st.details), { code: st.code, details: st.details, metadata: st.metadata ?? new grpc.Metadata() });
}

const viaGrpc = (err: unknown) => grpcToHttp(asServiceError(toGrpcError(err)));

describe("toGrpcError + grpcToHttp", () => {
  const table: [ErrorKind, DomainError, number, grpc.status][] = [
    ["invalid_argument", new InvalidArgumentError("m", "d"), 400, grpc.status.INVALID_ARGUMENT],
    ["not_found", new NotFoundError("m", "d"), 404, grpc.status.NOT_FOUND],
    ["already_exists", new AlreadyExistsError("m", "d"), 409, grpc.status.ALREADY_EXISTS],
    ["conflict", new ConflictError("m", "d"), 409, grpc.status.ABORTED],
    ["failed_precondition", new FailedPreconditionError("m", "d"), 400, grpc.status.FAILED_PRECONDITION],
    ["unauthenticated", new UnauthenticatedError("m", "d"), 401, grpc.status.UNAUTHENTICATED],
    ["permission_denied", new PermissionDeniedError("m", "d"), 403, grpc.status.PERMISSION_DENIED],
    ["resource_exhausted", new ResourceExhaustedError("m", "d"), 429, grpc.status.RESOURCE_EXHAUSTED],
    ["payload_too_large", new PayloadTooLargeError("m", "d"), 413, grpc.status.RESOURCE_EXHAUSTED],
    ["unimplemented", new DomainError("unimplemented", "m", "d"), 501, grpc.status.UNIMPLEMENTED],
    ["unavailable", new UnavailableError("m", "d"), 503, grpc.status.UNAVAILABLE],
    ["deadline_exceeded", new DomainError("deadline_exceeded", "m", "d"), 504, grpc.status.DEADLINE_EXCEEDED],
  ];

  it.each(table)("%s -> HTTP %i with the domain message and details", (_kind, err, http, code) => {
    const st = toGrpcError(err);
    expect(st.code).toBe(code);
    expect(st.details).toBe("m");
    expect(viaGrpc(err)).toEqual({ status: http, error: "m", details: "d", internal: false });
    expect(domainToHttp(err)).toEqual({ status: http, error: "m", details: "d", internal: false });
  });

  it("internal -> 500 with a generic message (the domain message is not leaked)", () => {
    const err = new InternalError("database file /secret/path is corrupt");
    expect(toGrpcError(err).code).toBe(grpc.status.INTERNAL);
    expect(viaGrpc(err)).toEqual({ status: 500, error: "Internal server error", internal: true });
    expect(domainToHttp(err)).toEqual({ status: 500, error: "Internal server error", internal: true });
  });

  it("a plain Error -> INTERNAL -> 500 generic, its message never crosses the wire", () => {
    const st = toGrpcError(new Error("SQLITE_CORRUPT at /var/lib/engram"));
    expect(st.code).toBe(grpc.status.INTERNAL);
    expect(st.details).not.toContain("SQLITE");
    expect(grpcToHttp(asServiceError(st))).toEqual({ status: 500, error: "Internal server error", internal: true });
  });

  it("a non-Error throw is internal too", () => {
    expect(viaGrpc("a string").status).toBe(500);
    expect(viaGrpc(undefined).status).toBe(500);
  });

  it("errors without details omit the details field", () => {
    expect(viaGrpc(new NotFoundError("document x not found"))).toEqual({ status: 404, error: "document x not found", internal: false });
  });

  it("details with non-ASCII characters and newlines survive the metadata hop", () => {
    const details = "namespace « café » must be\nshorter — see docs";
    expect(viaGrpc(new InvalidArgumentError("bad", details)).details).toBe(details);
  });

  it("UnimplementedError names the operation and maps to 501", () => {
    const res = viaGrpc(new UnimplementedError("Svc.Op"));
    expect(res.status).toBe(501);
    expect(res.error).toContain("Svc.Op");
  });

  it("passes a downstream gRPC error through unchanged", () => {
    const downstream = asServiceError(toGrpcError(new NotFoundError("upstream missing", "why")));
    const st = toGrpcError(downstream);
    expect(st.code).toBe(grpc.status.NOT_FOUND);
    expect(grpcToHttp(asServiceError(st))).toEqual({ status: 404, error: "upstream missing", details: "why", internal: false });
  });

  it("UNAVAILABLE without a domain kind (backend unreachable) -> 503 with a retry hint", () => {
    const res = grpcToHttp(Object.assign(new Error("x"), { code: grpc.status.UNAVAILABLE, details: "connect ECONNREFUSED", metadata: new grpc.Metadata() }));
    expect(res.status).toBe(503);
    expect(res.error).toBe("Service temporarily unavailable");
    expect(res.internal).toBe(true);
  });

  it("an unknown gRPC code -> 500 generic", () => {
    const res = grpcToHttp(Object.assign(new Error("x"), { code: grpc.status.DATA_LOSS, details: "lost", metadata: new grpc.Metadata() }));
    expect(res).toEqual({ status: 500, error: "Internal server error", internal: true });
  });

  it("isServiceError recognises gRPC errors only", () => {
    expect(isServiceError(asServiceError(toGrpcError(new NotFoundError("x"))))).toBe(true);
    expect(isServiceError(new Error("x"))).toBe(false);
    expect(isServiceError(null)).toBe(false);
  });
});
