import * as grpc from "@grpc/grpc-js";
import {
  AlreadyExistsError,
  ConflictError,
  DomainError,
  type ErrorKind,
  FailedPreconditionError,
  InsufficientStorageError,
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
import { domainToHttp, GENERIC_HTTP_ERRORS, grpcToHttp, isServiceError, toGrpcError } from "../src/errors";

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

  it("an engine outage an adapter let through (a refused connection, a busy SQLite file) -> UNAVAILABLE -> 503 generic", () => {
    for (const err of [
      Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:27017"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
      Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ETIMEDOUT"), { code: "ETIMEDOUT" }) }),
    ]) {
      const st = toGrpcError(err);
      expect(st.code).toBe(grpc.status.UNAVAILABLE);
      expect(st.metadata?.get("engram-error-kind")).toEqual(["unavailable"]);
      expect(st.details).not.toMatch(/10\.0\.0\.7|locked|ETIMEDOUT/);
      expect(grpcToHttp(asServiceError(st))).toEqual({ status: 503, ...GENERIC_HTTP_ERRORS[503], internal: true });
    }
  });

  it("a storage fault an adapter named -> RESOURCE_EXHAUSTED marked insufficient_storage -> 507 keeping the part's message", () => {
    const err = new InsufficientStorageError("fileStore", { fault: "full", code: "ENOSPC" });
    const st = toGrpcError(err);
    expect(st.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(st.metadata?.get("engram-error-kind")).toEqual(["insufficient_storage"]);
    const http = viaGrpc(err);
    expect(http).toEqual({
      status: 507,
      error: "Insufficient storage",
      details: expect.stringMatching(/^the file store cannot write: its disk is full/),
      internal: false,
    });
    expect(domainToHttp(err)).toEqual(http);
  });

  it("a raw storage fault no adapter named (SQLITE_FULL, ENOSPC, EROFS) -> 507 naming the server's storage, no driver text", () => {
    for (const [err, text] of [
      [Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }), "disk is full"],
      [Object.assign(new Error("ENOSPC: no space left on device, write '/var/lib/engram/x'"), { code: "ENOSPC", path: "/var/lib/engram/x" }), "disk is full"],
      [Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS" }), "read-only"],
      [new Error("wrapped", { cause: Object.assign(new Error("attempt to write a readonly database"), { code: "SQLITE_READONLY" }) }), "read-only"],
    ] as const) {
      const http = viaGrpc(err);
      expect(http.status).toBe(507);
      expect(http.details).toMatch(new RegExp(`^the server's storage cannot write: .*${text}`));
      expect(http.details).not.toMatch(/SQLITE|ENOSPC|EROFS|\/var/);
    }
    // Permission errors count only when a storage adapter raised them (raiseStorageFaults): elsewhere they are internal.
    expect(viaGrpc(Object.assign(new Error("EACCES"), { code: "EACCES" })).status).toBe(500);
  });

  it("RESOURCE_EXHAUSTED without the insufficient_storage kind is never 507: a rate limit is 429, the transport's own (message too large) 500", () => {
    expect(viaGrpc(new ResourceExhaustedError("slow down")).status).toBe(429);
    const transport = Object.assign(new Error("Received message larger than max"), {
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: "Received message larger than max (5000000 vs. 4194304)",
      metadata: new grpc.Metadata(),
    });
    expect(grpcToHttp(transport)).toEqual({ status: 500, error: "Internal server error", internal: true });
  });

  it("a storage fault from a downstream service passes through unchanged (still 507 with its part)", () => {
    const downstream = asServiceError(toGrpcError(new InsufficientStorageError("store", { fault: "full", code: "SQLITE_FULL" })));
    const st = toGrpcError(downstream);
    expect(grpcToHttp(asServiceError(st))).toEqual(expect.objectContaining({ status: 507, details: expect.stringMatching(/^the document and memory store/) }));
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

  /** A status as grpc-js itself produces it on the client: no engram metadata. */
  const transport = (code: grpc.status, details: string) => Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

  it.each([
    [grpc.status.DEADLINE_EXCEEDED, "Deadline exceeded after 29.999s,Waiting for LB pick", 504, "Gateway timeout"],
    [grpc.status.UNAVAILABLE, "No connection established. Last error: connect ECONNREFUSED 10.0.3.7:50051", 503, "Service temporarily unavailable"],
    [grpc.status.CANCELLED, "Call cancelled", 503, "Service temporarily unavailable"],
    [grpc.status.UNIMPLEMENTED, "The server does not implement the method /engram.recall.v1.RecallService/SearchV4", 501, "Not implemented"],
    [grpc.status.RESOURCE_EXHAUSTED, "Received message larger than max (70000000 vs 67108864)", 500, "Internal server error"],
    [grpc.status.INVALID_ARGUMENT, "Request message serialization failure: invalid wire type", 500, "Internal server error"],
    [grpc.status.INTERNAL, "Received RST_STREAM with code 2 triggered by internal client error: Protocol error", 500, "Internal server error"],
    [grpc.status.DATA_LOSS, "lost", 500, "Internal server error"],
  ])("a transport status %i (no domain kind) -> HTTP %i with a generic body, never the transport's text", (code, text, http, error) => {
    const res = grpcToHttp(transport(code, text));
    expect(res.status).toBe(http);
    expect(res.error).toBe(error);
    expect(res.internal).toBe(true);
    const body = JSON.stringify({ error: res.error, details: res.details });
    for (const leak of ["Deadline", "LB pick", "ECONNREFUSED", "10.0.3.7", "50051", "engram.recall", "larger than max", "RST_STREAM", "lost"])
      expect(body).not.toContain(leak);
  });

  it.each([
    ["unavailable", new UnavailableError("search index at qdrant:6333 is down", "connect ECONNREFUSED 10.0.0.9:6333"), 503, "Service temporarily unavailable"],
    ["deadline_exceeded", new DomainError("deadline_exceeded", "embedding call to http://10.0.0.5/v1 timed out", "after 30000 ms"), 504, "Gateway timeout"],
  ] as const)("a domain %s error -> HTTP %i with the generic body of its status (the logs keep the message)", (_kind, err, http, error) => {
    expect(toGrpcError(err).code).toBe(http === 503 ? grpc.status.UNAVAILABLE : grpc.status.DEADLINE_EXCEEDED);
    for (const res of [viaGrpc(err), domainToHttp(err)]) {
      expect(res).toEqual({ status: http, error, details: expect.stringMatching(/retry shortly/), internal: true });
      expect(JSON.stringify(res)).not.toMatch(/qdrant|10\.0\.0|ECONNREFUSED|30000|http:/);
    }
  });

  it("every 5xx but a domain 501 has one of the generic bodies", () => {
    const generic = Object.values(GENERIC_HTTP_ERRORS).map((g) => g.error);
    for (const code of Object.values(grpc.status).filter((c): c is number => typeof c === "number" && c !== grpc.status.OK)) {
      for (const withKind of [false, true]) {
        const metadata = new grpc.Metadata();
        if (withKind) metadata.set("engram-error-kind", code === grpc.status.UNIMPLEMENTED ? "unimplemented" : "internal");
        const res = grpcToHttp(Object.assign(new Error("secret text"), { code, details: "secret text", metadata }));
        if (res.status >= 500 && !(withKind && res.status === 501)) {
          expect(generic).toContain(res.error);
          expect(res.details ?? "").not.toContain("secret");
        }
      }
    }
  });

  it("details that are not valid percent-encoding are shown as they came instead of failing the mapping", () => {
    const metadata = new grpc.Metadata();
    metadata.set("engram-error-kind", "invalid_argument");
    metadata.set("engram-error-details", "100%");
    expect(grpcToHttp(Object.assign(new Error("bad"), { code: grpc.status.INVALID_ARGUMENT, details: "bad", metadata }))).toEqual({
      status: 400,
      error: "bad",
      details: "100%",
      internal: false,
    });
  });

  it("isServiceError recognises gRPC errors only", () => {
    expect(isServiceError(asServiceError(toGrpcError(new NotFoundError("x"))))).toBe(true);
    expect(isServiceError(new Error("x"))).toBe(false);
    expect(isServiceError(null)).toBe(false);
  });
});
