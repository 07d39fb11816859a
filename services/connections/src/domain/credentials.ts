import { z } from "zod";
import { ConnectorError } from "./errors";

/**
 * What an OAuth connection's sealed credentials hold, as text before sealing
 * (the store only sees the sealed bytes). Two stages:
 *
 * - `pending`: created, waiting for consent. The state nonce the callback
 *   must present (single use), the PKCE verifier for the code exchange, the
 *   caller's redirect URL and which OAuth application the consent link named.
 * - `oauth`: authorized. The tokens, when the access token stops working,
 *   and the application that issued them (a refresh must use the same one).
 *
 * Direct connections (API keys) seal the key itself, not this shape. Pure.
 */

/** Which OAuth application a connection was authorized with: the tenant's own (PATCH /v3/settings) or Engram's (configuration). */
export interface OAuthAppRef {
  source: "custom" | "engram";
  clientId: string;
}

export interface PendingAuthorization {
  kind: "pending";
  nonce: string;
  verifier: string;
  redirectUrl?: string;
  app: OAuthAppRef;
}

export interface OAuthTokens {
  kind: "oauth";
  accessToken: string;
  /** Absent for providers that issue non-expiring tokens (GitHub OAuth Apps). */
  refreshToken?: string;
  /** ISO time the access token stops working; absent = not said. */
  expiresAt?: string;
  scope?: string;
  app: OAuthAppRef;
}

export type OAuthCredentials = PendingAuthorization | OAuthTokens;

const appRef = z.object({ source: z.enum(["custom", "engram"]), clientId: z.string().min(1) });
const schema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("pending"), nonce: z.string().min(1), verifier: z.string().min(1), redirectUrl: z.string().optional(), app: appRef }),
  z.object({
    kind: z.literal("oauth"),
    accessToken: z.string().min(1),
    refreshToken: z.string().min(1).optional(),
    expiresAt: z.string().optional(),
    scope: z.string().optional(),
    app: appRef,
  }),
]);

export const encodeCredentials = (c: OAuthCredentials): string => JSON.stringify(c);

/** The credentials from their opened text; ConnectorError (internal) when they are not an OAuth connection's. */
export function decodeCredentials(text: string): OAuthCredentials {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConnectorError("internal", "the connection's credentials are not OAuth credentials");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ConnectorError("internal", "the connection's credentials are not OAuth credentials");
  return parsed.data;
}

/** Refresh this long before the provider's stated expiry, so a token never lapses in the middle of a request. */
export const REFRESH_MARGIN_MS = 2 * 60_000;

/** Whether the access token is expired, or about to be, at `nowMs`. Tokens with no stated expiry never are. */
export function needsRefresh(t: Pick<OAuthTokens, "expiresAt">, nowMs: number): boolean {
  return t.expiresAt !== undefined && Date.parse(t.expiresAt) - REFRESH_MARGIN_MS <= nowMs;
}
