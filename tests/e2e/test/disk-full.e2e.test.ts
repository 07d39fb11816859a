import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { type Api, stopQuietly } from "./helpers";

const KEY = "disk-full-key-0123456789abcdef0123456789";

/**
 * A full disk (issue #33): the stack runs on a data directory of its own small
 * tmpfs. Filled to the brim, every write (a document, a file upload, a memory,
 * an API key) answers 507 with the API's error body naming the part that
 * cannot write, and /readyz answers 503 naming the parts, while /healthz
 * (liveness) stays 200. With the filler removed, the same process writes
 * again and readiness comes back, without a restart; what was accepted before
 * is all still there. Mounting a tmpfs needs root (CAP_SYS_ADMIN): without it
 * the suite is skipped with the reason printed.
 */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "engram-disk-full-"));
const skipReason = (() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", mountPoint], { stdio: "pipe" });
    return undefined;
  } catch (err) {
    fs.rmSync(mountPoint, { recursive: true, force: true });
    return `cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
})();
if (skipReason) console.log(`disk-full.e2e skipped: ${skipReason}`);

const suite = skipReason ? describe.skip : describe;

suite("a full or read-only data disk", () => {
  const dataDir = path.join(mountPoint, "data");
  const filler = path.join(mountPoint, "filler");
  const files = path.join(dataDir, "files");
  let readOnlyFiles = false;
  let engram: EngramProcess | undefined;
  let api: Api;

  beforeAll(async () => {
    engram = await startEngram({
      dataDir,
      apiKey: KEY,
      // Probes every half second, so the test does not wait; no free-space margin: only a write that fails counts.
      env: { STORAGE_PROBE_INTERVAL_MS: "500", STORAGE_MIN_FREE_MB: "0" },
      // A shared machine's first start can be slow (the models load): a generous bound.
      timeoutMs: 150_000,
    });
    api = apiClient(engram.url, KEY);
  }, 180_000);

  afterAll(async () => {
    await stopQuietly(engram);
    if (readOnlyFiles) execFileSync("umount", ["-l", files], { stdio: "pipe" });
    try {
      execFileSync("umount", [mountPoint], { stdio: "pipe" });
    } catch (err) {
      // A process still holding the mount: detach it so nothing is left mounted.
      execFileSync("umount", ["-l", mountPoint], { stdio: "pipe" });
      console.log(`disk-full.e2e: lazy unmount after ${String(err)}`);
    }
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  /** Writes to `filler` until the file system has no byte left (ENOSPC even for one byte). */
  const fill = () => {
    const fd = fs.openSync(filler, "w");
    try {
      for (const size of [1 << 20, 64 << 10, 4 << 10, 1]) {
        const chunk = Buffer.alloc(size, 0x61);
        for (;;) {
          try {
            fs.writeSync(fd, chunk);
          } catch (err) {
            if ((err as { code?: string }).code !== "ENOSPC") throw err;
            break;
          }
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  };

  const upload = async (name: string, text: string) => {
    const form = new FormData();
    form.append("containerTags", '["disk"]');
    form.append("file", new Blob([new TextEncoder().encode(text)], { type: "text/plain" }), name);
    const res = await fetch(`${engram!.url}/v3/documents/file`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: form });
    const body = (await res.text()) || "null";
    return { status: res.status, body: JSON.parse(body) as Record<string, unknown>, headers: res.headers };
  };

  const writes: [string, () => Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>][] = [
    [
      "POST /v3/documents",
      () => api("POST", "/v3/documents", { content: "Written while the disk is full: the osprey nests on the mast.", containerTag: "disk" }),
    ],
    ["POST /v3/documents/file", () => upload("full.txt", "Uploaded while the disk is full: a heron by the weir.")],
    ["POST /v4/memories", () => api("POST", "/v4/memories", { containerTag: "disk", memories: [{ content: "Ada keeps bees on the roof" }] })],
    ["POST /v3/keys", () => api("POST", "/v3/keys", { name: "while-full" })],
  ];

  const readyz = async () => {
    const res = await fetch(`${engram!.url}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string; parts?: Record<string, string>; error?: string; details?: string } };
  };

  it("answers 507 naming the part while full, fails readiness, then writes again without a restart", async () => {
    // Accepted before the disk fills: a document (processed to the end) and a memory.
    const before = await api("POST", "/v3/documents", { content: "Accepted before the disk filled: the kestrel hovers over the dunes.", containerTag: "disk" });
    expect(before.status).toBe(200);
    const beforeId = before.body.id as string;
    expect((await api("POST", "/v4/memories", { containerTag: "disk", memories: [{ content: "Mira leads project Kestrel" }] })).status).toBe(201);
    await waitFor(async () => ((await api("GET", `/v3/documents/${beforeId}`)).body.status === "done" ? true : undefined), {
      timeoutMs: 60_000,
      what: "the first document to be processed",
    });
    const ready = await readyz();
    expect(ready).toEqual({ status: 200, body: { status: "ready", parts: { store: "ok", fileStore: "ok", index: "ok", bus: "ok" } } });

    fill();

    for (const [what, write] of writes) {
      const res = await write();
      expect({ what, status: res.status }).toEqual({ what, status: 507 });
      expect(Object.keys(res.body).sort()).toEqual(["details", "error"]);
      expect(res.body.error).toBe("Insufficient storage");
      // The body names the part and says nothing was stored; no path, no driver text.
      expect(res.body.details).toMatch(
        /^the (document and memory store|file store|event log|search index) cannot write: its disk is full\. Nothing was stored/,
      );
      expect(res.body.details).not.toMatch(/SQLITE|ENOSPC|\//);
      expect(res.headers.get("retry-after")).toBe("60");
    }

    // Readiness names the parts that cannot write; liveness stays 200 (a full disk must not restart the process).
    const notReady = await waitFor(
      async () => {
        const r = await readyz();
        return r.status === 503 && r.body.parts?.store === "full" ? r : undefined;
      },
      { timeoutMs: 15_000, what: "/readyz to report the full store" },
    );
    expect(notReady.body).toEqual(
      expect.objectContaining({ status: "not_ready", error: "Not ready", parts: { store: "full", fileStore: "full", index: "full", bus: "full" } }),
    );
    expect(notReady.body.details).toContain("the file store (fileStore) cannot write: its disk is full");
    expect((await fetch(`${engram!.url}/healthz`)).status).toBe(200);
    // Reads still answer.
    expect((await api("GET", `/v3/documents/${beforeId}`)).status).toBe(200);

    // The fault is logged once per part with its cause, not once per request.
    const logged = engram!.output.filter((l) => l.includes("cannot write (is full"));
    expect(logged.filter((l) => l.includes('"part":"store"'))).toHaveLength(1);
    expect(logged[0]).toContain('"code":"ENOSPC"');
    expect(engram!.output.filter((l) => l.includes('"status":507')).length).toBeGreaterThanOrEqual(writes.length);
    expect(engram!.output.filter((l) => l.includes("Internal server error") || l.includes('"status":500'))).toEqual([]);

    // Space returns: the same process writes again, and readiness comes back.
    fs.rmSync(filler);
    const again = await waitFor(
      async () => {
        const r = await readyz();
        return r.status === 200 ? r : undefined;
      },
      { timeoutMs: 20_000, what: "/readyz to be ready again" },
    );
    expect(again.body).toEqual({ status: "ready", parts: { store: "ok", fileStore: "ok", index: "ok", bus: "ok" } });
    const after = await api("POST", "/v3/documents", { content: "Written after space returned: the puffins are back on the cliffs.", containerTag: "disk" });
    expect(after.status).toBe(200);
    expect((await upload("after.txt", "Uploaded after space returned: terns over the harbour.")).status).toBe(200);
    expect((await api("POST", "/v4/memories", { containerTag: "disk", memories: [{ content: "Ada moved the hives to the garden" }] })).status).toBe(201);
    expect((await api("POST", "/v3/keys", { name: "after-full" })).status).toBe(201);
    await waitFor(async () => ((await api("GET", `/v3/documents/${after.body.id as string}`)).body.status === "done" ? true : undefined), {
      timeoutMs: 60_000,
      what: "the document written after space returned to be processed",
    });

    // Nothing accepted was lost: the documents accepted outside the full spell (the upload too), both memories, and nothing refused.
    const listed = await api("POST", "/v3/documents/list", { containerTags: ["disk"], limit: 100 });
    const ids = (listed.body.memories as { id: string; status: string }[]).map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining([beforeId, after.body.id]));
    expect(ids).toHaveLength(3);
    const memories = await api("POST", "/v4/memories/list", { containerTags: ["disk"], limit: 100 });
    // (Memories formed from the documents are listed too.)
    const remembered = (memories.body.memoryEntries as { memory: string }[]).map((m) => m.memory);
    expect(remembered).toEqual(expect.arrayContaining(["Mira leads project Kestrel", "Ada moved the hives to the garden"]));
    expect(remembered.filter((m) => /bees|full/.test(m))).toEqual([]);
    const keys = await api("GET", "/v3/keys");
    expect(JSON.stringify(keys.body)).not.toContain("while-full");
    expect(JSON.stringify(keys.body)).toContain("after-full");
  }, 240_000);

  it("answers 507 'not writable' for uploads while the file store is read-only, and readiness names it, until it is writable again", async () => {
    // The file store's folder on a read-only bind mount of itself: its writes get EROFS, every other part still writes.
    execFileSync("mount", ["--bind", files, files], { stdio: "pipe" });
    readOnlyFiles = true;
    execFileSync("mount", ["-o", "remount,bind,ro", files], { stdio: "pipe" });

    const refused = await upload("ro.txt", "Uploaded while the file store is read-only: a wren in the hedge.");
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({
      error: "Insufficient storage",
      details: expect.stringMatching(/^the file store cannot write: its storage is read-only or not writable by the server\. Nothing was stored/),
    });
    // Other writes go on.
    expect((await api("POST", "/v3/documents", { content: "Written while only the file store is read-only.", containerTag: "ro" })).status).toBe(200);
    const notReady = await waitFor(
      async () => {
        const r = await readyz();
        return r.status === 503 && r.body.parts?.fileStore === "unwritable" ? r : undefined;
      },
      { timeoutMs: 15_000, what: "/readyz to report the read-only file store" },
    );
    expect(notReady.body.parts).toEqual({ store: "ok", fileStore: "unwritable", index: "ok", bus: "ok" });
    expect(notReady.body.details).toBe("the file store (fileStore) cannot write: its storage is read-only or not writable");

    execFileSync("umount", [files], { stdio: "pipe" });
    readOnlyFiles = false;
    await waitFor(async () => ((await readyz()).status === 200 ? true : undefined), { timeoutMs: 20_000, what: "/readyz to be ready again" });
    expect((await upload("rw.txt", "Uploaded once the file store is writable again.")).status).toBe(200);
  }, 120_000);
});
