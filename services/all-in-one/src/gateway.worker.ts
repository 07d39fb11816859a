/**
 * The gateway on its own thread (all-in-one, GATEWAY_THREAD=true): HTTP
 * parsing, authentication, validation and the gRPC client side run on one
 * core while the services use the other. It talks to the services over
 * loopback gRPC exactly as in a separate process; the parent thread starts
 * and stops it and answers its requests for the rest of the process's metrics.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { GatewayConfig } from "@engram/gateway";
import { createGatewayModule, openGatewayKeyStore, openGuardStores } from "@engram/gateway";
import { clientSecurity, type ProcessSecurity } from "@engram/grpc";
import { LoopHeartbeat, type metrics, readLoopHealth, rootLogger, startTracing } from "@engram/observability";
import type { FromGateway, ToGateway } from "./gateway-thread";

const port = parentPort!;
const { config, logLevel, mongo, loop, security } = workerData as {
  config: GatewayConfig;
  security: ProcessSecurity;
  logLevel: string;
  mongo?: { url: string; dbName: string };
  loop?: { buffer: SharedArrayBuffer; maxLagMs: number };
};
const logger = rootLogger({ level: logLevel });
// This thread's own OpenTelemetry SDK (the API's globals are per thread); flushed when the gateway stops.
const stopTracing = startTracing({ serviceName: "engram-gateway", logger: logger.child({ component: "tracing" }) });
const waiting = new Map<number, (snapshot: Awaited<ReturnType<typeof metrics.snapshot>>) => void>();
let seq = 0;
const send = (m: FromGateway) => port.postMessage(m);

async function main(): Promise<void> {
  const keyStore = await openGatewayKeyStore(config, mongo);
  const guardStores = await openGuardStores(config, mongo);
  // /healthz: this thread's loop and the services thread's (whose heartbeat the parent shares).
  const own = loop ? new LoopHeartbeat({ maxLagMs: loop.maxLagMs }).start() : undefined;
  const gateway = createGatewayModule({
    config,
    keyStore,
    guardStores,
    logger,
    security: clientSecurity(security, "gateway"),
    health: loop
      ? () => {
          const services = readLoopHealth(loop.buffer, loop);
          if (!services.ok) return { ...services, details: `services thread: ${services.details}` };
          return own!.status();
        }
      : undefined,
    print: (line) => send({ type: "print", line }),
    otherMetrics: () =>
      new Promise((resolve) => {
        const id = ++seq;
        waiting.set(id, (s) => resolve([s]));
        send({ type: "metrics-request", id });
      }),
  });

  port.on("message", (m: ToGateway) => {
    if (m.type === "metrics") {
      waiting.get(m.id)?.(m.snapshot as Awaited<ReturnType<typeof metrics.snapshot>>);
      waiting.delete(m.id);
    } else if (m.type === "stop") {
      gateway.stop!()
        .then(() => stopTracing())
        .then(
          () => {
            send({ type: "stopped" });
            port.close();
          },
          (err: Error) => send({ type: "failed", message: err.message, stack: err.stack }),
        );
    }
  });

  await gateway.start!({});
  send({ type: "ready", port: gateway.port() });
}

main().catch((err: Error) => send({ type: "failed", message: err.message, stack: err.stack }));
