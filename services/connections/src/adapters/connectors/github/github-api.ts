import { ProviderError, requestJson, type RetryPolicy, withRetries } from "@engram/provider-http";
import { z } from "zod";
import { ConnectorError } from "../../../domain/errors";
import { withAccessToken } from "../provider-auth";

/**
 * The few GitHub REST calls the GitHub connector makes: the account
 * (`/user`, `/user/emails`), the repositories it can read, a branch's head,
 * git trees and blobs, and repository webhooks.
 *
 * On provider-http rather than @octokit/rest: every connector then shares one
 * retry policy (Retry-After honoured, truncated exponential backoff), one
 * timeout and one mapping of provider failures to the sync error codes, and a
 * 401 goes through the connection's one token path (refresh with rotation,
 * then retry once) instead of an Octokit auth strategy beside it. Octokit's
 * throttling plugin would be a second, differently configured retry layer.
 */

export const GITHUB_API_URL = "https://api.github.com";
const RETRIES: RetryPolicy = { maxRetries: 3, initialBackoffMs: 500, maxBackoffMs: 30_000 };
const HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "Engram-Connector" };

class GitHubHttpError extends ProviderError {
  override name = "GitHubHttpError";
}

const repoSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    full_name: z.string(),
    description: z.string().nullish(),
    private: z.boolean().optional(),
    default_branch: z.string().optional(),
    updated_at: z.string().nullish(),
    html_url: z.string().optional(),
  })
  .passthrough();
export type GitHubRepo = z.infer<typeof repoSchema>;

const treeEntry = z.object({ path: z.string(), type: z.string(), sha: z.string(), size: z.number().optional(), mode: z.string().optional() }).passthrough();
export type GitHubTreeEntry = z.infer<typeof treeEntry>;
const treeSchema = z.object({ sha: z.string(), tree: z.array(treeEntry), truncated: z.boolean().optional() }).passthrough();
const blobSchema = z.object({ sha: z.string(), content: z.string(), encoding: z.string() }).passthrough();
const branchSchema = z.object({ name: z.string(), commit: z.object({ sha: z.string() }).passthrough() }).passthrough();
const userSchema = z.object({ login: z.string(), email: z.string().nullish() }).passthrough();
const emailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean().optional(), verified: z.boolean().optional() }).passthrough());
const hookSchema = z.object({ id: z.number().int() }).passthrough();

/** The access token of the connection, and a fresh one after the provider refused `failed`. */
export interface GitHubAuth {
  token(): Promise<string>;
  refreshed(failed: string): Promise<string>;
}

/** A GitHub failure as the sync run reports it. */
export function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (e instanceof ProviderError) {
    if (e.status === 401) return new ConnectorError("auth_expired", "GitHub refused the connection's token", { cause: e });
    if (e.status === 429 || (e.status === 403 && (e.retryAfterMs !== undefined || /rate limit/i.test(e.serverMessage ?? ""))))
      return new ConnectorError("rate_limited", "GitHub is rate limiting", { retryAfterMs: e.retryAfterMs, cause: e });
    if (e.retryable) return new ConnectorError("provider_unavailable", e.message, { cause: e });
  }
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

export class GitHubApi {
  private readonly base: string;
  constructor(
    private readonly auth: GitHubAuth,
    private readonly o: { baseUrl?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {
    this.base = (o.baseUrl ?? GITHUB_API_URL).replace(/\/+$/, "");
  }

  async user(): Promise<{ login: string; email?: string }> {
    const u = userSchema.parse(await this.json("GET", "/user"));
    if (u.email) return { login: u.login, email: u.email };
    // The public profile often hides the email: the primary verified one (user:email scope).
    try {
      const emails = emailsSchema.parse(await this.json("GET", "/user/emails"));
      const primary = emails.find((e) => e.primary && e.verified !== false) ?? emails[0];
      return { login: u.login, ...(primary ? { email: primary.email } : {}) };
    } catch {
      return { login: u.login };
    }
  }

  /** One page of the repositories the account can read, most recently updated first; `hasNext` from the Link header. */
  async repos(page: number, perPage: number): Promise<{ repos: GitHubRepo[]; hasNext: boolean }> {
    const q = new URLSearchParams({ per_page: String(perPage), page: String(page), sort: "updated" });
    const { body, headers } = await this.call("GET", `/user/repos?${q}`);
    return { repos: z.array(repoSchema).parse(body), hasNext: /rel="next"/.test(headers.get("link") ?? "") };
  }

  /** The repository, or undefined when it does not exist or the account cannot read it. */
  async repo(fullName: string): Promise<GitHubRepo | undefined> {
    return this.orMissing(async () => repoSchema.parse(await this.json("GET", `/repos/${repoPath(fullName)}`)));
  }

  /** The commit the branch points at, or undefined when the branch (or repository) is gone. */
  async branchHead(fullName: string, branch: string): Promise<string | undefined> {
    return this.orMissing(
      async () => branchSchema.parse(await this.json("GET", `/repos/${repoPath(fullName)}/branches/${encodeURIComponent(branch)}`)).commit.sha,
    );
  }

  async tree(fullName: string, sha: string, recursive: boolean): Promise<{ entries: GitHubTreeEntry[]; truncated: boolean }> {
    const t = treeSchema.parse(await this.json("GET", `/repos/${repoPath(fullName)}/git/trees/${encodeURIComponent(sha)}${recursive ? "?recursive=1" : ""}`));
    return { entries: t.tree, truncated: t.truncated === true };
  }

  /** A blob's bytes, or undefined when it is gone. */
  async blob(fullName: string, sha: string): Promise<Buffer | undefined> {
    return this.orMissing(async () => {
      const b = blobSchema.parse(await this.json("GET", `/repos/${repoPath(fullName)}/git/blobs/${encodeURIComponent(sha)}`));
      return b.encoding === "base64" ? Buffer.from(b.content, "base64") : Buffer.from(b.content, "utf8");
    });
  }

  /** Registers a push webhook; undefined when the account may not (no admin rights on the repository). */
  async createHook(fullName: string, url: string, secret: string): Promise<number | undefined> {
    try {
      const body = { name: "web", active: true, events: ["push"], config: { url, content_type: "json", secret, insecure_ssl: "0" } };
      return hookSchema.parse(await this.json("POST", `/repos/${repoPath(fullName)}/hooks`, body)).id;
    } catch (e) {
      if (e instanceof ProviderError && (e.status === 403 || e.status === 404 || e.status === 422)) return undefined;
      throw toConnectorError(e);
    }
  }

  /** The ids of the repository's webhooks; undefined when the account may not list them. */
  async hookIds(fullName: string): Promise<number[] | undefined> {
    try {
      return z
        .array(hookSchema)
        .parse(await this.json("GET", `/repos/${repoPath(fullName)}/hooks?per_page=100`))
        .map((h) => h.id);
    } catch (e) {
      if (e instanceof ProviderError && (e.status === 403 || e.status === 404)) return undefined;
      throw toConnectorError(e);
    }
  }

  async deleteHook(fullName: string, id: number): Promise<void> {
    await this.orMissing(() => this.call("DELETE", `/repos/${repoPath(fullName)}/hooks/${id}`));
  }

  private async orMissing<T>(f: () => Promise<T>): Promise<T | undefined> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof ProviderError && e.status === 404) return undefined;
      throw toConnectorError(e);
    }
  }

  private async json(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<unknown> {
    return (await this.call(method, path, body)).body;
  }

  /** One call with retries; a 401 gets one fresh token and one more try. */
  private async call(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<{ body: unknown; headers: Headers }> {
    return withAccessToken(this.auth, (token) => this.once(method, path, token, body));
  }

  private async once(method: "GET" | "POST" | "DELETE", path: string, token: string, body?: unknown): Promise<{ body: unknown; headers: Headers }> {
    const what = `GitHub ${method} ${path.split("?")[0]}`;
    const res = await withRetries(
      async () => {
        try {
          return await requestJson({
            method,
            url: `${this.base}${path}`,
            headers: HEADERS,
            apiKey: token,
            body,
            timeoutMs: this.o.timeoutMs ?? 30_000,
            fetch: this.o.fetch ?? fetch,
            what,
            errorClass: GitHubHttpError,
          });
        } catch (e) {
          // GitHub's secondary rate limit answers 403 with Retry-After: wait as told, like a 429.
          if (e instanceof ProviderError && e.status === 403 && e.retryAfterMs !== undefined)
            throw new GitHubHttpError(e.message, { retryable: true, status: 403, retryAfterMs: e.retryAfterMs, serverMessage: e.serverMessage });
          throw e;
        }
      },
      RETRIES,
      { errorClass: GitHubHttpError, what },
    );
    if (!res.text) return { body: undefined, headers: res.headers };
    try {
      return { body: JSON.parse(res.text) as unknown, headers: res.headers };
    } catch {
      throw new GitHubHttpError(`${what} answered something that is not JSON`, { retryable: false });
    }
  }
}

/** owner/name as a URL path, each part encoded. */
function repoPath(fullName: string): string {
  return fullName.split("/").map(encodeURIComponent).join("/");
}
