import { Worker } from "node:worker_threads";
import { LoopHeartbeat, readLoopHealth } from "../src/loop-health";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* a synchronous stall, as a runaway document would cause */
  }
}

describe("LoopHeartbeat", () => {
  it("is healthy while the loop ticks", async () => {
    const hb = new LoopHeartbeat({ maxLagMs: 200, intervalMs: 20 }).start();
    await sleep(100);
    expect(hb.status()).toMatchObject({ ok: true });
    hb.stop();
  });

  it("reports a stall after the loop is free again, for rememberMs", async () => {
    const hb = new LoopHeartbeat({ maxLagMs: 100, intervalMs: 10, rememberMs: 60_000 }).start();
    await sleep(30);
    block(400);
    await sleep(50); // the next tick sees the gap
    const s = hb.status();
    expect(s.ok).toBe(false);
    expect(s.details).toMatch(/^the event loop was blocked for \d+ ms \d+ s ago$/);
    // A reader elsewhere (the gateway thread) sees the same.
    expect(readLoopHealth(hb.buffer, { maxLagMs: 100, intervalMs: 10, rememberMs: 60_000 }).ok).toBe(false);
    hb.stop();
  });

  it("a reader on another thread sees the loop blocked while it is blocked", async () => {
    const hb = new LoopHeartbeat({ maxLagMs: 100, intervalMs: 10 }).start();
    await sleep(30);
    // The worker reads the shared heartbeat 250 ms after it starts, while this thread is stuck.
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const slots = new BigInt64Array(workerData);
       setTimeout(() => parentPort.postMessage(Date.now() - Number(Atomics.load(slots, 0))), 250);`,
      { eval: true, workerData: hb.buffer },
    );
    const seen = new Promise<number>((resolve) => worker.once("message", resolve));
    await new Promise((r) => worker.once("online", r));
    block(600);
    const ageMs = await seen;
    await worker.terminate();
    expect(ageMs).toBeGreaterThan(100); // the heartbeat had stopped while the loop was blocked
    hb.stop();
  });

  it("status at a time long after the last tick is unhealthy with the blocked duration", () => {
    const hb = new LoopHeartbeat({ maxLagMs: 1000 }).start();
    const s = hb.status(Date.now() + 5000);
    expect(s.ok).toBe(false);
    expect(s.details).toMatch(/^the event loop has been blocked for \d+ ms$/);
    hb.stop();
  });
});
