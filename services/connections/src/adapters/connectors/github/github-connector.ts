import { createHmac, timingSafeEqual } from "node:crypto";
import path from "node:path/posix";
import { InvalidArgumentError, type JsonObject } from "@engram/kernel";
import type { Connection, ConnectionItem } from "../../../domain/connection";
import type { TokenSet } from "../../../domain/oauth";
import type {
  AccountIdentity,
  Connector,
  ConnectorChange,
  ResourceSelection,
  WebhookNotification,
  WebhookTarget,
  WebhookVerdict,
} from "../../../app/sync-ports";
import { type GitHubAuth, GitHubApi, type GitHubTreeEntry, toConnectorError } from "./github-api";

/**
 * The GitHub connector: the documentation files of the repositories a
 * connection selected (configure), on their default branch.
 *
 * - Resources: the repositories the account can read (`/user/repos`).
 * - Configure: checks each repository with GitHub, registers one push
 *   webhook per repository (signed with the connection's webhook secret;
 *   skipped where the account lacks admin rights: those repositories follow
 *   the schedule only), removes the webhooks of repositories dropped.
 * - Sync: per repository, the default branch's head commit. An unchanged
 *   head is skipped with one call. A new head (a push, a force-push, missed
 *   events alike) is diffed as a tree against the ledger: blobs whose sha
 *   changed are imported, paths no longer in the tree are deleted. A push's
 *   own `commits[].added/modified/removed` are not relied on: GitHub lists at
 *   most 20 commits per push and none that a force-push dropped, while the
 *   tree diff costs one call (more when GitHub truncates a big tree: then
 *   the tree is walked directory by directory) and sees every change. The
 *   cursor (head per repository) moves after the repository's changes.
 * - Documentation files only: .md .mdx .markdown .rst .txt .adoc .org, up to
 *   1 MB, outside node_modules, vendor, dist and build.
 * - Webhooks: `X-Hub-Signature-256` checked in constant time before the body
 *   is read; pushes to a configured repository's default branch ask for a
 *   sync; pings and everything else are acknowledged.
 */

export const DOC_EXTENSIONS = new Set([".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc", ".org"]);
export const SKIPPED_DIRECTORIES = new Set(["node_modules", "vendor", "dist", "build"]);
export const MAX_DOC_BYTES = 1024 * 1024;
/** Most tree entries read per repository (a walk of a truncated tree stops there). */
const MAX_TREE_ENTRIES = 200_000;
const MAX_SELECTED = 100;

/** A selected repository as the connection's config keeps it. */
interface SelectedRepo {
  id: number;
  name: string;
  defaultBranch: string;
  htmlUrl?: string;
  /** The push webhook Engram registered, when it could. */
  hookId?: number;
}

export function isDocFile(e: Pick<GitHubTreeEntry, "path" | "type" | "size">): boolean {
  if (e.type !== "blob" || (e.size ?? 0) > MAX_DOC_BYTES) return false;
  const parts = e.path.split("/");
  if (parts.slice(0, -1).some((d) => SKIPPED_DIRECTORIES.has(d))) return false;
  return DOC_EXTENSIONS.has(path.extname(e.path).toLowerCase());
}

function selectedRepos(conn: Pick<Connection, "config">): SelectedRepo[] {
  const list = conn.config?.repositories;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (r): r is SelectedRepo & JsonObject =>
      typeof r === "object" && r !== null && !Array.isArray(r) && typeof r.id === "number" && typeof r.name === "string" && typeof r.defaultBranch === "string",
  );
}

function readHeads(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  try {
    const o = JSON.parse(raw) as unknown;
    return o && typeof o === "object" && !Array.isArray(o) ? Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v === "string")) : {};
  } catch {
    return {};
  }
}

const itemKeyOf = (repoId: number, filePath: string) => `${repoId}/${filePath}`;
const repoIdOfKey = (key: string) => key.slice(0, key.indexOf("/"));

/** The signature GitHub sends for a body: sha256=<hex HMAC-SHA256 with the webhook secret>. */
export function githubSignature(secret: Buffer | string, body: Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface GitHubConnectorOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The connection's tokens (OAuthFlow). */
  authOf: (conn: Connection) => GitHubAuth;
}

export class GitHubConnector implements Connector {
  constructor(private readonly o: GitHubConnectorOptions) {}

  /** The account behind a fresh token (the connection's email). */
  async identify(tokens: Pick<TokenSet, "accessToken">): Promise<AccountIdentity> {
    const { accessToken } = tokens;
    const api = new GitHubApi({ token: async () => accessToken, refreshed: async () => accessToken }, { baseUrl: this.o.baseUrl, fetch: this.o.fetch });
    try {
      return { email: (await api.user()).email };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  ready(conn: Connection): boolean {
    return selectedRepos(conn).length > 0;
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const api = this.api(conn);
    const repos = selectedRepos(conn);
    const selected = new Set(repos.map((r) => String(r.id)));
    const previous = readHeads(conn.cursor);
    const heads: Record<string, string> = Object.fromEntries(Object.entries(previous).filter(([id]) => selected.has(id)));
    try {
      // Repositories no longer selected: their documents go.
      for (const key of known.keys())
        if (!selected.has(repoIdOfKey(key))) yield { kind: "delete", itemKey: key, reason: "the repository is no longer selected" };
      for (const repo of repos) {
        signal.throwIfAborted();
        const head = await api.branchHead(repo.name, repo.defaultBranch);
        if (head === undefined) {
          // Gone, renamed away or no longer readable: kept until GitHub shows a tree again, reported on the run.
          yield { kind: "failure", itemKey: repo.name, reason: `${repo.name}@${repo.defaultBranch} is not readable (deleted, or access removed)` };
          continue;
        }
        if (previous[String(repo.id)] === head) continue;
        const seen = new Set<string>();
        for (const entry of await this.files(api, repo, head)) {
          const itemKey = itemKeyOf(repo.id, entry.path);
          seen.add(itemKey);
          if (known.get(itemKey)?.version === entry.sha) continue;
          signal.throwIfAborted();
          const bytes = await api.blob(repo.name, entry.sha);
          if (!bytes) {
            yield { kind: "failure", itemKey, reason: "the file's content is no longer on GitHub" };
            continue;
          }
          const markdown = /\.(md|mdx|markdown)$/i.test(entry.path);
          yield {
            kind: "upsert",
            itemKey,
            title: `${repo.name}: ${entry.path}`,
            filepath: `${repo.name}/${entry.path}`,
            url: `${repo.htmlUrl ?? `https://github.com/${repo.name}`}/blob/${encodeURIComponent(repo.defaultBranch)}/${entry.path.split("/").map(encodeURIComponent).join("/")}`,
            content: { bytes, mimeType: markdown ? "text/markdown" : "text/plain", fileName: path.basename(entry.path) },
            version: entry.sha,
          };
        }
        const prefix = `${repo.id}/`;
        for (const key of known.keys())
          if (key.startsWith(prefix) && !seen.has(key)) yield { kind: "delete", itemKey: key, reason: "the file is no longer on the branch" };
        heads[String(repo.id)] = head;
        yield { kind: "cursor", cursor: JSON.stringify(heads) };
      }
    } catch (e) {
      throw toConnectorError(e);
    }
    if (Object.keys(previous).some((id) => !selected.has(id))) yield { kind: "cursor", cursor: JSON.stringify(heads) };
  }

  /** The documentation files of the commit's tree: one recursive call, or a walk when GitHub truncates it. */
  private async files(api: GitHubApi, repo: SelectedRepo, commit: string): Promise<GitHubTreeEntry[]> {
    const whole = await api.tree(repo.name, commit, true);
    if (!whole.truncated) return whole.entries.filter(isDocFile);
    const out: GitHubTreeEntry[] = [];
    const queue: { prefix: string; sha: string }[] = [{ prefix: "", sha: commit }];
    let read = 0;
    while (queue.length && read < MAX_TREE_ENTRIES) {
      const dir = queue.shift()!;
      const level = await api.tree(repo.name, dir.sha, false);
      for (const e of level.entries) {
        read++;
        const full = { ...e, path: dir.prefix + e.path };
        if (e.type === "tree" && !SKIPPED_DIRECTORIES.has(e.path)) queue.push({ prefix: `${full.path}/`, sha: e.sha });
        else if (isDocFile(full)) out.push(full);
      }
    }
    return out;
  }

  readonly selection: ResourceSelection = {
    resources: async (conn, p) => {
      try {
        const { repos, hasNext } = await this.api(conn).repos(p.page, p.perPage);
        const resources = repos.map((r) => ({
          id: r.id,
          name: r.full_name,
          full_name: r.full_name,
          description: r.description ?? null,
          private: r.private ?? false,
          default_branch: r.default_branch ?? "main",
          updated_at: r.updated_at ?? null,
        }));
        return { resources, ...(hasNext ? {} : { totalCount: (p.page - 1) * p.perPage + repos.length }) };
      } catch (e) {
        throw toConnectorError(e);
      }
    },

    configure: async (conn, selection, webhook) => {
      if (selection.length > MAX_SELECTED) throw new InvalidArgumentError(`at most ${MAX_SELECTED} repositories per connection`);
      const api = this.api(conn);
      const before = new Map(selectedRepos(conn).map((r) => [r.id, r]));
      const chosen: SelectedRepo[] = [];
      try {
        for (const [i, sel] of selection.entries()) {
          if (typeof sel.id !== "number" || !Number.isInteger(sel.id) || typeof sel.name !== "string" || !/^[\w.-]+\/[\w.-]+$/.test(sel.name))
            throw new InvalidArgumentError(`resources[${i}]: needs id (the repository id) and name (owner/repository)`);
          if (sel.defaultBranch !== undefined && (typeof sel.defaultBranch !== "string" || sel.defaultBranch.length === 0 || sel.defaultBranch.length > 255))
            throw new InvalidArgumentError(`resources[${i}].defaultBranch: a branch name`);
          if (chosen.some((c) => c.id === sel.id)) continue;
          const repo = await api.repo(sel.name);
          if (!repo || repo.id !== sel.id)
            throw new InvalidArgumentError(`resources[${i}]: ${sel.name} (id ${sel.id}) is not a repository this connection can read`);
          const old = before.get(repo.id);
          const hookId = old?.hookId ?? (await api.createHook(repo.full_name, webhook.url, webhook.secret));
          chosen.push({
            id: repo.id,
            name: repo.full_name,
            defaultBranch: (sel.defaultBranch as string | undefined) ?? repo.default_branch ?? "main",
            ...(repo.html_url ? { htmlUrl: repo.html_url } : {}),
            ...(hookId !== undefined ? { hookId } : {}),
          });
        }
        for (const old of before.values()) if (old.hookId !== undefined && !chosen.some((c) => c.id === old.id)) await api.deleteHook(old.name, old.hookId);
      } catch (e) {
        throw e instanceof InvalidArgumentError ? e : toConnectorError(e);
      }
      const registered = chosen.filter((c) => c.hookId !== undefined).length;
      const unhooked = chosen.length - registered;
      return {
        config: { repositories: chosen.map((c) => ({ ...c })) },
        webhooksRegistered: registered,
        message:
          `${chosen.length} repositor${chosen.length === 1 ? "y" : "ies"} configured; syncing` +
          (unhooked ? ` (${unhooked} without a webhook: no admin rights; synced every 4 hours)` : ""),
      };
    },

    unconfigure: async (conn) => {
      const api = this.api(conn);
      for (const r of selectedRepos(conn)) if (r.hookId !== undefined) await api.deleteHook(r.name, r.hookId).catch(() => undefined);
    },
  };

  /** Registers again the push webhooks deleted at GitHub (where the account may list them); the config with their new ids. */
  async renew(conn: Connection, ctx: { now: Date; webhook: WebhookTarget }): Promise<JsonObject | undefined> {
    const repos = selectedRepos(conn);
    if (repos.length === 0) return undefined;
    const api = this.api(conn);
    const next: SelectedRepo[] = [];
    for (const r of repos) {
      const ids = await api.hookIds(r.name);
      let hookId = r.hookId;
      if (ids !== undefined && (hookId === undefined || !ids.includes(hookId))) hookId = await api.createHook(r.name, ctx.webhook.url, ctx.webhook.secret);
      const { hookId: _old, ...rest } = r;
      next.push({ ...rest, ...(hookId !== undefined ? { hookId } : {}) });
    }
    return { ...conn.config, repositories: next.map((r) => ({ ...r })) };
  }

  readonly webhooks: { read(conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict } = {
    read: (conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict => {
      const given = n.headers["x-hub-signature-256"] ?? "";
      const expected = githubSignature(secret, n.body);
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
        return { kind: "reject", status: 401, reason: "the X-Hub-Signature-256 signature does not match" };
      const event = n.headers["x-github-event"] ?? "";
      if (event !== "push") return { kind: "acknowledge", reason: `${event || "unnamed"} events are not synced` };
      let payload: { ref?: unknown; repository?: { id?: unknown } };
      try {
        payload = JSON.parse(n.body.toString("utf8")) as typeof payload;
      } catch {
        return { kind: "reject", status: 400, reason: "the push payload is not JSON" };
      }
      const repo = selectedRepos(conn).find((r) => r.id === payload.repository?.id);
      if (!repo) return { kind: "acknowledge", reason: "not a repository this connection syncs" };
      if (payload.ref !== `refs/heads/${repo.defaultBranch}`) return { kind: "acknowledge", reason: "not the default branch" };
      const deliveryId = n.headers["x-github-delivery"];
      return { kind: "sync", ...(deliveryId ? { deliveryId } : {}) };
    },
  };

  private api(conn: Connection): GitHubApi {
    return new GitHubApi(this.o.authOf(conn), { baseUrl: this.o.baseUrl, fetch: this.o.fetch });
  }
}
