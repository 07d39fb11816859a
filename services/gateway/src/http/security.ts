import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";

export interface SecurityHeadersOptions {
  /**
   * Send Strict-Transport-Security. Only true when the gateway is known to be
   * reached over TLS (ENGRAM_PUBLIC_URL is https): the gateway itself speaks
   * plain HTTP, and a browser applies HSTS to every port of the host, so
   * sending it from a plain-HTTP deployment could lock other services on that
   * host out of browsers.
   */
  hsts: boolean;
}

/**
 * The security headers of every response (helmet, set for a JSON API):
 *
 * - `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`: a
 *   JSON answer opened in a browser loads nothing, runs nothing and cannot be
 *   framed. (Stored files get a stricter policy of their own, with `sandbox`.)
 * - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
 *   `Referrer-Policy: no-referrer` (file links carry their token in the URL),
 *   `Cross-Origin-Opener-Policy` and `Cross-Origin-Resource-Policy:
 *   same-origin`, `Origin-Agent-Cluster`, `X-DNS-Prefetch-Control: off`,
 *   `X-Download-Options: noopen`, `X-Permitted-Cross-Domain-Policies: none`,
 *   `X-XSS-Protection: 0` (the legacy filter is a hazard of its own).
 * - `Strict-Transport-Security: max-age=31536000` (one year, this host only,
 *   no preload) when `hsts` is set.
 * - `Cache-Control: no-store` unless a route sets its own: answers carry
 *   tenant data, which no shared or browser cache should keep.
 *
 * Headers are set before the route runs, so errors and 404s carry them too.
 */
export function securityHeaders(o: SecurityHeadersOptions): RequestHandler {
  const h = configured(o);
  return (req, res, next) => {
    res.setHeader("cache-control", "no-store");
    h(req, res, next);
  };
}

/**
 * The same headers as name/value pairs, for answers written without express
 * (requests node's HTTP parser refuses: see answerClientErrors).
 */
export function securityHeaderValues(o: SecurityHeadersOptions): [string, string][] {
  const out = new Map<string, string>([["cache-control", "no-store"]]);
  const res = {
    setHeader: (name: string, value: string | number | string[]) => out.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => out.delete(name.toLowerCase()),
  };
  // helmet only sets headers on the response: a stand-in request and a header-collecting response suffice.
  configured(o)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...out];
}

function configured(o: SecurityHeadersOptions) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    originAgentCluster: true,
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: o.hsts ? { maxAge: 31_536_000, includeSubDomains: false, preload: false } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xFrameOptions: { action: "deny" },
    xPermittedCrossDomainPolicies: { permittedPolicies: "none" },
    xPoweredBy: true,
    xXssProtection: true,
  });
}
