import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { GatewayConfig } from "@engram/gateway";
import type { GatewayModule } from "@engram/gateway";
import type { ProcessSecurity } from "@engram/grpc";
import { type Logger, metrics } from "@engram/observability";

export type FromGateway =
  | { type: "ready"; port: number }
  | { type: "failed"; message: string; stack?: string }
  | { type: "print"; line: string }
  | { type: "metrics-request"; id: number }
  | { type: "stopped" };

export type ToGateway = { type: "stop" } | { type: "metrics"; id: number; snapshot: unknown };

/**
 * The bundled worker (dist/gateway.worker.js) when present; under tsx the
 * TypeScript module, loaded by a small JavaScript entry (gateway.worker.boot.cjs).
 */
function startWorker(workerData: unknown): Worker {
  const js = path.join(__dirname, "gateway.worker.js");
  if (fs.existsSync(js)) return new Worker(js, { workerData });
  const entry = path.join(__dirname, "gateway.worker.ts");
  return new Worker(path.join(__dirname, "gateway.worker.boot.cjs"), { workerData: { ...(workerData as object), entry } });
}

/**
 * The gateway module run on a worker thread of this process (the same module
 * as in its own process, configured the same way). Start resolves when it
 * listens; stop asks it to drain and waits for the thread to end. A thread
 * that dies on its own is reported through `onCrash`.
 */
export function createGatewayThreadModule(deps: {
  config: GatewayConfig;
  logger: Logger;
  logLevel: string;
  /** MongoDB for the API keys (the thread opens its own connection). */
  mongo?: { url: string; dbName: string };
  /** The gateway's trust key and the services' public keys, and TLS material (plain data: it crosses to the thread). */
  security: ProcessSecurity;
  /** The services thread's heartbeat: the gateway's /healthz fails while that loop is blocked. */
  loop?: { buffer: SharedArrayBuffer; maxLagMs: number };
  print?: (line: string) => void;
  onCrash: (err: Error) => void;
  /** Longest wait for the thread to drain and end on stop before it is terminated (default 9 s; keep within the shutdown budget). */
  stopTimeoutMs?: number;
}): GatewayModule {
  let worker: Worker | undefined;
  let boundPort = 0;
  let stopping = false;
  const print = deps.print ?? ((l: string) => process.stdout.write(l + "\n"));
  return {
    name: "gateway",
    port: () => boundPort,
    start: () =>
      new Promise<void>((resolve, reject) => {
        const w = startWorker({ config: deps.config, logLevel: deps.logLevel, mongo: deps.mongo, loop: deps.loop, security: deps.security });
        worker = w;
        let started = false;
        w.on("message", (m: FromGateway) => {
          if (m.type === "ready") {
            boundPort = m.port;
            started = true;
            resolve();
          } else if (m.type === "failed") {
            const err = Object.assign(new Error(m.message), { stack: m.stack });
            if (!started) reject(err);
            else deps.logger.error({ err }, "gateway thread failed");
          } else if (m.type === "print") {
            print(m.line);
          } else if (m.type === "metrics-request") {
            metrics.snapshot().then((snapshot) => w.postMessage({ type: "metrics", id: m.id, snapshot } satisfies ToGateway));
          }
        });
        w.on("error", (err) => (started ? deps.onCrash(err) : reject(err)));
        w.on("exit", (code) => {
          if (!stopping && started) deps.onCrash(new Error(`gateway thread exited with code ${code}`));
          else if (!started) reject(new Error(`gateway thread exited with code ${code} before listening`));
        });
      }),
    async stop() {
      const w = worker;
      if (!w) return;
      stopping = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => void w.terminate().then(() => resolve()), deps.stopTimeoutMs ?? 9_000);
        timer.unref();
        w.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        w.postMessage({ type: "stop" } satisfies ToGateway);
      });
    },
  };
}
