import { InvalidArgumentError } from "@engram/kernel";

/**
 * Where a connection's OAuth callback may send the browser (`redirectUrl`).
 * Pure. A redirect URL must be `https:` (or `http:` on a loopback host, for
 * local development): `javascript:`, `data:`, `vbscript:`, `file:` and every
 * other scheme are refused, as is a URL with credentials in it. Its origin
 * must be one the tenant allowed (organisation setting
 * `allowedRedirectOrigins`) or the deployment's own (ENGRAM_PUBLIC_URL), so
 * that Engram is never an open redirector.
 */

/** The setting that lists the origins a tenant's connections may redirect to. */
export const REDIRECT_ORIGINS_SETTING = "allowedRedirectOrigins";
/** At most this many allowed origins per organisation. */
export const MAX_REDIRECT_ORIGINS = 50;

const LOOPBACK_NAMES = new Set(["localhost", "[::1]"]);

/** Whether a URL host (as WHATWG URL writes it) is a loopback address or name. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith(".localhost") || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why the URL is no acceptable redirect target by its form alone, or undefined when it is one. */
export function redirectUrlProblem(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (u.protocol === "http:") {
    if (!isLoopbackHost(u.hostname)) return "must use https (http only for localhost / loopback addresses)";
  } else if (u.protocol !== "https:") return `must be an https URL (${u.protocol} is not allowed)`;
  if (u.username || u.password) return "must not contain credentials";
  return undefined;
}

/** A redirect origin as stored: scheme, host and port (`https://app.example.com`), or why the value is not one. */
export function parseRedirectOrigin(raw: string): { origin: string } | { problem: string } {
  const problem = redirectUrlProblem(raw);
  if (problem) return { problem };
  const u = new URL(raw);
  if ((u.pathname !== "/" && u.pathname !== "") || u.search || u.hash)
    return { problem: "must be an origin (scheme, host and port) without a path, query or fragment" };
  return { origin: u.origin };
}

/**
 * The redirect URL when acceptable for a tenant whose allowed origins are
 * `allowed` (ENGRAM_PUBLIC_URL's origin is always allowed); otherwise an
 * InvalidArgumentError (400) naming the problem and the setting.
 */
export function checkRedirectUrl(raw: string, allowed: { origins: readonly string[]; publicUrl?: string }): string {
  const problem = redirectUrlProblem(raw);
  if (problem) throw new InvalidArgumentError(`redirectUrl ${problem}`);
  if (!isAllowedRedirect(raw, allowed)) {
    throw new InvalidArgumentError(
      `redirectUrl: the origin ${new URL(raw).origin} is not in the organisation's ${REDIRECT_ORIGINS_SETTING}`,
      `add it to ${REDIRECT_ORIGINS_SETTING} with PATCH /v3/settings (the deployment's own ENGRAM_PUBLIC_URL origin is always allowed)`,
    );
  }
  return new URL(raw).toString();
}

/** Whether the URL is acceptable and its origin allowed (the callback checks again before it follows one). */
export function isAllowedRedirect(raw: string, allowed: { origins: readonly string[]; publicUrl?: string }): boolean {
  if (redirectUrlProblem(raw) !== undefined) return false;
  const origin = new URL(raw).origin;
  if (allowed.publicUrl && safeOrigin(allowed.publicUrl) === origin) return true;
  return allowed.origins.includes(origin);
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
