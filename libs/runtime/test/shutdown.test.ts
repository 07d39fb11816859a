import { rootLogger } from "@engram/observability";
import { ProcessRuntime, type ServiceModule } from "../src";

const log = rootLogger({ level: "silent" });

describe("ProcessRuntime.stop: a shutdown within its budget", () => {
  it("aborts every module's work at once before any module stops, then stops them in reverse order and closes shared resources last", async () => {
    const calls: string[] = [];
    const module = (name: string): ServiceModule => ({
      name,
      abort: (reason) => void calls.push(`abort ${name}: ${reason.message}`),
      stop: async () => void calls.push(`stop ${name}`),
    });
    const runtime = new ProcessRuntime(log, { graceMs: 2_000 });
    runtime.onStopped(async () => void calls.push("close stores"));
    await runtime.add(module("ingestion"));
    await runtime.add(module("memories"));
    await runtime.add(module("gateway"));
    await runtime.stop();
    expect(calls).toEqual([
      "abort ingestion: the process is stopping",
      "abort memories: the process is stopping",
      "abort gateway: the process is stopping",
      "stop gateway",
      "stop memories",
      "stop ingestion",
      "close stores",
    ]);
  });

  it("leaves a module that does not stop in time behind, still stops the others and closes the stores, and ends within the budget", async () => {
    const calls: string[] = [];
    const runtime = new ProcessRuntime(log, { graceMs: 1_500 });
    runtime.onStopped(async () => void calls.push("close stores"));
    await runtime.add({ name: "ingestion", stop: async () => void calls.push("stop ingestion") });
    // A handler that ignores its abort signal: its module's stop never ends.
    await runtime.add({ name: "memories", stop: () => new Promise<void>(() => undefined) });
    const started = Date.now();
    await runtime.stop();
    const took = Date.now() - started;
    expect(calls).toEqual(["stop ingestion", "close stores"]);
    // The budget less its margin (300 ms of 1 500) for the modules, then the stores: never past the budget.
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(1_500);
  });

  it("a module whose stop fails does not keep the others from stopping", async () => {
    const calls: string[] = [];
    const runtime = new ProcessRuntime(log, { graceMs: 2_000 });
    await runtime.add({ name: "a", stop: async () => void calls.push("stop a") });
    await runtime.add({
      name: "b",
      abort: () => {
        throw new Error("abort failed");
      },
      stop: async () => {
        throw new Error("stop failed");
      },
    });
    await runtime.stop();
    expect(calls).toEqual(["stop a"]);
  });
});
