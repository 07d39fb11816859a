import { metrics } from "@engram/observability";
import { openSqlite, type SqliteDatabase } from "@engram/storage";
import type { EmbeddedEventBus } from "../src/embedded-bus";
import { OUTBOX_TABLE_SQL, OutboxRelay, SqliteOutbox } from "../src/outbox";
import type { EventBus, OutgoingMessage } from "../src/port";
import { openBus, removeDir, silentLogger, tempDir, textMessage, textOf, until } from "./helpers";

const TOPIC = "engram.outbox-test.v1";

/** A bus whose publish can be made to fail, recording what got through. */
class FlakyBus implements EventBus {
  failing = false;
  failures = 0;
  readonly published: OutgoingMessage[] = [];
  constructor(private readonly inner: EventBus) {}
  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.failing) {
      this.failures++;
      throw new Error("broker unavailable");
    }
    await this.inner.publish(messages);
    this.published.push(...messages);
  }
  subscribe: EventBus["subscribe"] = (opts) => this.inner.subscribe(opts);
  close = () => this.inner.close();
}

describe("SqliteOutbox + OutboxRelay", () => {
  let dir: string;
  let db: SqliteDatabase;
  let outbox: SqliteOutbox;
  let bus: EmbeddedEventBus;
  let relay: OutboxRelay | undefined;

  beforeEach(() => {
    dir = tempDir("engram-outbox-");
    db = openSqlite({ dataDir: dir, name: "svc", migrations: [`CREATE TABLE records (id TEXT PRIMARY KEY); ${OUTBOX_TABLE_SQL}`] });
    outbox = new SqliteOutbox(db);
    bus = openBus(dir);
  });

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await bus.close();
    db.close();
    removeDir(dir);
  });

  /** A write that stores a record and its events atomically. */
  const write = (id: string, messages: OutgoingMessage[], fail = false) =>
    db.transaction(() => {
      db.prepare("INSERT INTO records (id) VALUES (?)").run(id);
      outbox.add(messages);
      if (fail) throw new Error("write aborted");
    })();

  async function consume(group: string): Promise<string[]> {
    const got: string[] = [];
    await bus.subscribe({ group, topics: [TOPIC], handler: async (m) => void got.push(`${m.key}:${textOf(m.value)}:${m.headers["event-id"]}`) });
    return got;
  }

  it("stores messages with the transaction and drops them with a rolled-back one", () => {
    write("r1", [textMessage(TOPIC, "r1", "created"), textMessage(TOPIC, "r1", "indexed")]);
    expect(() => write("r2", [textMessage(TOPIC, "r2", "created")], true)).toThrow("write aborted");
    expect(outbox.backlog()).toBe(2);
    const pending = outbox.pending(10);
    expect(pending.map((e) => textOf(e.message.value))).toEqual(["created", "indexed"]);
    expect(pending[0]!.message).toMatchObject({ topic: TOPIC, key: "r1", headers: { "event-id": "r1-created", "event-type": "Test" } });
  });

  it("the relay publishes pending rows and removes them", async () => {
    const got = await consume("reader");
    write("r1", [textMessage(TOPIC, "r1", "a"), textMessage(TOPIC, "r1", "b")]);
    write("r2", [textMessage(TOPIC, "r2", "c")]);
    relay = new OutboxRelay("test", outbox, bus, silentLogger, { idleMs: 50 });
    relay.start();
    await until(() => got.length === 3, "published rows");
    expect(got).toEqual(expect.arrayContaining(["r1:a:r1-a", "r1:b:r1-b", "r2:c:r2-c"]));
    await until(() => outbox.backlog() === 0, "rows removed");

    // Later writes are picked up on notify().
    write("r3", [textMessage(TOPIC, "r3", "d")]);
    relay.notify();
    await until(() => got.length === 4, "notified row");
    await until(() => outbox.backlog() === 0, "notified row removed");
  });

  it("flush keeps the rows when publish rejects", async () => {
    const flaky = new FlakyBus(bus);
    const relayNoLoop = new OutboxRelay("test", outbox, flaky, silentLogger);
    write("r1", [textMessage(TOPIC, "r1", "a"), textMessage(TOPIC, "r1", "b")]);
    flaky.failing = true;
    await expect(relayNoLoop.flush()).rejects.toThrow("broker unavailable");
    expect(outbox.backlog()).toBe(2);
    flaky.failing = false;
    await expect(relayNoLoop.flush()).resolves.toBe(2);
    expect(outbox.backlog()).toBe(0);
    expect(flaky.published.map((m) => textOf(m.value))).toEqual(["a", "b"]);
  });

  it("a running relay retries after publish failures and publishes once the bus recovers", async () => {
    const got = await consume("reader");
    const flaky = new FlakyBus(bus);
    flaky.failing = true;
    write("r1", [textMessage(TOPIC, "r1", "a")]);
    relay = new OutboxRelay("test", outbox, flaky, silentLogger, { idleMs: 20 });
    relay.start();
    await until(() => flaky.failures >= 1, "a failed publish");
    expect(outbox.backlog()).toBe(1);
    expect(got).toEqual([]);
    flaky.failing = false;
    await until(() => got.length === 1, "publish after recovery");
    await until(() => outbox.backlog() === 0, "row removed after recovery");
    expect(got).toEqual(["r1:a:r1-a"]);
  });

  it("reports the entries waiting to be published in engram_outbox_backlog, per outbox", async () => {
    const backlog = async () => {
      const m = /^engram_outbox_backlog\{outbox="backlog-test"\} (\d+)$/m.exec(await metrics.exposition());
      return m ? Number(m[1]) : undefined;
    };
    const flaky = new FlakyBus(bus);
    flaky.failing = true;
    write("r1", [textMessage(TOPIC, "r1", "a"), textMessage(TOPIC, "r1", "b")]);
    relay = new OutboxRelay("backlog-test", outbox, flaky, silentLogger, { idleMs: 20 });
    relay.start();
    await until(() => flaky.failures >= 1, "a failed publish");
    const deadline = Date.now() + 5000;
    while ((await backlog()) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(await backlog()).toBe(2);
    flaky.failing = false;
    relay.notify();
    await until(() => outbox.backlog() === 0, "published after recovery");
    while ((await backlog()) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(await backlog()).toBe(0);
  });

  it("stop() flushes what is still pending", async () => {
    relay = new OutboxRelay("test", outbox, bus, silentLogger, { idleMs: 10_000 });
    relay.start();
    await until(() => outbox.backlog() === 0, "initial idle");
    write("r1", [textMessage(TOPIC, "r1", "late")]);
    const got = await consume("reader");
    await relay.stop();
    relay = undefined;
    expect(outbox.backlog()).toBe(0);
    await until(() => got.length === 1, "flushed on stop");
  });
});
