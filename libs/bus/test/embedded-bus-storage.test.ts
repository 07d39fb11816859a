import { InsufficientStorageError } from "@engram/kernel";
import type { EmbeddedEventBus } from "../src/embedded-bus";
import { openBus, removeDir, tempDir, textMessage, textOf, until } from "./helpers";

const TOPIC = "engram.storage-test.v1";
const full = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

/**
 * A full disk (issue #33) is not a message's fault: a handler that cannot store what it made, or the
 * bus's own bookkeeping failing for lack of space, makes the consumer wait and try again from its
 * committed position, spending no attempts (nothing is dead-lettered) and never stopping the loop.
 */
describe("EmbeddedEventBus on a full disk", () => {
  let dir: string;
  let bus: EmbeddedEventBus;
  beforeEach(() => {
    dir = tempDir();
    bus = openBus(dir, { maxAttempts: 2 });
  });
  afterEach(async () => {
    await bus.close();
    removeDir(dir);
  });

  it("retries a handler refused for lack of space without counting attempts, then goes on", async () => {
    const seen: { text: string; attempt: number }[] = [];
    let refusals = 5;
    const sub = await bus.subscribe({
      group: "full-handler",
      topics: [TOPIC],
      handler: async (msg) => {
        seen.push({ text: textOf(msg.value), attempt: msg.attempt });
        if (textOf(msg.value) === "a" && refusals-- > 0) throw new InsufficientStorageError("index", { fault: "full", code: "SQLITE_FULL" });
      },
    });
    try {
      await bus.publish([textMessage(TOPIC, "k", "a"), textMessage(TOPIC, "k", "b")]);
      await until(() => seen.some((s) => s.text === "b"), "the next message after the disk had space again", 15_000);
      // Six deliveries of "a" with maxAttempts 2: none counted, every one attempt 1, and "a" was not dead-lettered but handled.
      expect(seen.filter((s) => s.text === "a")).toEqual(Array.from({ length: 6 }, () => ({ text: "a", attempt: 1 })));
      expect(seen.filter((s) => s.text === "b")).toEqual([{ text: "b", attempt: 1 }]);
      expect(bus.lag("full-handler", [TOPIC])).toBe(0);
    } finally {
      await sub.close();
    }
  });

  it("keeps consuming when its own commits fail for lack of space, handling the message once", async () => {
    const seen: string[] = [];
    const commit = bus.commit.bind(bus);
    // Every loop's first commit (a new group's start) fails once, and the commit after "a" twice.
    let startFailures = 8;
    let failures = 2;
    bus.commit = (...args: Parameters<EmbeddedEventBus["commit"]>) => {
      if (args[3] === 0 && startFailures-- > 0) throw full();
      if (args[3] === 1 && failures-- > 0) throw full();
      commit(...args);
    };
    const sub = await bus.subscribe({ group: "full-commit", topics: [TOPIC], handler: async (msg) => void seen.push(textOf(msg.value)) });
    try {
      await bus.publish([textMessage(TOPIC, "k", "a")]);
      await until(() => failures < 0 && bus.lag("full-commit", [TOPIC]) === 0, "the commit to go through once space returned", 15_000);
      // Handled once: the refused commit is retried without handling the message again (and no attempt spent on it).
      expect(seen).toEqual(["a"]);
      await bus.publish([textMessage(TOPIC, "k", "b")]);
      await until(() => seen.includes("b"), "the loop to go on");
    } finally {
      await sub.close();
    }
  });
});
