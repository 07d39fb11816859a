import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Clock, FailedPreconditionError, InvalidArgumentError } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { FakeGitHub } from "@engram/testing";
import { SecretBox, SecretKeyring } from "../../src/adapters/crypto/secret-box";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { OAuthClient } from "../../src/adapters/oauth/oauth-client";
import { SettingsOAuthApps } from "../../src/adapters/oauth/oauth-apps";
import { connectionCredentialsContext } from "../../src/app/connection-ports";
import { OAuthFlow } from "../../src/app/oauth-flow";
import { oauthSecretContext } from "../../src/app/ports";
import { type Connection, newConnection, newConnectionId } from "../../src/domain/connection";
import { decodeCredentials } from "../../src/domain/credentials";
import { emptySettings } from "../../src/domain/settings";
import { ConnectorError } from "../../src/domain/errors";
import { OAUTH_PROVIDER_SPECS, withEndpoints } from "../../src/domain/oauth";

const log = rootLogger({ level: "silent" });
const HOUR = 3_600_000;

/**
 * The OAuth flow against a local fake of GitHub's OAuth endpoints, on an
 * injected clock: consent and callback (single use, expiring), the tenant's
 * custom application, tokens renewed as their expiry approaches and after a
 * 401, rotated refresh tokens kept (also when two callers refresh at once),
 * and a revoked grant moving the connection to auth_expired.
 */
describe("OAuthFlow", () => {
  const fake = new FakeGitHub();
  let base = "";
  let dir: string;
  let repo: SqliteConnectionRepository;
  let settings: SqliteSettingsRepository;
  let box: SecretBox;
  let boxKey: Buffer;
  let flow: OAuthFlow;
  let now = Date.parse("2026-05-01T09:00:00.000Z");
  const clock: Clock = { now: () => new Date(now) };
  let engramApp: { clientId: string; clientSecret: string } | undefined;
  let allowedOrigins: string[];

  beforeAll(async () => {
    base = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-oauth-"));
    repo = new SqliteConnectionRepository(dir);
    settings = new SqliteSettingsRepository(dir);
    boxKey = randomBytes(32);
    box = new SecretBox(boxKey);
    engramApp = { clientId: fake.clientId, clientSecret: fake.clientSecret };
    allowedOrigins = ["https://app.example.com"];
    flow = makeFlow(box);
  });
  const makeFlow = (ring: SecretKeyring) =>
    new OAuthFlow({
      repo,
      sealer: ring,
      stateKeys: new SecretKeyring(ring.deriveKeys("oauth-state")),
      specs: {
        ...OAUTH_PROVIDER_SPECS,
        github: withEndpoints(OAUTH_PROVIDER_SPECS.github, { authorizeUrl: `${base}/login/oauth/authorize`, tokenUrl: `${base}/login/oauth/access_token` }),
      },
      apps: {
        forNewConnection: (t, p) => new SettingsOAuthApps(settings, box, engramApp ? { github: engramApp } : {}).forNewConnection(t, p),
        byRef: (t, p, ref) => new SettingsOAuthApps(settings, box, engramApp ? { github: engramApp } : {}).byRef(t, p, ref),
      },
      tokens: new OAuthClient({ allowHttp: true, now: () => now }),
      identify: async () => ({ email: "octo@example.com" }),
      redirectPolicy: async () => ({ origins: allowedOrigins, publicUrl: "https://engram.example.com/" }),
      publicUrl: "https://engram.example.com/",
      clock,
      logger: log,
    });
  afterEach(async () => {
    await repo.close();
    await settings.close();
  });

  /** A pending connection and its consent link. */
  async function pending(tenantId = "acme", redirectUrl: string | undefined = "https://app.example.com/done?from=test") {
    const id = newConnectionId();
    const link = await flow.begin({ id, tenantId }, "github", redirectUrl);
    const conn = await repo.create(
      newConnection({ tenantId, provider: "github", namespace: "code", sealedCredentials: link.sealedCredentials }, new Date(now).toISOString(), id),
    );
    return { conn, link: new URL(link.authLink) };
  }

  /** Follows the consent link at the fake: the code and state GitHub sends back. */
  async function consent(link: URL): Promise<{ code: string; state: string; error?: string }> {
    const res = await fetch(link, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    return { code: back.searchParams.get("code") ?? "", state: back.searchParams.get("state") ?? "", error: back.searchParams.get("error") ?? undefined };
  }

  const tokensOf = async (c: Connection) => {
    const stored = (await repo.get(c.tenantId, c.id))!;
    const creds = decodeCredentials(box.openString(stored.sealedCredentials!, connectionCredentialsContext(c.tenantId, c.id)));
    if (creds.kind !== "oauth") throw new Error("not authorized");
    return creds;
  };

  it("authorizes once through the callback, with PKCE, and redirects with the outcome", async () => {
    const { conn, link } = await pending();
    expect(link.searchParams.get("redirect_uri")).toBe("https://engram.example.com/v3/connections/auth/callback/github");
    expect(link.searchParams.get("code_challenge_method")).toBe("S256");
    const back = await consent(link);
    const out = await flow.complete("github", back);
    expect(out).toMatchObject({ success: true, connectionId: conn.id });
    expect(Object.fromEntries(new URL(out.redirectUrl!).searchParams)).toEqual({ from: "test", connectionId: conn.id, success: "true" });
    const stored = (await repo.get("acme", conn.id))!;
    expect(stored).toMatchObject({ status: "active", email: "octo@example.com" });
    expect((await tokensOf(conn)).refreshToken).toMatch(/^ghr_/);
    // The tokens are sealed: nothing of them in clear in the store.
    const raw = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
    expect(raw.includes(Buffer.from("ghr_"))).toBe(false);
    // The same state again: refused, whatever the code.
    await expect(flow.complete("github", back)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it("refuses forged and expired states, and reports a denied consent to the redirect URL", async () => {
    const { link } = await pending();
    const back = await consent(link);
    await expect(flow.complete("github", { ...back, state: `${back.state.slice(0, -3)}abc` })).rejects.toBeInstanceOf(InvalidArgumentError);
    now += 2 * HOUR;
    await expect(flow.complete("github", back)).rejects.toBeInstanceOf(FailedPreconditionError);

    const second = await pending();
    fake.denyNext = true;
    const denied = await consent(second.link);
    const out = await flow.complete("github", { code: "", state: denied.state, error: denied.error });
    expect(out).toMatchObject({ success: false, error: "access_denied" });
    expect(new URL(out.redirectUrl!).searchParams.get("success")).toBe("false");
    expect((await repo.get("acme", second.conn.id))!.status).toBe("pending_authorization");
  });

  it("refuses a redirectUrl of a scheme other than https or of an origin the tenant did not allow (400 naming the setting)", async () => {
    for (const bad of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "http://app.example.com/done",
    ])
      await expect(pending("acme", bad)).rejects.toThrow(InvalidArgumentError);
    await expect(pending("acme", "https://evil.example.net/steal")).rejects.toThrow(/allowedRedirectOrigins|not allowed/);
    const err = await pending("acme", "https://evil.example.net/steal").catch((e: InvalidArgumentError) => e);
    expect(String((err as InvalidArgumentError).details ?? err)).toMatch(/allowedRedirectOrigins/);
    // The deployment's own origin is always allowed.
    await expect(pending("acme", "https://engram.example.com/console/connected")).resolves.toBeDefined();
  });

  it("keeps working after a key rotation and re-seals the tokens with the newest key when next used", async () => {
    const { conn, link } = await pending();
    await flow.complete("github", await consent(link));
    const token = (await tokensOf(conn)).accessToken;
    const rotated = new SecretKeyring([
      { id: "k-new", key: randomBytes(32) },
      { id: "default", key: boxKey },
    ]);
    expect(rotated.sealedWith((await repo.get("acme", conn.id))!.sealedCredentials!)).toBe("default");
    const after = makeFlow(rotated);
    expect(await after.accessToken("acme", conn.id)).toBe(token);
    const sealed = (await repo.get("acme", conn.id))!.sealedCredentials!;
    expect(rotated.sealedWith(sealed)).toBe("k-new");
    expect(decodeCredentials(rotated.openString(sealed, connectionCredentialsContext("acme", conn.id)))).toMatchObject({ kind: "oauth", accessToken: token });
  });

  it("does not follow a redirectUrl whose origin the tenant stopped allowing before the callback", async () => {
    const { conn, link } = await pending();
    allowedOrigins = [];
    const out = await flow.complete("github", await consent(link));
    expect(out).toMatchObject({ success: true, connectionId: conn.id });
    expect(out.redirectUrl).toBeUndefined();
  });

  it("uses the tenant's custom application when enabled, and says so when there is none at all", async () => {
    await settings.update("globex", (cur) => ({
      ...(cur ?? emptySettings("globex")),
      oauthApps: {
        github: { clientId: "globex-app", sealedClientSecret: box.seal("globex-secret", oauthSecretContext("globex", "github")), customKeyEnabled: true },
      },
    }));
    expect((await pending("globex")).link.searchParams.get("client_id")).toBe("globex-app");
    expect((await pending("acme")).link.searchParams.get("client_id")).toBe(fake.clientId);
    engramApp = undefined;
    await expect(pending("acme")).rejects.toBeInstanceOf(FailedPreconditionError);
  });

  it("renews the access token as its expiry approaches (injected clock) and after a 401, keeping every rotated refresh token", async () => {
    const { conn, link } = await pending();
    await flow.complete("github", await consent(link));
    const first = await tokensOf(conn);
    expect(await flow.accessToken("acme", conn.id)).toBe(first.accessToken);
    const refreshes = fake.refreshCount;

    // Eight hours later the token is about to lapse: renewed before use, the new refresh token stored.
    now += 8 * HOUR - 60_000;
    const second = await flow.accessToken("acme", conn.id);
    expect(second).not.toBe(first.accessToken);
    expect(fake.refreshCount).toBe(refreshes + 1);
    const stored = await tokensOf(conn);
    expect(stored.refreshToken).not.toBe(first.refreshToken);
    expect(Date.parse(stored.expiresAt!)).toBe(now + 8 * HOUR);

    // A 401 with the stored token: refreshed (with the rotated refresh token, which the fake checks).
    fake.expireAccessTokens();
    const third = await flow.accessToken("acme", conn.id, second);
    expect(third).not.toBe(second);
    // A 401 with a token that was already replaced: the stored one, no refresh.
    expect(await flow.accessToken("acme", conn.id, second)).toBe(third);
    expect(fake.refreshCount).toBe(refreshes + 2);
  });

  it("lets two callers refresh at once: one rotates, the other uses its tokens", async () => {
    const { conn, link } = await pending();
    await flow.complete("github", await consent(link));
    now += 9 * HOUR;
    const [x, y] = await Promise.all([flow.accessToken("acme", conn.id), flow.accessToken("acme", conn.id)]);
    expect(x).toBe(y);
    expect((await repo.get("acme", conn.id))!.status).toBe("active");
  });

  it("moves the connection to auth_expired when the grant is revoked", async () => {
    const { conn, link } = await pending();
    await flow.complete("github", await consent(link));
    fake.revoke();
    now += 9 * HOUR;
    const err = await flow.accessToken("acme", conn.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).code).toBe("auth_expired");
    expect((await repo.get("acme", conn.id))!.status).toBe("auth_expired");
  });
});
