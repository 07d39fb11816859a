import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { FakeNotion, type FakeNotionBlockInput } from "@engram/testing";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { NotionConnector, PRUNE_INTERVAL_MS, parseCursor } from "../../src/adapters/connectors/notion/notion-connector";
import { SyncEngine } from "../../src/app/sync-engine";
import type { ItemMetadata, ProviderAuth, WebhookNotification } from "../../src/app/sync-ports";
import { type Connection, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { MemorySink } from "./sync-helpers";

/** The sink, keeping each import's metadata and counting imports. */
class RecordingSink extends MemorySink {
  readonly metadata = new Map<string, ItemMetadata | undefined>();
  readonly urls = new Map<string, string | undefined>();
  puts = 0;
  override async put(conn: Connection, item: { customId: string; title?: string; url?: string; metadata?: ItemMetadata; content: { bytes: Uint8Array } }) {
    this.puts++;
    this.metadata.set(item.customId, item.metadata);
    this.urls.set(item.customId, item.url);
    return super.put(conn, item);
  }
}

const FAST = {
  client: { maxRetries: 2, initialRetryDelayMs: 10, maxRetryDelayMs: 2_000 },
  outer: { maxRetries: 2, initialBackoffMs: 10, maxBackoffMs: 50 },
};

/** The Notion connector against a local fake of Notion's API, through the real sync engine and ledger. */
describe("Notion connector", () => {
  const fake = new FakeNotion();
  let base: string;
  let dir: string;
  let repo: SqliteConnectionRepository;
  let sink: RecordingSink;
  // Notion's clock and Engram's: the fake stamps edits with `fakeNow`, the connector reads `now`.
  let now = Date.parse("2026-04-01T10:00:30.000Z");
  const clock: Clock = { now: () => new Date(now) };
  let token = "";
  let refreshes = 0;
  let refusing = false;
  const log = rootLogger({ level: "silent" });
  const auth: ProviderAuth = {
    token: async () => token,
    refreshed: async (failed) => {
      if (refusing) throw new ConnectorError("auth_expired", "refused");
      if (failed !== token) return token;
      refreshes++;
      token = fake.issueTokens().access_token;
      return token;
    },
  };
  const connector = (o: { verificationToken?: string } = {}) =>
    new NotionConnector({
      apiUrl: base,
      authOf: () => auth,
      logger: log,
      retry: FAST,
      now: () => new Date(now),
      webhookVerificationToken: o.verificationToken,
    });

  beforeAll(async () => {
    base = await fake.start();
    fake.clock = () => now;
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-notion-"));
    repo = new SqliteConnectionRepository(dir);
    sink = new RecordingSink();
    fake.pages.clear();
    fake.dataSources.clear();
    fake.requests = [];
    fake.versions = [];
    fake.failNext = [];
    fake.maxPageSize = 100;
    fake.searchIncludesRows = true;
    fake.searchIncomplete = false;
    token = fake.issueTokens().access_token;
    refreshes = 0;
    refusing = false;
  });
  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const setup = async (c: NotionConnector = connector()) => {
    const conn = await repo.create({
      ...newConnection({ tenantId: "acme", provider: "notion", namespace: "notes" }, new Date(now).toISOString()),
      status: "active",
      account: fake.workspace.id,
    });
    const engine = new SyncEngine({ repo, sink, connectors: { notion: c }, clock, logger: log });
    const sync = async () => {
      const out = await engine.run("acme", conn.id, "manual");
      if (!out.started) throw new Error("the sync did not start");
      return out.run;
    };
    return { conn, sync, connector: c };
  };
  const docByTitle = (title: string) => [...sink.docs.entries()].find(([, d]) => d.title === title);
  const titles = () => [...sink.docs.values()].map((d) => d.title).sort();
  const minutes = (n: number) => n * 60_000;

  it("renders a page's blocks as Markdown: annotations, links, nested lists, to-dos, quotes, callouts, code, toggles, tables, media and child pages", async () => {
    const blocks: FakeNotionBlockInput[] = [
      { type: "heading_1", text: "Runbook" },
      {
        type: "paragraph",
        text: [
          { text: "Restart " },
          { text: "the queue", bold: true },
          { text: " then " },
          { text: "check", italic: true },
          { text: " " },
          { text: "metrics", code: true },
          { text: " on " },
          { text: "the dashboard", link: "https://dash.example.com" },
          { text: " " },
          { text: "old", strikethrough: true },
        ],
      },
      { type: "bulleted_list_item", text: "first", children: [{ type: "bulleted_list_item", text: "nested" }] },
      { type: "bulleted_list_item", text: "second" },
      { type: "numbered_list_item", text: "one" },
      { type: "numbered_list_item", text: "two", children: [{ type: "numbered_list_item", text: "two.one" }] },
      { type: "to_do", text: "done", checked: true },
      { type: "to_do", text: "open" },
      { type: "quote", text: "Be kind" },
      { type: "callout", text: "Careful", emoji: "⚠️" },
      { type: "code", text: "kubectl rollout restart deploy/queue", language: "shell" },
      { type: "toggle", text: "Details", children: [{ type: "paragraph", text: "hidden text" }] },
      { type: "divider" },
      {
        type: "table",
        rows: [
          ["Service", "Owner"],
          ["queue", "a|b"],
        ],
      },
      { type: "image", url: "https://img.example.com/diagram.png", caption: "Diagram" },
      { type: "file", url: "https://files.example.com/report.pdf", name: "report.pdf" },
      { type: "bookmark", url: "https://status.example.com" },
      { type: "table_of_contents" },
    ];
    const page = fake.addPage({ title: "Operations", blocks });
    fake.addPage({ title: "Child notes", parentId: page.id, blocks: [{ type: "paragraph", text: "child body" }] });
    const { sync } = await setup();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 2 });
    expect(docByTitle("Operations")![1].text).toBe(
      [
        "# Operations",
        "",
        "# Runbook",
        "",
        "Restart **the queue** then _check_ `metrics` on [the dashboard](https://dash.example.com) ~~old~~",
        "",
        "- first",
        "  - nested",
        "- second",
        "1. one",
        "2. two",
        "   1. two.one",
        "- [x] done",
        "- [ ] open",
        "",
        "> Be kind",
        "",
        "> ⚠️ Careful",
        "",
        "```shell",
        "kubectl rollout restart deploy/queue",
        "```",
        "",
        "- Details",
        "  hidden text",
        "",
        "---",
        "",
        "| Service | Owner |",
        "| --- | --- |",
        "| queue | a\\|b |",
        "",
        "![Diagram](https://img.example.com/diagram.png)",
        "",
        "[report.pdf](https://files.example.com/report.pdf)",
        "",
        "[https://status.example.com](https://status.example.com)",
        "",
        `[Child notes](https://www.notion.so/${fake.pages.get([...fake.pages.keys()][1]!)!.id.replace(/-/g, "")})`,
        "",
      ].join("\n"),
    );
    expect(docByTitle("Child notes")![1].text).toBe("# Child notes\n\nchild body\n");
    // The client speaks the data-source API version.
    expect(new Set(fake.versions)).toEqual(new Set(["2025-09-03"]));
  });

  it("imports database rows with their content and their properties as metadata and as a header, through the data source when search leaves rows out", async () => {
    fake.searchIncludesRows = false;
    const db = fake.addDatabase({ title: "Tasks" });
    const row = fake.addRow(db.id, {
      properties: {
        Name: { title: "Ship the importer" },
        Status: { status: "In progress" },
        Tags: { multi_select: ["backend", "urgent"] },
        Points: { number: 5 },
        Done: { checkbox: false },
        Due: { date: "2026-04-15" },
        Owner: { people: [{ name: "Ada Lovelace", email: "ada@example.com" }] },
        Spec: { url: "https://spec.example.com" },
        Contact: { email: "team@example.com" },
        Blocks: { relation: ["a1", "b2"] },
        Notes: { rich_text: "needs review" },
        Empty: { select: null },
      },
      blocks: [{ type: "paragraph", text: "Write the data source query." }],
    });
    const { sync, conn } = await setup();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 1 });
    const [customId, doc] = docByTitle("Ship the importer")!;
    expect(sink.metadata.get(customId)).toEqual({
      Name: "Ship the importer",
      Status: "In progress",
      Tags: "backend, urgent",
      Points: 5,
      Done: false,
      Due: "2026-04-15",
      Owner: "Ada Lovelace",
      Spec: "https://spec.example.com",
      Contact: "team@example.com",
      Blocks: 2,
      Notes: "needs review",
    });
    expect(doc.text).toBe(
      [
        "# Ship the importer",
        "",
        "Status: In progress",
        "Tags: backend, urgent",
        "Points: 5",
        "Done: No",
        "Due: 2026-04-15",
        "Owner: Ada Lovelace",
        "Spec: https://spec.example.com",
        "Contact: team@example.com",
        "Blocks: 2",
        "Notes: needs review",
        "",
        "Write the data source query.",
        "",
      ].join("\n"),
    );
    expect(sink.urls.get(customId)).toBe(`https://www.notion.so/Ship-the-importer-${row.id.replace(/-/g, "")}`);
    expect(fake.requests).toContain(`POST /v1/data_sources/${db.id}/query`);
    // The ledger: the row's id, versioned by its edit time (and a hash of what was imported).
    const items = await repo.getItems("acme", conn.id, [row.id]);
    expect(items.get(row.id)!.version.startsWith(`${row.lastEditedTime}#`)).toBe(true);
  });

  it("reads listings and block children page by page", async () => {
    fake.maxPageSize = 2;
    const many = Array.from({ length: 5 }, (_, i) => ({ type: "paragraph", text: `line ${i}` }));
    for (let i = 0; i < 5; i++) fake.addPage({ title: `Page ${i}`, blocks: many });
    const { sync } = await setup();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 5 });
    expect(docByTitle("Page 3")![1].text).toBe("# Page 3\n\nline 0\n\nline 1\n\nline 2\n\nline 3\n\nline 4\n");
    expect(fake.requests.filter((r) => r === "POST /v1/search").length).toBeGreaterThanOrEqual(3);
  });

  it("then reads only what was edited since the cursor, skips settled pages without reading their blocks, and re-reads a page edited twice in one minute", async () => {
    const a = fake.addPage({ title: "Alpha", blocks: [{ type: "paragraph", text: "alpha v1" }] });
    fake.addPage({ title: "Beta", blocks: [{ type: "paragraph", text: "beta v1" }] });
    const { sync, conn } = await setup();
    await sync();
    // Within the same minute: the edit time does not move, the content does.
    fake.editPage(a.id, { blocks: [{ type: "paragraph", text: "alpha v2" }] });
    now += 10_000;
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 1 });
    expect(docByTitle("Alpha")![1].text).toContain("alpha v2");

    // Later, both settled: nothing is read beyond the listings.
    now += minutes(30);
    await sync();
    fake.requests = [];
    now += minutes(30);
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 0 });
    expect(fake.requests.filter((r) => r.includes("/children"))).toEqual([]);

    // An edit later on: only that page is read again.
    fake.editPage(a.id, { title: "Alpha (renamed)", blocks: [{ type: "paragraph", text: "alpha v3" }] });
    now += minutes(5);
    fake.requests = [];
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 1 });
    expect(fake.requests.filter((r) => r.includes("/children"))).toEqual([`GET /v1/blocks/${a.id}/children`]);
    expect(titles()).toEqual(["Alpha (renamed)", "Beta"]);
    const cursor = parseCursor((await repo.get("acme", conn.id))!.cursor);
    expect(cursor).toBeDefined();
    expect(Date.parse(cursor!.since)).toBeLessThan(Date.parse(a.lastEditedTime));
  });

  it("deletes trashed pages, pages unshared once an event names them, and everything no longer listed at the daily prune", async () => {
    const a = fake.addPage({ title: "Trashed soon", blocks: [{ type: "paragraph", text: "a" }] });
    const b = fake.addPage({ title: "Unshared soon", blocks: [{ type: "paragraph", text: "b" }] });
    const c = fake.addPage({ title: "Unshared quietly", blocks: [{ type: "paragraph", text: "c" }] });
    fake.addPage({ title: "Kept", blocks: [{ type: "paragraph", text: "k" }] });
    const c1 = connector({ verificationToken: fake.verificationToken });
    const { sync } = await setup(c1);
    await sync();
    expect(titles()).toEqual(["Kept", "Trashed soon", "Unshared quietly", "Unshared soon"]);

    now += minutes(20);
    fake.trash(a.id);
    fake.unshare(b.id);
    fake.unshare(c.id);
    // An edit made before b was unshared, announced late: the sync reads b by id and finds it gone.
    const body = Buffer.from(JSON.stringify(fake.eventPayload({ type: "page.content_updated", entityId: b.id })));
    const route = await c1.webhooks.route({ headers: { "x-notion-signature": fake.sign(body.toString()) }, query: {}, body });
    expect(route).toMatchObject({ kind: "accounts", accounts: [fake.workspace.id] });
    now += minutes(1);
    expect(await sync()).toMatchObject({ status: "succeeded" });
    expect(titles()).toEqual(["Kept", "Unshared quietly"]);

    // No event, no edit: gone at the next full listing.
    now += PRUNE_INTERVAL_MS;
    expect(await sync()).toMatchObject({ status: "succeeded" });
    expect(titles()).toEqual(["Kept"]);
  });

  it("falls back to a full listing that converges when the cursor is unreadable", async () => {
    fake.addPage({ title: "One", blocks: [] });
    const gone = fake.addPage({ title: "Two", blocks: [] });
    const { sync, conn } = await setup();
    await sync();
    fake.unshare(gone.id);
    fake.addPage({ title: "Three", blocks: [] });
    now += minutes(10);
    // The stored cursor is not one this connector can read (another format, corrupted).
    expect(await repo.tryAcquireLease("acme", conn.id, "test", 60_000, new Date(now))).toBeTruthy();
    await repo.applySyncPage("acme", conn.id, { holder: "test", now: new Date(now), cursor: "not-a-cursor" });
    await repo.releaseLease("acme", conn.id, "test");
    expect(await sync()).toMatchObject({ status: "succeeded" });
    expect(titles()).toEqual(["One", "Three"]);
    expect(parseCursor((await repo.get("acme", conn.id))!.cursor)).toMatchObject({ prunedAt: new Date(now).toISOString() });
  });

  it("does not prune when Notion says its listing was cut short", async () => {
    fake.addPage({ title: "One", blocks: [] });
    const two = fake.addPage({ title: "Two", blocks: [] });
    const { sync } = await setup();
    await sync();
    fake.unshare(two.id);
    fake.searchIncomplete = true;
    now += PRUNE_INTERVAL_MS;
    expect(await sync()).toMatchObject({ status: "partial", itemFailures: { count: 1 } });
    expect(titles()).toEqual(["One", "Two"]);
    fake.searchIncomplete = false;
    now += PRUNE_INTERVAL_MS;
    await sync();
    expect(titles()).toEqual(["One"]);
  });

  it("renders headings, equations, columns, links to pages and databases, and media without captions", async () => {
    const target = "1f2e3d4c-0000-4000-8000-000000000001";
    fake.addPage({
      title: "Misc",
      blocks: [
        { type: "heading_3", text: "Small" },
        { type: "equation", expression: "e=mc^2" },
        {
          type: "column_list",
          children: [
            { type: "column", children: [{ type: "paragraph", text: "left" }] },
            { type: "column", children: [{ type: "paragraph", text: "right" }] },
          ],
        },
        { type: "link_to_page", pageId: target },
        { type: "child_database", title: "Tasks" },
        { type: "video", url: "https://video.example.com/v.mp4" },
        { type: "quote", text: "Line", children: [{ type: "paragraph", text: "more" }] },
        { type: "paragraph", text: "" },
      ],
    });
    const { sync } = await setup();
    await sync();
    const text = docByTitle("Misc")![1].text!;
    expect(text).toContain("### Small\n\n$$\ne=mc^2\n$$\n\nleft\n\nright\n\n[Linked page](https://www.notion.so/1f2e3d4c000040008000000000000001)");
    expect(text).toMatch(/\[Tasks\]\(https:\/\/www\.notion\.so\/[0-9a-f]{32}\)/);
    expect(text).toContain("[video](https://video.example.com/v.mp4)");
    expect(text).toContain("> Line\n>\n> more");
    expect(text.endsWith("> more\n")).toBe(true);
  });

  it("refreshes the token once on a 401 and goes on; fails as auth_expired when the refresh is refused", async () => {
    fake.addPage({ title: "One", blocks: [{ type: "paragraph", text: "x" }] });
    const { sync } = await setup();
    fake.expireAccessTokens();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 1 });
    expect(refreshes).toBe(1);
    fake.revoke();
    refusing = true;
    now += minutes(5);
    expect(await sync()).toMatchObject({ status: "failed", errorCode: "auth_expired" });
  });

  it("waits out a 429 as Retry-After says, without importing anything twice; reports rate_limited when it lasts", async () => {
    fake.addPage({ title: "One", blocks: [{ type: "paragraph", text: "x" }] });
    fake.addPage({ title: "Two", blocks: [{ type: "paragraph", text: "y" }] });
    fake.failNext = [{ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/v1/blocks" }];
    const { sync } = await setup();
    const started = Date.now();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(sink.puts).toBe(2);
    expect(fake.failNext).toEqual([]);

    fake.failNext = [0, 1, 2].map(() => ({ status: 429, headers: { "retry-after": "0" }, pathPrefix: "/v1/search" }));
    now += minutes(5);
    expect(await sync()).toMatchObject({ status: "failed", errorCode: "rate_limited" });
  });

  it("retries server errors of searches (POST) and reports provider_unavailable when they last", async () => {
    fake.addPage({ title: "One", blocks: [] });
    fake.failNext = [
      { status: 500, pathPrefix: "/v1/search" },
      { status: 502, pathPrefix: "/v1/blocks" },
    ];
    const { sync } = await setup();
    expect(await sync()).toMatchObject({ status: "succeeded", documentsImported: 1 });
    fake.failNext = Array.from({ length: 12 }, () => ({ status: 503, pathPrefix: "/v1/search" }));
    now += minutes(5);
    expect(await sync()).toMatchObject({ status: "failed", errorCode: "provider_unavailable" });
  });

  it("identifies the account from Notion's token answer", async () => {
    const tokens = fake.issueTokens();
    const { access_token: _a, refresh_token: _r, expires_in: _e, token_type: _t, ...extra } = tokens;
    expect(await connector().identify({ accessToken: tokens.access_token, extra })).toEqual({
      email: "ada@example.com",
      account: fake.workspace.id,
      config: { workspaceId: fake.workspace.id, workspaceName: "Acme Notes", botId: fake.botId },
    });
    expect(await connector().identify({ accessToken: "x", extra: {} })).toEqual({ config: {} });
  });

  describe("webhooks", () => {
    const note = (payload: unknown, headers: Record<string, string> = {}): WebhookNotification => ({
      body: Buffer.from(JSON.stringify(payload)),
      query: {},
      headers,
    });
    const signed = (payload: unknown, sign = fake.verificationToken): WebhookNotification => {
      const body = JSON.stringify(payload);
      return note(payload, { "x-notion-signature": fake.sign(body, sign) });
    };

    it("acknowledges the verification request and logs its token once for the operator", async () => {
      const warn = jest.spyOn(log, "warn");
      try {
        const c = connector();
        expect(await c.webhooks.route(note({ verification_token: "secret_abc" }))).toEqual({ kind: "respond", body: "", contentType: "text/plain" });
        await c.webhooks.route(note({ verification_token: "secret_abc" }));
        expect(warn).toHaveBeenCalledTimes(1);
        expect(JSON.stringify(warn.mock.calls[0])).toContain("secret_abc");
        expect(JSON.stringify(warn.mock.calls[0])).toContain("NOTION_WEBHOOK_VERIFICATION_TOKEN");
      } finally {
        warn.mockRestore();
      }
    });

    it("routes a signed event to its workspace, with its id as the delivery id", async () => {
      const event = fake.eventPayload({ type: "page.content_updated", entityId: "p1", id: "evt-1" });
      expect(await connector({ verificationToken: fake.verificationToken }).webhooks.route(signed(event))).toEqual({
        kind: "accounts",
        accounts: [fake.workspace.id],
        deliveryId: "evt-1",
      });
    });

    it("refuses tampered, unsigned, wrongly signed events, and every event when no token is configured", async () => {
      const c = connector({ verificationToken: fake.verificationToken });
      const event = fake.eventPayload({ type: "page.created", entityId: "p1" });
      const tampered = signed(event);
      tampered.body = Buffer.from(tampered.body.toString().replace('"attempt_number":1', '"attempt_number":2'));
      expect(await c.webhooks.route(tampered)).toMatchObject({ kind: "reject", status: 401 });
      expect(await c.webhooks.route(note(event))).toMatchObject({ kind: "reject", status: 401 });
      expect(await c.webhooks.route(signed(event, "secret_other"))).toMatchObject({ kind: "reject", status: 401 });
      expect(await c.webhooks.route(note(event, { "x-notion-signature": "sha256=00" }))).toMatchObject({ kind: "reject", status: 401 });
      // No verification token configured: refused (503), never accepted unverified.
      expect(await connector().webhooks.route(signed(event))).toMatchObject({ kind: "reject", status: 503 });
    });

    it("acknowledges events that change no document, and answers a sync for a connection of the event's workspace", async () => {
      const c = connector({ verificationToken: fake.verificationToken });
      expect(await c.webhooks.route(signed(fake.eventPayload({ type: "comment.created", entityId: "c1", entityType: "comment" })))).toMatchObject({
        kind: "acknowledge",
      });
      const conn = { ...newConnection({ tenantId: "acme", provider: "notion", namespace: "notes" }, new Date(now).toISOString()), account: fake.workspace.id };
      const event = signed(fake.eventPayload({ type: "page.deleted", entityId: "p1", id: "evt-2" }));
      expect(await c.webhooks.read(conn, event, "unused")).toEqual({ kind: "sync", deliveryId: "evt-2" });
      expect(await c.webhooks.read({ ...conn, account: "another-workspace" }, event, "unused")).toMatchObject({ kind: "acknowledge" });
    });
  });
});
