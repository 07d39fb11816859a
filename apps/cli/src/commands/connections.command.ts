import type Supermemory from "supermemory";
import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";
import { table, type Cell, type Colors } from "../io";
import { parseMetadata } from "./add.command";
import { parseNumber } from "./search.command";

/** A sync run, as `lastSyncRun` and `GET /v3/connections/{id}/runs` show it (docs/api-decisions.md section 14). */
export interface SyncRun {
  status: string;
  trigger?: string | null;
  errorCode: string | null;
  error: string | null;
  startedAt: string;
  completedAt?: string;
  documentsImported?: number;
}

/** A connection as the API answers it; `status` and `lastSyncRun` are Engram extensions. */
export interface Connection {
  id: string;
  provider: string;
  status?: string | null;
  containerTags?: string[];
  email?: string;
  documentLimit?: number;
  createdAt: string;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  lastSyncRun?: SyncRun;
}

/** The provider names the SDK knows; any other name goes to the server as it is (an unknown one is its 400). */
type Provider = Parameters<Supermemory["connections"]["create"]>[0];

/**
 * A path segment from the command line: the SDK encodes it, and the server
 * answers what it does not know (an unknown provider 400, an unknown
 * connection 404); only "." and "..", which would change the request's path, are refused here.
 */
function segment(what: string, value: string): string {
  if (value === "" || value === "." || value === "..") throw new UsageError(`invalid ${what} '${value}'`);
  return value;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) of an ISO timestamp. */
const when = (iso: string | undefined) => (iso ? iso.slice(0, 19).replace("T", " ") : "");

const paintConnectionStatus = (pc: Colors) => (s: string) =>
  s === "active" ? pc.green(s) : s === "pending_authorization" ? pc.yellow(s) : s === "deleting" ? pc.dim(s) : pc.red(s);
const paintRunStatus = (pc: Colors) => (s: string) => (s === "succeeded" ? pc.green(s) : s === "failed" ? pc.red(s) : pc.yellow(s));

/** One line of a run: status, documents imported, start, error code. */
function runSummary(run: SyncRun, pc: Colors): Cell {
  const text = `${run.status}, ${run.documentsImported ?? 0} imported, ${when(run.startedAt)}${run.errorCode ? ` (${run.errorCode})` : ""}`;
  return [text, (s) => `${paintRunStatus(pc)(run.status)}${s.slice(run.status.length)}`];
}

/** `engram connections list`: POST /v3/connections/list (of the container tag when one is set, else every connection). */
export async function connectionsList(ctx: CommandContext): Promise<number> {
  const pc = ctx.printer.color;
  const tag = ctx.chosenContainerTag;
  const res = (await ctx.client.connections.list(tag ? { containerTags: [tag] } : {})) as unknown as Connection[];
  const p = ctx.printer;
  p.result(res, () => {
    if (res.length === 0) {
      p.line(pc.dim(tag ? `no connections in ${tag}` : "no connections"));
      return;
    }
    const rows: Cell[][] = res.map((c) => [
      [c.id, pc.dim],
      c.provider,
      c.status ? [c.status, paintConnectionStatus(pc)] : ["-", pc.dim],
      c.containerTags?.join(", ") || "-",
      c.email || ["-", pc.dim],
      c.lastSyncRun ? runSummary(c.lastSyncRun, pc) : ["never", pc.dim],
    ]);
    for (const line of table(["ID", "PROVIDER", "STATUS", "CONTAINER TAGS", "EMAIL", "LAST SYNC (UTC)"], rows, pc)) p.line(line);
    p.line(pc.dim(`${res.length} connection(s)${tag ? ` in ${tag}` : ""}`));
  });
  return 0;
}

/** `engram connections get <id>`: GET /v3/connections/{id}, with its last sync run. */
export async function connectionsGet(ctx: CommandContext, id: string): Promise<number> {
  const pc = ctx.printer.color;
  const c = (await ctx.client.connections.getByID(segment("connection id", id))) as unknown as Connection;
  const p = ctx.printer;
  p.result(c, () => {
    p.line(`${pc.bold(c.provider)}  ${pc.dim(c.id)}`);
    p.fields([
      ["status", c.status ? paintConnectionStatus(pc)(c.status) : undefined],
      ["containerTags", c.containerTags?.join(", ")],
      ["email", c.email],
      ["documentLimit", c.documentLimit],
      ["createdAt", c.createdAt],
      ["expiresAt", c.expiresAt],
      ["metadata", c.metadata && Object.keys(c.metadata).length ? JSON.stringify(c.metadata) : undefined],
    ]);
    const run = c.lastSyncRun;
    if (!run) {
      p.fields([["lastSync", pc.dim("never")]]);
      return;
    }
    p.line("last sync:");
    p.fields([
      ["status", paintRunStatus(pc)(run.status)],
      ["trigger", run.trigger],
      ["imported", run.documentsImported],
      ["startedAt", run.startedAt],
      ["completedAt", run.completedAt],
      ["errorCode", run.errorCode ? pc.red(run.errorCode) : undefined],
      ["error", run.error],
    ]);
  });
  return 0;
}

/** `engram connections runs <id>`: GET /v3/connections/{id}/runs?limit= (an Engram extension), newest first. */
export async function connectionsRuns(ctx: CommandContext, id: string, o: { limit?: string }): Promise<number> {
  const pc = ctx.printer.color;
  segment("connection id", id);
  const limit = parseNumber("--limit", o.limit, 1, 100, true) ?? 20;
  const res = await ctx.client.get<{ runs: SyncRun[] }>(`/v3/connections/${encodeURIComponent(id)}/runs`, { query: { limit } });
  const p = ctx.printer;
  p.result(res, () => {
    if (res.runs.length === 0) {
      p.line(pc.dim(`no sync runs of ${id}`));
      return;
    }
    const rows: Cell[][] = res.runs.map((r) => [
      when(r.startedAt),
      [r.status, paintRunStatus(pc)],
      r.trigger ?? ["-", pc.dim],
      String(r.documentsImported ?? 0),
      r.completedAt ? when(r.completedAt) : ["-", pc.dim],
      r.errorCode || r.error ? [[r.errorCode, r.error].filter(Boolean).join(": "), pc.red] : "",
    ]);
    for (const line of table(["STARTED (UTC)", "STATUS", "TRIGGER", "IMPORTED", "COMPLETED (UTC)", "ERROR"], rows, pc)) p.line(line);
    p.line(pc.dim(`${res.runs.length} run(s) of ${id}, newest first`));
  });
  return 0;
}

export interface CreateOptions {
  metadata?: string;
  documentLimit?: string;
  redirectUrl?: string;
}

/**
 * `engram connections create <provider>`: POST /v3/connections/{provider}.
 * Direct connectors (web-crawler, s3, granola) are active at once; an OAuth
 * one answers the consent link to open (its `expiresIn` is set).
 */
export async function connectionsCreate(ctx: CommandContext, provider: string, o: CreateOptions): Promise<number> {
  const pc = ctx.printer.color;
  const name = segment("provider", provider) as Provider;
  const metadata = parseMetadata(o.metadata);
  const documentLimit = parseNumber("--document-limit", o.documentLimit, 1, 10_000, true);
  if (o.redirectUrl !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(o.redirectUrl);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:"))
      throw new UsageError(`--redirect-url must be an absolute http(s) URL, got '${o.redirectUrl}'`);
  }
  const tag = ctx.chosenContainerTag;
  const res = await ctx.client.connections.create(name, {
    ...(tag ? { containerTag: tag } : {}),
    ...(metadata ? { metadata } : {}),
    ...(documentLimit !== undefined ? { documentLimit } : {}),
    ...(o.redirectUrl !== undefined ? { redirectUrl: o.redirectUrl } : {}),
  });
  const p = ctx.printer;
  p.result(res, () => {
    p.line(`created ${provider} connection ${res.id}${tag ? ` in ${tag}` : ""}`);
    if (res.expiresIn && res.authLink) {
      p.line(`open this link to authorize it (valid for ${res.expiresIn}):`);
      p.line(res.authLink);
    } else p.line(pc.dim(`its first sync has started: see \`engram connections runs ${res.id}\``));
  });
  return 0;
}

/** `engram connections sync <provider>`: POST /v3/connections/{provider}/import (202, plain text): a sync of the provider's connections. */
export async function connectionsSync(ctx: CommandContext, provider: string): Promise<number> {
  const pc = ctx.printer.color;
  const name = segment("provider", provider) as Provider;
  const tag = ctx.chosenContainerTag;
  const message = await ctx.client.connections.import(name, tag ? { containerTags: [tag] } : {});
  const p = ctx.printer;
  p.result({ provider, ...(tag ? { containerTags: [tag] } : {}), message }, () =>
    p.line(`started a sync of the ${provider} connections${tag ? ` of ${tag}` : ""}${message ? pc.dim(` (${String(message).trim()})`) : ""}`),
  );
  return 0;
}

/** `engram connections delete <id>`: DELETE /v3/connections/{id}?deleteDocuments=true|false. */
export async function connectionsDelete(ctx: CommandContext, id: string, o: { keepDocuments?: boolean }): Promise<number> {
  const deleteDocuments = !o.keepDocuments;
  const res = await ctx.client.connections.deleteByID(segment("connection id", id), { deleteDocuments: String(deleteDocuments) });
  const p = ctx.printer;
  p.result({ ...res, deleteDocuments }, () =>
    p.line(`deleted ${res.provider} connection ${res.id}${deleteDocuments ? " and the documents it imported" : " (its documents are kept)"}`),
  );
  return 0;
}
