import path from "node:path";
import { BoundedWorkerPool, WorkerLimitError } from "../src";

const filename = path.join(__dirname, "fixtures", "spin.worker.cjs");

describe("BoundedWorkerPool: aborting a task (the process is stopping)", () => {
  let pool: BoundedWorkerPool<{ ms: number; answer: string }, string>;
  beforeEach(() => {
    pool = new BoundedWorkerPool({ filename, threads: 1, timeoutMs: 30_000, maxMemoryMb: 64 });
  });
  afterEach(() => pool.close());

  it("terminates a running task's thread at once and rejects with the signal's reason, not a limit error", async () => {
    const stop = new AbortController();
    const reason = new Error("the process is stopping");
    const started = Date.now();
    const running = pool.run({ ms: 20_000, answer: "late" }, undefined, stop.signal);
    setTimeout(() => stop.abort(reason), 200);
    await expect(running).rejects.toBe(reason);
    // The task would have kept its thread busy for 20 s: only terminating the thread ends it this soon.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The pool still works: a new thread takes the next task.
    await expect(pool.run({ ms: 0, answer: "next" })).resolves.toBe("next");
  });

  it("never starts a task whose signal has already aborted", async () => {
    const stop = new AbortController();
    stop.abort(new Error("stopped before"));
    await expect(pool.run({ ms: 0, answer: "never" }, undefined, stop.signal)).rejects.toThrow("stopped before");
  });

  it("still stops a task over its time limit with WorkerLimitError when the signal is not aborted", async () => {
    const limited = new BoundedWorkerPool<{ ms: number; answer: string }, string>({ filename, threads: 1, timeoutMs: 100, maxMemoryMb: 64 });
    try {
      const err = await limited.run({ ms: 20_000, answer: "late" }, undefined, new AbortController().signal).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkerLimitError);
      expect((err as WorkerLimitError).limit).toBe("time");
    } finally {
      await limited.close();
    }
  });

  it("close() terminates a running task (the abort of last resort)", async () => {
    const running = pool.run({ ms: 20_000, answer: "late" }).then(
      () => "finished",
      (err: Error) => err.message,
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await pool.close();
    await expect(running).resolves.toBe("Terminating worker thread");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
