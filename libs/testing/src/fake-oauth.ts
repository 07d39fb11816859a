import { createHash, randomBytes } from "node:crypto";
import type http from "node:http";

/**
 * The authorization-server half of a provider fake (Google, Microsoft,
 * Notion, GitHub): the consent step (GET authorize: client, redirect URI,
 * PKCE S256, state echoed; `denyNext` answers access_denied) and the token
 * endpoint (authorization_code with PKCE, refresh_token; the client
 * authenticated in the form body or with HTTP Basic), issuing access tokens
 * that expire and refresh tokens that rotate on every use, or never rotate
 * (`rotateRefreshTokens = false`, as Google does). The provider fake mounts
 * the two handlers on its own paths and checks API calls with `bearer`.
 * Controls: `revoke()`, `expireAccessTokens()`, `issueTokens()`; log:
 * `tokenRequests`, `refreshCount`.
 */

export interface FakeTokenRequest {
  grant_type: string;
  client_id?: string;
  client_auth: "basic" | "body" | "none";
  redirect_uri?: string;
  code_verifier: boolean;
}

/** A JSON answer: status, body, headers. */
export type FakeReplyTuple = [number, unknown, Record<string, string>?];

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Prefix of issued tokens (readable logs). */
  tokenPrefix?: string;
  /** Prefixes of access and refresh tokens when they differ by kind (GitHub's ghu_/gho_ and ghr_). */
  accessTokenPrefix?: (expiring: boolean) => string;
  refreshTokenPrefix?: string;
  /** Seconds an access token lasts (expires_in). */
  accessTokenTtlS?: number;
  /** Each refresh issues a new refresh token and retires the old one (Microsoft, Notion, GitHub Apps). */
  rotateRefreshTokens?: boolean;
  /** Authorization requests without a S256 code_challenge are refused. */
  requirePkce?: boolean;
  /** Scope echoed in token answers. */
  scope?: string;
  /** Fields added to every token answer (Notion's owner and workspace; GitHub's refresh token lifetime with expiring tokens). */
  extraTokenFields?: (expiring: boolean) => Record<string, unknown>;
}

const formDecode = (s: string) => new URLSearchParams(`v=${s}`).get("v") ?? "";

export async function readRequestBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export class FakeOAuthServer {
  clientId: string;
  clientSecret: string;
  rotateRefreshTokens: boolean;
  requirePkce: boolean;
  accessTokenTtlS: number;
  /** Tokens expire and come with a refresh token; false: one never-expiring access token (classic OAuth apps). */
  expiringTokens = true;
  /** The next consent is refused by the "user" (access_denied). */
  denyNext = false;
  /** Scope echoed in token answers. */
  scope = "";
  tokenRequests: FakeTokenRequest[] = [];
  /** Successful refresh_token grants. */
  refreshCount = 0;
  private readonly codes = new Map<string, { clientId: string; redirectUri: string; challenge: string | null }>();
  private readonly accessTokens = new Set<string>();
  /** refresh token → the access token issued with it */
  private readonly refreshTokens = new Map<string, string>();

  constructor(private readonly o: FakeOAuthOptions) {
    this.clientId = o.clientId;
    this.clientSecret = o.clientSecret;
    this.rotateRefreshTokens = o.rotateRefreshTokens ?? true;
    this.requirePkce = o.requirePkce ?? true;
    this.accessTokenTtlS = o.accessTokenTtlS ?? 3600;
    this.scope = o.scope ?? "";
  }

  /** Issues a token pair as a successful exchange would, without the browser flow; `refreshToken`: the one kept when refresh tokens do not rotate. */
  issueTokens(refreshToken?: string): Record<string, unknown> & { access_token: string } {
    const prefix = this.o.tokenPrefix ?? "fake";
    const access_token = `${this.o.accessTokenPrefix?.(this.expiringTokens) ?? `${prefix}_at`}_${randomBytes(18).toString("hex")}`;
    this.accessTokens.add(access_token);
    const common = { access_token, token_type: "bearer", ...(this.scope ? { scope: this.scope } : {}), ...this.o.extraTokenFields?.(this.expiringTokens) };
    if (!this.expiringTokens) return common;
    const refresh_token = refreshToken ?? `${this.o.refreshTokenPrefix ?? `${prefix}_rt`}_${randomBytes(24).toString("hex")}`;
    this.refreshTokens.set(refresh_token, access_token);
    return {
      ...common,
      expires_in: this.accessTokenTtlS,
      // A provider that does not rotate answers a refresh without a refresh token.
      ...(refreshToken === undefined ? { refresh_token } : {}),
    };
  }

  /** Every access and refresh token becomes invalid (the user revoked the app). */
  revoke(): void {
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  /** The current access tokens expire; their refresh tokens still work. */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** The access token of an `Authorization: Bearer` header (or `alsoScheme`: GitHub's `token`) when it is valid now. */
  bearer(req: http.IncomingMessage, alsoScheme?: string): string | undefined {
    const m = /^(\S+) +(\S+)$/.exec(req.headers.authorization ?? "");
    const scheme = m?.[1]?.toLowerCase();
    const token = scheme === "bearer" || (alsoScheme !== undefined && scheme === alsoScheme) ? m?.[2] : undefined;
    return token && this.accessTokens.has(token) ? token : undefined;
  }

  /** GET authorize: redirects to the redirect URI with a code (or an error) and the state. */
  authorize(q: URLSearchParams, res: http.ServerResponse): void {
    const refuse = (why: string) => {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(why);
    };
    const clientId = q.get("client_id");
    const redirectUri = q.get("redirect_uri");
    const challenge = q.get("code_challenge");
    if (clientId !== this.clientId) return refuse("unknown client_id");
    if (!redirectUri || !URL.canParse(redirectUri)) return refuse("redirect_uri is missing or invalid");
    if (challenge ? q.get("code_challenge_method") !== "S256" : this.requirePkce) return refuse("a S256 code_challenge is required");
    const back = new URL(redirectUri);
    if (this.denyNext) {
      this.denyNext = false;
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user has denied your application access.");
    } else {
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, { clientId, redirectUri, challenge });
      back.searchParams.set("code", code);
    }
    const state = q.get("state");
    if (state !== null) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.href });
    res.end();
  }

  /** POST token: the authorization_code and refresh_token grants (form body; JSON bodies too, as Notion accepts). */
  token(req: http.IncomingMessage, body: Buffer): FakeReplyTuple {
    const form = /json/i.test(req.headers["content-type"] ?? "")
      ? new URLSearchParams(Object.entries(JSON.parse(body.toString("utf8") || "{}") as Record<string, string>))
      : new URLSearchParams(body.toString("utf8"));
    const basic = /^basic +(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    let clientId = form.get("client_id");
    let secret = form.get("client_secret");
    if (basic) {
      const [id = "", ...rest] = Buffer.from(basic, "base64").toString("utf8").split(":");
      [clientId, secret] = [formDecode(id), formDecode(rest.join(":"))];
    }
    const grant = form.get("grant_type") ?? "";
    this.tokenRequests.push({
      grant_type: grant,
      client_id: clientId ?? undefined,
      client_auth: basic ? "basic" : secret ? "body" : "none",
      redirect_uri: form.get("redirect_uri") ?? undefined,
      code_verifier: form.has("code_verifier"),
    });
    if (clientId !== this.clientId || secret !== this.clientSecret)
      return [401, { error: "invalid_client", error_description: "Client authentication failed." }];
    const invalid: FakeReplyTuple = [400, { error: "invalid_grant", error_description: "The code or refresh token is incorrect or expired." }];
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const issued = this.codes.get(code);
      this.codes.delete(code);
      const verifier = form.get("code_verifier");
      const pkce = !issued?.challenge || (verifier !== null && createHash("sha256").update(verifier).digest("base64url") === issued.challenge);
      if (!issued || issued.clientId !== clientId || issued.redirectUri !== form.get("redirect_uri") || !pkce) return invalid;
      return [200, this.issueTokens()];
    }
    if (grant === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      const access = this.refreshTokens.get(refresh);
      if (access === undefined) return invalid;
      this.accessTokens.delete(access);
      this.refreshCount++;
      if (!this.rotateRefreshTokens) return [200, this.issueTokens(refresh)];
      this.refreshTokens.delete(refresh);
      return [200, this.issueTokens()];
    }
    return [400, { error: "unsupported_grant_type" }];
  }
}
