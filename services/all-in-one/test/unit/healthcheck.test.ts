import http from "node:http";
import type { AddressInfo } from "node:net";
import { GrpcServer } from "@engram/grpc";
import { rootLogger } from "@engram/observability";
import { healthChecks, main, runHealthChecks } from "../../src/healthcheck";

const log = rootLogger({ level: "silent" });

describe("healthChecks (what to check for TARGETS)", () => {
  it("checks the gateway's /readyz alone when the gateway is in the process (all-in-one)", () => {
    expect(healthChecks({})).toEqual([{ kind: "http", service: "gateway", url: "http://127.0.0.1:8787/readyz" }]);
    expect(healthChecks({ TARGETS: "all", PORT: "8080", HOST: "0.0.0.0" })).toEqual([
      { kind: "http", service: "gateway", url: "http://127.0.0.1:8080/readyz" },
    ]);
    expect(healthChecks({ TARGETS: "recall,gateway", PORT: "9000", HOST: "10.1.2.3" })).toEqual([
      { kind: "http", service: "gateway", url: "http://10.1.2.3:9000/readyz" },
    ]);
  });

  it("checks each gRPC service at its bind address, on loopback when it binds every interface", () => {
    expect(healthChecks({ TARGETS: "pipeline-worker", PIPELINE_WORKER_GRPC_ADDRESS: "0.0.0.0:50052" })).toEqual([
      { kind: "grpc", service: "pipeline-worker", address: "127.0.0.1:50052" },
    ]);
    expect(healthChecks({ TARGETS: " ingestion , recall ", RECALL_GRPC_ADDRESS: "[::]:6000" })).toEqual([
      { kind: "grpc", service: "ingestion", address: "127.0.0.1:50051" },
      { kind: "grpc", service: "recall", address: "127.0.0.1:6000" },
    ]);
    expect(healthChecks({ TARGETS: "connections", CONNECTIONS_GRPC_ADDRESS: "127.0.0.2:7000" })).toEqual([
      { kind: "grpc", service: "connections", address: "127.0.0.2:7000" },
    ]);
  });

  it("refuses unknown targets and malformed addresses", () => {
    expect(() => healthChecks({ TARGETS: "ingestion,search" })).toThrow(/TARGETS/);
    expect(() => healthChecks({ TARGETS: "memories", MEMORIES_GRPC_ADDRESS: "memories" })).toThrow(/host:port/);
    expect(() => healthChecks({ TARGETS: "gateway", PORT: "http" })).toThrow(/PORT/);
  });
});

describe("runHealthChecks", () => {
  it("reports a gRPC server healthy only while it is SERVING, and a closed port unhealthy", async () => {
    const server = new GrpcServer(log);
    const port = await server.bind("127.0.0.1:0");
    try {
      const check = { kind: "grpc" as const, service: "ingestion", address: `127.0.0.1:${port}` };
      expect((await runHealthChecks([check], { timeoutMs: 2000 }))[0]!.ok).toBe(false);
      server.setServing(true);
      expect((await runHealthChecks([check], { timeoutMs: 2000 }))[0]).toMatchObject({ ok: true, detail: "SERVING" });
      server.setServing(false);
      expect((await runHealthChecks([check], { timeoutMs: 2000 }))[0]!.ok).toBe(false);
    } finally {
      await server.shutdown(100);
    }
    const closed = { kind: "grpc" as const, service: "ingestion", address: `127.0.0.1:${port}` };
    expect((await runHealthChecks([closed], { timeoutMs: 500 }))[0]!.ok).toBe(false);
  });

  it("reports the gateway healthy on 200 from /readyz and unhealthy on 503 or no answer", async () => {
    let status = 503;
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? "");
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const [check] = healthChecks({ TARGETS: "gateway", PORT: String(port) });
      expect((await runHealthChecks([check!]))[0]).toMatchObject({ ok: false, detail: "HTTP 503" });
      status = 200;
      expect((await runHealthChecks([check!]))[0]).toMatchObject({ ok: true, detail: "HTTP 200" });
      expect(seen).toEqual(["/readyz", "/readyz"]);
      // The command's exit codes.
      expect(await main([], { TARGETS: "gateway", PORT: String(port) })).toBe(0);
      status = 503;
      const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        expect(await main([], { TARGETS: "gateway", PORT: String(port) })).toBe(1);
        expect(await main([], { TARGETS: "nope" })).toBe(1);
        expect(stderr.mock.calls.map((c) => String(c[0])).join("")).toMatch(/gateway at http:\/\/127\.0\.0\.1:\d+\/readyz: HTTP 503[\s\S]*TARGETS must be/);
      } finally {
        stderr.mockRestore();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const [gone] = healthChecks({ TARGETS: "gateway", PORT: String(port) });
    expect((await runHealthChecks([gone!], { timeoutMs: 500 }))[0]!.ok).toBe(false);
  });
});
