import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { NotFoundError } from "@engram/kernel";
import { metrics, rootLogger } from "@engram/observability";
import { createClient, unaryCall } from "../src/client";
import { fromStruct, fromTimestamp, toStruct, toTimestamp } from "../src/convert";
import { grpcToHttp } from "../src/errors";
import { implement, MemoriesService } from "../src/services";
import { GrpcServer } from "../src/server";

const MEMORIES = "engram.memories.v1.MemoriesService";
const log = rootLogger({ level: "silent" });

type HealthStatus = "UNKNOWN" | "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN";

function healthClient(address: string): grpc.Client {
  const def = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  return new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
}

const check = (client: grpc.Client, service = "") => unaryCall<{ status: HealthStatus }>(client, "Check", { service }, { deadlineMs: 5000 });

async function rejectionOf(p: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await p;
  } catch (err) {
    return err as grpc.ServiceError;
  }
  throw new Error("expected the call to fail");
}

const metadata = { team: "core", score: 9.5, pinned: true, note: null, tags: ["a", 1, false], nested: { level: { deep: ["x"] } } };
const createdAt = new Date("2024-02-03T04:05:06.789Z");

describe("GrpcServer round trip", () => {
  const server = new GrpcServer(log);
  let address = "";
  let client: grpc.Client;
  let health: grpc.Client;
  const seenRequestIds: (string | undefined)[] = [];

  beforeAll(async () => {
    server.add(
      implement(MemoriesService, {
        async ForgetMemory(req) {
          throw new NotFoundError(`memory ${req.id} not found`, "check the namespace");
        },
        async CreateMemories() {
          throw new Error("disk path /srv/secret is corrupt");
        },
        async BatchGetMemories(req: { ids: string[] }, call: grpc.ServerUnaryCall<unknown, unknown>) {
          seenRequestIds.push(call.metadata.get("x-request-id")[0]?.toString());
          return { memories: req.ids.map((id) => ({ id, content: `memory ${id}`, metadata: toStruct(metadata), createdAt: toTimestamp(createdAt) })) };
        },
      }),
    );
    const port = await server.bind("127.0.0.1:0");
    expect(port).toBeGreaterThan(0);
    address = `127.0.0.1:${port}`;
    client = createClient(MEMORIES, address);
    health = healthClient(address);
  });

  afterAll(async () => {
    client?.close();
    health?.close();
    await server.shutdown(1000);
  });

  it("reports NOT_SERVING before setServing(true) and SERVING after", async () => {
    expect((await check(health)).status).toBe("NOT_SERVING");
    expect((await check(health, MEMORIES)).status).toBe("NOT_SERVING");
    server.setServing(true);
    expect((await check(health)).status).toBe("SERVING");
    expect((await check(health, MEMORIES)).status).toBe("SERVING");
  });

  it("returns the implemented method's response (Struct and Timestamp survive the wire)", async () => {
    const res = await unaryCall<{ memories: { id: string; content: string; metadata: unknown; createdAt: unknown }[] }>(
      client,
      "BatchGetMemories",
      { context: { tenantId: "t1" }, ids: ["m1", "m2"] },
      { requestId: "req-42" },
    );
    expect(res.memories.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(res.memories[0]!.content).toBe("memory m1");
    expect(fromStruct(res.memories[0]!.metadata as never)).toEqual(metadata);
    expect(fromTimestamp(res.memories[0]!.createdAt as never)?.toISOString()).toBe(createdAt.toISOString());
    expect(seenRequestIds).toEqual(["req-42"]);
  });

  it("a thrown NotFoundError arrives as NOT_FOUND and maps to HTTP 404 with the domain message", async () => {
    const err = await rejectionOf(unaryCall(client, "ForgetMemory", { context: { tenantId: "t1" }, namespace: "ns", id: "m_missing" }));
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(grpcToHttp(err)).toEqual({ status: 404, error: "memory m_missing not found", details: "check the namespace", internal: false });
  });

  it("a method the module does not implement answers UNIMPLEMENTED -> HTTP 501 naming the operation", async () => {
    const err = await rejectionOf(unaryCall(client, "ListMemories", { context: { tenantId: "t1" } }));
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
    const http = grpcToHttp(err);
    expect(http.status).toBe(501);
    expect(http.internal).toBe(false);
    expect(http.error).toBe("MemoriesService.ListMemories is not available in this version of Engram");
    expect(http.details).toContain("later release");
  });

  it("an unexpected error arrives as INTERNAL without its message -> HTTP 500 generic", async () => {
    const err = await rejectionOf(unaryCall(client, "CreateMemories", { context: { tenantId: "t1" }, memories: [] }));
    expect(err.code).toBe(grpc.status.INTERNAL);
    expect(err.details).not.toContain("secret");
    expect(grpcToHttp(err)).toEqual({ status: 500, error: "Internal server error", internal: true });
  });

  it("observes every call in engram_grpc_server_duration_seconds by service, method and status code", async () => {
    const text = await metrics.exposition();
    const count = (method: string, code: string) =>
      Number(
        new RegExp(`^engram_grpc_server_duration_seconds_count\\{service="MemoriesService",method="${method}",code="${code}"\\} (\\d+)$`, "m").exec(text)?.[1],
      );
    // The calls of the tests above (health checks are grpc-health-check's own handlers, not wrapped).
    expect(count("BatchGetMemories", "OK")).toBe(1);
    expect(count("ForgetMemory", "NOT_FOUND")).toBe(1);
    expect(count("ListMemories", "UNIMPLEMENTED")).toBe(1);
    expect(count("CreateMemories", "INTERNAL")).toBe(1);
    expect(text).toMatch(/^engram_grpc_server_duration_seconds_bucket\{le="0.005",service="MemoriesService",method="BatchGetMemories",code="OK"\} [01]$/m);
  });
});

describe("GrpcServer shutdown", () => {
  it("reports NOT_SERVING as soon as shutdown begins", async () => {
    const server = new GrpcServer(log);
    server.add(implement(MemoriesService, {}));
    const port = await server.bind("127.0.0.1:0");
    const health = healthClient(`127.0.0.1:${port}`);
    try {
      server.setServing(true);
      expect((await check(health)).status).toBe("SERVING");

      // A Watch stream stays open across the shutdown and sees every change.
      const seen: HealthStatus[] = [];
      const watch = (health as unknown as { Watch(req: object): grpc.ClientReadableStream<{ status: HealthStatus }> }).Watch({ service: MEMORIES });
      watch.on("error", () => undefined); // cancelled below
      const notServing = new Promise<void>((resolve) =>
        watch.on("data", (m: { status: HealthStatus }) => {
          seen.push(m.status);
          if (m.status === "NOT_SERVING") resolve();
        }),
      );
      await new Promise<void>((resolve) => {
        const wait = () => (seen.includes("SERVING") ? resolve() : setTimeout(wait, 5));
        wait();
      });

      const stopping = server.shutdown(2000);
      await notServing;
      expect(seen).toEqual(["SERVING", "NOT_SERVING"]);
      watch.cancel();
      await stopping;
    } finally {
      health.close();
    }
  });
});
