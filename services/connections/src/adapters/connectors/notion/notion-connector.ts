import { createHash } from "node:crypto";
import type { PageObjectResponse } from "@notionhq/client";
import { verifyWebhookSignature } from "@notionhq/client";
import type { Logger } from "@engram/observability";
import type { Connection, ConnectionItem } from "../../../domain/connection";
import type { TokenSet } from "../../../domain/oauth";
import type {
  AccountIdentity,
  Connector,
  ConnectorChange,
  ProviderAuth,
  WebhookNotification,
  WebhookReader,
  WebhookRoute,
  WebhookVerdict,
} from "../../../app/sync-ports";
import { isItemFailure, isNotFound, NotionApi, type NotionRetry, type SearchResult, toConnectorError } from "./notion-api";
import { type BlockNode, blocksToMarkdown, pageTitle, pageToMarkdown, propertiesMetadata } from "./notion-markdown";

/**
 * The Notion connector: the pages and database rows a user shared with
 * Engram's Notion integration, as Markdown documents.
 *
 * - Account: Notion's token answer names the workspace and the user
 *   (`identify` reads it, no API call): the connection's account is the
 *   workspace id, which routes Notion's webhook events to it.
 * - Listing: `search` for pages sorted by `last_edited_time` descending, read
 *   until the results are older than the cursor (the newest edit time seen,
 *   minus an overlap: Notion's search index lags and its timestamps are
 *   rounded to the minute), plus the rows of every shared data source edited
 *   since then (`dataSources.query`, a `last_edited_time` filter), plus the
 *   pages named by webhook events received in the last minutes (read by id,
 *   so a late or out-of-order event still finds the current state), plus the
 *   trashed pages edited since then (`search` with `in_trash`).
 * - Content: a page's blocks, read recursively, as Markdown; database rows
 *   also carry their properties as flat metadata and as `Property: value`
 *   lines under the title. Child pages are their own documents (linked).
 * - Versions: Notion's `last_edited_time` has minute precision, so two edits
 *   in the same minute share it. The version is that time plus a hash of the
 *   rendered document, and an item read while its minute may still change
 *   (within SETTLE_MS of the edit) is marked `open` in its state and read
 *   again on the next sync; a `settled` item with the same edit time is
 *   skipped without reading its blocks.
 * - Deletes: trashed pages seen in a listing or an event, pages that answer
 *   404 (no longer shared), and a full listing at most once a day (and
 *   whenever the cursor is missing or unreadable) that deletes the known
 *   pages it no longer finds: Notion reports no deletions to a poll. The
 *   prune is skipped when Notion says the listing was cut short.
 * - Webhooks: one URL for every workspace (`route`); the subscription is
 *   made in the integration's settings. Its first POST carries a
 *   `verification_token`, logged for the operator (it has to be pasted into
 *   Notion and set as NOTION_WEBHOOK_VERIFICATION_TOKEN); every later event
 *   is checked against `X-Notion-Signature` (HMAC-SHA256 of the raw body
 *   with that token, compared in constant time by the client's
 *   `verifyWebhookSignature`) and names the workspace to sync.
 */

/** Days between two full listings that prune what is no longer shared. */
export const PRUNE_INTERVAL_MS = 24 * 3_600_000;
/** Re-read window below the newest edit time seen (minute rounding, search index lag). */
export const CURSOR_OVERLAP_MS = 10 * 60_000;
/** After this long, an edit time's minute is closed (with clock skew): a read then is final. */
export const SETTLE_MS = 3 * 60_000;
/** Pages named by webhook events are read by id for this long after the event. */
const EVENT_TTL_MS = 15 * 60_000;
const MAX_EVENT_PAGES = 500;
const MAX_EVENT_WORKSPACES = 1000;
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** Nesting read below a page, and blocks read per page at most. */
const MAX_DEPTH = 12;
const MAX_BLOCKS = 20_000;

const SETTLED = "settled";
const OPEN = "open";

interface NotionCursor {
  v: 1;
  /** Listings stop below this edit time. */
  since: string;
  /** The last full listing (prune). */
  prunedAt: string;
}

/** The cursor when it is one this connector wrote; anything else means a full listing. */
export function parseCursor(raw: string | undefined): NotionCursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(raw) as Partial<NotionCursor>;
    if (c.v !== 1 || typeof c.since !== "string" || typeof c.prunedAt !== "string") return undefined;
    if (Number.isNaN(Date.parse(c.since)) || Number.isNaN(Date.parse(c.prunedAt))) return undefined;
    return { v: 1, since: c.since, prunedAt: c.prunedAt };
  } catch {
    return undefined;
  }
}

/** What one sync saw: for the prune, the next cursor and the pages already handled. */
class RunState {
  readonly listed = new Set<string>();
  readonly handled = new Set<string>();
  newest: number | undefined;
  /** The oldest edit time to list again next time (a page that failed, or was read while its minute was open). */
  oldestRevisit: number | undefined;
  incomplete = false;
  saw(editedAt: string): void {
    const t = Date.parse(editedAt);
    if (!Number.isNaN(t) && (this.newest === undefined || t > this.newest)) this.newest = t;
  }
  revisit(editedAt: string): void {
    const t = Date.parse(editedAt);
    if (!Number.isNaN(t) && (this.oldestRevisit === undefined || t < this.oldestRevisit)) this.oldestRevisit = t;
  }
}

/**
 * The pages named by recent webhook events, per workspace: the next syncs of
 * the workspace's connections read them by id. In memory: an optimisation
 * (a replica that did not receive the event finds the change in its listing
 * or its daily prune).
 */
class RecentEvents {
  private readonly byWorkspace = new Map<string, Map<string, number>>();
  add(workspace: string, pageId: string, at: number): void {
    let pages = this.byWorkspace.get(workspace);
    if (!pages) {
      if (this.byWorkspace.size >= MAX_EVENT_WORKSPACES) this.byWorkspace.delete(this.byWorkspace.keys().next().value!);
      pages = new Map();
      this.byWorkspace.set(workspace, pages);
    }
    pages.delete(pageId);
    pages.set(pageId, at);
    if (pages.size > MAX_EVENT_PAGES) pages.delete(pages.keys().next().value!);
  }
  recent(workspace: string | undefined, now: number): string[] {
    const pages = workspace ? this.byWorkspace.get(workspace) : undefined;
    if (!pages) return [];
    for (const [id, at] of pages) if (at + EVENT_TTL_MS < now) pages.delete(id);
    return [...pages.keys()];
  }
}

/** Event types whose objects' content may have changed (comments, views and file uploads do not change a document). */
const SYNCED_EVENTS = /^(page|database|data_source)\./;

export interface NotionConnectorOptions {
  apiUrl: string;
  authOf: (c: Connection) => ProviderAuth;
  /** The integration's webhook verification token (NOTION_WEBHOOK_VERIFICATION_TOKEN); unset: events are refused. */
  webhookVerificationToken?: string;
  logger: Logger;
  /** Tests: shorter waits, another clock. */
  retry?: NotionRetry;
  now?: () => Date;
}

export class NotionConnector implements Connector {
  private readonly events = new RecentEvents();
  private readonly loggedTokens = new Set<string>();

  constructor(readonly o: NotionConnectorOptions) {}

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  /** The account of a completed consent, from Notion's token answer (owner, workspace, bot). */
  async identify(tokens: TokenSet): Promise<AccountIdentity> {
    const x = tokens.extra as {
      workspace_id?: unknown;
      workspace_name?: unknown;
      bot_id?: unknown;
      owner?: { user?: { person?: { email?: unknown } } };
    };
    const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    const email = str(x.owner?.user?.person?.email);
    const workspaceId = str(x.workspace_id);
    const config = {
      ...(workspaceId ? { workspaceId } : {}),
      ...(str(x.workspace_name) ? { workspaceName: str(x.workspace_name)! } : {}),
      ...(str(x.bot_id) ? { botId: str(x.bot_id)! } : {}),
    };
    return { ...(email ? { email } : {}), ...(workspaceId ? { account: workspaceId } : {}), config };
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const api = new NotionApi(this.o.authOf(conn), { apiUrl: this.o.apiUrl, logger: this.o.logger, retry: this.o.retry });
    const now = this.now();
    const cursor = parseCursor(conn.cursor);
    const full = !cursor || now.getTime() - Date.parse(cursor.prunedAt) >= PRUNE_INTERVAL_MS;
    const since = full ? undefined : cursor.since;
    const run = new RunState();
    const ctx = { api, known, run, now: now.getTime(), signal };
    try {
      // Pages (database rows included) edited since the cursor, newest first; every page on a full listing.
      for await (const r of this.listing(ctx, { object: "page" }, since)) {
        if (r.kind === "page") yield* this.visit(ctx, r.page);
        else if (r.kind === "partial" && r.object === "page") yield* this.visitById(ctx, r.id);
      }
      // Rows of the shared data sources (databases), edited since the cursor.
      const sources: string[] = [];
      for await (const r of this.listing(ctx, { object: "data_source" }, undefined))
        if (r.kind === "data_source" && !r.dataSource.in_trash) sources.push(r.dataSource.id);
        else if (r.kind === "partial" && r.object === "data_source") sources.push(r.id);
      for (const id of sources) yield* this.rows(ctx, id, since);
      // Pages named by webhook events (a trashed or unshared page, a change the search index has not caught yet).
      for (const id of this.events.recent(conn.account, ctx.now)) yield* this.visitById(ctx, id);
      if (since) {
        // Pages trashed since the cursor (search leaves trashed pages out unless asked for them alone).
        for await (const r of this.listing(ctx, { inTrash: true }, since)) {
          const id = r.kind === "page" ? r.page.id : r.kind === "partial" && r.object === "page" ? r.id : undefined;
          if (id && !run.handled.has(id) && known.has(id)) {
            run.handled.add(id);
            yield { kind: "delete", itemKey: id, reason: "the page is in Notion's trash" };
          }
        }
      }
      if (full) {
        if (run.incomplete)
          yield { kind: "failure", itemKey: "prune", reason: "Notion's listing was incomplete: pages no longer shared are not removed this time" };
        else
          for (const key of known.keys())
            if (!run.listed.has(key) && !run.handled.has(key))
              yield { kind: "delete", itemKey: key, reason: "no longer shared with the integration (or deleted) in Notion" };
      }
    } catch (e) {
      throw toConnectorError(e);
    }
    yield { kind: "cursor", cursor: JSON.stringify(this.nextCursor(cursor, run, full, now)) };
  }

  private nextCursor(previous: NotionCursor | undefined, run: RunState, full: boolean, now: Date): NotionCursor {
    let since = run.newest !== undefined ? run.newest - CURSOR_OVERLAP_MS : previous ? Date.parse(previous.since) : now.getTime() - CURSOR_OVERLAP_MS;
    if (previous && !full) since = Math.max(since, Date.parse(previous.since));
    // A page that failed, or may still change within its minute, is listed again next time.
    if (run.oldestRevisit !== undefined) since = Math.min(since, run.oldestRevisit - CURSOR_OVERLAP_MS);
    return { v: 1, since: new Date(since).toISOString(), prunedAt: full || !previous ? now.toISOString() : previous.prunedAt };
  }

  /** A search listing, newest edit first, page after page; stops below `since`. */
  private async *listing(ctx: Ctx, p: { object?: "page" | "data_source"; inTrash?: boolean }, since: string | undefined): AsyncIterable<SearchResult> {
    const floor = since ? Date.parse(since) : undefined;
    let cursor: string | undefined;
    do {
      ctx.signal.throwIfAborted();
      const page = await ctx.api.search({ ...p, ...(cursor ? { cursor } : {}) });
      if (page.incomplete) ctx.run.incomplete = true;
      for (const r of page.results) {
        const edited = r.kind === "page" ? r.page.last_edited_time : r.kind === "data_source" ? r.dataSource.last_edited_time : undefined;
        if (floor !== undefined && edited !== undefined && Date.parse(edited) < floor) return;
        yield r;
      }
      cursor = page.next;
    } while (cursor);
  }

  /** The rows of a data source edited since `since` (all of them without). */
  private async *rows(ctx: Ctx, dataSourceId: string, since: string | undefined): AsyncIterable<ConnectorChange> {
    let cursor: string | undefined;
    do {
      ctx.signal.throwIfAborted();
      let page;
      try {
        page = await ctx.api.queryRows(dataSourceId, { ...(since ? { since } : {}), ...(cursor ? { cursor } : {}) });
      } catch (e) {
        if (!isNotFound(e) && !isItemFailure(e)) throw e;
        // Unshared meanwhile, or not queryable: its rows are not all known this time, so nothing is pruned.
        ctx.run.incomplete = true;
        if (isItemFailure(e)) yield { kind: "failure", itemKey: dataSourceId, reason: `the database could not be read: ${(e as Error).message}` };
        return;
      }
      if (page.incomplete) ctx.run.incomplete = true;
      for (const row of page.results) yield* this.visit(ctx, row);
      cursor = page.next;
    } while (cursor);
  }

  private async *visitById(ctx: Ctx, id: string): AsyncIterable<ConnectorChange> {
    if (ctx.run.handled.has(id)) return;
    const page = await ctx.api.page(id);
    if (page) {
      yield* this.visit(ctx, page);
      return;
    }
    ctx.run.handled.add(id);
    if (ctx.known.has(id)) yield { kind: "delete", itemKey: id, reason: "Notion no longer finds the page (deleted, or no longer shared)" };
  }

  /** One page: deleted when trashed, skipped when known and settled at this edit time, else read and imported. */
  private async *visit(ctx: Ctx, page: PageObjectResponse): AsyncIterable<ConnectorChange> {
    const { run, known } = ctx;
    if (run.handled.has(page.id)) return;
    run.handled.add(page.id);
    const edited = page.last_edited_time;
    if (page.in_trash || page.archived) {
      if (known.has(page.id)) yield { kind: "delete", itemKey: page.id, reason: "the page is in Notion's trash" };
      return;
    }
    run.listed.add(page.id);
    run.saw(edited);
    const item = known.get(page.id);
    if (item && item.version.startsWith(`${edited}#`) && item.state === SETTLED) return;
    ctx.signal.throwIfAborted();
    let blocks: BlockNode[];
    try {
      blocks = await this.tree(ctx, page.id, 0, { left: MAX_BLOCKS });
    } catch (e) {
      if (isNotFound(e)) {
        run.listed.delete(page.id);
        if (item) yield { kind: "delete", itemKey: page.id, reason: "Notion no longer finds the page (deleted, or no longer shared)" };
        return;
      }
      if (!isItemFailure(e)) throw e;
      run.revisit(edited);
      yield { kind: "failure", itemKey: page.id, reason: `the page could not be read: ${(e as Error).message}` };
      return;
    }
    const title = pageTitle(page);
    const markdown = pageToMarkdown(page, blocksToMarkdown(blocks));
    const bytes = Buffer.from(markdown, "utf8");
    if (bytes.length > MAX_DOCUMENT_BYTES) {
      yield { kind: "failure", itemKey: page.id, reason: `the page is over ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB as Markdown: skipped` };
      return;
    }
    const metadata = propertiesMetadata(page);
    const hash = createHash("sha256").update(markdown).update("\0").update(JSON.stringify(metadata)).digest("hex").slice(0, 16);
    const settled = ctx.now - Date.parse(edited) >= SETTLE_MS;
    if (!settled) run.revisit(edited);
    yield {
      kind: "upsert",
      itemKey: page.id,
      url: page.url,
      title,
      metadata,
      content: { bytes, mimeType: "text/markdown", fileName: `${fileStem(title)}.md` },
      version: `${edited}#${hash}`,
      state: settled ? SETTLED : OPEN,
    };
  }

  /** A block's children with theirs, depth first (child pages and databases are documents of their own: not descended into). */
  private async tree(ctx: Ctx, blockId: string, depth: number, budget: { left: number }): Promise<BlockNode[]> {
    const blocks = await ctx.api.children(blockId);
    budget.left -= blocks.length;
    const out: BlockNode[] = [];
    for (const block of blocks) {
      let children: BlockNode[] = [];
      if (block.has_children && block.type !== "child_page" && block.type !== "child_database" && depth + 1 < MAX_DEPTH && budget.left > 0) {
        ctx.signal.throwIfAborted();
        try {
          children = await this.tree(ctx, block.id, depth + 1, budget);
        } catch (e) {
          // A nested block Notion will not show (a synced block from an unshared page): the rest of the page still counts.
          if (!isNotFound(e) && !isItemFailure(e)) throw e;
        }
      }
      out.push({ block, children });
    }
    return out;
  }

  readonly webhooks: WebhookReader & { route(n: WebhookNotification): Promise<WebhookRoute> } = {
    route: async (n) => this.routeEvent(n),
    read: async (conn, n): Promise<WebhookVerdict> => {
      const route = await this.routeEvent(n);
      if (route.kind !== "accounts") return route;
      if (!conn.account || !route.accounts.includes(conn.account)) return { kind: "acknowledge", reason: "the event is about another workspace" };
      return { kind: "sync", ...(route.deliveryId ? { deliveryId: route.deliveryId } : {}) };
    },
  };

  /** Notion's integration webhook: the verification handshake, or a signed event naming its workspace. */
  private async routeEvent(n: WebhookNotification): Promise<WebhookRoute> {
    const signature = n.headers["x-notion-signature"];
    const token = this.o.webhookVerificationToken;
    if (signature === undefined) {
      const verification = readJson(n.body)?.verification_token;
      if (typeof verification === "string" && verification) return this.verification(verification);
      return { kind: "reject", status: 401, reason: "the event has no X-Notion-Signature" };
    }
    if (!token) return { kind: "reject", status: 503, reason: "NOTION_WEBHOOK_VERIFICATION_TOKEN is not set: Notion events cannot be verified" };
    if (!(await verifyWebhookSignature({ body: n.body, signature, verificationToken: token })))
      return { kind: "reject", status: 401, reason: "the X-Notion-Signature signature does not match" };
    const event = readJson(n.body);
    if (!event) return { kind: "reject", status: 400, reason: "the event is not JSON" };
    const type = typeof event.type === "string" ? event.type : "";
    const workspace = typeof event.workspace_id === "string" ? event.workspace_id : "";
    if (!workspace) return { kind: "acknowledge", reason: "the event names no workspace" };
    if (!SYNCED_EVENTS.test(type)) return { kind: "acknowledge", reason: `${type || "unnamed"} events do not change documents` };
    const entity = event.entity as { id?: unknown; type?: unknown } | undefined;
    if (entity?.type === "page" && typeof entity.id === "string") this.events.add(workspace, entity.id, this.now().getTime());
    return { kind: "accounts", accounts: [workspace], ...(typeof event.id === "string" && event.id ? { deliveryId: event.id } : {}) };
  }

  /** The subscription's verification request: acknowledged, and its token shown to the operator (once per process). */
  private verification(token: string): WebhookRoute {
    if (token === this.o.webhookVerificationToken) {
      this.o.logger.info("Notion sent its webhook verification token again; NOTION_WEBHOOK_VERIFICATION_TOKEN already holds it");
    } else if (!this.loggedTokens.has(token)) {
      this.loggedTokens.add(token);
      this.o.logger.warn(
        { verificationToken: token },
        "Notion webhook subscription verification: paste this token into Notion to verify the subscription, and set NOTION_WEBHOOK_VERIFICATION_TOKEN to it (then restart)",
      );
    }
    return { kind: "respond", body: "", contentType: "text/plain" };
  }
}

type Ctx = { api: NotionApi; known: ReadonlyMap<string, ConnectionItem>; run: RunState; now: number; signal: AbortSignal };

function readJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body.toString("utf8")) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A file name from a title: letters, digits, dashes; at most 80 characters. */
function fileStem(title: string): string {
  const s = title
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return s || "page";
}
