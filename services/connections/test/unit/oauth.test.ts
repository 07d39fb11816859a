import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FailedPreconditionError, InvalidArgumentError } from "@engram/kernel";
import { SecretKeyring } from "../../src/adapters/crypto/secret-box";
import { OAuthClient } from "../../src/adapters/oauth/oauth-client";
import { ConnectorError } from "../../src/domain/errors";
import {
  AUTH_LINK_TTL_MS,
  authorizationUrl,
  OAUTH_CONNECTORS,
  OAUTH_PROVIDER_SPECS,
  type OAuthState,
  sealState,
  openState,
  withEndpoints,
} from "../../src/domain/oauth";

const KEY = randomBytes(32);
const NOW = Date.parse("2026-03-01T10:00:00.000Z");
const state = (over: Partial<OAuthState> = {}): OAuthState => ({
  connectionId: "conn_1",
  tenantId: "acme",
  nonce: "n-1",
  exp: NOW + AUTH_LINK_TTL_MS,
  ...over,
});

describe("OAuth state", () => {
  const ring = new SecretKeyring([{ id: "k1", key: KEY }]);

  it("round-trips what it binds", () => {
    expect(openState(sealState(state(), ring), ring, NOW)).toEqual(state());
  });

  it("is opaque: neither the tenant nor the connection nor the nonce can be read from it", () => {
    const token = sealState(state({ tenantId: "acme-tenant-name", connectionId: "conn_visible" }), ring);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const text of [token, Buffer.from(token, "base64url").toString("latin1"), Buffer.from(token, "base64url").toString("utf8")]) {
      expect(text).not.toContain("acme-tenant-name");
      expect(text).not.toContain("conn_visible");
      expect(text).not.toContain("n-1");
    }
    // sealed afresh each time
    expect(sealState(state(), ring)).not.toBe(sealState(state(), ring));
  });

  it("refuses a state altered in any byte, sealed with another key, or malformed (400)", () => {
    const token = sealState(state(), ring);
    const bytes = Buffer.from(token, "base64url");
    for (let i = 0; i < bytes.length; i++) {
      const t = Buffer.from(bytes);
      t[i] = t[i]! ^ 0x01;
      expect(() => openState(t.toString("base64url"), ring, NOW)).toThrow(InvalidArgumentError);
    }
    const legacySigned = `${Buffer.from(JSON.stringify({ c: "conn_1", t: "acme", n: "n-1", e: NOW + 1000 })).toString("base64url")}.c2ln`;
    for (const bad of [
      sealState(state(), new SecretKeyring([{ id: "k1", key: randomBytes(32) }])),
      legacySigned,
      token.slice(0, -4),
      `${token}.x`,
      "",
      "a".repeat(5000),
    ])
      expect(() => openState(bad, ring, NOW)).toThrow(InvalidArgumentError);
  });

  it("refuses an expired state (FAILED_PRECONDITION, a 400)", () => {
    expect(() => openState(sealState(state({ exp: NOW }), ring), ring, NOW)).toThrow(FailedPreconditionError);
  });

  it("opens a state sealed before a key rotation while the old key is in the ring", () => {
    const before = sealState(state(), ring);
    const rotated = new SecretKeyring([
      { id: "k2", key: randomBytes(32) },
      { id: "k1", key: KEY },
    ]);
    expect(openState(before, rotated, NOW)).toEqual(state());
    expect(() => openState(before, new SecretKeyring([{ id: "k2", key: randomBytes(32) }]), NOW)).toThrow(InvalidArgumentError);
  });
});

describe("consent URL", () => {
  it.each(OAUTH_CONNECTORS)("%s: code flow with PKCE S256, the redirect and state, the connector's scopes", (p) => {
    const spec = OAUTH_PROVIDER_SPECS[p];
    const url = new URL(
      authorizationUrl(spec, { clientId: "cid", redirectUri: "https://engram.example/v3/connections/auth/callback/x", state: "st", codeChallenge: "ch" }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(spec.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "cid",
      redirect_uri: "https://engram.example/v3/connections/auth/callback/x",
      state: "st",
      code_challenge: "ch",
      code_challenge_method: "S256",
      ...spec.extraParams,
    });
    expect(url.searchParams.get("scope") ?? "").toBe(spec.scopes.join(spec.scopeSeparator));
  });

  it("asks Google for offline access with forced consent (a refresh token every time)", () => {
    const url = new URL(authorizationUrl(OAUTH_PROVIDER_SPECS.gmail, { clientId: "c", redirectUri: "https://x/cb", state: "s", codeChallenge: "h" }));
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
  });
});

/** A token endpoint that checks PKCE and the client's credentials, rotates refresh tokens, and fails on demand. */
class FakeTokenEndpoint {
  readonly server = http.createServer((req, res) => this.handle(req, res));
  readonly codes = new Map<string, string>(); // code -> challenge
  refreshTokens = new Set<string>();
  next: { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  requests: { auth?: string; form: Record<string, string> }[] = [];
  rotate = true;
  private issued = 0;

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      this.requests.push({ auth: req.headers.authorization, form });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      if (this.next) {
        const n = this.next;
        this.next = undefined;
        return send(n.status, n.body, n.headers);
      }
      const basic = req.headers.authorization?.startsWith("Basic ")
        ? Buffer.from(req.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
        : undefined;
      const [clientId, secret] = basic ?? [form.client_id, form.client_secret];
      if (clientId !== "cid" || secret !== "s3cret") return send(401, { error: "invalid_client" });
      const token = () => ({
        access_token: `at-${++this.issued}`,
        token_type: "bearer",
        expires_in: 3600,
        refresh_token: `rt-${this.issued}`,
        owner: { user: { person: { email: "u@example.com" } } },
      });
      if (form.grant_type === "authorization_code") {
        const challenge = this.codes.get(form.code ?? "");
        const computed = createHash("sha256")
          .update(form.code_verifier ?? "")
          .digest("base64url");
        if (!challenge || challenge !== computed) return send(400, { error: "invalid_grant", error_description: "bad code or verifier" });
        this.codes.delete(form.code!);
        const t = token();
        this.refreshTokens.add(t.refresh_token);
        return send(200, t);
      }
      if (form.grant_type === "refresh_token") {
        if (!this.refreshTokens.has(form.refresh_token ?? "")) return send(400, { error: "invalid_grant" });
        const t = token();
        if (!this.rotate) return send(200, { access_token: t.access_token, token_type: "bearer", expires_in: 3600 });
        this.refreshTokens.delete(form.refresh_token!);
        this.refreshTokens.add(t.refresh_token);
        return send(200, t);
      }
      send(400, { error: "unsupported_grant_type" });
    });
  }
}

describe("OAuthClient against a token endpoint", () => {
  const fake = new FakeTokenEndpoint();
  let spec: (typeof OAUTH_PROVIDER_SPECS)["notion"];
  const client = new OAuthClient({ allowHttp: true, now: () => NOW, timeoutMs: 5000 });
  const app = { clientId: "cid", clientSecret: "s3cret" };

  beforeAll(async () => {
    const base = await fake.start();
    spec = withEndpoints(OAUTH_PROVIDER_SPECS.notion, { tokenUrl: `${base}/v1/oauth/token` });
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));
  beforeEach(() => (fake.requests = []));

  const consent = async () => {
    const { verifier, challenge } = await client.pkce();
    const code = `code-${randomBytes(4).toString("hex")}`;
    fake.codes.set(code, challenge);
    return { code, verifier };
  };

  it("exchanges a code with its PKCE verifier and keeps the provider's extra fields", async () => {
    const { code, verifier } = await consent();
    const t = await client.exchangeCode(spec, app, { code, redirectUri: "https://x/cb", verifier });
    expect(t).toMatchObject({
      accessToken: expect.stringMatching(/^at-/),
      refreshToken: expect.stringMatching(/^rt-/),
      expiresAt: new Date(NOW + 3600_000).toISOString(),
    });
    expect(t.extra).toEqual({ owner: { user: { person: { email: "u@example.com" } } } });
    // Notion: the client in a Basic header, not in the form.
    expect(fake.requests[0]!.auth).toMatch(/^Basic /);
    expect(fake.requests[0]!.form).toMatchObject({ grant_type: "authorization_code", code, redirect_uri: "https://x/cb", code_verifier: verifier });
    expect(fake.requests[0]!.form.client_secret).toBeUndefined();
  });

  it("sends the client in the form for providers that want it there", async () => {
    const google = withEndpoints(OAUTH_PROVIDER_SPECS["google-drive"], { tokenUrl: spec.tokenUrl });
    const { code, verifier } = await consent();
    await client.exchangeCode(google, app, { code, redirectUri: "https://x/cb", verifier });
    expect(fake.requests[0]!.auth).toBeUndefined();
    expect(fake.requests[0]!.form).toMatchObject({ client_id: "cid", client_secret: "s3cret" });
  });

  it("refuses a wrong verifier as auth_expired (the grant is gone, not retryable)", async () => {
    const { code } = await consent();
    const err = await client.exchangeCode(spec, app, { code, redirectUri: "https://x/cb", verifier: "x".repeat(43) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ code: "auth_expired", retryable: false });
  });

  it("refreshes with rotation (the new refresh token replaces the old) and keeps the old one when the provider does not rotate", async () => {
    const { code, verifier } = await consent();
    const first = await client.exchangeCode(spec, app, { code, redirectUri: "https://x/cb", verifier });
    const second = await client.refresh(spec, app, first.refreshToken!);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await expect(client.refresh(spec, app, first.refreshToken!)).rejects.toMatchObject({ code: "auth_expired" });
    fake.rotate = false;
    try {
      const third = await client.refresh(spec, app, second.refreshToken!);
      expect(third.refreshToken).toBe(second.refreshToken);
      expect(third.accessToken).not.toBe(second.accessToken);
    } finally {
      fake.rotate = true;
    }
  });

  it.each([
    [429, { error: "slow_down" }, "rate_limited", true],
    [503, { error: "temporarily_unavailable" }, "provider_unavailable", true],
    [502, "<html>bad gateway</html>", "provider_unavailable", true],
    [401, { error: "invalid_client" }, "auth_expired", false],
  ] as const)("maps HTTP %i (%j) to %s", async (status, body, code, retryable) => {
    fake.next = { status, body };
    await expect(client.refresh(spec, app, "rt-any")).rejects.toMatchObject({ code, retryable });
  });

  it("maps a token endpoint that cannot be reached to provider_unavailable", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const gone = withEndpoints(spec, { tokenUrl: `http://127.0.0.1:${port}/token` });
    await expect(client.refresh(gone, app, "rt")).rejects.toMatchObject({ code: "provider_unavailable", retryable: true });
  });
});
