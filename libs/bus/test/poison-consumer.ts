/*
 * A consumer process for embedded-bus-poison.test.ts: subscribes group "poison"
 * to the test topic in the given data directory. With "crash", its handler
 * kills the process (kill -9, as an out-of-memory kill or a wedged pod's
 * restart would); with "watch", it reports what it is handed and what reached
 * the dead-letter topic, then exits. Prints JSON lines.
 */
import { EmbeddedEventBus } from "../src/embedded-bus";
import { deadLetterTopic } from "../src/port";
import { silentLogger } from "./helpers";

const [dir, mode] = process.argv.slice(2) as [string, "crash" | "watch"];
const TOPIC = "engram.poison.v1";
const out = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

async function main() {
  const bus = new EmbeddedEventBus({ dataDir: dir, logger: silentLogger, maxAttempts: 3, backoffMs: 5, maxBackoffMs: 20, pollMs: 20 });
  const handled: number[] = [];
  const dead: Record<string, string>[] = [];
  await bus.subscribe({
    group: "poison",
    topics: [TOPIC],
    handler: async (m) => {
      out({ attempt: m.attempt, offset: m.offset });
      if (mode === "crash") process.kill(process.pid, "SIGKILL");
      handled.push(m.offset);
    },
  });
  if (mode === "watch") {
    await bus.subscribe({ group: "dlq-reader", topics: [deadLetterTopic(TOPIC)], handler: async (m) => void dead.push(m.headers as Record<string, string>) });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (dead.length === 0 || handled.length < 1)) await new Promise((r) => setTimeout(r, 20));
    out({ handled, dead: dead.map((h) => ({ attempts: h["dlq-attempts"], error: h["dlq-error"], offset: h["dlq-offset"] })) });
    await bus.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
