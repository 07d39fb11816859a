import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import type { ConnectionRepository, DueConnection } from "../../src/app/connection-ports";
import { SyncEngine, type SyncOutcome } from "../../src/app/sync-engine";
import { SyncScheduler, type SyncSchedulerOptions } from "../../src/app/sync-scheduler";
import type { Connector, ConnectorChange } from "../../src/app/sync-ports";
import { type ConnectionProvider, newConnection, type SyncRun } from "../../src/domain/connection";
import { MemorySink } from "./sync-helpers";

const log = rootLogger({ level: "silent" });
const T0 = Date.parse("2026-03-01T00:00:00.000Z");

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise's callbacks run (setImmediate is left real by the fake timers below). */
const settle = () => new Promise<void>((r) => setImmediate(r));

const due = (connectionId: string, tenantId = "acme", provider: ConnectionProvider = "web-crawler"): DueConnection => ({
  tenantId,
  connectionId,
  provider,
  dueAt: new Date(T0).toISOString(),
  requested: false,
});

const ran = (connectionId: string): SyncOutcome => ({ started: true, run: { connectionId } as SyncRun });

/**
 * The store answers `answer` (what is due), or waits for `hold` when set; the
 * engine is a fake whose syncs end when the test says so.
 */
class Harness {
  now = T0;
  readonly clock: Clock = { now: () => new Date(this.now) };
  answer: DueConnection[] = [];
  hold: Promise<void> | undefined;
  failNext: Error | undefined;
  readonly asked: { now: string; limit: number; providers?: readonly ConnectionProvider[] }[] = [];
  readonly syncs = new Map<string, ReturnType<typeof deferred<SyncOutcome | undefined>>>();
  readonly started: string[] = [];

  readonly repo: Pick<ConnectionRepository, "dueForSync"> = {
    dueForSync: async (now, opts) => {
      this.asked.push({ now: now.toISOString(), ...opts });
      if (this.hold) await this.hold;
      if (this.failNext) {
        const err = this.failNext;
        this.failNext = undefined;
        throw err;
      }
      return this.answer.slice(0, opts.limit);
    },
  };

  scheduler(opts: Partial<SyncSchedulerOptions> = {}, providers: ConnectionProvider[] = ["web-crawler"]) {
    return new SyncScheduler(
      {
        repo: this.repo,
        runSync: (d) => {
          this.started.push(d.connectionId);
          const s = deferred<SyncOutcome | undefined>();
          this.syncs.set(d.connectionId, s);
          return s.promise;
        },
        providers,
        clock: this.clock,
        logger: log,
      },
      { intervalMs: 60_000, maxConcurrent: 2, ...opts },
    );
  }

  /** Ends the sync of `id` (as having run, unless told otherwise). */
  async end(id: string, outcome: SyncOutcome | undefined = ran(id)) {
    this.syncs.get(id)!.resolve(outcome);
    await settle();
  }
}

describe("SyncScheduler", () => {
  let h: Harness;
  let scheduler: SyncScheduler | undefined;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    h = new Harness();
  });

  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    jest.useRealTimers();
  });

  it("starts the due connections, oldest first, up to the cap, asking with the clock's time and the providers that can sync", async () => {
    scheduler = h.scheduler({ maxConcurrent: 2 }, ["web-crawler", "granola"]);
    h.answer = [due("n_1"), due("n_2", "globex"), due("n_3")];
    h.now = T0 + 5_000;
    expect(await scheduler.tick()).toEqual({ due: 2, started: 2 });
    expect(h.asked).toEqual([{ now: new Date(T0 + 5_000).toISOString(), limit: 2, providers: ["web-crawler", "granola"] }]);
    expect(h.started).toEqual(["n_1", "n_2"]);
    expect(scheduler.running).toBe(2);
  });

  it("respects the cap: with every slot taken it does not even ask, and starts more only as syncs end", async () => {
    scheduler = h.scheduler({ maxConcurrent: 2 });
    h.answer = [due("n_1"), due("n_2"), due("n_3")];
    await scheduler.tick();
    expect(await scheduler.tick()).toEqual({ due: 0, started: 0 });
    expect(h.asked).toHaveLength(1);

    await h.end("n_1");
    expect(scheduler.running).toBe(1);
    // n_2 is still under way (the store may answer it until its sync holds the lease): never started twice.
    h.answer = [due("n_2"), due("n_3")];
    expect(await scheduler.tick()).toEqual({ due: 2, started: 1 });
    expect(h.started).toEqual(["n_1", "n_2", "n_3"]);
    expect(scheduler.running).toBe(2);
  });

  it("skips a connection that is busy (another replica syncs it) and frees its slot", async () => {
    scheduler = h.scheduler({ maxConcurrent: 1 });
    h.answer = [due("n_1")];
    await scheduler.tick();
    await h.end("n_1", { started: false, reason: "busy" });
    expect(scheduler.running).toBe(0);
    h.answer = [due("n_2")];
    expect(await scheduler.tick()).toEqual({ due: 1, started: 1 });
    // A sync that could not run at all (an error, logged) frees its slot too.
    h.syncs.get("n_2")!.reject(new Error("store unavailable"));
    await settle();
    expect(scheduler.running).toBe(0);
  });

  it("never overlaps itself: a look asked for while one runs joins it, and the timer waits for it", async () => {
    scheduler = h.scheduler({ intervalMs: 1_000 });
    const gate = deferred<void>();
    h.hold = gate.promise;
    h.answer = [due("n_1")];
    const a = scheduler.tick();
    const b = scheduler.tick();
    expect(b).toBe(a);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(h.asked).toHaveLength(1);
    gate.resolve();
    expect(await a).toEqual({ due: 1, started: 1 });
    h.hold = undefined;
    // The timer's own look joined the one under way; the next comes one interval after it ended.
    await settle();
    expect(h.asked).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.asked).toHaveLength(2);
  });

  it("looks once per interval from start, and again at once when a sync that ran ends and the last look was full", async () => {
    scheduler = h.scheduler({ intervalMs: 60_000, maxConcurrent: 1 });
    scheduler.start();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(h.asked).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.asked).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.asked).toHaveLength(2);

    // A full look (more may be due): when its sync has run, the next look is at once.
    h.answer = [due("n_1"), due("n_2")];
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.started).toEqual(["n_1"]);
    h.answer = [due("n_2"), due("n_3")];
    await h.end("n_1");
    await jest.advanceTimersByTimeAsync(0);
    expect(h.asked).toHaveLength(4);
    expect(h.started).toEqual(["n_1", "n_2"]);

    // A skipped one (busy) waits for the interval: no tight loop.
    await h.end("n_2", { started: false, reason: "busy" });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.asked).toHaveLength(4);
    await jest.advanceTimersByTimeAsync(59_000);
    expect(h.asked).toHaveLength(5);
  });

  it("logs a store failure and looks again at the next interval", async () => {
    scheduler = h.scheduler({ intervalMs: 1_000 });
    h.failNext = new Error("down");
    await expect(scheduler.tick()).rejects.toThrow("down");
    h.failNext = new Error("down");
    scheduler.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.asked).toHaveLength(2);
    h.answer = [due("n_1")];
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.asked).toHaveLength(3);
    expect(h.started).toEqual(["n_1"]);
  });

  it("stops cleanly: waits for a look under way, which then starts nothing, and looks no more; running syncs go on", async () => {
    scheduler = h.scheduler({ intervalMs: 1_000, maxConcurrent: 2 });
    h.answer = [due("n_1")];
    await scheduler.tick();
    scheduler.start();
    const gate = deferred<void>();
    h.hold = gate.promise;
    h.answer = [due("n_2")];
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.asked).toHaveLength(2);

    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(h.started).toEqual(["n_1"]);
    expect(await scheduler.tick()).toEqual({ due: 0, started: 0 });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(h.asked).toHaveLength(2);
    // n_1 is the use cases' to abort and await; when it ends, nothing new is armed.
    expect(scheduler.running).toBe(1);
    await h.end("n_1");
    await jest.advanceTimersByTimeAsync(10_000);
    expect(h.asked).toHaveLength(2);
    await scheduler.whenIdle();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(h.asked).toHaveLength(2);
  });

  it("does nothing when turned off (interval 0) or when no provider can sync", async () => {
    scheduler = h.scheduler({ intervalMs: 0 });
    expect(scheduler.enabled).toBe(false);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(h.asked).toHaveLength(0);
    const none = h.scheduler({}, []);
    expect(await none.tick()).toEqual({ due: 0, started: 0 });
    expect(h.asked).toHaveLength(0);
    expect(() => h.scheduler({ maxConcurrent: 0 })).toThrow(RangeError);
    expect(() => h.scheduler({ intervalMs: -1 })).toThrow(RangeError);
  });
});

/** The scheduler on the embedded store and the real SyncEngine: due times move with the runs the engine records. */
describe("SyncScheduler with the store and the engine", () => {
  let dir: string;
  let repo: SqliteConnectionRepository;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-scheduler-"));
    repo = new SqliteConnectionRepository(dir);
  });

  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("syncs what is due as `scheduled` runs, then not again before the interval; a connection synced elsewhere is left alone", async () => {
    let now = T0;
    const clock: Clock = { now: () => new Date(now) };
    const page = (key: string): ConnectorChange => ({
      kind: "upsert",
      itemKey: key,
      url: key,
      title: key,
      content: { bytes: new TextEncoder().encode(`<h1>${key}</h1>`), mimeType: "text/html", fileName: "page.html" },
      version: "1",
    });
    const connector: Connector = {
      async *changes() {
        yield page("https://docs.example.com/");
      },
    };
    const engine = new SyncEngine({ repo, sink: new MemorySink(), connectors: { "web-crawler": connector }, clock, logger: log });
    const mk = (tenantId: string, namespace: string, config: Record<string, string | number> = {}) =>
      repo.create(
        newConnection(
          { tenantId, provider: "web-crawler", namespace, config: { startUrl: "https://docs.example.com/", ...config } },
          new Date(now).toISOString(),
        ),
      );
    const a = await mk("acme", "a");
    const b = await mk("globex", "b", { recrawlIntervalDays: 10 });
    const elsewhere = await mk("acme", "c");
    // Another replica is syncing this one.
    await repo.tryAcquireLease("acme", elsewhere.id, "other-replica", 3_600_000, clock.now());
    const scheduler = new SyncScheduler(
      { repo, runSync: (d) => engine.run(d.tenantId, d.connectionId, "scheduled"), providers: ["web-crawler"], clock, logger: log },
      { intervalMs: 60_000, maxConcurrent: 4 },
    );

    now += 1_000;
    expect(await scheduler.tick()).toEqual({ due: 2, started: 2 });
    await scheduler.whenIdle();
    for (const [tenant, c] of [
      ["acme", a],
      ["globex", b],
    ] as const)
      expect(await repo.lastRun(tenant, c.id)).toMatchObject({ trigger: "scheduled", status: "succeeded", documentsImported: 1 });
    expect(await repo.lastRun("acme", elsewhere.id)).toBeUndefined();

    // Synced: not due again before a week (b: ten days); the other replica's lease lapsed after an hour.
    now += 2 * 3_600_000;
    expect(await scheduler.tick()).toEqual({ due: 1, started: 1 });
    await scheduler.whenIdle();
    expect(await repo.lastRun("acme", elsewhere.id)).toMatchObject({ trigger: "scheduled" });
    now = T0 + 1_000 + 7 * 86_400_000;
    expect((await repo.dueForSync(clock.now(), { limit: 10 })).map((d) => d.connectionId)).toEqual([a.id]);
    expect(await scheduler.tick()).toEqual({ due: 1, started: 1 });
    await scheduler.whenIdle();
    expect((await repo.listRuns("acme", a.id, 10)).length).toBe(2);
    await scheduler.stop();
  });
});
