import { CommanderError } from "commander";
import { APIConnectionError, APIError, AuthenticationError, PermissionDeniedError } from "supermemory";

/**
 * Exit codes scripts can rely on (README, "Command-line client"):
 * 0 success, 1 partial failure (some items failed), 2 usage error,
 * 3 authentication refused (401/403), 4 server unreachable, 5 any other API error.
 */
export const ExitCode = {
  Ok: 0,
  Partial: 1,
  Usage: 2,
  Auth: 3,
  Unreachable: 4,
  Api: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A problem with the command line or the configuration: exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The exit code an error ends the command with. */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof UsageError) return ExitCode.Usage;
  if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  // APIConnectionError (and its timeout subclass) extends APIError: test it first.
  if (err instanceof APIConnectionError) return ExitCode.Unreachable;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) return ExitCode.Auth;
  if (err instanceof APIError) return ExitCode.Api;
  return ExitCode.Api;
}

/** Errors that make every further request pointless: the run stops at the first one. */
export function isFatal(err: unknown): boolean {
  const code = exitCodeFor(err);
  return code === ExitCode.Auth || code === ExitCode.Unreachable;
}

/** A one-line message for an error, with the server's `{error, details}` body when there is one. */
export function describeError(err: unknown): string {
  if (err instanceof APIConnectionError) {
    // fetch wraps the socket error: APIConnectionError → TypeError("fetch failed") → Error { code: "ECONNREFUSED" }
    let cause = (err as { cause?: unknown }).cause as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    while (cause && typeof cause === "object" && typeof cause.code !== "string" && cause.cause) cause = cause.cause as typeof cause;
    const why = cause && typeof cause.code === "string" ? cause.code : cause && typeof cause.message === "string" ? cause.message : err.message;
    return `server unreachable (${why})`;
  }
  if (err instanceof APIError) {
    const body = err.error as { error?: unknown; details?: unknown } | undefined;
    if (body && typeof body === "object" && typeof body.error === "string")
      return `${err.status ?? "?"} ${body.error}${typeof body.details === "string" && body.details ? `: ${body.details}` : ""}`;
    return err.status ? `${err.status} ${err.message}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Items of a batch: 0 when none failed, 1 when some did. */
export function batchExitCode(failed: number): ExitCode {
  return failed > 0 ? ExitCode.Partial : ExitCode.Ok;
}
