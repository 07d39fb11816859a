import { metrics } from "@engram/observability";
import { openSqlite } from "@engram/storage";
import { OUTBOX_TABLE_SQL, OutboxRelay, SqliteOutbox } from "../../src/outbox";
import { openBus, removeDir, silentLogger, tempDir, textMessage, until } from "../helpers";
import { FlakyBus, outboxContract } from "./outbox.contract";

const TOPIC = "engram.outbox-test.v1";

function openOutboxDb() {
  const dir = tempDir("engram-outbox-db-");
  const db = openSqlite({ dataDir: dir, name: "svc", migrations: [`CREATE TABLE records (id TEXT PRIMARY KEY); ${OUTBOX_TABLE_SQL}`] });
  const outbox = new SqliteOutbox(db);
  const insert = db.prepare("INSERT INTO records (id) VALUES (?)");
  const write = (id: string, messages: Parameters<SqliteOutbox["add"]>[0], fail = false) =>
    db.transaction(() => {
      insert.run(id);
      outbox.add(messages);
      if (fail) throw new Error("write aborted");
    })();
  return { dir, db, outbox, write };
}

describe("SqliteOutbox + OutboxRelay (outbox contract)", () => {
  outboxContract(async () => {
    const { dir, db, outbox, write } = openOutboxDb();
    return {
      write: async (id, messages, fail = false) => write(id, messages, fail),
      // Another process on the same database file.
      store: () => new SqliteOutbox(db),
      relay: (store, bus, opts) => new OutboxRelay("test", store, bus, silentLogger, opts),
      unpublished: async () => outbox.pending(100_000).map((e) => e.message),
      backlog: async () => outbox.backlog(),
      claimMs: 0,
      close: async () => {
        db.close();
        removeDir(dir);
      },
    };
  });
});

describe("OutboxRelay metrics", () => {
  it("reports the entries waiting to be published in engram_outbox_backlog, per outbox", async () => {
    const { dir, db, outbox, write } = openOutboxDb();
    const bus = openBus(dir);
    const flaky = new FlakyBus(bus);
    const relay = new OutboxRelay("backlog-test", outbox, flaky, silentLogger, { idleMs: 20 });
    try {
      const backlog = async () => {
        const m = /^engram_outbox_backlog\{outbox="backlog-test"\} (\d+)$/m.exec(await metrics.exposition());
        return m ? Number(m[1]) : undefined;
      };
      flaky.failing = true;
      write("r1", [textMessage(TOPIC, "r1", "a"), textMessage(TOPIC, "r1", "b")]);
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
    } finally {
      await relay.stop();
      await bus.close();
      db.close();
      removeDir(dir);
    }
  });
});

describe("OutboxRelay claim renewal", () => {
  it("renews a claimed batch's claim while a slow publish is in flight, and stops renewing once it was acknowledged", async () => {
    const renewals: number[][] = [];
    const rows = [1, 2, 3].map((id) => ({ id, message: textMessage(TOPIC, `k${id}`, `m${id}`) }));
    let served = false;
    const store = {
      renewEveryMs: 30,
      pending: () => (served ? [] : ((served = true), rows)),
      remove: () => undefined,
      backlog: () => 0,
      renew: (ids: number[]) => void renewals.push(ids),
    };
    // The broker takes ~10 renewal periods to acknowledge: a claim that is not renewed would lapse mid-publish.
    const slow = { publish: () => new Promise<void>((r) => setTimeout(r, 320)), subscribe: () => Promise.reject(new Error("unused")), close: async () => {} };
    const relay = new OutboxRelay("renew-test", store, slow, silentLogger);
    expect(await relay.flush()).toBe(3);
    expect(renewals.length).toBeGreaterThanOrEqual(5);
    for (const ids of renewals) expect(ids).toEqual([1, 2, 3]);
    const after = renewals.length;
    await new Promise((r) => setTimeout(r, 120));
    expect(renewals.length).toBe(after);
  });
});
