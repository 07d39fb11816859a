/*
 * A fake of the parts of GitHub a GitHub connector uses, on 127.0.0.1 (node built-ins only):
 * - the OAuth web flow of a GitHub App with user tokens: GET /login/oauth/authorize (state, PKCE S256)
 *   and POST /login/oauth/access_token (authorization_code and refresh_token grants; client auth in the
 *   form body or HTTP Basic; 8-hour access tokens with rotating refresh tokens, or classic never-expiring
 *   tokens with `expiringTokens = false`);
 * - REST v3 with `Bearer`/`token` auth: /user, /user/emails, /user/repos (pages and a Link header),
 *   /repos/{o}/{r}, its branches, git trees (recursive or level by level, subtrees by sha) and blobs
 *   (base64), and repository webhooks (create, list, delete).
 * The OAuth side is the shared FakeOAuthServer (`oauth`).
 * Controls: `clientId`/`clientSecret`, `account`, `denyNext` (the next authorization is
 * denied), `expiringTokens`, `truncateTrees` (recursive trees answer `truncated: true` with the top level
 * only), `failNext` (a status and headers for the next REST request, by path prefix when given),
 * `revoke()`, `expireAccessTokens()`, `issueTokens()`. Content: `addRepo`, `putFile`, `deleteFile`,
 * `forcePush` (each push returns its push-event payload), and `deliver` (a signed webhook delivery,
 * tampered or with a given signature on demand). Logs: `requests`, `tokenRequests`, `refreshCount`, `hooks`.
 */
import { createHash, createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import { FakeOAuthProvider } from "./fake-http-server";
import { FakeOAuthServer, type FakeTokenRequest, readRequestBody } from "./fake-oauth";

type TreeEntry = { name: string; mode: "100644" | "040000"; sha: string };
type GitObject = { type: "blob"; content: Buffer } | { type: "tree"; entries: TreeEntry[] };
type Reply = [status: number, body?: unknown, headers?: Record<string, string>];

export interface FakeGitHubCommit {
  id: string;
  message: string;
  tree: string;
  /** null for the first commit and for force pushes */
  parent: string | null;
  /** the branch head before this commit was pushed */
  before: string;
  forced: boolean;
  added: string[];
  modified: string[];
  removed: string[];
  timestamp: string;
}

/** A repository of the fake: one branch (the default), its files, commits and git objects. */
export interface FakeGitHubRepo {
  id: number;
  name: string;
  full_name: string;
  owner: string;
  description: string | null;
  private: boolean;
  default_branch: string;
  updated_at: string;
  files: Map<string, string>;
  head: string;
  commits: FakeGitHubCommit[];
  objects: Map<string, GitObject>;
}

export interface FakeGitHubHook {
  id: number;
  repo: string;
  url: string;
  secret: string;
  events: string[];
  active: boolean;
  contentType: string;
  insecureSsl: string;
}

/** A token request as the fake saw it. */
export type FakeGitHubTokenRequest = FakeTokenRequest;

export type FakeGitHubPushPayload = ReturnType<FakeGitHub["pushPayload"]>;

const ZERO = "0".repeat(40);
const NOT_FOUND: Reply = [404, { message: "Not Found" }];
const sha1 = (b: string | Buffer) => createHash("sha1").update(b).digest("hex");
const readBody = async (req: http.IncomingMessage) => (await readRequestBody(req)).toString("utf8");

export class FakeGitHub extends FakeOAuthProvider {
  /** GitHub's OAuth side: 8-hour user tokens with rotating refresh tokens, or classic ones (`expiringTokens = false`). */
  readonly oauth = new FakeOAuthServer({
    clientId: "gh-client-id",
    clientSecret: "gh-client-secret",
    accessTokenTtlS: 28800,
    accessTokenPrefix: (expiring) => (expiring ? "ghu" : "gho"),
    refreshTokenPrefix: "ghr",
    scope: "repo,read:user,user:email",
    extraTokenFields: (expiring) => (expiring ? { refresh_token_expires_in: 15897600 } : {}),
  });
  account = { login: "octo", id: 1, email: "octo@example.com", name: "Octo Cat" };
  truncateTrees = false;
  failNext: { status: number; headers?: Record<string, string>; pathPrefix?: string }[] = [];
  /** "METHOD /path?query" of each REST request. */
  requests: string[] = [];
  hooks: FakeGitHubHook[] = [];
  readonly repos = new Map<string, FakeGitHubRepo>();
  private nextRepoId = 1000;
  private nextHookId = 1;
  private lastTime = 0;

  /** `fullName` is "name" (owned by `account`) or "owner/name". */
  addRepo(fullName: string, opts: { defaultBranch?: string; private?: boolean; description?: string; files?: Record<string, string> } = {}): FakeGitHubRepo {
    const [owner, name] = fullName.includes("/") ? (fullName.split("/", 2) as [string, string]) : [this.account.login, fullName];
    const full_name = `${owner}/${name}`;
    if (this.repos.has(full_name.toLowerCase())) throw new Error(`repo ${full_name} exists`);
    const repo: FakeGitHubRepo = {
      id: this.nextRepoId++,
      name,
      full_name,
      owner,
      description: opts.description ?? null,
      private: opts.private ?? false,
      default_branch: opts.defaultBranch ?? "main",
      updated_at: "",
      files: new Map(),
      head: ZERO,
      commits: [],
      objects: new Map(),
    };
    this.repos.set(full_name.toLowerCase(), repo);
    this.commit(repo, new Map(Object.entries(opts.files ?? {})), "Initial commit", false);
    return repo;
  }

  repo(fullName: string): FakeGitHubRepo {
    const repo = this.repos.get((fullName.includes("/") ? fullName : `${this.account.login}/${fullName}`).toLowerCase());
    if (!repo) throw new Error(`no repo ${fullName}`);
    return repo;
  }

  putFile(fullName: string, path: string, content: string): FakeGitHubPushPayload {
    const repo = this.repo(fullName);
    return this.commit(repo, new Map(repo.files).set(path, content), `${repo.files.has(path) ? "Update" : "Create"} ${path}`, false);
  }

  deleteFile(fullName: string, path: string): FakeGitHubPushPayload {
    const repo = this.repo(fullName);
    if (!repo.files.has(path)) throw new Error(`${fullName} has no ${path}`);
    const files = new Map(repo.files);
    files.delete(path);
    return this.commit(repo, files, `Delete ${path}`, false);
  }

  /** Replaces the whole tree with a commit that does not descend from the old head. */
  forcePush(fullName: string, files: Record<string, string>): FakeGitHubPushPayload {
    return this.commit(this.repo(fullName), new Map(Object.entries(files)), "Rewrite history", true);
  }

  /** The push event's payload for a commit (the head by default). */
  pushPayload(fullName: string, sha?: string) {
    const repo = this.repo(fullName);
    const c = repo.commits.find((x) => x.id === (sha ?? repo.head));
    if (!c) throw new Error(`no commit ${sha} in ${fullName}`);
    const author = { name: this.account.name, email: this.account.email, username: this.account.login };
    const commit = { id: c.id, tree_id: c.tree, distinct: true, message: c.message, timestamp: c.timestamp, author, committer: author };
    const head_commit = { ...commit, added: c.added, modified: c.modified, removed: c.removed };
    return {
      ref: `refs/heads/${repo.default_branch}`,
      before: c.before,
      after: c.id,
      forced: c.forced,
      created: c.before === ZERO,
      deleted: false,
      repository: {
        id: repo.id,
        name: repo.name,
        full_name: repo.full_name,
        private: repo.private,
        default_branch: repo.default_branch,
        owner: { login: repo.owner },
      },
      pusher: { name: this.account.login, email: this.account.email },
      sender: { login: this.account.login, id: this.account.id },
      head_commit,
      commits: [head_commit],
    };
  }

  /** POSTs a signed webhook delivery to the repo's active hooks (or the given hook); answers the first response. */
  async deliver(
    target: string | FakeGitHubRepo | FakeGitHubHook,
    payload: unknown,
    opts: { event?: string; deliveryId?: string; tamper?: boolean; signature?: string } = {},
  ): Promise<{ status: number; body: string }> {
    const full = typeof target === "object" && "secret" in target ? null : this.repo(typeof target === "string" ? target : target.full_name).full_name;
    const hooks = full === null ? [target as FakeGitHubHook] : this.hooks.filter((h) => h.active && h.repo === full);
    if (!hooks.length) throw new Error(`no active hook for ${full}`);
    let first: { status: number; body: string } | undefined;
    for (const hook of hooks) {
      const body = JSON.stringify(payload);
      const signature = opts.signature ?? (hook.secret ? `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}` : undefined);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": "GitHub-Hookshot/fake",
        "x-github-event": opts.event ?? "push",
        "x-github-delivery": opts.deliveryId ?? randomUUID(),
        "x-github-hook-id": String(hook.id),
        ...(signature ? { "x-hub-signature-256": signature } : {}),
      };
      const sent = opts.tamper ? (body.endsWith("}") ? `${body.slice(0, -1)},"tampered":true}` : `${body} `) : body;
      const res = await fetch(hook.url, { method: "POST", headers, body: sent });
      const result = { status: res.status, body: await res.text() };
      first ??= result;
    }
    return first!;
  }

  private commit(repo: FakeGitHubRepo, files: Map<string, string>, message: string, forced: boolean): FakeGitHubPushPayload {
    const old = repo.files;
    const added = [...files.keys()].filter((p) => !old.has(p)).sort();
    const modified = [...files.keys()].filter((p) => old.has(p) && old.get(p) !== files.get(p)).sort();
    const removed = [...old.keys()].filter((p) => !files.has(p)).sort();
    const tree = this.writeTree(repo, files);
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const timestamp = new Date(this.lastTime).toISOString();
    const parent = forced || repo.head === ZERO ? null : repo.head;
    const id = sha1(`commit ${repo.full_name}\ntree ${tree}\nparent ${parent}\n${timestamp}\n${message}`);
    repo.commits.push({ id, message, tree, parent, before: repo.head, forced, added, modified, removed, timestamp });
    Object.assign(repo, { files, head: id, updated_at: timestamp });
    return this.pushPayload(repo.full_name, id);
  }

  /** Stores the blobs and trees of `files`; answers the root tree's sha. */
  private writeTree(repo: FakeGitHubRepo, files: Map<string, string>): string {
    type Dir = Map<string, Dir | string>;
    const root: Dir = new Map();
    for (const [path, content] of files) {
      const parts = path.split("/");
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        const next = dir.get(part);
        dir = typeof next === "object" ? next : (dir.set(part, new Map()).get(part) as Dir);
      }
      dir.set(parts.at(-1)!, content);
    }
    const store = (obj: GitObject): string => {
      const body = obj.type === "blob" ? obj.content : Buffer.from(obj.entries.map((e) => `${e.mode} ${e.name}\0${e.sha}`).join(""));
      const sha = sha1(Buffer.concat([Buffer.from(`${obj.type} ${body.length}\0`), body]));
      repo.objects.set(sha, obj);
      return sha;
    };
    const write = (dir: Dir): string => {
      const names = [...dir.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const entries = names.map((name): TreeEntry => {
        const v = dir.get(name)!;
        return typeof v === "string"
          ? { name, mode: "100644", sha: store({ type: "blob", content: Buffer.from(v) }) }
          : { name, mode: "040000", sha: write(v) };
      });
      return store({ type: "tree", entries });
    };
    return write(root);
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    const method = req.method ?? "GET";
    const send = ([status, body, headers]: Reply) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (url.pathname === "/login/oauth/authorize" && method === "GET") return this.oauth.authorize(url.searchParams, res);
    if (url.pathname === "/login/oauth/access_token" && method === "POST") return send(this.oauth.token(req, await readRequestBody(req)));
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    const i = this.failNext.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (i >= 0) {
      const [fail] = this.failNext.splice(i, 1);
      return send([fail!.status, { message: http.STATUS_CODES[fail!.status] ?? "Failure" }, fail!.headers]);
    }
    if (!this.oauth.bearer(req, "token")) return send([401, { message: "Bad credentials" }]);
    send(this.rest(method, url, await readBody(req), `http://${req.headers.host}`));
  }

  private rest(method: string, url: URL, body: string, base: string): Reply {
    const p = url.pathname;
    const q = url.searchParams;
    const a = this.account;
    if (method === "GET" && p === "/user") return [200, { login: a.login, id: a.id, name: a.name, email: null, type: "User" }];
    if (method === "GET" && p === "/user/emails") return [200, [{ email: a.email, primary: true, verified: true, visibility: null }]];
    if (method === "GET" && p === "/user/repos") return this.listRepos(q, base);
    const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(p);
    const repo = m && this.repos.get(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`.toLowerCase());
    if (!m || !repo) return NOT_FOUND;
    const api = `${base}/repos/${repo.full_name}`;
    const [route = "", arg = ""] = /^(branches|git\/trees|git\/blobs|hooks)(?:\/(.+))?$/.exec(m[3] ?? "")?.slice(1) ?? [m[3] ?? ""];
    const ref = decodeURIComponent(arg);
    const key = `${method} ${route}${arg ? "/:arg" : ""}`;
    if (key === "GET ") return [200, this.repoJson(repo, base)];
    if (key === "GET branches/:arg") {
      if (ref !== repo.default_branch) return [404, { message: "Branch not found" }];
      const tree = repo.commits.at(-1)!.tree;
      return [200, { name: ref, commit: { sha: repo.head, url: `${api}/commits/${repo.head}`, commit: { tree: { sha: tree } } }, protected: false }];
    }
    if (key === "GET git/trees/:arg") {
      const sha = ref === repo.default_branch ? repo.commits.at(-1)!.tree : (repo.commits.find((c) => c.id === ref)?.tree ?? ref);
      if (repo.objects.get(sha)?.type !== "tree") return NOT_FOUND;
      const truncated = q.has("recursive") && this.truncateTrees;
      return [200, { sha, url: `${api}/git/trees/${sha}`, tree: this.listTree(repo, sha, "", q.has("recursive") && !truncated, api), truncated }];
    }
    if (key === "GET git/blobs/:arg") {
      const blob = repo.objects.get(ref);
      if (blob?.type !== "blob") return NOT_FOUND;
      const content = blob.content.toString("base64").replace(/.{60}/g, "$&\n");
      return [200, { sha: ref, size: blob.content.length, url: `${api}/git/blobs/${ref}`, encoding: "base64", content }];
    }
    const hooks = this.hooks.filter((h) => h.repo === repo.full_name);
    if (key === "GET hooks") return [200, hooks.map((h) => this.hookJson(h, base))];
    if (key === "POST hooks") {
      let input: { active?: boolean; events?: string[]; config?: { url?: string; content_type?: string; secret?: string; insecure_ssl?: string | number } };
      try {
        input = JSON.parse(body) as typeof input;
      } catch {
        return [400, { message: "Problems parsing JSON" }];
      }
      const c = input.config ?? {};
      if (!c.url) return [422, { message: "Validation Failed", errors: [{ resource: "Hook", code: "custom", message: "Config must contain url" }] }];
      if (hooks.some((h) => h.url === c.url))
        return [422, { message: "Validation Failed", errors: [{ resource: "Hook", code: "custom", message: "Hook already exists on this repository" }] }];
      const hook: FakeGitHubHook = {
        id: this.nextHookId++,
        repo: repo.full_name,
        url: c.url,
        secret: c.secret ?? "",
        events: input.events ?? ["push"],
        active: input.active ?? true,
        contentType: c.content_type ?? "form",
        insecureSsl: String(c.insecure_ssl ?? "0"),
      };
      this.hooks.push(hook);
      return [201, this.hookJson(hook, base)];
    }
    if (key === "DELETE hooks/:arg") {
      const before = this.hooks.length;
      this.hooks = this.hooks.filter((h) => !(h.repo === repo.full_name && String(h.id) === ref));
      return this.hooks.length < before ? [204] : NOT_FOUND;
    }
    return NOT_FOUND;
  }

  private listRepos(q: URLSearchParams, base: string): Reply {
    const perPage = Math.min(Math.max(Number(q.get("per_page")) || 30, 1), 100);
    const page = Math.max(Number(q.get("page")) || 1, 1);
    const sort = q.get("sort") ?? "full_name";
    const key = (r: FakeGitHubRepo) => (sort === "full_name" ? r.full_name.toLowerCase() : sort === "created" ? String(r.id).padStart(12, "0") : r.updated_at);
    const dir = (q.get("direction") ?? (sort === "full_name" ? "asc" : "desc")) === "asc" ? 1 : -1;
    const all = [...this.repos.values()].sort((x, y) => dir * key(x).localeCompare(key(y)));
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (n: number, rel: string) => {
      const u = new URL(`${base}/user/repos?${q}`);
      u.searchParams.set("page", String(n));
      u.searchParams.set("per_page", String(perPage));
      return `<${u.href}>; rel="${rel}"`;
    };
    const links = [
      ...(page > 1 ? [link(page - 1, "prev")] : []),
      ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
      ...(page > 1 ? [link(1, "first")] : []),
    ];
    const repos = all.slice((page - 1) * perPage, page * perPage).map((r) => this.repoJson(r, base));
    return [200, repos, links.length ? { link: links.join(", ") } : {}];
  }

  private listTree(repo: FakeGitHubRepo, sha: string, prefix: string, deep: boolean, api: string): unknown[] {
    const tree = repo.objects.get(sha) as Extract<GitObject, { type: "tree" }>;
    return tree.entries.flatMap((e) => {
      const path = prefix + e.name;
      const obj = repo.objects.get(e.sha)!;
      if (obj.type === "blob") return [{ path, mode: e.mode, type: "blob", sha: e.sha, size: obj.content.length, url: `${api}/git/blobs/${e.sha}` }];
      const item = { path, mode: e.mode, type: "tree", sha: e.sha, url: `${api}/git/trees/${e.sha}` };
      return deep ? [item, ...this.listTree(repo, e.sha, `${path}/`, deep, api)] : [item];
    });
  }

  private repoJson(r: FakeGitHubRepo, base: string) {
    return {
      id: r.id,
      name: r.name,
      full_name: r.full_name,
      owner: { login: r.owner },
      private: r.private,
      description: r.description,
      default_branch: r.default_branch,
      updated_at: r.updated_at,
      pushed_at: r.updated_at,
      html_url: `${base}/${r.full_name}`,
      url: `${base}/repos/${r.full_name}`,
    };
  }

  private hookJson(h: FakeGitHubHook, base: string) {
    const config = { url: h.url, content_type: h.contentType, insecure_ssl: h.insecureSsl };
    return { type: "Repository", id: h.id, name: "web", active: h.active, events: h.events, config, url: `${base}/repos/${h.repo}/hooks/${h.id}` };
  }
}
