import {
  type Attributes,
  type Context,
  context,
  defaultTextMapGetter,
  diag,
  DiagLogLevel,
  defaultTextMapSetter,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  trace,
  TraceFlags,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { Logger } from "pino";
import { parseTraceparent, randomHexId } from "./trace";

export { type Context, type Span, SpanKind, SpanStatusCode, context, isSpanContextValid, trace };

/**
 * OpenTelemetry tracing. startTracing() installs the SDK for this thread (a
 * tracer provider, the W3C trace-context propagator and the AsyncLocalStorage
 * context manager); spans are exported only when an OTLP endpoint is
 * configured. Without startTracing() (unit tests, OTEL_SDK_DISABLED=true) the
 * helpers below still hand out W3C trace context (a new span id per hop, the
 * caller's trace id), so log lines of one request stay linked either way.
 */

export interface TracingOptions {
  /** service.name of this process (OTEL_SERVICE_NAME overrides it). */
  serviceName: string;
  /** Where the OTEL_* variables are read from; default process.env. */
  env?: Record<string, string | undefined>;
  /** Extra span processors (tests record spans with an InMemorySpanExporter here). */
  spanProcessors?: SpanProcessor[];
  /** Where a one-line summary of the tracing setup is logged. */
  logger?: Pick<Logger, "info" | "warn" | "debug">;
}

/**
 * Flushes spans not yet exported (waiting at most `timeoutMs`, default 3 s, so
 * an unreachable collector never holds up a shutdown) and uninstalls the SDK;
 * safe to call more than once.
 */
export type StopTracing = (timeoutMs?: number) => Promise<void>;

export interface TracingSetup {
  enabled: boolean;
  serviceName: string;
  /** OTLP/HTTP traces URL, when spans are exported. */
  exportUrl?: string;
}

const TRACER = "@engram/observability";
const w3c = new W3CTraceContextPropagator();
/** `recording`: some processor receives spans (an exporter or a test's), so spans are real SDK spans. */
let installed: { provider: NodeTracerProvider; stop: StopTracing; recording: boolean } | undefined;

const truthy = (v: string | undefined) => v !== undefined && /^(true|1|yes)$/i.test(v.trim());

/** The OTLP/HTTP traces URL the OTEL_* variables ask for, or undefined (then nothing is exported). */
export function tracesExportUrl(env: Record<string, string | undefined>): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/** What startTracing does with these variables (also for the startup log). */
export function tracingSetup(serviceName: string, env: Record<string, string | undefined> = process.env): TracingSetup {
  const name = env.OTEL_SERVICE_NAME?.trim() || serviceName;
  if (truthy(env.OTEL_SDK_DISABLED)) return { enabled: false, serviceName: name };
  return { enabled: true, serviceName: name, exportUrl: tracesExportUrl(env) };
}

/** True while startTracing's SDK is installed on this thread. */
export function tracingStarted(): boolean {
  return installed !== undefined;
}

/** True when spans are recorded (an exporter or a test recorder is installed); otherwise spans only carry trace context. */
export function spansRecorded(): boolean {
  return installed?.recording === true;
}

/**
 * Installs the OpenTelemetry SDK on this thread (each worker thread has its
 * own). Export is opt-in: OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT sends spans over OTLP/HTTP (JSON) through
 * a BatchSpanProcessor; without either, spans link the logs but go nowhere and
 * no connection is opened. OTEL_SDK_DISABLED=true installs nothing.
 */
export function startTracing(opts: TracingOptions): StopTracing {
  const env = opts.env ?? process.env;
  const setup = tracingSetup(opts.serviceName, env);
  if (!setup.enabled) {
    opts.logger?.info({ tracing: "disabled" }, "OpenTelemetry SDK disabled (OTEL_SDK_DISABLED)");
    return async () => undefined;
  }
  if (installed) throw new Error("tracing is already started on this thread");
  const processors: SpanProcessor[] = [...(opts.spanProcessors ?? [])];
  if (setup.exportUrl) {
    const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
    if (protocol && protocol !== "http/json")
      opts.logger?.warn({ protocol }, "OTLP traces are sent as http/json; the configured protocol is not supported and is ignored");
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: setup.exportUrl })));
  }
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: setup.serviceName }));
  // The SDK's own warnings (an export that failed, a dropped span) go to the process log.
  const log = opts.logger;
  if (log)
    diag.setLogger(
      {
        error: (msg, ...args) => log.warn({ otel: args.length ? args.map(String) : undefined }, `OpenTelemetry: ${msg}`),
        warn: (msg, ...args) => log.warn({ otel: args.length ? args.map(String) : undefined }, `OpenTelemetry: ${msg}`),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
  const provider = new NodeTracerProvider({ resource, spanProcessors: processors });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  let stopping: Promise<void> | undefined;
  const stop: StopTracing = (timeoutMs = 3000) =>
    (stopping ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            log?.warn({ timeoutMs }, "OpenTelemetry: spans not exported before the shutdown deadline were dropped");
            resolve();
          }, timeoutMs);
          timer.unref();
        });
        await Promise.race([provider.shutdown().catch((err: unknown) => log?.warn({ err }, "OpenTelemetry: shutdown failed")), late]);
      } finally {
        clearTimeout(timer);
        if (installed?.provider === provider) installed = undefined;
        trace.disable();
        context.disable();
        propagation.disable();
        if (log) diag.disable();
      }
    })());
  installed = { provider, stop, recording: processors.length > 0 };
  if (setup.exportUrl)
    opts.logger?.info({ serviceName: setup.serviceName, otlpTracesUrl: setup.exportUrl }, "OpenTelemetry tracing: exporting spans over OTLP/HTTP");
  else opts.logger?.debug({ serviceName: setup.serviceName }, "OpenTelemetry tracing: trace context only (no OTLP endpoint set)");
  return stop;
}

/** Flushes the spans the SDK still holds (no-op without it). */
export async function flushTracing(): Promise<void> {
  await installed?.provider.forceFlush();
}

// -- spans and context --

function randomSpanContextFor(parent: Context, root: boolean) {
  const p = root ? undefined : trace.getSpanContext(parent);
  const valid = p && isSpanContextValid(p);
  return {
    traceId: valid ? p.traceId : randomHexId(16),
    spanId: randomHexId(8),
    traceFlags: valid ? p.traceFlags : TraceFlags.SAMPLED,
  };
}

/**
 * Starts a span as a child of `parent` (default: the active context). With
 * the SDK and somewhere for spans to go it is a real span; otherwise (no
 * SDK, or no exporter: the default) a non-recording span with a new span id
 * in the parent's trace (or a new trace), so trace context still flows and
 * links the logs, without the cost of recording spans nobody receives.
 */
export function startSpan(name: string, options: SpanOptions = {}, parent: Context = context.active()): Span {
  if (installed?.recording) return trace.getTracer(TRACER).startSpan(name, options, parent);
  return trace.wrapSpanContext(randomSpanContextFor(parent, options.root === true));
}

/** Marks a span failed with the error (message as status, exception event). */
export function recordError(span: Span, err: unknown): void {
  if (err instanceof Error) span.recordException(err);
  else span.recordException({ message: String(err) });
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Runs `fn` in a span (a child of the active context): the span is active
 * inside `fn`, failed if `fn` throws or rejects, and ended when it settles.
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => T, options: SpanOptions & { parent?: Context } = {}): T {
  const { parent, ...spanOptions } = options;
  const span = startSpan(name, { ...spanOptions, attributes: { ...spanOptions.attributes, ...attributes } }, parent ?? context.active());
  const fail = (err: unknown) => {
    recordError(span, err);
    span.end();
    throw err;
  };
  try {
    const out = context.with(trace.setSpan(parent ?? context.active(), span), fn, undefined, span);
    if (out instanceof Promise) {
      return out.then((v) => {
        span.end();
        return v;
      }, fail) as T;
    }
    span.end();
    return out;
  } catch (err) {
    return fail(err);
  }
}

type Carrier = Record<string, string | string[] | undefined>;

/** Writes the W3C trace context of `ctx` (default: the active one) into the carrier (`traceparent`, `tracestate`). */
export function injectTraceparent<C extends Record<string, unknown>>(carrier: C, ctx: Context = context.active()): C {
  if (installed) propagation.inject(ctx, carrier, defaultTextMapSetter);
  else w3c.inject(ctx, carrier, defaultTextMapSetter);
  return carrier;
}

/** The context a carrier's `traceparent` (and `tracestate`) describes, on top of `base` (default: the root context). */
export function extractContext(carrier: Carrier, base: Context = ROOT_CONTEXT): Context {
  return installed ? propagation.extract(base, carrier, defaultTextMapGetter) : w3c.extract(base, carrier, defaultTextMapGetter);
}

/** The `traceparent` of the span in `ctx` (default: the active context), if there is a valid one. */
export function traceparentOfContext(ctx: Context = context.active()): string | undefined {
  return injectTraceparent({} as { traceparent?: string }, ctx).traceparent;
}

/** The `traceparent` of a span. */
export function traceparentOfSpan(span: Span): string | undefined {
  return traceparentOfContext(trace.setSpan(ROOT_CONTEXT, span));
}

/**
 * The parent for work done on behalf of a caller that passed its trace context
 * explicitly (`traceparent`, e.g. from gRPC metadata or an event header): the
 * active span when it is in that same trace (it is the closer ancestor: the
 * consumer span around an event handler, the server span around an RPC),
 * otherwise the context the traceparent describes; without a traceparent, the
 * active context.
 */
export function parentContext(traceparent?: string): Context {
  const active = context.active();
  if (!traceparent) return active;
  const given = parseTraceparent(traceparent);
  const current = trace.getSpanContext(active);
  if (given && current && isSpanContextValid(current) && current.traceId === given.traceId) return active;
  return extractContext({ traceparent });
}
