import { randomBytes } from "node:crypto";
import { type Clock, ConflictError, FailedPreconditionError, InvalidArgumentError, NotFoundError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { applyConnectionEvent, type Connection, patchConnection } from "../domain/connection";
import { decodeCredentials, encodeCredentials, needsRefresh, type OAuthAppRef, type OAuthCredentials, type OAuthTokens } from "../domain/credentials";
import { ConnectorError } from "../domain/errors";
import { checkRedirectUrl, isAllowedRedirect } from "../domain/redirect";
import {
  AUTH_LINK_EXPIRES_IN,
  AUTH_LINK_TTL_MS,
  authorizationUrl,
  type OAuthApp,
  type OAuthConnector,
  type OAuthProviderSpec,
  openState,
  sealState,
  type StateSealer,
  type TokenSet,
} from "../domain/oauth";
import { type ConnectionRepository, connectionCredentialsContext, patchStored } from "./connection-ports";
import type { SecretSealer } from "./ports";
import type { AccountIdentity } from "./sync-ports";

/** The token side of OAuth (adapters/oauth: oauth4webapi). */
export interface TokenEndpoint {
  pkce(): Promise<{ verifier: string; challenge: string }>;
  exchangeCode(spec: OAuthProviderSpec, app: OAuthApp, p: { code: string; redirectUri: string; verifier: string }): Promise<TokenSet>;
  refresh(spec: OAuthProviderSpec, app: OAuthApp, refreshToken: string): Promise<TokenSet>;
}

/** Where OAuth applications come from: the tenant's custom one (settings) or Engram's own (configuration). */
export interface OAuthAppSource {
  /** The application new connections use: the tenant's when enabled, else Engram's; undefined when neither exists. */
  forNewConnection(tenantId: string, provider: OAuthConnector): Promise<(OAuthApp & { ref: OAuthAppRef }) | undefined>;
  /** The application a connection was authorized with; undefined when it is gone or its client id changed. */
  byRef(tenantId: string, provider: OAuthConnector, ref: OAuthAppRef): Promise<OAuthApp | undefined>;
}

/** The origins a tenant's connections may redirect to (organisation settings) and the deployment's own address. */
export type RedirectPolicy = (tenantId: string) => Promise<{ origins: readonly string[]; publicUrl?: string }>;

/** Reads the account's identity with a fresh access token (the email shown on the connection, the provider-side account). */
export type IdentifyAccount = (provider: OAuthConnector, tokens: TokenSet) => Promise<AccountIdentity>;

/** The outcome of a callback: where the browser goes and what happened. */
export interface CallbackOutcome {
  connectionId: string;
  /** The caller's redirect URL with `connectionId` and `success` (and `error`) added; absent when none was given. */
  redirectUrl?: string;
  success: boolean;
  error?: string;
  /** The authorized connection (success only). */
  connection?: Connection;
}

const CONFLICT_RETRIES = 5;

/**
 * OAuth 2.0 for the connectors that need it: the consent link of a new
 * connection (signed single-use state, PKCE S256, the tenant's custom
 * application when enabled), the callback that exchanges the code and
 * stores the tokens sealed, and the access token every provider call uses,
 * refreshed before it expires and after a 401, with a rotated refresh token
 * persisted every time. A refused refresh moves the connection to
 * `auth_expired`.
 */
export class OAuthFlow {
  constructor(
    private readonly deps: {
      repo: ConnectionRepository;
      sealer: SecretSealer;
      /** Seals the state (a keyring of keys derived from the secret keys, per key id). */
      stateKeys: StateSealer;
      specs: Record<OAuthConnector, OAuthProviderSpec>;
      apps: OAuthAppSource;
      tokens: TokenEndpoint;
      identify: IdentifyAccount;
      /** Which redirect URLs a tenant allows (checked at creation and again at the callback). */
      redirectPolicy: RedirectPolicy;
      /** Where providers reach the gateway (ENGRAM_PUBLIC_URL); OAuth connections need it. */
      publicUrl?: string;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** The callback address to register with the provider: {publicUrl}/v3/connections/auth/callback/{provider}. */
  redirectUri(provider: OAuthConnector): string {
    return `${this.publicBase()}/v3/connections/auth/callback/${provider}`;
  }

  /** Where Engram can be reached from outside; FailedPreconditionError naming the setting when unset. */
  publicBase(): string {
    if (!this.deps.publicUrl)
      throw new FailedPreconditionError(
        "OAuth connections need Engram's public address",
        "set ENGRAM_PUBLIC_URL to the URL providers and browsers reach the gateway at",
      );
    return this.deps.publicUrl.replace(/\/+$/, "");
  }

  /**
   * The redirect URL when the tenant allows it: https (http on loopback
   * only), to an origin of the organisation's allowedRedirectOrigins or
   * ENGRAM_PUBLIC_URL's; InvalidArgumentError (400) naming the setting
   * otherwise.
   */
  async checkRedirect(tenantId: string, redirectUrl: string): Promise<string> {
    return checkRedirectUrl(redirectUrl, await this.deps.redirectPolicy(tenantId));
  }

  /**
   * The consent link of a new connection and its pending credentials
   * (sealed, to store with it). FailedPreconditionError when no OAuth
   * application exists for the provider.
   */
  async begin(
    conn: Pick<Connection, "id" | "tenantId">,
    provider: OAuthConnector,
    redirectUrl: string | undefined,
  ): Promise<{ authLink: string; expiresIn: string; sealedCredentials: Uint8Array }> {
    // What the deployment lacks comes first (public address, OAuth application), then what the caller sent.
    const redirectUri = this.redirectUri(provider);
    const app = await this.deps.apps.forNewConnection(conn.tenantId, provider);
    if (!app)
      throw new FailedPreconditionError(
        `no OAuth application is configured for ${provider}`,
        `register one and set it with PATCH /v3/settings (${provider} client id and secret, customKeyEnabled), or configure Engram's own (see docs/connectors.md)`,
      );
    if (redirectUrl !== undefined) redirectUrl = await this.checkRedirect(conn.tenantId, redirectUrl);
    const { verifier, challenge } = await this.deps.tokens.pkce();
    const nonce = randomBytes(18).toString("base64url");
    const state = sealState(
      { connectionId: conn.id, tenantId: conn.tenantId, nonce, exp: this.deps.clock.now().getTime() + AUTH_LINK_TTL_MS },
      this.deps.stateKeys,
    );
    const pending: OAuthCredentials = { kind: "pending", nonce, verifier, ...(redirectUrl ? { redirectUrl } : {}), app: app.ref };
    return {
      authLink: authorizationUrl(this.deps.specs[provider], { clientId: app.clientId, redirectUri, state, codeChallenge: challenge }),
      expiresIn: AUTH_LINK_EXPIRES_IN,
      sealedCredentials: this.seal(conn, pending),
    };
  }

  /**
   * Completes a consent: the state must be one Engram issued, unexpired and
   * unused (else 400/412 with no redirect: the connection is unknown or the
   * link spent). A provider error or a failed exchange is reported to the
   * caller's redirect URL; success stores the tokens sealed, the account's
   * email, and makes the connection active.
   */
  async complete(provider: OAuthConnector, p: { code: string; state: string; error?: string; errorDescription?: string }): Promise<CallbackOutcome> {
    const { repo, clock } = this.deps;
    if (!p.state) throw new InvalidArgumentError("the callback has no state", "start again from the connection's authLink");
    const st = openState(p.state, this.deps.stateKeys, clock.now().getTime());
    const conn = await repo.get(st.tenantId, st.connectionId);
    if (!conn || conn.provider !== provider) throw new NotFoundError(`connection ${st.connectionId} not found`);
    const pending = conn.sealedCredentials ? this.open(conn) : undefined;
    if (pending?.kind !== "pending" || pending.nonce !== st.nonce)
      throw new InvalidArgumentError("this authorization link was already used", "create the connection again for a new authLink");
    // The nonce is spent whatever happens next: the pending credentials go now.
    const spent = await repo.update(patchConnection(conn, { sealedCredentials: null }, clock.now().toISOString()));
    // Followed only while the tenant still allows it (the setting may have changed since the link was made).
    let redirectTo = pending.redirectUrl;
    if (redirectTo && !isAllowedRedirect(redirectTo, await this.deps.redirectPolicy(conn.tenantId))) {
      this.deps.logger.warn({ connectionId: conn.id, provider }, "the connection's redirectUrl is no longer allowed (allowedRedirectOrigins): not followed");
      redirectTo = undefined;
    }
    const fail = (error: string): CallbackOutcome => ({
      connectionId: conn.id,
      success: false,
      error,
      ...(redirectTo ? { redirectUrl: withParams(redirectTo, { connectionId: conn.id, success: "false", error }) } : {}),
    });
    if (p.error) return fail(p.error.slice(0, 200));
    if (!p.code) return fail("missing_code");
    const app = await this.deps.apps.byRef(conn.tenantId, provider, pending.app);
    if (!app) return fail("oauth_app_changed");
    let tokens: TokenSet;
    let who: AccountIdentity;
    try {
      tokens = await this.deps.tokens.exchangeCode(this.deps.specs[provider], app, {
        code: p.code,
        redirectUri: this.redirectUri(provider),
        verifier: pending.verifier,
      });
      who = await this.deps.identify(provider, tokens);
    } catch (err) {
      this.deps.logger.warn({ err, connectionId: conn.id, provider }, "the OAuth code exchange failed");
      return fail(err instanceof ConnectorError && err.code === "auth_expired" ? "invalid_grant" : "exchange_failed");
    }
    const stored: OAuthTokens = {
      kind: "oauth",
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.expiresAt ? { expiresAt: tokens.expiresAt } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      app: pending.app,
    };
    const now = clock.now().toISOString();
    const authorized = await repo.update(
      applyConnectionEvent(
        patchConnection(
          spent,
          {
            sealedCredentials: this.seal(conn, stored),
            ...(who.email ? { email: who.email.slice(0, 320) } : {}),
            ...(who.account ? { account: who.account.slice(0, 320) } : {}),
            ...(who.config ? { config: { ...spent.config, ...who.config } } : {}),
          },
          now,
        ),
        "authorized",
        now,
      ),
    );
    return {
      connectionId: conn.id,
      success: true,
      connection: authorized,
      ...(redirectTo ? { redirectUrl: withParams(redirectTo, { connectionId: conn.id, success: "true" }) } : {}),
    };
  }

  /** Whether the connection holds tokens (authorized); resources and configure need them. */
  hasTokens(conn: Connection): boolean {
    return conn.sealedCredentials !== undefined && this.open(conn).kind === "oauth";
  }

  /**
   * A working access token of the connection: the stored one, refreshed
   * first when it is about to expire, or when `failed` (the token a provider
   * just answered 401 to) is still the stored one. Rotated refresh tokens
   * are stored before the new access token is used. A refused refresh (or a
   * 401 with nothing to refresh) moves the connection to auth_expired and
   * throws ConnectorError auth_expired.
   */
  async accessToken(tenantId: string, connectionId: string, failed?: string): Promise<string> {
    const { repo, clock } = this.deps;
    for (let attempt = 0; ; attempt++) {
      const conn = await repo.get(tenantId, connectionId);
      if (!conn) throw new NotFoundError(`connection ${connectionId} not found`);
      const creds = conn.sealedCredentials ? this.open(conn) : undefined;
      if (creds?.kind !== "oauth") throw new ConnectorError("auth_expired", "the connection is not authorized");
      const stale = failed !== undefined && failed === creds.accessToken;
      if (!stale && !needsRefresh(creds, clock.now().getTime())) {
        await this.resealIfStale(conn, creds);
        return creds.accessToken;
      }
      if (!creds.refreshToken) {
        if (!stale) return creds.accessToken; // nothing to refresh with: let the provider say whether it still works
        await this.loseAuthorization(conn);
        throw new ConnectorError("auth_expired", `${conn.provider} refused the connection's token`);
      }
      const provider = conn.provider as OAuthConnector;
      const app = await this.deps.apps.byRef(tenantId, provider, creds.app);
      if (!app) {
        await this.loseAuthorization(conn);
        throw new ConnectorError("auth_expired", "the OAuth application that authorized the connection is no longer configured");
      }
      let next: TokenSet;
      try {
        next = await this.deps.tokens.refresh(this.deps.specs[provider], app, creds.refreshToken);
      } catch (err) {
        if (!(err instanceof ConnectorError && err.code === "auth_expired")) throw err;
        // Another worker may have rotated the refresh token first: use its tokens when they changed.
        const now = await repo.get(tenantId, connectionId);
        const latest = now?.sealedCredentials ? this.open(now) : undefined;
        if (latest?.kind === "oauth" && latest.refreshToken !== creds.refreshToken && attempt < CONFLICT_RETRIES) continue;
        if (now) await this.loseAuthorization(now);
        throw err;
      }
      const rotated: OAuthTokens = {
        ...creds,
        accessToken: next.accessToken,
        refreshToken: next.refreshToken ?? creds.refreshToken,
        ...(next.expiresAt ? { expiresAt: next.expiresAt } : {}),
      };
      if (!next.expiresAt) delete rotated.expiresAt;
      // Stored before use: a changed connection (another writer) gets the credentials over its latest state.
      await patchStored(repo, conn, { sealedCredentials: this.seal(conn, rotated) }, () => clock.now().toISOString());
      this.deps.logger.info({ connectionId, provider, rotated: next.refreshToken !== undefined }, "refreshed the connection's access token");
      return rotated.accessToken;
    }
  }

  /**
   * Lazy re-sealing after a key rotation: tokens sealed with an older key
   * of the ring are stored again sealed with the newest when next used. Only
   * over the version just read: a connection changed meanwhile was sealed
   * anew by its writer, and is left alone.
   */
  private async resealIfStale(conn: Connection, creds: OAuthCredentials): Promise<void> {
    if (!conn.sealedCredentials || !this.deps.sealer.isStale?.(conn.sealedCredentials)) return;
    try {
      await this.deps.repo.update(patchConnection(conn, { sealedCredentials: this.seal(conn, creds) }, this.deps.clock.now().toISOString()));
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }

  private async loseAuthorization(conn: Connection): Promise<void> {
    if (conn.status !== "active" && conn.status !== "auth_expired") return;
    try {
      await this.deps.repo.update(applyConnectionEvent(conn, "authorization_lost", this.deps.clock.now().toISOString()));
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // changed meanwhile: the next call sees the new state
    }
  }

  private seal(conn: Pick<Connection, "id" | "tenantId">, c: OAuthCredentials): Uint8Array {
    return this.deps.sealer.seal(encodeCredentials(c), connectionCredentialsContext(conn.tenantId, conn.id));
  }

  private open(conn: Connection): OAuthCredentials {
    return decodeCredentials(this.deps.sealer.openString(conn.sealedCredentials!, connectionCredentialsContext(conn.tenantId, conn.id)));
  }
}

/** The URL with query parameters added (existing ones kept). */
function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
