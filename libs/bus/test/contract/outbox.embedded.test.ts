import { openSqlite } from "@engram/storage";
import { OUTBOX_TABLE_SQL, OutboxRelay, SqliteOutbox } from "../../src/outbox";
import { removeDir, silentLogger, tempDir } from "../helpers";
import { outboxContract } from "./outbox.contract";

describe("SqliteOutbox + OutboxRelay (outbox contract)", () => {
  outboxContract(async () => {
    const dir = tempDir("engram-outbox-db-");
    const db = openSqlite({ dataDir: dir, name: "svc", migrations: [`CREATE TABLE records (id TEXT PRIMARY KEY); ${OUTBOX_TABLE_SQL}`] });
    const outbox = new SqliteOutbox(db);
    const insert = db.prepare("INSERT INTO records (id) VALUES (?)");
    return {
      write: async (id, messages, fail = false) =>
        db.transaction(() => {
          insert.run(id);
          outbox.add(messages);
          if (fail) throw new Error("write aborted");
        })(),
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
