/*
 * What the provider fakes share (node built-ins only):
 * - FakeHttpServer: a loopback HTTP server whose subclass answers each request in `handle`; a failure
 *   of `handle` (thrown or rejected) answers 500 with the error as text. `start()` listens on a free
 *   port of 127.0.0.1 and answers the base URL (kept in `base`); `stop()` closes the open connections
 *   and the server.
 * - FakeOAuthProvider: a FakeHttpServer for a provider with an OAuth side (a FakeOAuthServer in
 *   `oauth`, configured by each fake), whose controls and logs it also exposes on the fake itself:
 *   `clientId`, `clientSecret`, `denyNext`, `expiringTokens`, `issueTokens()`, `revoke()`,
 *   `expireAccessTokens()`; logs `tokenRequests`, `refreshCount`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeOAuthServer, FakeTokenRequest } from "./fake-oauth";

export abstract class FakeHttpServer {
  readonly server = http.createServer((req, res) => {
    (async () => this.handle(req, res))().catch((e: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e));
    });
  });
  /** `http://127.0.0.1:<port>` once started. */
  protected base = "";

  /** Listens on a free port of 127.0.0.1; answers the base URL. */
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  /** Closes the open connections and the server. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Answers one request. */
  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void | Promise<void>;
}

export abstract class FakeOAuthProvider extends FakeHttpServer {
  /** The provider's authorization server: its options (lifetimes, rotation, token fields) are the provider's. */
  abstract readonly oauth: FakeOAuthServer;

  get clientId(): string {
    return this.oauth.clientId;
  }
  get clientSecret(): string {
    return this.oauth.clientSecret;
  }
  /** Successful refresh_token grants. */
  get refreshCount(): number {
    return this.oauth.refreshCount;
  }
  /** The token requests, as the fake saw them. */
  get tokenRequests(): FakeTokenRequest[] {
    return this.oauth.tokenRequests;
  }
  /** The next consent is refused by the user. */
  get denyNext(): boolean {
    return this.oauth.denyNext;
  }
  set denyNext(v: boolean) {
    this.oauth.denyNext = v;
  }
  /** false: one never-expiring access token without a refresh token (classic GitHub OAuth Apps, older Notion integrations). */
  get expiringTokens(): boolean {
    return this.oauth.expiringTokens;
  }
  set expiringTokens(v: boolean) {
    this.oauth.expiringTokens = v;
  }

  /** Issues a token (pair) as a successful exchange would, without the browser flow. */
  issueTokens() {
    return this.oauth.issueTokens();
  }

  /** Every access and refresh token becomes invalid (the user revoked the app's access). */
  revoke(): void {
    this.oauth.revoke();
  }

  /** The current access tokens expire; their refresh tokens still work (once each where they rotate). */
  expireAccessTokens(): void {
    this.oauth.expireAccessTokens();
  }
}
