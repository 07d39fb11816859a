/*
 * A fake of the parts of Notion a Notion connector uses, on 127.0.0.1 (node built-ins only):
 * - OAuth of a public integration (the shared FakeOAuthServer): GET /v1/oauth/authorize and
 *   POST /v1/oauth/token (client in HTTP Basic, JSON or form body; rotating refresh tokens, or none
 *   with `expiringTokens = false`, as older Notion tokens); the token answer carries Notion's
 *   `workspace_id`, `workspace_name`, `bot_id` and `owner: { type: "user", user: { person: { email } } }`.
 * - The REST API as @notionhq/client v5 calls it (`Notion-Version` required, Bearer tokens):
 *   POST /v1/search (pages and data sources shared with the integration, sorted by last_edited_time,
 *   `filter.value` page | data_source, `filter.in_trash` for trashed objects only, paged),
 *   GET /v1/pages/{id} (trashed pages too; 404 when not shared), GET /v1/blocks/{id}/children
 *   (paged, nested blocks by id), POST /v1/data_sources/{id}/query (rows, a last_edited_time
 *   timestamp filter, sorted, paged). Timestamps have minute precision, as Notion's.
 * Controls: `addPage`, `addDatabase`, `addRow`, `editPage`, `trash`, `restore`, `unshare`, `share`,
 * `failNext` (a status and headers for the next API request, by path prefix when given), `maxPageSize`,
 * `searchIncludesRows`, `searchIncomplete`, `clock`, `expireAccessTokens()`, `revoke()`, `issueTokens()`, and webhooks:
 * `sendVerification(url)` and `sendEvent(url, event, { tamper })` signed with `verificationToken`.
 * Logs: `requests`, `versions` (Notion-Version headers seen), `tokenRequests`, `refreshCount`.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { FakeOAuthProvider } from "./fake-http-server";
import { FakeOAuthServer, readRequestBody } from "./fake-oauth";

type Json = Record<string, unknown>;
type Reply = [status: number, body: unknown, headers?: Record<string, string>];

/** Rich text as the fake takes it: a string, or segments with annotations and links. */
export type FakeNotionText =
  string | { text: string; bold?: boolean; italic?: boolean; code?: boolean; strikethrough?: boolean; underline?: boolean; link?: string }[];

/**
 * A block as the fake takes it. `text` for text blocks; `children` nested blocks; `rows` the cells of a
 * table; `url` for media, bookmarks and embeds; `title` for child pages and databases; `checked` for to-dos;
 * `language` for code; `emoji` for callouts; `expression` for equations.
 */
export interface FakeNotionBlockInput {
  type: string;
  text?: FakeNotionText;
  children?: FakeNotionBlockInput[];
  rows?: FakeNotionText[][];
  header?: boolean;
  url?: string;
  caption?: string;
  name?: string;
  title?: string;
  checked?: boolean;
  language?: string;
  emoji?: string;
  expression?: string;
  pageId?: string;
}

/** A property value as the fake takes it (converted to Notion's shape). */
export type FakeNotionProperty =
  | { title: FakeNotionText }
  | { rich_text: FakeNotionText }
  | { number: number | null }
  | { select: string | null }
  | { status: string | null }
  | { multi_select: string[] }
  | { checkbox: boolean }
  | { date: string | null }
  | { people: { name: string; email?: string }[] }
  | { url: string | null }
  | { email: string | null }
  | { phone_number: string | null }
  | { relation: string[] };

interface StoredBlock {
  id: string;
  json: Json;
  children: StoredBlock[];
}

export interface FakeNotionPage {
  id: string;
  kind: "page";
  /** A page id, a data source id (a row), or undefined (workspace level). */
  parent?: { type: "page"; id: string } | { type: "data_source"; id: string; databaseId: string };
  properties: Json;
  blocks: StoredBlock[];
  inTrash: boolean;
  shared: boolean;
  createdTime: string;
  lastEditedTime: string;
}

export interface FakeNotionDataSource {
  id: string;
  kind: "data_source";
  databaseId: string;
  title: string;
  schema: Record<string, string>;
  inTrash: boolean;
  shared: boolean;
  createdTime: string;
  lastEditedTime: string;
}

export interface FakeNotionEvent {
  type: string;
  entityId: string;
  entityType?: "page" | "database" | "data_source" | "comment";
  /** The workspace the event is about (default: the fake's). */
  workspaceId?: string;
  id?: string;
}

const NOT_FOUND = (id: string): Reply => [
  404,
  {
    object: "error",
    status: 404,
    code: "object_not_found",
    message: `Could not find object with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  },
];
const ERROR_CODES: Record<number, string> = {
  400: "validation_error",
  401: "unauthorized",
  403: "restricted_resource",
  404: "object_not_found",
  409: "conflict_error",
  429: "rate_limited",
  500: "internal_server_error",
  502: "internal_server_error",
  503: "service_unavailable",
  504: "gateway_timeout",
  529: "service_overload",
};

const floorMinute = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
const compact = (id: string) => id.replace(/-/g, "");

function richText(t: FakeNotionText | undefined): Json[] {
  const segments = typeof t === "string" ? [{ text: t }] : (t ?? []);
  return segments
    .filter((s) => s.text !== "")
    .map((s) => {
      const link = "link" in s && s.link ? s.link : null;
      return {
        type: "text",
        text: { content: s.text, link: link ? { url: link } : null },
        annotations: {
          bold: "bold" in s && !!s.bold,
          italic: "italic" in s && !!s.italic,
          strikethrough: "strikethrough" in s && !!s.strikethrough,
          underline: "underline" in s && !!s.underline,
          code: "code" in s && !!s.code,
          color: "default",
        },
        plain_text: s.text,
        href: link,
      };
    });
}

export class FakeNotion extends FakeOAuthProvider {
  /** Notion's OAuth side: expiring access tokens with rotating refresh tokens (`expiringTokens = false`: one token, no refresh). */
  readonly oauth = new FakeOAuthServer({
    clientId: "notion-client-id",
    clientSecret: "notion-client-secret",
    tokenPrefix: "ntn",
    extraTokenFields: () => ({
      bot_id: this.botId,
      workspace_id: this.workspace.id,
      workspace_name: this.workspace.name,
      workspace_icon: null,
      owner: { type: "user", user: { object: "user", id: this.user.id, name: this.user.name, type: "person", person: { email: this.user.email } } },
      duplicated_template_id: null,
      request_id: randomUUID(),
    }),
  });
  workspace = { id: randomUUID(), name: "Acme Notes" };
  user = { id: randomUUID(), name: "Ada Lovelace", email: "ada@example.com" };
  botId = randomUUID();
  /** The subscription's verification token: events are signed with it. */
  verificationToken = `secret_${randomBytes(24).toString("base64url")}`;
  /** Where timestamps come from (rounded down to the minute). */
  clock: () => number = () => Date.now();
  /** Largest page of a listing the fake answers (Notion: 100). */
  maxPageSize = 100;
  /** Search lists database rows too (Notion does); false: rows only through their data source. */
  searchIncludesRows = true;
  /** Search answers `request_status: incomplete` (Notion's result limit reached). */
  searchIncomplete = false;
  failNext: { status: number; headers?: Record<string, string>; pathPrefix?: string }[] = [];
  /** "METHOD /path" of each API request. */
  requests: string[] = [];
  /** The Notion-Version header of each API request. */
  versions: string[] = [];
  readonly pages = new Map<string, FakeNotionPage>();
  readonly dataSources = new Map<string, FakeNotionDataSource>();
  private readonly blockIndex = new Map<string, { pageId: string; block: StoredBlock }>();

  private now(): string {
    return floorMinute(this.clock());
  }

  /** A page shared with the integration (at the workspace level, or under a page). */
  addPage(o: { title: string; blocks?: FakeNotionBlockInput[]; parentId?: string; shared?: boolean; id?: string }): FakeNotionPage {
    const now = this.now();
    const page: FakeNotionPage = {
      id: o.id ?? randomUUID(),
      kind: "page",
      ...(o.parentId ? { parent: { type: "page" as const, id: o.parentId } } : {}),
      properties: { title: { id: "title", type: "title", title: richText(o.title) } },
      blocks: [],
      inTrash: false,
      shared: o.shared ?? true,
      createdTime: now,
      lastEditedTime: now,
    };
    this.pages.set(page.id, page);
    page.blocks = this.storeBlocks(page.id, o.blocks ?? []);
    if (o.parentId) {
      const parent = this.pages.get(o.parentId);
      if (parent) {
        parent.blocks.push(this.storeBlock(parent.id, { type: "child_page", title: o.title }, page.id));
        parent.lastEditedTime = now;
      }
    }
    return page;
  }

  /** A database with one data source; `schema`: property name → type (a title property "Name" is added when none is given). */
  addDatabase(o: { title: string; schema?: Record<string, string>; shared?: boolean }): FakeNotionDataSource {
    const now = this.now();
    const schema = { ...o.schema };
    if (!Object.values(schema).includes("title")) schema.Name = "title";
    const ds: FakeNotionDataSource = {
      id: randomUUID(),
      kind: "data_source",
      databaseId: randomUUID(),
      title: o.title,
      schema,
      inTrash: false,
      shared: o.shared ?? true,
      createdTime: now,
      lastEditedTime: now,
    };
    this.dataSources.set(ds.id, ds);
    return ds;
  }

  /** A row of a data source: its properties and its page content. */
  addRow(dataSourceId: string, o: { properties: Record<string, FakeNotionProperty>; blocks?: FakeNotionBlockInput[] }): FakeNotionPage {
    const ds = this.dataSource(dataSourceId);
    const now = this.now();
    const page: FakeNotionPage = {
      id: randomUUID(),
      kind: "page",
      parent: { type: "data_source", id: ds.id, databaseId: ds.databaseId },
      properties: this.properties(ds, o.properties),
      blocks: [],
      inTrash: false,
      shared: true,
      createdTime: now,
      lastEditedTime: now,
    };
    this.pages.set(page.id, page);
    page.blocks = this.storeBlocks(page.id, o.blocks ?? []);
    return page;
  }

  /** Edits a page: its title, its properties (rows), its whole content. */
  editPage(id: string, o: { title?: string; properties?: Record<string, FakeNotionProperty>; blocks?: FakeNotionBlockInput[] }): FakeNotionPage {
    const page = this.page(id);
    if (o.title !== undefined) {
      const key = Object.entries(page.properties).find(([, v]) => (v as Json).type === "title")?.[0] ?? "title";
      page.properties[key] = { id: "title", type: "title", title: richText(o.title) };
    }
    if (o.properties) {
      const ds = page.parent?.type === "data_source" ? this.dataSource(page.parent.id) : undefined;
      if (!ds) throw new Error("only rows have properties");
      Object.assign(page.properties, this.properties(ds, o.properties));
    }
    if (o.blocks) {
      for (const [bid, b] of this.blockIndex) if (b.pageId === id) this.blockIndex.delete(bid);
      page.blocks = this.storeBlocks(id, o.blocks);
    }
    page.lastEditedTime = this.now();
    return page;
  }

  /** Moves a page (or a data source) to the trash; Notion records it as an edit. */
  trash(id: string): void {
    const o = this.pages.get(id) ?? this.dataSource(id);
    o.inTrash = true;
    o.lastEditedTime = this.now();
  }

  restore(id: string): void {
    const o = this.pages.get(id) ?? this.dataSource(id);
    o.inTrash = false;
    o.lastEditedTime = this.now();
  }

  /** The user removes the integration's access to a page (and the pages under it) or a database: nothing is edited. */
  unshare(id: string): void {
    (this.pages.get(id) ?? this.dataSource(id)).shared = false;
  }

  share(id: string): void {
    (this.pages.get(id) ?? this.dataSource(id)).shared = true;
  }

  page(id: string): FakeNotionPage {
    const p = this.pages.get(id);
    if (!p) throw new Error(`no page ${id}`);
    return p;
  }

  dataSource(id: string): FakeNotionDataSource {
    const d = this.dataSources.get(id);
    if (!d) throw new Error(`no data source ${id}`);
    return d;
  }

  /** Posts the subscription's verification request (unsigned, as Notion does). */
  async sendVerification(url: string): Promise<{ status: number; body: string }> {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "notion-api" },
      body: JSON.stringify({ verification_token: this.verificationToken }),
    });
    return { status: res.status, body: await res.text() };
  }

  /** The payload of an event, as Notion sends it (ids only). */
  eventPayload(e: FakeNotionEvent): Json {
    return {
      id: e.id ?? randomUUID(),
      timestamp: new Date(this.clock()).toISOString(),
      workspace_id: e.workspaceId ?? this.workspace.id,
      workspace_name: this.workspace.name,
      subscription_id: randomUUID(),
      integration_id: randomUUID(),
      type: e.type,
      authors: [{ id: this.user.id, type: "person" }],
      accessible_by: [{ id: this.botId, type: "bot" }],
      attempt_number: 1,
      api_version: "2025-09-03",
      entity: { id: e.entityId, type: e.entityType ?? "page" },
      data: { parent: { id: this.workspace.id, type: "space" } },
    };
  }

  /** The X-Notion-Signature of a body: sha256=<hex HMAC-SHA256 keyed by the verification token>. */
  sign(body: string, token = this.verificationToken): string {
    return `sha256=${createHmac("sha256", token).update(body).digest("hex")}`;
  }

  /** POSTs a signed event to `url`; `tamper`: the body changes after signing; `signature`: sent instead. */
  async sendEvent(url: string, e: FakeNotionEvent, o: { tamper?: boolean; signature?: string | null } = {}): Promise<{ status: number; body: string }> {
    const body = JSON.stringify(this.eventPayload(e));
    const signature = o.signature === undefined ? this.sign(body) : o.signature;
    const sent = o.tamper ? body.replace(`"attempt_number":1`, `"attempt_number":2`) : body;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "notion-api", ...(signature !== null ? { "x-notion-signature": signature } : {}) },
      body: sent,
    });
    return { status: res.status, body: await res.text() };
  }

  // -------------------------------------------------------------------------

  private properties(ds: FakeNotionDataSource, input: Record<string, FakeNotionProperty>): Json {
    const out: Json = {};
    for (const [name, v] of Object.entries(input)) {
      const type = Object.keys(v)[0]!;
      if (ds.schema[name] === undefined) ds.schema[name] = type;
      const id = compact(name).slice(0, 4).toLowerCase() || "prop";
      const value = (v as Record<string, unknown>)[type];
      let shaped: unknown;
      switch (type) {
        case "title":
        case "rich_text":
          shaped = richText(value as FakeNotionText);
          break;
        case "select":
        case "status":
          shaped = value === null ? null : { id: compact(String(value)).slice(0, 8), name: value, color: "default" };
          break;
        case "multi_select":
          shaped = (value as string[]).map((n) => ({ id: compact(n).slice(0, 8), name: n, color: "default" }));
          break;
        case "date":
          shaped = value === null ? null : { start: value, end: null, time_zone: null };
          break;
        case "people":
          shaped = (value as { name: string; email?: string }[]).map((p) => ({
            object: "user",
            id: randomUUID(),
            name: p.name,
            type: "person",
            person: p.email ? { email: p.email } : {},
          }));
          break;
        case "relation":
          shaped = (value as string[]).map((rid) => ({ id: rid }));
          break;
        default:
          shaped = value;
      }
      out[name] = { id, type, [type]: shaped, ...(type === "relation" ? { has_more: false } : {}) };
    }
    return out;
  }

  private storeBlocks(pageId: string, inputs: FakeNotionBlockInput[]): StoredBlock[] {
    return inputs.map((b) => this.storeBlock(pageId, b));
  }

  private storeBlock(pageId: string, b: FakeNotionBlockInput, id: string = randomUUID()): StoredBlock {
    const now = this.now();
    const children: StoredBlock[] =
      b.type === "table"
        ? (b.rows ?? []).map((cells) => this.storeBlock(pageId, { type: "table_row", rows: [cells] }))
        : this.storeBlocks(pageId, b.children ?? []);
    const text = { rich_text: richText(b.text), color: "default" };
    const caption = richText(b.caption ?? "");
    const file = (url: string) =>
      url.startsWith("https://prod-files") ? { type: "file", file: { url, expiry_time: now } } : { type: "external", external: { url } };
    let content: Json;
    switch (b.type) {
      case "to_do":
        content = { ...text, checked: !!b.checked };
        break;
      case "code":
        content = { rich_text: richText(b.text), caption, language: b.language ?? "plain text" };
        break;
      case "callout":
        content = { ...text, icon: b.emoji ? { type: "emoji", emoji: b.emoji } : null };
        break;
      case "heading_1":
      case "heading_2":
      case "heading_3":
        content = { ...text, is_toggleable: false };
        break;
      case "image":
      case "video":
      case "pdf":
      case "audio":
        content = { caption, ...file(b.url ?? "https://example.com/x") };
        break;
      case "file":
        content = { caption, name: b.name ?? "file", ...file(b.url ?? "https://example.com/x") };
        break;
      case "bookmark":
      case "embed":
      case "link_preview":
        content = { url: b.url ?? "https://example.com", ...(b.type === "link_preview" ? {} : { caption }) };
        break;
      case "child_page":
      case "child_database":
        content = { title: b.title ?? "" };
        break;
      case "link_to_page":
        content = { type: "page_id", page_id: b.pageId ?? randomUUID() };
        break;
      case "equation":
        content = { expression: b.expression ?? "" };
        break;
      case "table":
        content = { table_width: Math.max(1, ...(b.rows ?? []).map((r) => r.length)), has_column_header: b.header ?? true, has_row_header: false };
        break;
      case "table_row":
        content = { cells: (b.rows?.[0] ?? []).map((c) => richText(c)) };
        break;
      case "divider":
      case "breadcrumb":
      case "table_of_contents":
      case "column_list":
      case "column":
        content = {};
        break;
      default:
        content = text;
    }
    const json: Json = {
      object: "block",
      id,
      parent: { type: "page_id", page_id: pageId },
      created_time: now,
      last_edited_time: now,
      created_by: { object: "user", id: this.user.id },
      last_edited_by: { object: "user", id: this.user.id },
      // A child page's children are its own page's blocks: Notion says it has children when it has content.
      has_children: b.type === "child_page" ? true : children.length > 0,
      archived: false,
      in_trash: false,
      type: b.type,
      [b.type]: content,
    };
    const stored: StoredBlock = { id, json, children: b.type === "child_page" ? [] : children };
    this.blockIndex.set(id, { pageId, block: stored });
    return stored;
  }

  /** Whether the integration can see the page now (shared, its ancestors' sharing inherited, its database shared). */
  private accessible(p: FakeNotionPage): boolean {
    if (!p.shared) return false;
    if (p.parent?.type === "data_source") return this.dataSources.get(p.parent.id)?.shared === true;
    if (p.parent?.type === "page") {
      const parent = this.pages.get(p.parent.id);
      return !parent || this.accessible(parent);
    }
    return true;
  }

  private pageJson(p: FakeNotionPage): Json {
    const title = Object.values(p.properties).find((v) => (v as Json).type === "title") as { title?: { plain_text: string }[] } | undefined;
    const slug = (title?.title ?? [])
      .map((t) => t.plain_text)
      .join("")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    const parent =
      p.parent?.type === "data_source"
        ? { type: "data_source_id", data_source_id: p.parent.id, database_id: p.parent.databaseId }
        : p.parent?.type === "page"
          ? { type: "page_id", page_id: p.parent.id }
          : { type: "workspace", workspace: true };
    return {
      object: "page",
      id: p.id,
      created_time: p.createdTime,
      last_edited_time: p.lastEditedTime,
      created_by: { object: "user", id: this.user.id },
      last_edited_by: { object: "user", id: this.user.id },
      cover: null,
      icon: null,
      parent,
      in_trash: p.inTrash,
      archived: p.inTrash,
      is_archived: p.inTrash,
      is_locked: false,
      properties: p.properties,
      url: `https://www.notion.so/${slug ? `${slug}-` : ""}${compact(p.id)}`,
      public_url: null,
    };
  }

  private dataSourceJson(d: FakeNotionDataSource): Json {
    return {
      object: "data_source",
      id: d.id,
      title: richText(d.title),
      description: [],
      parent: { type: "database_id", database_id: d.databaseId },
      database_parent: { type: "workspace", workspace: true },
      is_inline: false,
      in_trash: d.inTrash,
      archived: d.inTrash,
      created_time: d.createdTime,
      last_edited_time: d.lastEditedTime,
      created_by: { object: "user", id: this.user.id },
      last_edited_by: { object: "user", id: this.user.id },
      properties: Object.fromEntries(Object.entries(d.schema).map(([name, type]) => [name, { id: compact(name).slice(0, 4), name, type, [type]: {} }])),
      icon: null,
      cover: null,
      url: `https://www.notion.so/${compact(d.databaseId)}`,
      public_url: null,
    };
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    const method = req.method ?? "GET";
    const send = ([status, body, headers]: Reply) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(body));
    };
    const body = await readRequestBody(req);
    if (url.pathname === "/v1/oauth/authorize" && method === "GET") return this.oauth.authorize(url.searchParams, res);
    if (url.pathname === "/v1/oauth/token" && method === "POST") return send(this.oauth.token(req, body));
    this.requests.push(`${method} ${url.pathname}`);
    const version = req.headers["notion-version"];
    if (typeof version === "string") this.versions.push(version);
    const error = (status: number, message: string, headers?: Record<string, string>): Reply => [
      status,
      { object: "error", status, code: ERROR_CODES[status] ?? "internal_server_error", message },
      headers,
    ];
    const i = this.failNext.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (i >= 0) {
      const [fail] = this.failNext.splice(i, 1);
      return send(error(fail!.status, http.STATUS_CODES[fail!.status] ?? "Failure", fail!.headers));
    }
    if (!this.oauth.bearer(req)) return send(error(401, "API token is invalid."));
    if (!version) return send(error(400, "Notion-Version header failed validation: Notion-Version header should be defined."));
    let input: Json = {};
    if (method === "POST" && body.length) {
      try {
        input = JSON.parse(body.toString("utf8")) as Json;
      } catch {
        return send([400, { object: "error", status: 400, code: "invalid_json", message: "Error parsing JSON body." }]);
      }
    }
    send(this.api(method, url, input));
  }

  private api(method: string, url: URL, input: Json): Reply {
    const p = url.pathname;
    if (method === "POST" && p === "/v1/search") return this.search(input);
    let m = /^\/v1\/pages\/([^/]+)$/.exec(p);
    if (m && method === "GET") {
      const page = this.pages.get(decodeURIComponent(m[1]!));
      return page && this.accessible(page) ? [200, this.pageJson(page)] : NOT_FOUND(m[1]!);
    }
    m = /^\/v1\/blocks\/([^/]+)\/children$/.exec(p);
    if (m && method === "GET") return this.children(decodeURIComponent(m[1]!), url.searchParams);
    m = /^\/v1\/data_sources\/([^/]+)\/query$/.exec(p);
    if (m && method === "POST") return this.query(decodeURIComponent(m[1]!), input);
    return [400, { object: "error", status: 400, code: "invalid_request_url", message: "Invalid request URL." }];
  }

  private pageOf<T>(all: T[], input: { start_cursor?: unknown; page_size?: unknown }, key: (t: T) => string): { slice: T[]; next: string | null } {
    const size = Math.min(typeof input.page_size === "number" && input.page_size > 0 ? input.page_size : 100, this.maxPageSize, 100);
    let start = 0;
    if (typeof input.start_cursor === "string") {
      start = all.findIndex((t) => key(t) === input.start_cursor);
      if (start < 0) start = all.length;
    }
    const slice = all.slice(start, start + size);
    const next = start + size < all.length ? key(all[start + size]!) : null;
    return { slice, next };
  }

  private list(results: Json[], next: string | null): Json {
    return { object: "list", results, next_cursor: next, has_more: next !== null, type: "page_or_data_source", page_or_data_source: {} };
  }

  private search(input: Json): Reply {
    const filter = (input.filter ?? {}) as { property?: string; value?: string; in_trash?: boolean };
    if (filter.value !== undefined && filter.value !== "page" && filter.value !== "data_source")
      return [400, { object: "error", status: 400, code: "validation_error", message: `body.filter.value should be "page" or "data_source"` }];
    const trash = filter.in_trash === true;
    const sort = input.sort as { timestamp?: string; direction?: string } | undefined;
    const query = typeof input.query === "string" ? input.query.toLowerCase() : "";
    type Item = { id: string; edited: string; json: () => Json; title: string };
    const items: Item[] = [];
    if (filter.value !== "data_source")
      for (const pg of this.pages.values()) {
        if (!this.accessible(pg) || pg.inTrash !== trash) continue;
        if (!this.searchIncludesRows && pg.parent?.type === "data_source") continue;
        const t = Object.values(pg.properties).find((v) => (v as Json).type === "title") as { title: { plain_text: string }[] } | undefined;
        items.push({ id: pg.id, edited: pg.lastEditedTime, json: () => this.pageJson(pg), title: (t?.title ?? []).map((x) => x.plain_text).join("") });
      }
    if (filter.value !== "page")
      for (const ds of this.dataSources.values())
        if (ds.shared && ds.inTrash === trash) items.push({ id: ds.id, edited: ds.lastEditedTime, json: () => this.dataSourceJson(ds), title: ds.title });
    const matching = items.filter((x) => !query || x.title.toLowerCase().includes(query));
    const dir = sort?.direction === "ascending" ? 1 : -1;
    matching.sort((a, b) => (a.edited === b.edited ? a.id.localeCompare(b.id) : dir * a.edited.localeCompare(b.edited)));
    const { slice, next } = this.pageOf(matching, input, (x) => x.id);
    const status = this.searchIncomplete ? { request_status: { type: "incomplete", incomplete_reason: "query_result_limit_reached" } } : {};
    return [
      200,
      {
        ...this.list(
          slice.map((x) => x.json()),
          next,
        ),
        ...status,
      },
    ];
  }

  private children(id: string, q: URLSearchParams): Reply {
    const page = this.pages.get(id);
    let blocks: StoredBlock[] | undefined;
    if (page) blocks = this.accessible(page) ? page.blocks : undefined;
    else {
      const b = this.blockIndex.get(id);
      const owner = b && this.pages.get(b.pageId);
      if (b && owner && this.accessible(owner)) blocks = b.block.children;
    }
    if (!blocks) return NOT_FOUND(id);
    const { slice, next } = this.pageOf(
      blocks,
      { start_cursor: q.get("start_cursor") ?? undefined, page_size: Number(q.get("page_size")) || 100 },
      (b) => b.id,
    );
    return [200, { object: "list", results: slice.map((b) => b.json), next_cursor: next, has_more: next !== null, type: "block", block: {} }];
  }

  private query(id: string, input: Json): Reply {
    const ds = this.dataSources.get(id);
    if (!ds || !ds.shared) return NOT_FOUND(id);
    const trash = input.in_trash === true;
    const filter = input.filter as { timestamp?: string; last_edited_time?: { on_or_after?: string; after?: string } } | undefined;
    const floor = filter?.timestamp === "last_edited_time" ? filter.last_edited_time : undefined;
    const rows = [...this.pages.values()].filter(
      (p) =>
        p.parent?.type === "data_source" &&
        p.parent.id === id &&
        p.shared &&
        p.inTrash === trash &&
        (!floor?.on_or_after || p.lastEditedTime >= floorMinute(Date.parse(floor.on_or_after))) &&
        (!floor?.after || p.lastEditedTime > floor.after),
    );
    const sorts = (input.sorts as { timestamp?: string; direction?: string }[] | undefined) ?? [];
    const dir = sorts[0]?.direction === "ascending" ? 1 : -1;
    rows.sort((a, b) => (a.lastEditedTime === b.lastEditedTime ? a.id.localeCompare(b.id) : dir * a.lastEditedTime.localeCompare(b.lastEditedTime)));
    const { slice, next } = this.pageOf(rows, input, (r) => r.id);
    return [
      200,
      this.list(
        slice.map((r) => this.pageJson(r)),
        next,
      ),
    ];
  }
}
