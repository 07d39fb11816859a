import pino from "pino";
import { metrics, startMetricsServer } from "../src/index";

describe("startMetricsServer", () => {
  it("serves this process's metrics on /metrics and answers /healthz", async () => {
    metrics.counter("engram_test_metrics_server_total", "test counter", []).inc(3);
    const server = await startMetricsServer("127.0.0.1:0", pino({ level: "silent" }));
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/plain/);
      expect(await res.text()).toMatch(/^engram_test_metrics_server_total 3$/m);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/other`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it("answers /healthz 503 with the error body while the loop health check fails", async () => {
    let healthy = false;
    const server = await startMetricsServer("127.0.0.1:0", pino({ level: "silent" }), () =>
      healthy ? { ok: true, lagMs: 0 } : { ok: false, lagMs: 9000, details: "the event loop has been blocked for 9000 ms" },
    );
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "Unhealthy", details: "the event loop has been blocked for 9000 ms" });
      healthy = true;
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
