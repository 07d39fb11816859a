import pino, { type Logger } from "pino";
import client from "prom-client";

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Pretty output is for humans at a terminal; production logs stay JSON. */
  pretty?: boolean;
}

let root: Logger | undefined;

/** The process-wide root logger (JSON lines on stdout). */
export function rootLogger(opts: LoggerOptions = {}): Logger {
  if (!root) {
    root = pino({
      level: opts.level ?? process.env.LOG_LEVEL ?? "info",
      base: { service: "engram" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ["req.headers.authorization", "*.apiKey", "*.token", "*.secret"], censor: "[redacted]" },
    });
  }
  return root;
}

/** A logger tagged with its component (gateway, ingestion, bus, ...). */
export function createLogger(component: string, opts: LoggerOptions = {}): Logger {
  return rootLogger(opts).child({ component });
}

/** Replaces the root logger (tests use a silent one). */
export function setRootLogger(logger: Logger): void {
  root = logger;
}

export const metrics = {
  registry: client.register,
  /** Register default process metrics once per process. */
  collectDefaults(): void {
    if (!collected) {
      client.collectDefaultMetrics({ prefix: "engram_" });
      collected = true;
    }
  },
  /** Get or create a metric by name, so modules sharing a process share it. */
  histogram(name: string, help: string, labelNames: string[], buckets?: number[]): client.Histogram<string> {
    const existing = client.register.getSingleMetric(name);
    if (existing) return existing as client.Histogram<string>;
    return new client.Histogram({ name, help, labelNames, ...(buckets ? { buckets } : {}) });
  },
  counter(name: string, help: string, labelNames: string[]): client.Counter<string> {
    const existing = client.register.getSingleMetric(name);
    if (existing) return existing as client.Counter<string>;
    return new client.Counter({ name, help, labelNames });
  },
  /** This thread's metrics as JSON (another thread of the process merges them into its exposition). */
  snapshot(): Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]> {
    return client.register.getMetricsAsJSON();
  },
  /**
   * The Prometheus exposition of this thread's metrics plus other threads'
   * snapshots (all-in-one runs the gateway on its own thread; /metrics shows
   * the whole process). Same-named metrics are summed.
   */
  async exposition(others: client.MetricObjectWithValues<client.MetricValue<string>>[][] = []): Promise<string> {
    if (others.length === 0) return client.register.metrics();
    return client.AggregatorRegistry.aggregate([await client.register.getMetricsAsJSON(), ...others]).metrics();
  },
  /** `collect`, when given, sets the gauge's value(s) each time the metrics are read. */
  gauge(name: string, help: string, labelNames: string[], collect?: (g: client.Gauge<string>) => void): client.Gauge<string> {
    const existing = client.register.getSingleMetric(name);
    if (existing) return existing as client.Gauge<string>;
    return new client.Gauge({
      name,
      help,
      labelNames,
      ...(collect
        ? {
            collect() {
              collect(this);
            },
          }
        : {}),
    });
  },
};
let collected = false;
export * from "./trace";
export * from "./metrics-server";
export * from "./loop-health";
export * from "./tracing";
