import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { startTracing } from "./tracing";

export type { ReadableSpan };

/** Spans this thread ended while recording (for tests). */
export interface SpanRecorder {
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** Resolves with the recorded spans once `done(spans)` holds (polls), rejects after `timeoutMs`. */
  waitFor(done: (spans: ReadableSpan[]) => boolean, timeoutMs?: number): Promise<ReadableSpan[]>;
  reset(): void;
  /** Uninstalls the SDK again. */
  stop(): Promise<void>;
}

/**
 * Installs the tracing SDK with an in-memory exporter (no OTLP endpoint, so no
 * network): what tests use to look at the spans code produces.
 */
export function recordSpans(serviceName = "engram-test"): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const stop = startTracing({ serviceName, env: {}, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = () => exporter.getFinishedSpans();
  return {
    exporter,
    spans,
    async waitFor(done, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (!done(spans())) {
        if (Date.now() > until)
          throw new Error(
            `spans not recorded in ${timeoutMs} ms; have: ${
              spans()
                .map((s) => s.name)
                .join(", ") || "none"
            }`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
      return spans();
    },
    reset: () => exporter.reset(),
    stop,
  };
}
