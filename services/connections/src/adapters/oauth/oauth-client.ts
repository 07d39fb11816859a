import * as oauth from "oauth4webapi";
import type { OAuthApp, OAuthProviderSpec, TokenSet } from "../../domain/oauth";

export type { OAuthApp, TokenSet };
import { ConnectorError } from "../../domain/errors";
import type { TokenEndpoint } from "../../app/oauth-flow";

export interface OAuthClientOptions {
  /** Per request. */
  timeoutMs?: number;
  /** Plain-http token endpoints (local fakes in tests); never in production. */
  allowHttp?: boolean;
  now?: () => number;
}

const AUTH_LOST = new Set(["invalid_grant", "invalid_client", "unauthorized_client", "access_denied"]);

/**
 * The token side of OAuth 2.0 on oauth4webapi: PKCE pairs, the authorization
 * code exchange and refresh, with the providers' failures mapped to sync
 * error codes (a refused grant is auth_expired; 429 is rate_limited; 5xx and
 * network failures are provider_unavailable).
 */
export class OAuthClient implements TokenEndpoint {
  private readonly timeoutMs: number;
  private readonly now: () => number;
  constructor(private readonly o: OAuthClientOptions = {}) {
    this.timeoutMs = o.timeoutMs ?? 15_000;
    this.now = o.now ?? Date.now;
  }

  async pkce(): Promise<{ verifier: string; challenge: string }> {
    const verifier = oauth.generateRandomCodeVerifier();
    return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
  }

  async exchangeCode(spec: OAuthProviderSpec, app: OAuthApp, p: { code: string; redirectUri: string; verifier: string }): Promise<TokenSet> {
    const { as, client, auth } = this.parties(spec, app);
    const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: p.code }), oauth.skipStateCheck);
    return this.tokens(async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, auth, params, p.redirectUri, p.verifier, this.requestOptions()),
      ),
    );
  }

  async refresh(spec: OAuthProviderSpec, app: OAuthApp, refreshToken: string): Promise<TokenSet> {
    const { as, client, auth } = this.parties(spec, app);
    const set = await this.tokens(async () =>
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, this.requestOptions())),
    );
    // Providers that do not rotate answer without a refresh token: the old one stays valid.
    return { ...set, refreshToken: set.refreshToken ?? refreshToken };
  }

  private parties(spec: OAuthProviderSpec, app: OAuthApp) {
    const as: oauth.AuthorizationServer = { issuer: new URL(spec.tokenUrl).origin, authorization_endpoint: spec.authorizeUrl, token_endpoint: spec.tokenUrl };
    const client: oauth.Client = { client_id: app.clientId };
    const auth = spec.clientAuth === "basic" ? oauth.ClientSecretBasic(app.clientSecret) : oauth.ClientSecretPost(app.clientSecret);
    return { as, client, auth };
  }

  private requestOptions(): oauth.TokenEndpointRequestOptions {
    return { signal: AbortSignal.timeout(this.timeoutMs), ...(this.o.allowHttp ? { [oauth.allowInsecureRequests]: true } : {}) };
  }

  private async tokens(call: () => Promise<oauth.TokenEndpointResponse>): Promise<TokenSet> {
    let r: oauth.TokenEndpointResponse;
    try {
      r = await call();
    } catch (err) {
      throw this.mapped(err);
    }
    const { access_token, refresh_token, expires_in, scope, token_type: _type, ...extra } = r;
    return {
      accessToken: access_token,
      ...(refresh_token ? { refreshToken: refresh_token } : {}),
      ...(typeof expires_in === "number" ? { expiresAt: new Date(this.now() + expires_in * 1000).toISOString() } : {}),
      ...(scope ? { scope } : {}),
      extra,
    };
  }

  private mapped(err: unknown): ConnectorError {
    if (err instanceof oauth.ResponseBodyError) {
      if (AUTH_LOST.has(err.error))
        return new ConnectorError("auth_expired", `the provider refused the grant (${err.error})`, { details: err.error_description, cause: err });
      if (err.status === 429) return new ConnectorError("rate_limited", "the provider's token endpoint is rate limiting", { cause: err });
      if (err.status >= 500) return new ConnectorError("provider_unavailable", `the provider's token endpoint answered ${err.status}`, { cause: err });
      return new ConnectorError("internal", `the provider's token endpoint answered ${err.status} ${err.error}`, { cause: err });
    }
    const status = (err as { cause?: { status?: number } })?.cause?.status;
    if (status === 429) return new ConnectorError("rate_limited", "the provider's token endpoint is rate limiting", { cause: err });
    if (status === undefined || status >= 500)
      return new ConnectorError("provider_unavailable", `the provider's token endpoint could not be reached${status ? ` (HTTP ${status})` : ""}`, {
        cause: err,
      });
    return new ConnectorError("internal", `the provider's token endpoint gave an answer Engram cannot use (HTTP ${status})`, { cause: err });
  }
}
