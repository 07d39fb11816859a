import { execFile } from "node:child_process";
import path from "node:path";
import { openBus, removeDir, tempDir, textMessage } from "./helpers";

/* Crashes are real: each consumer runs in its own process (node --import tsx) and is killed with SIGKILL mid-handler. */
const root = path.resolve(__dirname, "../../..");
const TOPIC = "engram.poison.v1";

function consumer(dir: string, mode: "crash" | "watch"): Promise<{ lines: Record<string, unknown>[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ["--import", "tsx", path.join(__dirname, "poison-consumer.ts"), dir, mode], { cwd: root, timeout: 60_000 }, (err, stdout) =>
      resolve({
        lines: stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        signal: (err as { signal?: NodeJS.Signals } | null)?.signal ?? null,
      }),
    ),
  );
}

describe("EmbeddedEventBus: a message that takes the process down on every attempt", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("counts attempts across restarts and dead-letters it after maxAttempts, then goes on with the next message", async () => {
    const bus = openBus(dir);
    await bus.publish([textMessage(TOPIC, "doc-1", "poison"), textMessage(TOPIC, "doc-1", "fine")]);
    await bus.close();

    // maxAttempts is 3: three processes die in the handler, each seeing the next attempt number.
    const attempts: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await consumer(dir, "crash");
      expect(run.signal).toBe("SIGKILL");
      attempts.push(run.lines[0]?.attempt);
    }
    expect(attempts).toEqual([1, 2, 3]);

    // The fourth start does not run the handler on it again: it is dead-lettered, and the next message is handled.
    const watch = await consumer(dir, "watch");
    const summary = watch.lines.at(-1) as { handled: number[]; dead: { attempts: string; error: string; offset: string }[] };
    expect(watch.lines.filter((l) => "attempt" in l)).toEqual([{ attempt: 1, offset: 1 }]);
    expect(summary.handled).toEqual([1]);
    expect(summary.dead).toEqual([{ attempts: "3", offset: "0", error: "the handler did not finish in 3 attempts (the process stopped during each)" }]);
  }, 120_000);
});
