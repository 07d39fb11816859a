import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SYNC_RUNS_KEPT, SyncEngine } from "../../src/app/sync-engine";
import type { Connector, ConnectorChange } from "../../src/app/sync-ports";
import { MemorySink } from "./sync-helpers";
import { type Connection, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";

const log = rootLogger({ level: "silent" });

const page = (key: string, version: string): ConnectorChange => ({
  kind: "upsert",
  itemKey: key,
  url: key,
  title: key,
  content: { bytes: new TextEncoder().encode(`<h1>${key}</h1>`), mimeType: "text/html", fileName: "page.html" },
  version,
});

/** A connector that replays a script of changes per sync. */
class ScriptedConnector implements Connector {
  script: (ConnectorChange | Error)[] = [];
  seen: ReadonlyMap<string, unknown>[] = [];
  async *changes(_c: Connection, known: ReadonlyMap<string, unknown>) {
    this.seen.push(new Map(known));
    for (const c of this.script) {
      if (c instanceof Error) throw c;
      yield c;
    }
  }
}

describe("SyncEngine", () => {
  let dir: string;
  let repo: SqliteConnectionRepository;
  let sink: MemorySink;
  let connector: ScriptedConnector;
  let engine: SyncEngine;
  let now = Date.parse("2026-02-01T00:00:00.000Z");
  const clock: Clock = { now: () => new Date((now += 1000)) };

  const connection = async (documentLimit?: number) =>
    repo.create(
      newConnection(
        { tenantId: "acme", provider: "web-crawler", namespace: "docs", documentLimit, config: { startUrl: "https://example.com/" } },
        new Date(now).toISOString(),
      ),
    );

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-sync-"));
    repo = new SqliteConnectionRepository(dir);
    sink = new MemorySink();
    connector = new ScriptedConnector();
    engine = new SyncEngine({ repo, sink, connectors: { "web-crawler": connector }, clock, logger: log });
  });
  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("imports new items, skips unchanged versions, replaces changed ones in place and deletes gone ones", async () => {
    const c = await connection();
    connector.script = [page("a", "1"), page("b", "1")];
    const first = await engine.run("acme", c.id, "initial");
    expect(first).toMatchObject({ started: true, run: { status: "succeeded", documentsImported: 2 } });
    const idOfA = sink.docs.get(SyncEngine.customIdOf(c.id, "a"))!.id;

    connector.script = [page("a", "2"), page("b", "1"), { kind: "delete", itemKey: "b", reason: "404" }];
    const second = await engine.run("acme", c.id, "manual");
    expect(second).toMatchObject({ started: true, run: { status: "succeeded", documentsImported: 1 } });
    // The connector was told what it had imported.
    expect([...connector.seen[1]!.keys()].sort()).toEqual(["a", "b"]);
    expect(sink.docs.get(SyncEngine.customIdOf(c.id, "a"))!.id).toBe(idOfA);
    expect([...sink.docs.values()].map((d) => d.title)).toEqual(["a"]);
    expect(await repo.countItems("acme", c.id)).toBe(1);
  });

  it("knows within a run what the run itself imported: an item created then deleted in one run leaves nothing, counted once", async () => {
    const c = await connection(2);
    connector.script = [page("a", "1"), page("a", "2"), { kind: "delete", itemKey: "a", reason: "trashed" }, page("b", "1"), page("c", "1")];
    const out = await engine.run("acme", c.id, "initial");
    // a imported twice (a new version) then deleted: its room under the limit of 2 is free again for b and c.
    expect(out).toMatchObject({ run: { status: "succeeded", documentsImported: 4 } });
    expect([...sink.docs.values()].map((d) => d.title).sort()).toEqual(["b", "c"]);
    expect(await repo.countItems("acme", c.id)).toBe(2);
  });

  it("imports only what the import policy admits, and removes an imported item whose new version it refuses", async () => {
    const c = await connection();
    const refused = new Set(["b", "a@2"]);
    const policed = new SyncEngine({
      repo,
      sink,
      connectors: { "web-crawler": connector },
      clock,
      logger: log,
      importPolicy: async () => ({
        admits: async (i) => (refused.has(i.itemKey) || refused.has(`${i.itemKey}@${i.version}`) ? { admit: false, reason: "filtered" } : { admit: true }),
      }),
    });
    connector.script = [page("a", "1"), page("b", "1")];
    expect(await policed.run("acme", c.id, "initial")).toMatchObject({ run: { status: "succeeded", documentsImported: 1 } });
    expect([...sink.docs.values()].map((d) => d.title)).toEqual(["a"]);
    connector.script = [page("a", "2"), page("b", "1")];
    expect(await policed.run("acme", c.id, "manual")).toMatchObject({ run: { status: "succeeded", documentsImported: 0 } });
    expect(sink.docs.size).toBe(0);
    expect(await repo.countItems("acme", c.id)).toBe(0);
  });

  it("stops importing new items at the documentLimit and records the rest as failures (a partial run)", async () => {
    const c = await connection(2);
    connector.script = [page("a", "1"), page("b", "1"), page("c", "1"), page("d", "1")];
    const out = await engine.run("acme", c.id, "initial");
    expect(out).toMatchObject({ started: true, run: { status: "partial", documentsImported: 2, itemFailures: { count: 2 } } });
    expect(sink.docs.size).toBe(2);
    // A changed version of an imported item is still taken at the limit.
    connector.script = [page("a", "2"), page("e", "1")];
    const again = await engine.run("acme", c.id, "manual");
    expect(again).toMatchObject({ run: { documentsImported: 1, itemFailures: { count: 1 } } });
  });

  it("records an item that fails (provider or ingestion) and goes on with the others", async () => {
    const c = await connection();
    sink.failFor.add("b");
    connector.script = [page("a", "1"), page("b", "1"), { kind: "failure", itemKey: "x", reason: "HTTP 500" }, page("c", "1")];
    const out = await engine.run("acme", c.id, "initial");
    expect(out).toMatchObject({ run: { status: "partial", documentsImported: 2, itemFailures: { count: 2 } } });
    if (out.started) expect(out.run.itemFailures.samples.map((s) => s.itemKey)).toEqual(["b", "x"]);
  });

  it("fails the run with the provider's error code when the connector cannot go on (authorization lost)", async () => {
    const c = await connection();
    connector.script = [page("a", "1"), new ConnectorError("auth_expired", "the provider refused the token")];
    const out = await engine.run("acme", c.id, "scheduled");
    expect(out).toMatchObject({ run: { status: "failed", errorCode: "auth_expired", documentsImported: 1 } });
    // What was applied before the failure stays.
    expect(await repo.countItems("acme", c.id)).toBe(1);
    // The connection waits for a new authorization: no sync starts until then.
    expect((await repo.get("acme", c.id))?.status).toBe("auth_expired");
    expect(await engine.run("acme", c.id, "manual")).toEqual({ started: false, reason: "not_syncable" });
  });

  it("keeps the cursor where it was when an item failed to apply, and moves it past items the provider reported failed", async () => {
    const c = await connection();
    sink.failFor.add("b");
    connector.script = [page("a", "1"), page("b", "1"), { kind: "cursor", cursor: "after-b" }];
    await engine.run("acme", c.id, "initial");
    expect((await repo.get("acme", c.id))?.cursor).toBeUndefined();
    sink.failFor.clear();
    connector.script = [{ kind: "failure", itemKey: "c", reason: "gone at the provider" }, page("b", "1"), { kind: "cursor", cursor: "after-b" }];
    await engine.run("acme", c.id, "manual");
    expect((await repo.get("acme", c.id))?.cursor).toBe("after-b");
  });

  it("renews the connection's subscriptions once a day at the start of a run (injected clock), and records a failed renewal without stopping", async () => {
    const c = await connection();
    const renewals: string[] = [];
    let fail = false;
    const renewing = Object.assign(new ScriptedConnector(), {
      renew: async (conn: Connection, ctx: { now: Date; webhook: { url: string } }) => {
        renewals.push(ctx.webhook.url);
        if (fail) throw new ConnectorError("provider_unavailable", "GitHub answered 502");
        return { ...conn.config, subscription: `sub-${renewals.length}` };
      },
    });
    renewing.script = [page("a", "1")];
    const e = new SyncEngine({
      repo,
      sink,
      connectors: { "web-crawler": renewing },
      clock,
      logger: log,
      webhookTarget: (conn) => ({ url: `https://engram.example.com/hook/${conn.id}`, secret: "s" }),
    });
    await e.run("acme", c.id, "initial");
    expect(renewals).toHaveLength(1);
    expect((await repo.get("acme", c.id))?.config).toMatchObject({ subscription: "sub-1", startUrl: "https://example.com/" });
    now += 4 * 3_600_000;
    await e.run("acme", c.id, "scheduled");
    expect(renewals).toHaveLength(1);
    now += 21 * 3_600_000;
    fail = true;
    const out = await e.run("acme", c.id, "scheduled");
    expect(renewals).toHaveLength(2);
    expect(out).toMatchObject({ run: { status: "partial", itemFailures: { count: 1 } } });
    // Tried again on the next day's run.
    fail = false;
    now += 25 * 3_600_000;
    await e.run("acme", c.id, "scheduled");
    expect(renewals).toHaveLength(3);
    expect((await repo.get("acme", c.id))?.config).toMatchObject({ subscription: "sub-3" });
  });

  it("does not start a sync for a connection its connector says has nothing to sync yet", async () => {
    const c = await connection();
    const waiting = Object.assign(new ScriptedConnector(), { ready: () => false });
    const e = new SyncEngine({ repo, sink, connectors: { "web-crawler": waiting }, clock, logger: log });
    expect(await e.run("acme", c.id, "scheduled")).toEqual({ started: false, reason: "not_syncable" });
    expect(await repo.lastRun("acme", c.id)).toBeUndefined();
  });

  it("runs one sync per connection at a time, and never for another tenant or an unknown connection", async () => {
    const c = await connection();
    expect(await repo.tryAcquireLease("acme", c.id, "another-replica", 60_000, new Date(now))).toBeDefined();
    expect(await engine.run("acme", c.id, "manual")).toEqual({ started: false, reason: "busy" });
    expect(await engine.run("globex", c.id, "manual")).toEqual({ started: false, reason: "not_syncable" });
    expect(await engine.run("acme", "n_unknown", "manual")).toEqual({ started: false, reason: "not_syncable" });
  });

  it("a manual import or a schedule tick during a run is not dropped: one more run follows it, with that trigger", async () => {
    const c = await connection();
    // The first run stops inside the listing until released; an import arrives meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocking: Connector = {
      async *changes() {
        yield page("a", "1");
        await gate;
        yield page("b", "1");
      },
    };
    const gated = new SyncEngine({ repo, sink, connectors: { "web-crawler": blocking }, clock, logger: log });
    const first = gated.run("acme", c.id, "initial");
    await new Promise((r) => setTimeout(r, 50));
    expect(await gated.run("acme", c.id, "manual")).toEqual({ started: false, reason: "busy" });
    // Another replica's look (the lease is held) is a follow-up too.
    expect(await engine.run("acme", c.id, "scheduled")).toEqual({ started: false, reason: "busy" });
    release();
    expect(await first).toMatchObject({ started: true });
    const due = await repo.dueForSync(new Date(now + 60_000), { limit: 10 });
    expect(due).toEqual([expect.objectContaining({ connectionId: c.id, requested: true, requestedBy: "scheduled" })]);
    // The follow-up runs and settles the request.
    connector.script = [page("a", "1"), page("b", "2")];
    expect(await engine.run("acme", c.id, due[0]!.requestedBy!)).toMatchObject({ started: true, run: { trigger: "scheduled" } });
    expect(await repo.dueForSync(new Date(now + 60_000), { limit: 10 })).toEqual([]);
  });

  it("runs one sync of a connection at a time within a replica too (its lease is the replica's)", async () => {
    const c = await connection();
    connector.script = [page("a", "1")];
    const [x, y] = await Promise.all([engine.run("acme", c.id, "manual"), engine.run("acme", c.id, "scheduled")]);
    expect([x.started, y.started].sort()).toEqual([false, true]);
    expect(await engine.run("acme", c.id, "manual")).toMatchObject({ started: true });
  });

  it("keeps the newest SYNC_RUNS_KEPT runs of a connection once a run finishes, and leaves other connections' runs alone", async () => {
    expect(SYNC_RUNS_KEPT).toBe(100);
    const c = await connection();
    const other = await connection();
    const otherRun = await engine.run("acme", other.id, "initial");
    const ids: string[] = [];
    for (let i = 0; i < SYNC_RUNS_KEPT + 2; i++) {
      const out = await engine.run("acme", c.id, i === 0 ? "initial" : "webhook");
      if (!out.started) throw new Error(`run ${i} did not start: ${out.reason}`);
      ids.push(out.run.id);
    }
    const kept = await repo.listRuns("acme", c.id, SYNC_RUNS_KEPT + 10);
    expect(kept.map((r) => r.id)).toEqual(ids.slice(2).reverse());
    expect(await repo.getRun("acme", ids[0]!)).toBeUndefined();
    expect((await repo.lastRun("acme", c.id))?.id).toBe(ids.at(-1));
    expect((await repo.listRuns("acme", other.id, 10)).map((r) => r.id)).toEqual([otherRun.started ? otherRun.run.id : ""]);
  });

  it("logs a failed prune and never fails the run for it (the lease is released as usual)", async () => {
    const c = await connection();
    connector.script = [page("a", "1")];
    const prune = jest.spyOn(repo, "pruneRuns").mockRejectedValue(new Error("disk I/O error"));
    const warn = jest.spyOn(log, "warn");
    try {
      const out = await engine.run("acme", c.id, "manual");
      expect(out).toMatchObject({ started: true, run: { status: "succeeded", documentsImported: 1 } });
      expect(prune).toHaveBeenCalledWith("acme", c.id, SYNC_RUNS_KEPT);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ connectionId: c.id }), "could not prune the connection's old sync runs");
      expect(await repo.lastRun("acme", c.id)).toMatchObject({ status: "succeeded" });
      // The lease was released: another replica can sync the connection at once.
      expect(await repo.tryAcquireLease("acme", c.id, "another-replica", 60_000, new Date(now))).toBeDefined();
    } finally {
      prune.mockRestore();
      warn.mockRestore();
    }
  });

  it("a sync interrupted by the shutdown is recorded as interrupted and made due again; the next run resumes, skipping what was imported", async () => {
    const c = await connection();
    const stop = new AbortController();
    // A crawl that imports two pages, then is still fetching the third when the service stops.
    const crawling: Connector = {
      async *changes(_c, _known, signal) {
        yield page("a", "1");
        yield page("b", "1");
        stop.abort(new Error("the connections service is stopping"));
        signal.throwIfAborted();
        yield page("c", "1");
      },
    };
    const stopping = new SyncEngine({ repo, sink, connectors: { "web-crawler": crawling }, clock, logger: log });
    const out = await stopping.run("acme", c.id, "manual", stop.signal);
    expect(out).toMatchObject({
      started: true,
      run: {
        status: "failed",
        errorCode: "internal",
        error: "interrupted: the service stopped during the sync; it resumes after the restart",
        documentsImported: 2,
      },
    });
    // Due again at once (the restarted scheduler's first look finds it), with the run's trigger.
    const due = await repo.dueForSync(clock.now(), { limit: 10, providers: ["web-crawler"] });
    expect(due).toEqual([expect.objectContaining({ connectionId: c.id, requested: true, requestedBy: "manual" })]);

    // Resumed: the pages imported before the stop are known and skipped; the rest is imported.
    connector.script = [page("a", "1"), page("b", "1"), page("c", "1")];
    const resumed = await engine.run("acme", c.id, "manual");
    expect(resumed).toMatchObject({ started: true, run: { status: "succeeded", documentsImported: 1 } });
    expect([...connector.seen[0]!.keys()].sort()).toEqual(["a", "b"]);
    expect([...sink.docs.values()].map((d) => d.title).sort()).toEqual(["a", "b", "c"]);
  });

  it("ends the run without error when the connection is deleted under it", async () => {
    const c = await connection();
    const deleting: Connector = {
      async *changes() {
        yield page("a", "1");
        await repo.delete("acme", c.id);
        yield page("b", "1");
      },
    };
    const e = new SyncEngine({ repo, sink, connectors: { "web-crawler": deleting }, clock, logger: log });
    const out = await e.run("acme", c.id, "manual");
    expect(out).toMatchObject({ started: true, run: { status: "failed" } });
    expect(await repo.get("acme", c.id)).toBeUndefined();
  });
});
