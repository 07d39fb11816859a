import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, type EngramProcess, startEngram, tempDataDir, waitFor } from "@engram/testing";
import { type Api, runCliProcess, stopQuietly } from "./helpers";

const KEY = "backup-key-0123456789abcdef0123456789";
const TAG = "backup";

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

/** `engram <args> --json` as an operator runs it on the host. */
const engram = (args: string[]) => runCliProcess(args);

const SYLLABLES = ["ka", "vo", "ri", "zem", "tul", "qua", "bex", "nor", "fi", "dag"];
/** A made-up word of its own per add (kavori…), so a search for it has one right answer. */
const nameOf = (n: number) => `${SYLLABLES[n % 10]}${SYLLABLES[Math.floor(n / 10) % 10]}${SYLLABLES[Math.floor(n / 100) % 10]}dor`;

interface Add {
  kind: "document" | "file" | "memory";
  n: number;
  content: string;
  sentAt: number;
  status?: number;
  ackAt?: number;
  id?: string;
}

/**
 * Online backup and restore (issue #34): the all-in-one stack serves a write load of about 20 adds a second
 * (documents, file uploads and memories through the API) while `engram backup` copies its data directory. The
 * backup is restored into a fresh directory with `engram restore`, and a second stack started on it serves every add
 * acknowledged before the backup began: each document present and reaching a final status (none left queued or
 * processing, with a stale sweep short enough to see), each memory present, uploaded originals byte for byte, the
 * API key from the backed-up gateway store, search answering. What was sent after the backup ended is not there.
 */
describe("online backup under a write load, then restore", () => {
  let a: EngramProcess | undefined;
  let b: EngramProcess | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "engram-backup-e2e-"));
  const backupDir = path.join(work, "backup");
  const restored = path.join(work, "restored");

  afterAll(async () => {
    await stopQuietly(a);
    await stopQuietly(b);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("serves after the restore exactly what was acknowledged before the backup began", async () => {
    a = await startEngram({ dataDir: tempDataDir("engram-backup-src-"), apiKey: KEY, timeoutMs: 90_000 });
    const api = apiClient(a.url, KEY);
    // Warm-up outside the measured load: the first memory write loads its models.
    expect((await api("POST", "/v4/memories", { containerTag: "warmup", memories: [{ content: "Warm-up: the stack is ready" }] })).status).toBe(201);
    const adds: Add[] = [];
    const inFlight = new Set<Promise<void>>();
    const send = (n: number) => {
      const kind: Add["kind"] = n % 2 === 1 ? "memory" : n % 6 === 0 ? "file" : "document";
      const content =
        kind === "memory" ? `Backup tester ${n} keeps a kestrel named ${nameOf(n)}` : `Logbook entry ${n}: the ferry ${nameOf(n)} crossed the fjord at dawn.`;
      const add: Add = { kind, n, content, sentAt: Date.now() };
      adds.push(add);
      const request = async (): Promise<{ status: number; body: Body }> => {
        if (kind === "memory") return api("POST", "/v4/memories", { containerTag: TAG, memories: [{ content }] });
        if (kind === "document") return api("POST", "/v3/documents", { content, containerTag: TAG, customId: `doc-${n}` });
        const form = new FormData();
        form.append("containerTags", JSON.stringify([TAG]));
        form.append("file", new Blob([content], { type: "text/plain" }), `entry-${n}.txt`);
        const res = await fetch(`${a!.url}/v3/documents/file`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: form });
        return { status: res.status, body: (await res.json()) as Body };
      };
      const p = request().then((res) => {
        add.status = res.status;
        if (res.status === 200 || res.status === 201) {
          add.ackAt = Date.now();
          add.id = kind === "memory" ? res.body.memories?.[0]?.id : res.body.id;
        }
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    // About 20 adds a second until stopped.
    let n = 0;
    const timer = setInterval(() => send(n++), 50);
    const load = async (ms: number) => new Promise((r) => setTimeout(r, ms));

    try {
      // Load until enough of every kind was acknowledged (a shared machine answers at its own pace), then a little more.
      await waitFor(
        async () => {
          const acked = (kind: Add["kind"]) => adds.filter((x) => x.kind === kind && x.ackAt !== undefined).length;
          return acked("memory") >= 8 && acked("file") >= 3 && acked("document") >= 8 ? true : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: "adds of every kind acknowledged" },
      );
      const backupBegan = Date.now();
      const backup = await engram(["backup", backupDir, "--data-dir", a.dataDir]);
      const backupEnded = Date.now();
      expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
      expect(backup.out).toMatchObject({ backup: backupDir, secretsIncluded: false });
      expect(backup.out.databases).toBeGreaterThanOrEqual(8);
      await load(1000);
      clearInterval(timer);
      await Promise.all([...inFlight]);

      expect(adds.filter((x) => x.ackAt === undefined).map((x) => [x.n, x.status])).toEqual([]);
      const before = adds.filter((x) => x.ackAt !== undefined && x.ackAt < backupBegan);
      const after = adds.filter((x) => x.sentAt > backupEnded);
      // The load really ran, through the backup, with every kind of add.
      expect(before.filter((x) => x.kind === "memory").length).toBeGreaterThanOrEqual(8);
      expect(before.filter((x) => x.kind === "file").length).toBeGreaterThanOrEqual(3);
      expect(adds.filter((x) => x.sentAt >= backupBegan && x.sentAt <= backupEnded && x.ackAt).length).toBeGreaterThan(5);
      expect(after.length).toBeGreaterThan(5);
      await stopQuietly(a);
      a = undefined;

      const restore = await engram(["restore", backupDir, "--data-dir", restored, "--secret-key-file", path.join(backup.out.dataDir, "secret.key")]);
      expect({ code: restore.code, stderr: restore.stderr }).toEqual({ code: 0, stderr: "" });
      expect(restore.out).toMatchObject({ dataDir: restored, secretKeyRestored: true, warnings: [] });

      // Another bootstrap key: KEY answers only because the gateway's key store came back with the backup.
      const starting = startEngram({
        dataDir: restored,
        apiKey: "restored-stack-other-key-0123456789",
        env: { INGESTION_STALE_AFTER_MS: "10000", INGESTION_STALE_SWEEP_MS: "1000" },
        timeoutMs: 90_000,
      }).then((p) => (b = p));
      starting.catch(() => undefined); // awaited below; stopped by afterAll if a check in between fails
      // Meanwhile: a tampered backup is refused (then put back as it was); a restore into a non-empty directory too.
      const busCopy = path.join(backupDir, "bus.db");
      const bytes = fs.readFileSync(busCopy);
      const tampered = Buffer.from(bytes);
      tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 0xff, tampered.length - 1);
      fs.writeFileSync(busCopy, tampered);
      const refusedTampered = await engram(["restore", backupDir, "--data-dir", path.join(work, "tampered")]);
      expect(refusedTampered.code).toBe(2);
      expect(refusedTampered.stderr).toMatch(/bus\.db: SHA-256 differs/);
      expect(fs.existsSync(path.join(work, "tampered"))).toBe(false);
      fs.writeFileSync(busCopy, bytes);
      const occupied = path.join(work, "occupied");
      fs.mkdirSync(occupied);
      fs.writeFileSync(path.join(occupied, "x"), "x");
      const refused = await engram(["restore", backupDir, "--data-dir", occupied]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/is not empty/);

      const r: Api = apiClient((await starting).url, KEY);

      const docsBefore = before.filter((x) => x.kind !== "memory");
      const listDocs = async (): Promise<Body[]> => {
        const res = await r("POST", "/v3/documents/list", { containerTags: [TAG], limit: 1000 });
        expect(res.status).toBe(200);
        return res.body.memories;
      };
      // Every document there reaches a final status (the ones the snapshot caught mid-pipeline included).
      const docs = await waitFor(
        async () => {
          const list = await listDocs();
          return list.every((d) => d.status === "done" || d.status === "failed") ? list : undefined;
        },
        { timeoutMs: 40_000, what: "every restored document in a final status" },
      );
      const byId = new Map(docs.map((d) => [d.id, d]));
      expect(docsBefore.filter((x) => !byId.has(x.id!)).map((x) => x.n)).toEqual([]);
      expect(docsBefore.filter((x) => byId.get(x.id!)!.status !== "done").map((x) => [x.n, byId.get(x.id!)!.status])).toEqual([]);
      expect(after.filter((x) => x.kind !== "memory" && byId.has(x.id!)).map((x) => x.n)).toEqual([]);

      const mem = await r("POST", "/v4/memories/list", { containerTags: [TAG], limit: 1000 });
      expect(mem.status).toBe(200);
      const memIds = new Set((mem.body.memoryEntries as Body[]).map((m) => m.id));
      expect(before.filter((x) => x.kind === "memory" && !memIds.has(x.id)).map((x) => x.n)).toEqual([]);
      expect(after.filter((x) => x.kind === "memory" && memIds.has(x.id)).map((x) => x.n)).toEqual([]);

      // An uploaded original, byte for byte (the file store came back; the link is signed by a new file-url.secret).
      const file = before.find((x) => x.kind === "file")!;
      const link = await r("GET", `/v3/documents/${file.id}/file-url`);
      expect(link.status).toBe(200);
      expect(await (await fetch(link.body.url)).text()).toBe(file.content);

      // Search: the chunk index and the memory store answer for what was added before the backup.
      const doc = docsBefore.find((x) => x.kind === "document")!;
      const chunks = await r("POST", "/v4/search", { q: `the ferry ${nameOf(doc.n)}`, containerTag: TAG, searchMode: "documents", threshold: 0, limit: 5 });
      expect(chunks.status).toBe(200);
      expect(JSON.stringify(chunks.body.results)).toContain(`${nameOf(doc.n)} crossed`);
      const memory = before.find((x) => x.kind === "memory")!;
      const found = await r("POST", "/v4/search", { q: `kestrel named ${nameOf(memory.n)}`, containerTag: TAG, threshold: 0, limit: 5 });
      expect(found.status).toBe(200);
      expect(JSON.stringify(found.body.results)).toContain(nameOf(memory.n));
    } finally {
      clearInterval(timer);
    }
  }, 240_000);
});
