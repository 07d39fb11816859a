import { FailedPreconditionError, InvalidArgumentError } from "@engram/kernel";

/**
 * OAuth 2.0 authorization for the connectors that need it: what each
 * provider's consent and token endpoints expect, the consent URL, and the
 * `state` that binds a callback to the connection it was issued for. Pure:
 * the token requests themselves are the OAuth client adapter's
 * (adapters/oauth, on oauth4webapi).
 *
 * The state is written here rather than taken from a library because it is
 * Engram's own token, not part of the protocol: its content (connection,
 * tenant, a nonce, an expiry) sealed with AES-256-GCM under a key derived
 * from the secret keyring (per key id, so it survives a rotation) and
 * written base64url. It is opaque: nothing in it names the tenant or the
 * connection in clear (the provider and the browser history see it). A
 * callback can be placed without a database read, forged or altered states
 * are refused before anything is looked up, and the nonce makes it
 * single-use (the store keeps it with the pending authorization and clears it
 * when the callback consumes it).
 */

/** Connectors that authorize through OAuth (the others take credentials at creation or none). */
export const OAUTH_CONNECTORS = ["google-drive", "gmail", "notion", "onedrive", "github"] as const;
export type OAuthConnector = (typeof OAUTH_CONNECTORS)[number];

export function isOAuthConnector(p: string): p is OAuthConnector {
  return (OAUTH_CONNECTORS as readonly string[]).includes(p);
}

export interface OAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
}

export interface OAuthProviderSpec extends OAuthEndpoints {
  scopes: string[];
  /** How scopes are joined in the consent URL. */
  scopeSeparator: " " | ",";
  /** Consent URL parameters beyond the standard ones (offline access, forced consent, ...). */
  extraParams: Record<string, string>;
  /** How the client authenticates at the token endpoint. */
  clientAuth: "basic" | "post";
}

const GOOGLE: OAuthEndpoints = { authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth", tokenUrl: "https://oauth2.googleapis.com/token" };
const MICROSOFT: OAuthEndpoints = {
  authorizeUrl: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  tokenUrl: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
};
/** Google issues a refresh token only with offline access, and again on every consent only when consent is forced. */
const GOOGLE_OFFLINE = { access_type: "offline", prompt: "consent", include_granted_scopes: "true" };

/**
 * Each provider's public endpoints and the least access its connector needs. No OpenID scopes: the
 * account's identity comes from the provider's own API (Drive about.get, Gmail users.getProfile,
 * Graph /me, GitHub /user, Notion's token answer), so no ID token has to be validated.
 */
export const OAUTH_PROVIDER_SPECS: Record<OAuthConnector, OAuthProviderSpec> = {
  "google-drive": {
    ...GOOGLE,
    scopes: ["https://www.googleapis.com/auth/drive.readonly"],
    scopeSeparator: " ",
    extraParams: GOOGLE_OFFLINE,
    clientAuth: "post",
  },
  gmail: { ...GOOGLE, scopes: ["https://www.googleapis.com/auth/gmail.readonly"], scopeSeparator: " ", extraParams: GOOGLE_OFFLINE, clientAuth: "post" },
  onedrive: {
    ...MICROSOFT,
    scopes: ["offline_access", "User.Read", "Files.Read.All", "Sites.Read.All"],
    scopeSeparator: " ",
    extraParams: {},
    clientAuth: "post",
  },
  // Notion has no scopes (the user picks the pages) and wants the client in a Basic header.
  notion: {
    authorizeUrl: "https://api.notion.com/v1/oauth/authorize",
    tokenUrl: "https://api.notion.com/v1/oauth/token",
    scopes: [],
    scopeSeparator: " ",
    extraParams: { owner: "user" },
    clientAuth: "basic",
  },
  github: {
    authorizeUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    scopes: ["repo", "read:user", "user:email"],
    scopeSeparator: " ",
    extraParams: {},
    clientAuth: "post",
  },
};

/** The provider's spec with its endpoints replaced (local fakes in tests, a configured base URL). */
export function withEndpoints(spec: OAuthProviderSpec, endpoints: Partial<OAuthEndpoints>): OAuthProviderSpec {
  return { ...spec, ...Object.fromEntries(Object.entries(endpoints).filter(([, v]) => v)) };
}

/** The consent address the user is sent to (authorization code flow with PKCE S256). */
export function authorizationUrl(spec: OAuthProviderSpec, p: { clientId: string; redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL(spec.authorizeUrl);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: "S256",
    ...(spec.scopes.length ? { scope: spec.scopes.join(spec.scopeSeparator) } : {}),
    ...spec.extraParams,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export interface OAuthState {
  connectionId: string;
  tenantId: string;
  /** Random; the pending authorization stores it, and the callback that uses it clears it. */
  nonce: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

/** How long a consent link stays usable. */
export const AUTH_LINK_TTL_MS = 60 * 60 * 1000;
export const AUTH_LINK_EXPIRES_IN = "1 hour";

/** Seals and opens the state (the keyring of state keys; adapters/crypto). Throws when a value does not open. */
export interface StateSealer {
  seal(plaintext: string, context: string): Uint8Array;
  openString(sealed: Uint8Array, context: string): string;
}

const STATE_CONTEXT = "engram-oauth-state";
const STATE_MAX_CHARS = 2048;
const notIssued = () => new InvalidArgumentError("the authorization state is not one Engram issued", "start again from the connection's authLink");

/** The state as sent to the provider: sealed, base64url, naming nothing in clear. */
export function sealState(s: OAuthState, sealer: StateSealer): string {
  const payload = JSON.stringify({ c: s.connectionId, t: s.tenantId, n: s.nonce, e: s.exp });
  return Buffer.from(sealer.seal(payload, STATE_CONTEXT)).toString("base64url");
}

/** The state's content when it is ours, unaltered and not expired; otherwise a 400 (INVALID_ARGUMENT, or FAILED_PRECONDITION when expired) naming why. */
export function openState(token: string, sealer: StateSealer, nowMs: number): OAuthState {
  if (!token || token.length > STATE_MAX_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) throw notIssued();
  let o: { c?: unknown; t?: unknown; n?: unknown; e?: unknown };
  try {
    o = JSON.parse(sealer.openString(Buffer.from(token, "base64url"), STATE_CONTEXT)) as typeof o;
  } catch {
    throw notIssued();
  }
  if (typeof o.c !== "string" || typeof o.t !== "string" || typeof o.n !== "string" || typeof o.e !== "number") throw notIssued();
  if (o.e <= nowMs) throw new FailedPreconditionError("the authorization link has expired", "create the connection again for a new authLink");
  return { connectionId: o.c, tenantId: o.t, nonce: o.n, exp: o.e };
}

/** What a token endpoint gave: the tokens and whatever else the provider put in the answer (Notion: owner, workspace). */
export interface TokenSet {
  accessToken: string;
  /** Absent when the provider issued none; a refresh that returns none keeps the old one. */
  refreshToken?: string;
  /** ISO time the access token stops working; absent = the provider did not say. */
  expiresAt?: string;
  scope?: string;
  extra: Record<string, unknown>;
}

/** An OAuth application's client credentials. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
}
