import type { EmbeddedEventBus } from "../src/embedded-bus";
import { eventBusContract } from "./contract/event-bus.contract";
import { openBus, removeDir, tempDir } from "./helpers";

// The embedded bus on a fresh data directory per test; fetchSize 7 puts batch
// boundaries in the middle of every test's messages.
eventBusContract("EventBus contract: EmbeddedEventBus", () => {
  const dir = tempDir();
  return {
    open: (opts) => openBus(dir, { ...opts, fetchSize: 7 }),
    lag: (bus, group, topics) => (bus as EmbeddedEventBus).lag(group, topics),
    dispose: () => removeDir(dir),
  };
});
