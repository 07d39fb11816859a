import { CommanderError } from "commander";
import { APIConnectionError, APIConnectionTimeoutError, APIError, AuthenticationError, NotFoundError, PermissionDeniedError } from "supermemory";
import { ExitCode, UsageError, batchExitCode, describeError, exitCodeFor, isFatal } from "../src/exit-codes";

describe("exit codes", () => {
  const headers = new Headers();

  it("maps each failure to the documented code", () => {
    expect(exitCodeFor(new UsageError("bad flag"))).toBe(ExitCode.Usage);
    expect(exitCodeFor(new CommanderError(1, "commander.unknownOption", "unknown option"))).toBe(ExitCode.Usage);
    expect(exitCodeFor(new CommanderError(0, "commander.helpDisplayed", "(help)"))).toBe(ExitCode.Ok);
    expect(exitCodeFor(new AuthenticationError(401, { error: "Invalid API key" }, undefined, headers))).toBe(ExitCode.Auth);
    expect(exitCodeFor(new PermissionDeniedError(403, { error: "Forbidden" }, undefined, headers))).toBe(ExitCode.Auth);
    expect(exitCodeFor(new APIConnectionError({ cause: new Error("ECONNREFUSED") }))).toBe(ExitCode.Unreachable);
    expect(exitCodeFor(new APIConnectionTimeoutError())).toBe(ExitCode.Unreachable);
    expect(exitCodeFor(new NotFoundError(404, { error: "not found" }, undefined, headers))).toBe(ExitCode.Api);
    expect(exitCodeFor(APIError.generate(500, { error: "boom" }, undefined, headers))).toBe(ExitCode.Api);
    expect(exitCodeFor(new Error("anything else"))).toBe(ExitCode.Api);
    expect(batchExitCode(0)).toBe(ExitCode.Ok);
    expect(batchExitCode(3)).toBe(ExitCode.Partial);
  });

  it("stops a run only for authentication and connection failures", () => {
    expect(isFatal(new AuthenticationError(401, {}, undefined, headers))).toBe(true);
    expect(isFatal(new APIConnectionError({}))).toBe(true);
    expect(isFatal(APIError.generate(413, { error: "File too large" }, undefined, headers))).toBe(false);
  });

  it("describes errors with the server's {error, details} body and the socket error code", () => {
    expect(describeError(APIError.generate(400, { error: "Invalid request", details: "q: required" }, undefined, headers))).toBe(
      "400 Invalid request: q: required",
    );
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: socket });
    expect(describeError(new APIConnectionError({ cause: fetchFailed }))).toBe("server unreachable (ECONNREFUSED)");
  });
});
