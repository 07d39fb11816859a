import { Worker } from "node:worker_threads";
import * as grpc from "@grpc/grpc-js";
import { rootLogger } from "@engram/observability";
import { createClient, unaryCall } from "../src/client";
import { implement, MemoriesService } from "../src/services";
import { GrpcServer } from "../src/server";
import { TurnQueue } from "../src/turns";

describe("TurnQueue", () => {
  it("runs every job once, in arrival order, including jobs queued by jobs and long queues", async () => {
    const q = new TurnQueue();
    const ran: number[] = [];
    const all = new Promise<void>((resolve) => {
      for (let i = 0; i < 3000; i++)
        q.push(() => {
          ran.push(i);
          if (i === 1500)
            q.push(() => {
              ran.push(-1);
              resolve();
            });
        });
    });
    expect(q.pending).toBe(3000);
    await all;
    expect(ran.slice(0, 3)).toEqual([0, 1, 2]);
    expect(ran.indexOf(-1)).toBe(3000);
    expect(ran.slice(0, 3000)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(q.pending).toBe(0);
  });
});

/**
 * The point of starting handlers one per turn: a response leaves the process
 * before the next queued handler's synchronous work, instead of after the
 * whole batch. The client runs on another thread and counts the responses it
 * has received in shared memory; each handler notes that count when it
 * starts. Handlers busy-wait 150 ms each, so by the third handler's start the
 * first response has had 150 ms to arrive. With every handler of a batch run
 * in one turn, no response is sent before all have run, and every count is 0.
 */
describe("GrpcServer starts one handler per event-loop turn", () => {
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  const received = new Int32Array(new SharedArrayBuffer(4));
  const seenAtStart: number[] = [];
  let address = "";

  beforeAll(async () => {
    server.add(
      implement(MemoriesService, {
        async BatchGetMemories() {
          seenAtStart.push(Atomics.load(received, 0));
          const until = Date.now() + 150;
          while (Date.now() < until);
          return { memories: [] };
        },
      }),
    );
    address = `127.0.0.1:${await server.bind("127.0.0.1:0")}`;
    server.setServing(true);
  });

  afterAll(() => server.shutdown(1000));

  it("sends each response before starting the next queued handler", async () => {
    const worker = new Worker(
      `
      const { workerData, parentPort } = require("node:worker_threads");
      const grpc = require(workerData.grpcPath);
      const client = new grpc.Client(workerData.address, grpc.credentials.createInsecure());
      const id = (b) => b;
      client.waitForReady(Date.now() + 5000, (err) => {
        if (err) throw err;
        let done = 0;
        // Four calls written in one turn: they reach the server together.
        for (let i = 0; i < 4; i++)
          client.makeUnaryRequest("/engram.memories.v1.MemoriesService/BatchGetMemories", id, id, Buffer.alloc(0), (e) => {
            if (e) throw e;
            Atomics.add(workerData.received, 0, 1);
            if (++done === 4) { client.close(); parentPort.postMessage("done"); }
          });
      });
      `,
      { eval: true, workerData: { address, received, grpcPath: require.resolve("@grpc/grpc-js") } },
    );
    await new Promise<void>((resolve, reject) => {
      worker.on("message", () => resolve());
      worker.on("error", reject);
    });
    await worker.terminate();
    expect(seenAtStart).toHaveLength(4);
    expect(seenAtStart[0]).toBe(0);
    // The first response was on the wire while the second handler ran.
    expect(seenAtStart[2]).toBeGreaterThanOrEqual(1);
    expect(seenAtStart[3]).toBeGreaterThanOrEqual(2);
  });
});

describe("GrpcServer skips a call whose caller gave up while it was queued", () => {
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  let started = 0;
  let client: ReturnType<typeof createClient>;

  beforeAll(async () => {
    server.add(
      implement(MemoriesService, {
        async BatchGetMemories() {
          started++;
          const until = Date.now() + 300;
          while (Date.now() < until);
          return { memories: [] };
        },
      }),
    );
    const address = `127.0.0.1:${await server.bind("127.0.0.1:0")}`;
    server.setServing(true);
    client = createClient("engram.memories.v1.MemoriesService", address);
    await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 5000, (err) => (err ? reject(err) : resolve())));
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
  });

  it("does not run the handler of a call whose deadline passed behind a slow one", async () => {
    // Both calls leave in one write; the second's 100 ms deadline passes while the first handler runs.
    const slow = unaryCall(client, "BatchGetMemories", { ids: [] }, { deadlineMs: 10_000 });
    const hurried = unaryCall(client, "BatchGetMemories", { ids: [] }, { deadlineMs: 100 });
    await expect(slow).resolves.toBeDefined();
    await expect(hurried).rejects.toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    await new Promise((r) => setTimeout(r, 50));
    expect(started).toBe(1);
  });
});
