import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HealthProbe } from "@engram/grpc";
import type { Logger } from "@engram/observability";
import { rootLogger } from "@engram/observability";
import { ProcessRuntime, probeDir, StorageMonitor } from "../src";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A logger that keeps what it was told. */
function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, msg = "") =>
      lines.push({ level, fields, msg });
  const log = { info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug"), child: () => log } as unknown as Logger;
  return { log, lines };
}

/** A tmpfs of `size` mounted for the test, or the reason it cannot be (not root / no CAP_SYS_ADMIN). */
function smallTmpfs(size: string): { dir: string; unmount: () => void } | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-probe-fs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function fillTo(file: string): void {
  const fd = fs.openSync(file, "w");
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

describe("probeDir", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-probe-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is ok for a writable directory and leaves no probe file behind", async () => {
    expect(await probeDir(dir, 1)).toEqual({ state: "ok", dir, freeBytes: expect.any(Number) });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("is low when the volume has less free space than the minimum, and skips statfs with a minimum of 0", async () => {
    expect(await probeDir(dir, Number.MAX_SAFE_INTEGER)).toEqual({ state: "low", dir, freeBytes: expect.any(Number) });
    expect(await probeDir(dir, 0)).toEqual({ state: "ok", dir });
  });

  it("is unwritable, with the code, when the directory cannot take a file", async () => {
    expect(await probeDir(path.join(dir, "missing"), 0)).toEqual({ state: "unwritable", code: "ENOENT", dir: path.join(dir, "missing") });
    const file = path.join(dir, "a-file");
    fs.writeFileSync(file, "x");
    expect(await probeDir(file, 0)).toEqual({ state: "unwritable", code: "ENOTDIR", dir: file });
  });
});

describe("StorageMonitor on a full disk", () => {
  const fsOrReason = smallTmpfs("1m");
  if (typeof fsOrReason === "string") {
    it.skip(`(skipped: ${fsOrReason})`, () => undefined);
    console.log(`storage-monitor full-disk tests skipped: ${fsOrReason}`);
    return;
  }
  const { dir, unmount } = fsOrReason;
  afterAll(() => unmount());

  it("reports full with ENOSPC once the disk is full, logs each change once, and ok again when space returns", async () => {
    const { log, lines } = recordingLogger();
    const monitor = new StorageMonitor({ parts: [{ part: "fileStore", dir }], minFreeBytes: 0, intervalMs: 60_000, logger: log });
    await monitor.probe();
    expect(monitor.states()).toEqual({ fileStore: "ok" });
    expect(monitor.health()).toEqual({ ok: true, problems: [] });

    fillTo(path.join(dir, "filler"));
    await monitor.probe();
    await monitor.probe();
    expect(monitor.states()).toEqual({ fileStore: "full" });
    expect(monitor.health()).toEqual({ ok: false, problems: [`fileStore (file store) is full (ENOSPC in ${dir})`] });
    const errors = lines.filter((l) => l.level === "error");
    expect(errors).toEqual([
      {
        level: "error",
        fields: expect.objectContaining({ part: "fileStore", state: "full", was: "ok", code: "ENOSPC", dir }),
        msg: expect.stringContaining("cannot write"),
      },
    ]);

    fs.rmSync(path.join(dir, "filler"));
    monitor.report(); // a reported fault probes at once (here: finds space again)
    await sleep(1_200);
    expect(monitor.states()).toEqual({ fileStore: "ok" });
    expect(lines.filter((l) => l.level === "info")).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ part: "fileStore", state: "ok", was: "full" }) }),
    ]);
    monitor.stop();
  });
});

describe("ProcessRuntime.watchStorage", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-watch-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("tells each part's state in grpc.health.v1 and goes NOT_SERVING while a part cannot write", async () => {
    const runtime = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    const files = path.join(dir, "files");
    fs.mkdirSync(files);
    const monitor = new StorageMonitor({
      parts: [
        { part: "store", dir },
        { part: "fileStore", dir: files },
      ],
      minFreeBytes: 0,
      intervalMs: 50,
      logger: rootLogger({ level: "silent" }),
    });
    const port = await runtime.add({ name: "ingestion", grpcServices: [] }, "127.0.0.1:0");
    await runtime.watchStorage(monitor, 20);
    const probe = new HealthProbe(`127.0.0.1:${port}`);
    try {
      expect(await probe.serving()).toBe(true);
      expect(await probe.storageStates()).toEqual({ store: "ok", fileStore: "ok" });

      // The file store's folder goes away: it cannot write (the store still can).
      fs.rmSync(files, { recursive: true });
      await sleep(200);
      expect(runtime.ready()).toBe(false);
      expect(runtime.readinessProblems()).toEqual([`storage: fileStore (file store) is not writable (ENOENT in ${files})`]);
      expect(await probe.serving()).toBe(false);
      expect(await probe.storageStates()).toEqual({ store: "ok", fileStore: "unwritable" });

      fs.mkdirSync(files);
      await sleep(200);
      expect(runtime.ready()).toBe(true);
      expect(await probe.serving()).toBe(true);
      expect(await probe.storageStates()).toEqual({ store: "ok", fileStore: "ok" });
    } finally {
      probe.close();
      await runtime.stop();
    }
  });

  it("reports no parts for a process that watches none", async () => {
    const runtime = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    const port = await runtime.add({ name: "recall", grpcServices: [] }, "127.0.0.1:0");
    const probe = new HealthProbe(`127.0.0.1:${port}`);
    try {
      expect(await probe.storageStates()).toEqual({});
    } finally {
      probe.close();
      await runtime.stop();
    }
  });
});
