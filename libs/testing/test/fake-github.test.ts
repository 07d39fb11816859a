import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeGitHub } from "../src/fake-github";

const redirectUri = "http://127.0.0.1:9/callback?keep=1";

describe("FakeGitHub", () => {
  let gh: FakeGitHub;
  let base: string;

  beforeEach(async () => {
    gh = new FakeGitHub();
    base = await gh.start();
  });
  afterEach(() => gh.stop());

  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${base}/login/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...headers },
      body: new URLSearchParams(fields),
    });
  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", ...init.headers } });
  const authorize = async (challenge: string, state = "st-1") => {
    const q = new URLSearchParams({ response_type: "code", client_id: gh.clientId, redirect_uri: redirectUri, state, code_challenge: challenge });
    q.set("code_challenge_method", "S256");
    q.set("scope", "repo read:user");
    const res = await fetch(`${base}/login/oauth/authorize?${q}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location")!);
  };
  const pkce = () => {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  };

  it("runs the web flow with PKCE, rotates refresh tokens and rejects the old ones", async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(challenge);
    expect(back.origin + back.pathname).toBe("http://127.0.0.1:9/callback");
    expect(back.searchParams.get("keep")).toBe("1");
    expect(back.searchParams.get("state")).toBe("st-1");
    const code = back.searchParams.get("code")!;

    // a wrong verifier spends the code
    const { verifier: other } = pkce();
    const fields = { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: gh.clientId, client_secret: gh.clientSecret };
    expect((await form({ ...fields, code_verifier: other })).status).toBe(400);
    expect((await form({ ...fields, code_verifier: verifier })).status).toBe(400);

    const code2 = (await authorize(challenge)).searchParams.get("code")!;
    expect((await form({ ...fields, code: code2, code_verifier: verifier, client_secret: "nope" })).status).toBe(401);
    const code3 = (await authorize(challenge)).searchParams.get("code")!;
    const badRedirect = await form({ ...fields, code: code3, code_verifier: verifier, redirect_uri: "http://127.0.0.1:9/other" });
    expect(await badRedirect.json()).toEqual({ error: "invalid_grant", error_description: expect.any(String) });

    const code4 = (await authorize(challenge)).searchParams.get("code")!;
    const basic = `Basic ${Buffer.from(`${gh.clientId}:${gh.clientSecret}`).toString("base64")}`;
    const ok = await form({ grant_type: "authorization_code", code: code4, redirect_uri: redirectUri, code_verifier: verifier }, { authorization: basic });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
    const t1 = (await ok.json()) as Record<string, unknown>;
    expect(t1).toEqual({
      access_token: expect.stringMatching(/^ghu_/),
      token_type: "bearer",
      scope: "repo,read:user,user:email",
      refresh_token: expect.stringMatching(/^ghr_/),
      expires_in: 28800,
      refresh_token_expires_in: 15897600,
    });
    expect((await form({ ...fields, code: code4, code_verifier: verifier })).status).toBe(400); // single use

    const access1 = t1.access_token as string;
    expect(await (await api("/user", access1)).json()).toEqual({ login: "octo", id: 1, name: "Octo Cat", email: null, type: "User" });
    expect(await (await fetch(`${base}/user/emails`, { headers: { authorization: `token ${access1}` } })).json()).toEqual([
      { email: "octo@example.com", primary: true, verified: true, visibility: null },
    ]);

    const refresh = (rt: string) => form({ grant_type: "refresh_token", refresh_token: rt, client_id: gh.clientId, client_secret: gh.clientSecret });
    const r = await refresh(t1.refresh_token as string);
    expect(r.status).toBe(200);
    const t2 = (await r.json()) as Record<string, string>;
    expect(t2.refresh_token).not.toBe(t1.refresh_token);
    expect(gh.refreshCount).toBe(1);
    expect((await api("/user", access1)).status).toBe(401);
    expect(await (await api("/user", access1)).json()).toEqual({ message: "Bad credentials" });
    expect((await api("/user", t2.access_token!)).status).toBe(200);
    expect(await (await refresh(t1.refresh_token as string)).json()).toMatchObject({ error: "invalid_grant" });

    gh.expireAccessTokens();
    expect((await api("/user", t2.access_token!)).status).toBe(401);
    const t3 = (await (await refresh(t2.refresh_token!)).json()) as Record<string, string>;
    expect((await api("/user", t3.access_token!)).status).toBe(200);
    gh.revoke();
    expect((await api("/user", t3.access_token!)).status).toBe(401);
    expect((await refresh(t3.refresh_token!)).status).toBe(400);

    expect(gh.tokenRequests.map((t) => t.grant_type)).toContain("refresh_token");
    expect(gh.tokenRequests.find((t) => t.client_auth === "basic")).toMatchObject({ grant_type: "authorization_code", client_id: gh.clientId });
  });

  it("denies on demand, refuses unknown clients and missing PKCE, issues classic tokens", async () => {
    gh.denyNext = true;
    const denied = await authorize("x".repeat(43), "s2");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("s2");
    expect(denied.searchParams.has("code")).toBe(false);
    expect((await authorize("x".repeat(43))).searchParams.has("code")).toBe(true);

    const unknown = await fetch(`${base}/login/oauth/authorize?client_id=other&redirect_uri=${encodeURIComponent(redirectUri)}`, { redirect: "manual" });
    expect(unknown.status).toBe(400);
    const noPkce = await fetch(`${base}/login/oauth/authorize?client_id=${gh.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}`, {
      redirect: "manual",
    });
    expect(noPkce.status).toBe(400);

    gh.expiringTokens = false;
    const { verifier, challenge } = pkce();
    const code = (await authorize(challenge)).searchParams.get("code")!;
    const res = await form({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: gh.clientId,
      client_secret: gh.clientSecret,
    });
    expect(await res.json()).toEqual({ access_token: expect.stringMatching(/^gho_/), token_type: "bearer", scope: "repo,read:user,user:email" });
  });

  it("lists repos in pages with a Link header, answers repos, branches and 404s", async () => {
    const token = gh.issueTokens().access_token;
    for (let i = 0; i < 5; i++) gh.addRepo(`r${i}`, { description: `repo ${i}` });
    const other = gh.addRepo("acme/tools", { private: true, defaultBranch: "trunk", files: { "a.md": "A" } });
    expect(other).toMatchObject({ id: 1005, owner: "acme", full_name: "acme/tools" });

    const p1 = await api("/user/repos?per_page=4&sort=full_name", token);
    const page1 = (await p1.json()) as { full_name: string; id: number }[];
    expect(page1.map((r) => r.full_name)).toEqual(["acme/tools", "octo/r0", "octo/r1", "octo/r2"]);
    const link = p1.headers.get("link")!;
    expect(link).toContain(`<${base}/user/repos?per_page=4&sort=full_name&page=2>; rel="next"`);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(new URL(next).searchParams.get("page")).toBe("2");
    expect(link).toMatch(/rel="last"/);
    const p2 = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
    expect(((await p2.json()) as unknown[]).length).toBe(2);
    expect(p2.headers.get("link")).not.toMatch(/rel="next"/);

    const repo = (await (await api("/repos/acme/tools", token)).json()) as Record<string, unknown>;
    expect(repo).toMatchObject({ id: 1005, name: "tools", full_name: "acme/tools", private: true, default_branch: "trunk", owner: { login: "acme" } });
    expect(new Date(repo.updated_at as string).toISOString()).toBe(repo.updated_at);
    expect((await api("/repos/acme/nope", token)).status).toBe(404);
    expect(await (await api("/repos/acme/nope", token)).json()).toEqual({ message: "Not Found" });
    const branch = (await (await api("/repos/acme/tools/branches/trunk", token)).json()) as {
      name: string;
      commit: { sha: string; commit: { tree: { sha: string } } };
    };
    expect(branch.name).toBe("trunk");
    expect(branch.commit.sha).toBe(other.head);
    expect(branch.commit.commit.tree.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(gh.requests).toContain("GET /user/repos?per_page=4&sort=full_name");
  });

  it("serves trees (recursive, level by level, truncated) and blobs with git-like shas", async () => {
    const token = gh.issueTokens().access_token;
    const long = "x".repeat(100);
    gh.addRepo("docs", { files: { "README.md": "hello", "guide/intro.md": "intro", "guide/deep/more.md": long, "other/intro.md": "intro" } });
    const tree = async (ref: string, recursive = true) =>
      (await (await api(`/repos/octo/docs/git/trees/${ref}${recursive ? "?recursive=1" : ""}`, token)).json()) as {
        sha: string;
        truncated: boolean;
        tree: { path: string; type: string; mode: string; sha: string; size?: number }[];
      };
    const full = await tree("main");
    expect(full.truncated).toBe(false);
    expect(full.tree.map((e) => `${e.type} ${e.path}`)).toEqual([
      "blob README.md",
      "tree guide",
      "tree guide/deep",
      "blob guide/deep/more.md",
      "blob guide/intro.md",
      "tree other",
      "blob other/intro.md",
    ]);
    const byPath = new Map(full.tree.map((e) => [e.path, e]));
    expect(byPath.get("guide/intro.md")!.sha).toBe(byPath.get("other/intro.md")!.sha);
    expect(byPath.get("README.md")).toMatchObject({ mode: "100644", size: 5, sha: createHash("sha1").update("blob 5\0hello").digest("hex") });
    expect(byPath.get("guide")!.mode).toBe("040000");

    const guide = await tree(byPath.get("guide")!.sha, false);
    expect(guide.tree.map((e) => e.path)).toEqual(["deep", "intro.md"]);

    const blob = (await (await api(`/repos/octo/docs/git/blobs/${byPath.get("guide/deep/more.md")!.sha}`, token)).json()) as Record<string, string>;
    expect(blob).toMatchObject({ encoding: "base64", size: 100 });
    expect(blob.content!.split("\n")[0]!.length).toBe(60);
    expect(Buffer.from(blob.content!, "base64").toString()).toBe(long);
    expect((await api(`/repos/octo/docs/git/blobs/${"0".repeat(40)}`, token)).status).toBe(404);

    gh.truncateTrees = true;
    const truncated = await tree("main");
    expect(truncated.truncated).toBe(true);
    expect(truncated.tree.map((e) => e.path)).toEqual(["README.md", "guide", "other"]);
    gh.truncateTrees = false;

    const push = gh.putFile("docs", "guide/intro.md", "changed");
    expect(push).toMatchObject({ ref: "refs/heads/main", after: gh.repo("docs").head, forced: false, created: false, deleted: false });
    expect(push.before).toBe(gh.repo("docs").commits[0]!.id);
    expect(push.head_commit.modified).toEqual(["guide/intro.md"]);
    const after = new Map((await tree("main")).tree.map((e) => [e.path, e.sha]));
    expect(after.get("guide")).not.toBe(byPath.get("guide")!.sha);
    expect(after.get("guide/deep")).toBe(byPath.get("guide/deep")!.sha);
    expect(after.get("other")).toBe(byPath.get("other")!.sha);
    expect((await tree("main")).sha).not.toBe(full.sha);

    const del = gh.deleteFile("docs", "other/intro.md");
    expect(del.commits[0]!.removed).toEqual(["other/intro.md"]);
    expect(del.before).toBe(push.after);
    const forced = gh.forcePush("docs", { "new.md": "fresh" });
    expect(forced).toMatchObject({ forced: true, before: del.after });
    expect(gh.repo("docs").commits.at(-1)!.parent).toBeNull();
    expect(forced.repository).toEqual({ id: 1000, name: "docs", full_name: "octo/docs", private: false, default_branch: "main", owner: { login: "octo" } });
    expect((await tree("main")).tree.map((e) => e.path)).toEqual(["new.md"]);
  });

  it("fails on demand and manages webhooks; deliveries are signed", async () => {
    const token = gh.issueTokens().access_token;
    gh.addRepo("site", { files: { "a.md": "a" } });
    gh.failNext.push({ status: 403, headers: { "retry-after": "1" }, pathPrefix: "/repos/" });
    expect((await api("/user", token)).status).toBe(200);
    const failed = await api("/repos/octo/site", token);
    expect(failed.status).toBe(403);
    expect(failed.headers.get("retry-after")).toBe("1");
    expect((await api("/repos/octo/site", token)).status).toBe(200);

    const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(202);
        res.end("thanks");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/github`;
    try {
      const create = await api("/repos/octo/site/hooks", token, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "web",
          active: true,
          events: ["push"],
          config: { url: hookUrl, content_type: "json", secret: "s3cret", insecure_ssl: "0" },
        }),
      });
      expect(create.status).toBe(201);
      const created = (await create.json()) as { id: number; config: Record<string, unknown> };
      expect(created).toMatchObject({ name: "web", active: true, events: ["push"], config: { url: hookUrl, content_type: "json" } });
      expect(JSON.stringify(created)).not.toContain("s3cret");
      expect(gh.hooks).toEqual([expect.objectContaining({ id: created.id, repo: "octo/site", url: hookUrl, secret: "s3cret", active: true })]);
      expect(((await (await api("/repos/octo/site/hooks", token)).json()) as unknown[]).length).toBe(1);

      const payload = gh.putFile("site", "b.md", "b");
      const result = await gh.deliver("site", payload, { deliveryId: "d-1" });
      expect(result).toEqual({ status: 202, body: "thanks" });
      const got = received[0]!;
      expect(got.headers).toMatchObject({
        "x-github-event": "push",
        "x-github-delivery": "d-1",
        "x-github-hook-id": String(created.id),
        "user-agent": "GitHub-Hookshot/fake",
      });
      const verify = (r: typeof got) => {
        const expected = Buffer.from(`sha256=${createHmac("sha256", "s3cret").update(r.body).digest("hex")}`);
        const sig = Buffer.from(String(r.headers["x-hub-signature-256"]));
        return sig.length === expected.length && timingSafeEqual(sig, expected);
      };
      expect(verify(got)).toBe(true);
      expect(JSON.parse(got.body.toString())).toMatchObject({ after: gh.repo("site").head, head_commit: { added: ["b.md"] } });

      await gh.deliver(gh.hooks[0]!, payload, { tamper: true });
      expect(verify(received[1]!)).toBe(false);
      await gh.deliver(gh.repo("site"), payload, { signature: "sha256=00", event: "ping" });
      expect(received[2]!.headers).toMatchObject({ "x-hub-signature-256": "sha256=00", "x-github-event": "ping" });

      expect((await api(`/repos/octo/site/hooks/${created.id}`, token, { method: "DELETE" })).status).toBe(204);
      expect((await api(`/repos/octo/site/hooks/${created.id}`, token, { method: "DELETE" })).status).toBe(404);
      expect(gh.hooks).toEqual([]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});
