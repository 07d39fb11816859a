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
