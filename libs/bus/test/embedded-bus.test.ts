import { metrics } from "@engram/observability";
import { type EmbeddedEventBus } from "../src/embedded-bus";
import { partitionFor } from "../src/partition";
import { openBus, removeDir, sleep, tempDir, textMessage, textOf, until } from "./helpers";

const TOPIC = "engram.test.v1";

// The port's behaviour is covered by the shared contract (event-bus.embedded.test.ts);
// these are the embedded adapter's own extras.
describe("EmbeddedEventBus", () => {
  let dir: string;
  const buses: EmbeddedEventBus[] = [];
  const open = (opts: Parameters<typeof openBus>[1] = {}) => {
    const bus = openBus(dir, opts);
    buses.push(bus);
    return bus;
  };

  beforeEach(() => {
    dir = tempDir();
  });

  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
    removeDir(dir);
  });

  it("reports consumer lag per group and partition in engram_bus_consumer_lag", async () => {
    const bus = open();
    const key = "doc-lag";
    const partition = String(partitionFor(key, 8));
    await bus.publish(["a", "b", "c"].map((t) => textMessage(TOPIC, key, t)));
    const gaugeValue = async () => {
      const { values } = await metrics.gauge("engram_bus_consumer_lag", "", []).get();
      return values.find((v) => v.labels.group === "lagging" && v.labels.topic === TOPIC && v.labels.partition === partition)?.value;
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handled: string[] = [];
    let entered = false;
    await bus.subscribe({
      group: "lagging",
      topics: [TOPIC],
      handler: async (m) => {
        entered = true;
        if (handled.length === 0) await gate;
        handled.push(textOf(m.value));
      },
    });
    // The first handler is held: nothing is committed, the whole partition is lag.
    await until(() => entered, "first delivery");
    expect(bus.lag("lagging", [TOPIC])).toBe(3);
    expect(await gaugeValue()).toBe(3);
    release();
    await until(() => handled.length === 3, "all handled");
    const deadline = Date.now() + 5000;
    while ((await gaugeValue()) !== 0 && Date.now() < deadline) await sleep(5);
    expect(await gaugeValue()).toBe(0);
  });
});

describe("partitionFor", () => {
  it("is stable and in range", () => {
    for (const key of ["a", "doc-1", "d_0123456789ABCDEFGHIJ", ""]) {
      const p = partitionFor(key, 8);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(8);
      expect(partitionFor(key, 8)).toBe(p);
    }
  });
});
