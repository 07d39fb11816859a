/**
 * Engram, all-in-one: every service in one process (TARGETS=all by default),
 * no infrastructure. `pnpm start` runs this.
 */
import { ConfigError } from "@engram/config";
import { rootLogger, startTracing } from "@engram/observability";
import { loadAllInOneConfig } from "./config";
import { startStack } from "./stack";

async function main(): Promise<void> {
  const started = performance.now();
  let config;
  try {
    config = loadAllInOneConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const root = rootLogger({ level: config.process.LOG_LEVEL });
  const log = root.child({ component: "all-in-one" }, { level: root.levelVal > 30 && config.process.LOG_LEVEL !== "silent" ? "info" : root.level });
  // Trace context always (log lines of a request share its trace id); spans exported only with OTEL_EXPORTER_OTLP_ENDPOINT.
  const stopTracing = startTracing({ serviceName: "engram", logger: root.child({ component: "tracing" }) });
  const stack = await startStack(config, root);
  stack.runtime.onStopped(stopTracing);
  // The process exits within SHUTDOWN_GRACE_MS of SIGTERM, whatever is still running then (it is redelivered at the next start).
  stack.runtime.installSignalHandlers(config.process.SHUTDOWN_GRACE_MS);
  const fatal = (kind: string) => (err: unknown) => {
    log.fatal({ err }, kind);
    stack.runtime.stop().finally(() => process.exit(1));
  };
  process.on("uncaughtException", fatal("uncaught exception"));
  process.on("unhandledRejection", fatal("unhandled rejection"));
  log.info(
    {
      httpPort: stack.httpPort,
      url: stack.httpPort ? `http://localhost:${stack.httpPort}` : undefined,
      dataDir: config.process.ENGRAM_DATA_DIR,
      targets: [...config.process.TARGETS],
      grpcPorts: stack.grpcPorts,
      startupMs: Math.round(performance.now() - started),
    },
    "engram ready",
  );
}

main().catch((err) => {
  process.stderr.write(`engram failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
