import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { GRANOLA_FULL_LISTING_EVERY_MS, GranolaConnector, noteMarkdown, validateGranolaKey } from "../../src/adapters/connectors/granola";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SyncEngine } from "../../src/app/sync-engine";
import { newConnection } from "../../src/domain/connection";
import { MemorySink } from "./sync-helpers";
import { FakeGranola, granolaNote as note } from "@engram/testing";

describe("Granola connector", () => {
  const fake = new FakeGranola();
  let base: string;
  let dir: string;
  let repo: SqliteConnectionRepository;
  let sink: MemorySink;
  let now = Date.parse("2026-04-01T00:00:00.000Z");
  const clock: Clock = { now: () => new Date(now) };

  beforeAll(async () => {
    base = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-granola-"));
    repo = new SqliteConnectionRepository(dir);
    sink = new MemorySink();
    fake.notes.clear();
    fake.requests = [];
    fake.failNext = [];
  });
  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const setup = async () => {
    const conn = await repo.create(newConnection({ tenantId: "acme", provider: "granola", namespace: "meetings" }, new Date(now).toISOString()));
    const connector = new GranolaConnector({ baseUrl: base, apiKeyOf: () => "grn_good", now: () => now });
    const engine = new SyncEngine({ repo, sink, connectors: { granola: connector }, clock, logger: rootLogger({ level: "silent" }) });
    return { conn, sync: () => engine.run("acme", conn.id, "manual") };
  };
  const titles = () => [...sink.docs.values()].map((d) => d.title).sort();

  it("imports every note over several pages as Markdown with its summary and transcript", async () => {
    for (let i = 0; i < 65; i++) fake.notes.set(`not_${String(i).padStart(3, "0")}`, note(`not_${String(i).padStart(3, "0")}`, "2026-03-01T00:00:00Z"));
    const { sync } = await setup();
    expect(await sync()).toMatchObject({ run: { status: "succeeded", documentsImported: 65 } });
    expect(fake.requests.filter((r) => r.startsWith("/v1/notes?")).length).toBe(3); // 30 + 30 + 5
    const doc = [...sink.docs.values()].find((d) => d.title === "Meeting not_007")!;
    expect(doc.text).toBe("# Meeting not_007\n\n## Summary\n\n- decided not_007\n\n## Transcript\n\nMe: Let's talk about not_007.\nAna: Agreed.\n");
  });

  it("then asks only for notes updated since the cursor, re-imports changed ones in place, and prunes deleted ones daily", async () => {
    fake.notes.set("not_a", note("not_a", "2026-03-01T00:00:00Z"));
    fake.notes.set("not_b", note("not_b", "2026-03-01T00:00:00Z"));
    const { sync } = await setup();
    await sync();
    const idOfA = [...sink.docs.values()].find((d) => d.title === "Meeting not_a")!.id;

    fake.notes.set("not_a", note("not_a", "2026-03-05T00:00:00Z", { title: "Meeting not_a (edited)" }));
    fake.notes.delete("not_b");
    fake.requests = [];
    now += 60 * 60 * 1000;
    expect(await sync()).toMatchObject({ run: { status: "succeeded", documentsImported: 1 } });
    expect(fake.requests[0]).toContain("updated_after=2026-03-01T00%3A00%3A00Z");
    expect(titles()).toEqual(["Meeting not_a (edited)", "Meeting not_b"]); // the deletion waits for the full listing
    expect([...sink.docs.values()].find((d) => d.title === "Meeting not_a (edited)")!.id).toBe(idOfA);

    now += GRANOLA_FULL_LISTING_EVERY_MS;
    fake.requests = [];
    await sync();
    expect(fake.requests[0]).not.toContain("updated_after");
    expect(titles()).toEqual(["Meeting not_a (edited)"]);
  });

  it("never deletes a note that is only absent from listings while Granola processes it", async () => {
    fake.notes.set("not_a", note("not_a", "2026-03-01T00:00:00Z"));
    const { sync } = await setup();
    await sync();
    fake.notes.set("not_a", { ...fake.notes.get("not_a")!, processing: true });
    now += GRANOLA_FULL_LISTING_EVERY_MS;
    await sync();
    expect(titles()).toEqual(["Meeting not_a"]);
  });

  it("retries 429 and 5xx (honouring Retry-After) without importing anything twice", async () => {
    fake.notes.set("not_a", note("not_a", "2026-03-01T00:00:00Z"));
    fake.failNext = [{ status: 429, headers: { "retry-after": "0" } }, { status: 503 }];
    const { sync } = await setup();
    expect(await sync()).toMatchObject({ run: { status: "succeeded", documentsImported: 1 } });
    expect(sink.docs.size).toBe(1);
  });

  it("fails the run as auth_expired when the key is revoked, keeping what was imported", async () => {
    fake.notes.set("not_a", note("not_a", "2026-03-01T00:00:00Z"));
    const { sync } = await setup();
    await sync();
    fake.key = "grn_rotated";
    try {
      now += 60_000;
      expect(await sync()).toMatchObject({ run: { status: "failed", errorCode: "auth_expired" } });
      expect(sink.docs.size).toBe(1);
    } finally {
      fake.key = "grn_good";
    }
  });

  it("validates a key before a connection is created with it", async () => {
    await expect(validateGranolaKey("grn_good", { baseUrl: base })).resolves.toBeUndefined();
    await expect(validateGranolaKey("grn_wrong", { baseUrl: base })).rejects.toMatchObject({ code: "auth_expired" });
  });

  it("writes a note without summary or transcript as its title and date", () => {
    expect(noteMarkdown({ id: "x", title: null, created_at: "2026-01-01T10:00:00Z", attendees: [{ name: "Bo" }, { email: "c@d.e" }] })).toBe(
      "# Meeting notes\n\nDate: 2026-01-01T10:00:00Z\nAttendees: Bo, c@d.e\n",
    );
  });
});
