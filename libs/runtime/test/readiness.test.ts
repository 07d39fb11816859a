import { HealthProbe } from "@engram/grpc";
import { rootLogger } from "@engram/observability";
import { ProcessRuntime } from "../src";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("ProcessRuntime.watchReadiness", () => {
  it("answers grpc.health.v1 NOT_SERVING while a watched dependency fails, and SERVING again once it recovers", async () => {
    const runtime = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    const port = await runtime.add({ name: "worker", grpcServices: [] }, "127.0.0.1:0");
    const probe = new HealthProbe(`127.0.0.1:${port}`);
    let consumer = { ok: true, problems: [] as string[] };
    runtime.watchReadiness("event bus", () => consumer, 20);
    try {
      expect(await probe.serving()).toBe(true);
      expect(runtime.ready()).toBe(true);

      consumer = { ok: false, problems: ["consumer of group engram-memories crashed and stopped: boom"] };
      await sleep(100);
      expect(runtime.ready()).toBe(false);
      expect(runtime.readinessProblems()).toEqual(["event bus: consumer of group engram-memories crashed and stopped: boom"]);
      expect(await probe.serving()).toBe(false);

      consumer = { ok: true, problems: [] };
      await sleep(100);
      expect(runtime.ready()).toBe(true);
      expect(await probe.serving()).toBe(true);
    } finally {
      probe.close();
      await runtime.stop();
    }
  });
});

describe("ProcessRuntime.add in the background", () => {
  it("lets the modules after a long start begin at once, answers NOT_SERVING for it until its start ends, even across a readiness change", async () => {
    const runtime = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    let finish!: () => void;
    const loading = new Promise<void>((r) => (finish = r));
    const order: string[] = [];
    const slow = await runtime.add({ name: "recall", grpcServices: [], start: () => loading.then(() => void order.push("recall")) }, "127.0.0.1:0", {
      background: true,
    });
    await runtime.add({ name: "memories", grpcServices: [], start: async () => void order.push("memories") }, "127.0.0.1:0");
    const probe = new HealthProbe(`127.0.0.1:${slow}`);
    let dep = { ok: false, problems: ["down"] };
    runtime.watchReadiness("dep", () => dep, 20);
    try {
      expect(order).toEqual(["memories"]);
      expect(await probe.serving()).toBe(false);
      await sleep(60);
      expect(runtime.readinessProblems()).toEqual(["dep: down"]);
      // The dependency recovers while recall still loads: recall stays NOT_SERVING.
      dep = { ok: true, problems: [] };
      await sleep(100);
      expect(await probe.serving()).toBe(false);
      let started = false;
      const all = runtime.started().then(() => (started = true));
      await sleep(20);
      expect(started).toBe(false);
      finish();
      await all;
      expect(order).toEqual(["memories", "recall"]);
      expect(await probe.serving()).toBe(true);
    } finally {
      probe.close();
      await runtime.stop();
    }
  });

  it("a background start that fails fails started(), and stop() waits for a start still running", async () => {
    const runtime = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    await runtime.add({ name: "broken", start: () => Promise.reject(new Error("index unreadable")) }, undefined, { background: true });
    await expect(runtime.started()).rejects.toThrow("index unreadable");
    await runtime.stop();

    const other = new ProcessRuntime(rootLogger({ level: "silent" }), { shutdownDeadlineMs: 1000 });
    const events: string[] = [];
    await other.add(
      { name: "slow", start: () => sleep(150).then(() => void events.push("started")), stop: async () => void events.push("stopped") },
      undefined,
      { background: true },
    );
    await other.stop();
    expect(events).toEqual(["started", "stopped"]);
  });
});
