import { FakeGitHub, waitFor } from "@engram/testing";
import { documentChunks, expectErrorBody, fakeProviderStack, finishedRun, gitHubEnv, lastRun } from "./helpers";

const KEY_A = "tenant-a-key-github-0123456789abcdef";
const KEY_B = "tenant-b-key-github-0123456789abcdef";

type Doc = { id: string };

/**
 * A GitHub connection through the gateway against a local fake of GitHub
 * (OAuth with PKCE and rotating tokens, REST, webhooks), walking the
 * scenario of connectors.md: consent and callback, resources and configure,
 * initial sync, a push by webhook (and its redelivery), a tampered webhook,
 * a deletion, a token refresh with rotation in the middle of a sync, a 429
 * retried without duplicates, a force-push nobody announced, a truncated
 * tree, revocation, and deletion keeping the documents.
 */
describe("GitHub connection end to end", () => {
  const fake = new FakeGitHub();
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, gitHubEnv(fake));
  const { a, b, env } = stack;

  /** The connection's documents by filepath (owner/repo/path). */
  const documentsByPath = async () => {
    const docs = (await a("POST", "/v3/connections/github/documents", { containerTags: ["code"] })).body as Doc[];
    const out = new Map<string, string>();
    for (const d of docs) out.set((await a("GET", `/v3/documents/${d.id}`)).body.filepath as string, d.id);
    return out;
  };
  const paths = async () => [...(await documentsByPath()).keys()].sort();
  const searchChunks = (q: string) => documentChunks(a, "code", q);

  it("authorizes, configures, syncs, follows pushes, refreshes tokens, converges after a force-push, and deletes", async () => {
    const repo = fake.addRepo("octo/handbook", {
      files: {
        "README.md": "# Handbook\n\nThe on-call rotation changes every Monday.",
        "docs/guide.md": "# Guide\n\nDeploys happen from the release branch.",
        "src/index.ts": "export const x = 1;",
        "node_modules/pkg/readme.md": "# vendored",
      },
    });
    fake.addRepo("octo/other");

    // Tenant b's custom application is used for its new connections; tenant a gets Engram's.
    expect((await b("PATCH", "/v3/settings", { githubClientId: "tenant-b-app", githubClientSecret: "b-secret", githubCustomKeyEnabled: true })).status).toBe(
      200,
    );
    const bLink = new URL((await b("POST", "/v3/connections/github", { containerTag: "code" })).body.authLink as string);
    expect(bLink.searchParams.get("client_id")).toBe("tenant-b-app");

    // Redirects: https only (javascript:, data:, ... refused), and only to an origin the organisation allowed.
    for (const redirectUrl of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "http://app.example.com/connected"]) {
      const refused = await a("POST", "/v3/connections/github", { containerTag: "code", redirectUrl });
      expect(refused.status).toBe(400);
      expectErrorBody(refused.body);
    }
    const notAllowed = await a("POST", "/v3/connections/github", { containerTag: "code", redirectUrl: "https://app.example.com/connected" });
    expect(notAllowed.status).toBe(400);
    expect(JSON.stringify(notAllowed.body)).toContain("allowedRedirectOrigins");
    const allowed = await a("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com"] });
    expect(allowed.status).toBe(200);
    expect((await a("GET", "/v3/settings")).body.allowedRedirectOrigins).toEqual(["https://app.example.com"]);

    const created = await a("POST", "/v3/connections/github", { containerTag: "code", redirectUrl: "https://app.example.com/connected" });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const link = new URL(created.body.authLink as string);
    // The state is opaque: it names neither the connection nor the tenant in clear.
    const state = link.searchParams.get("state")!;
    for (const text of [state, Buffer.from(state, "base64url").toString("latin1")]) expect(text).not.toContain(id);
    expect(created.body.expiresIn).toBe("1 hour");
    expect(link.searchParams.get("client_id")).toBe(fake.clientId);
    expect(link.searchParams.get("code_challenge_method")).toBe("S256");
    expect(link.searchParams.get("redirect_uri")).toBe(`${env.ENGRAM_PUBLIC_URL}/v3/connections/auth/callback/github`);

    // Not authorized yet: resources and configure say so.
    const early = await a("GET", `/v3/connections/${id}/resources`);
    expect(early.status).toBe(400);
    expectErrorBody(early.body);
    expect((await a("GET", `/v3/connections/n_${"x".repeat(20)}/resources`)).status).toBe(404);

    // The browser: consent at the fake, back through the gateway's callback, on to redirectUrl.
    const consent = await fetch(link, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const callback = consent.headers.get("location")!;
    const back = await fetch(callback, { redirect: "manual" });
    expect(back.status).toBe(302);
    const landed = new URL(back.headers.get("location")!);
    expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.com/connected");
    expect(Object.fromEntries(landed.searchParams)).toEqual({ connectionId: id, success: "true" });
    // The state is single use.
    const replay = await fetch(callback, { redirect: "manual" });
    expect(replay.status).toBe(400);

    const shown = (await a("GET", `/v3/connections/${id}`)).body;
    expect(shown).toMatchObject({ id, provider: "github", email: "octo@example.com" });
    expect(JSON.stringify(shown)).not.toMatch(/gh[ur]_/);
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);

    const listed = await a("GET", `/v3/connections/${id}/resources?per_page=1`);
    expect(listed.status).toBe(200);
    expect(listed.body.resources).toHaveLength(1);
    const all = (await a("GET", `/v3/connections/${id}/resources`)).body.resources as { id: number; full_name: string; default_branch: string }[];
    expect(all.map((r) => r.full_name).sort()).toEqual(["octo/handbook", "octo/other"]);

    const refused = await a("POST", `/v3/connections/${id}/configure`, { resources: [{ id: 999, name: "octo/missing", defaultBranch: "main" }] });
    expect(refused.status).toBe(400);
    const configured = await a("POST", `/v3/connections/${id}/configure`, { resources: [{ id: repo.id, name: "octo/handbook", defaultBranch: "main" }] });
    expect(configured.body).toMatchObject({ success: true, webhooksRegistered: 1 });
    expect(fake.hooks).toHaveLength(1);
    expect(fake.hooks[0]!.url).toContain(`/v3/connections/webhooks/github?connection=${id}`);

    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    expect(await paths()).toEqual(["octo/handbook/README.md", "octo/handbook/docs/guide.md"]);

    // A push, announced by webhook (and redelivered: one sync).
    const push = fake.putFile("octo/handbook", "docs/guide.md", "# Guide\n\nDeploys happen from main, every Thursday.");
    const delivered = await fake.deliver("octo/handbook", push, { deliveryId: "delivery-1" });
    expect(delivered.status).toBe(202);
    expect((await fake.deliver("octo/handbook", push, { deliveryId: "delivery-1" })).status).toBe(200);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    expect([...(await documentsByPath()).keys()]).toHaveLength(2);
    await waitFor(async () => ((await searchChunks("when do deploys happen")).some((c) => c.includes("every Thursday")) ? true : undefined), {
      timeoutMs: 60_000,
      what: "the guide's new content to be searchable",
    });
    expect((await searchChunks("when do deploys happen")).some((c) => c.includes("release branch"))).toBe(false);
    // Tampered or unsigned notifications are refused; pings are acknowledged.
    expect((await fake.deliver("octo/handbook", fake.putFile("octo/handbook", "docs/x.md", "x"), { tamper: true })).status).toBe(401);
    expect((await fake.deliver("octo/handbook", push, { signature: "sha256=00" })).status).toBe(401);
    expect((await fake.deliver("octo/handbook", { zen: "hi" } as never, { event: "ping" })).status).toBe(200);
    const post = (query: string) =>
      fetch(`${stack.engram.url}/v3/connections/webhooks/github${query}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await post("")).status).toBe(400);
    // Another tenant's name on this connection: no such connection.
    expect((await post(`?connection=${id}&tenant=tenant-b`)).status).toBe(404);
    // A deletion, with the access token expired meanwhile: the sync refreshes it (rotation) and goes on.
    const before = (await lastRun(a, id))!.startedAt;
    fake.expireAccessTokens();
    const refreshes = fake.refreshCount;
    expect((await fake.deliver("octo/handbook", fake.deleteFile("octo/handbook", "docs/guide.md"))).status).toBe(202);
    const third = await finishedRun(a, id, before);
    expect(third.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 1);
    expect(await paths()).toEqual(["octo/handbook/README.md", "octo/handbook/docs/x.md"]);
    // The rotated refresh token was kept: a second expiry refreshes again.
    fake.expireAccessTokens();
    // A 429 with Retry-After on the next GitHub call is waited out; nothing is imported twice.
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/repos" });
    fake.putFile("octo/handbook", "docs/y.md", "# Y\n\nRate limits are retried.");
    expect((await a("POST", "/v3/connections/github/import", { containerTags: ["code"] })).status).toBe(202);
    const fourth = await finishedRun(a, id, third.startedAt);
    expect(fourth.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 2);
    expect(await paths()).toEqual(["octo/handbook/README.md", "octo/handbook/docs/x.md", "octo/handbook/docs/y.md"]);
    // A force-push nobody announced, into a tree GitHub truncates: the next sync converges on it.
    fake.truncateTrees = true;
    fake.forcePush("octo/handbook", {
      "README.md": "# Handbook\n\nOn-call now changes every Tuesday.",
      "docs/deep/nested/runbook.md": "# Runbook\n\nRestart the queue first.",
      "vendor/lib/notes.md": "# vendored",
    });
    expect((await a("POST", "/v3/connections/github/import", {})).status).toBe(202);
    const fifth = await finishedRun(a, id, fourth.startedAt);
    expect(fifth.status).toBe("succeeded");
    expect(await paths()).toEqual(["octo/handbook/README.md", "octo/handbook/docs/deep/nested/runbook.md"]);
    fake.truncateTrees = false;
    // Revoked: the run fails as auth_expired and the connection stops syncing.
    fake.revoke();
    fake.putFile("octo/handbook", "docs/z.md", "z");
    expect((await a("POST", "/v3/connections/github/import", {})).status).toBe(202);
    expect(await finishedRun(a, id, fifth.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });

    // Deleted, keeping its documents.
    const kept = await documentsByPath();
    expect((await a("DELETE", `/v3/connections/${id}?deleteDocuments=false`)).body).toEqual({ id, provider: "github" });
    expect((await a("GET", `/v3/connections/${id}`)).status).toBe(404);
    for (const docId of kept.values()) expect((await a("GET", `/v3/documents/${docId}`)).status).toBe(200);
  }, 120_000);
});
