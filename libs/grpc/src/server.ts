/* eslint-disable @typescript-eslint/no-explicit-any -- grpc-js untyped handlers: messages are typed at each service's mapping layer. */
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { UnimplementedError } from "@engram/kernel";
import {
  context,
  type Context,
  extractContext,
  type Logger,
  metrics,
  recordError,
  type Span,
  SpanKind,
  SpanStatusCode,
  startSpan,
  trace,
  traceparentOfContext,
} from "@engram/observability";
import { CHANNEL_OPTIONS, serviceDefinition } from "./protos";
import { toGrpcError } from "./errors";
import { TurnQueue } from "./turns";
import { admit, type ServerTrust, TrustRefusal, withAssertion } from "./trust";
import type { ServiceImplementation } from "./services";

/** Async handler shapes as the server calls them (typed per service by `implement`). */
type UnaryImpl = (request: any, call: grpc.ServerUnaryCall<any, any>) => Promise<unknown>;
type ClientStreamImpl = (call: grpc.ServerReadableStream<any, any>) => Promise<unknown>;
type ServerStreamImpl = (request: any, call: grpc.ServerWritableStream<any, any>) => Promise<void>;
type AnyImpl = UnaryImpl | ClientStreamImpl | ServerStreamImpl;

/** An error and its causes in one line, with their codes: what a log says of an unavailable engine. */
function outageText(err: unknown): string {
  const parts: string[] = [];
  for (let cur = err, depth = 0; cur !== undefined && cur !== null && depth < 6; depth++) {
    const e = cur as { name?: unknown; message?: unknown; code?: unknown; details?: unknown };
    const code = typeof e.code === "string" || typeof e.code === "number" ? ` [${e.code}]` : "";
    parts.push(`${typeof e.name === "string" ? e.name : "Error"}: ${String(e.message ?? e.details ?? cur)}${code}`);
    cur = (cur as { cause?: unknown }).cause;
  }
  return parts.join(" <- ");
}

const rpcDuration = metrics.histogram(
  "engram_grpc_server_duration_seconds",
  "gRPC server call duration",
  ["service", "method", "code"],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/**
 * Handlers of every server on this thread start one at a time, two event-loop turns
 * apart, so the response of one is on the wire before the next one's synchronous work
 * (see TurnQueue).
 */
const handlerTurns = new TurnQueue();

/** The traceparent of each call's server span (the parent for whatever the handler does). */
const serverSpans = new WeakMap<object, string>();

/**
 * The W3C traceparent a handler passes on: its server span's, which continues
 * the caller's trace from the gRPC metadata (the caller's own traceparent when
 * the call did not come through GrpcServer).
 */
export function traceparentOf(call: { metadata: grpc.Metadata }): string | undefined {
  return serverSpans.get(call) ?? call.metadata.get("traceparent")[0]?.toString();
}

/** Server-side codes that mark the span failed (the others are the caller's problem: semantic conventions for gRPC). */
const SERVER_ERRORS = new Set([
  grpc.status.UNKNOWN,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.UNIMPLEMENTED,
  grpc.status.INTERNAL,
  grpc.status.UNAVAILABLE,
  grpc.status.DATA_LOSS,
]);

function metadataCarrier(md: grpc.Metadata): Record<string, string | undefined> {
  return { traceparent: md.get("traceparent")[0]?.toString(), tracestate: md.get("tracestate")[0]?.toString() };
}

/** Request id propagated from the gateway in gRPC metadata. */
export function requestIdOf(call: { metadata: grpc.Metadata }): string | undefined {
  return call.metadata.get("x-request-id")[0]?.toString();
}

export interface GrpcServerOptions {
  /**
   * Service-to-service trust (trust.ts): every call must carry a valid assertion for this service from a caller
   * allowed for the method, for the tenant the request names. The process runtime always sets it; a server built
   * without it (unit tests of one service's handlers) trusts its callers.
   */
  trust?: ServerTrust;
  /** TLS (tls.ts); plaintext when absent. */
  credentials?: grpc.ServerCredentials;
}

/**
 * A gRPC server with grpc.health.v1, error mapping, metrics and graceful
 * shutdown. RPCs a module does not implement answer UNIMPLEMENTED with a
 * message naming the operation. The health service answers without an
 * assertion (probes carry none).
 */
export class GrpcServer {
  readonly server = new grpc.Server(CHANNEL_OPTIONS);
  private readonly health = new HealthImplementation({ "": "NOT_SERVING" });
  private readonly services: string[] = [];
  private port = 0;

  constructor(
    private readonly log: Logger,
    private readonly options: GrpcServerOptions = {},
  ) {
    this.health.addToServer(this.server);
  }

  /** Serves one service (from `implement(Service, handlers)`), not serving until setServing(true). */
  add(impl: ServiceImplementation): void {
    const fullName = impl.service.fullName;
    const def = serviceDefinition(fullName);
    const shortName = fullName.split(".").pop() ?? fullName;
    const unknown = Object.keys(impl.handlers).filter((m) => !(m in def));
    if (unknown.length) throw new Error(`${fullName} has no RPC ${unknown.join(", ")}`);
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [method, md] of Object.entries(def)) {
      handlers[method] = this.wrap(fullName, shortName, method, md, impl.handlers[method] as AnyImpl | undefined);
    }
    this.server.addService(def, handlers);
    this.services.push(fullName);
    this.health.setStatus(fullName, "NOT_SERVING");
  }

  private wrap(fullName: string, service: string, method: string, md: grpc.MethodDefinition<any, any>, fn: AnyImpl | undefined): grpc.UntypedHandleCall {
    const log = this.log;
    const spanName = `${fullName}/${method}`;
    const attributes = { "rpc.system": "grpc", "rpc.service": fullName, "rpc.method": method };
    /** The call's server span, continuing the caller's trace; the handler runs inside its context. */
    const begin = (call: { metadata: grpc.Metadata }): { start: bigint; span: Span; ctx: Context } => {
      const parent = extractContext(metadataCarrier(call.metadata));
      const span = startSpan(spanName, { kind: SpanKind.SERVER, attributes }, parent);
      const ctx = trace.setSpan(parent, span);
      const traceparent = traceparentOfContext(ctx);
      if (traceparent) serverSpans.set(call, traceparent);
      return { start: process.hrtime.bigint(), span, ctx };
    };
    const finish = ({ start, span }: { start: bigint; span: Span }, code: grpc.status, err?: unknown) => {
      rpcDuration.labels(service, method, grpc.status[code] ?? String(code)).observe(Number(process.hrtime.bigint() - start) / 1e9);
      span.setAttribute("rpc.grpc.status_code", code);
      if (SERVER_ERRORS.has(code)) {
        if (err !== undefined) recordError(span, err);
        else span.setStatus({ code: SpanStatusCode.ERROR, message: grpc.status[code] });
      }
      span.end();
    };
    const trust = this.options.trust;
    /** The handler, after the trust check: it runs with the call's verified assertion as the current one. */
    const guarded = (call: { metadata: grpc.Metadata }, invoke: () => Promise<unknown>) => (): Promise<unknown> =>
      trust ? admit(trust, service, method, call.metadata, (call as { request?: unknown }).request).then((a) => withAssertion(a, invoke)) : invoke();
    const fail = (err: unknown, call: { metadata: grpc.Metadata }) => {
      const st = toGrpcError(err);
      if (err instanceof TrustRefusal)
        // A service (or something posing as one) without the right to make this call: worth a look.
        log.warn({ rpc: `${service}/${method}`, code: grpc.status[st.code], msg: st.details, requestId: requestIdOf(call) }, "rpc refused by service trust");
      else if (st.code === grpc.status.INTERNAL || st.code === grpc.status.UNKNOWN)
        log.error({ err, rpc: `${service}/${method}`, requestId: requestIdOf(call) }, "rpc failed");
      else if (st.code === grpc.status.UNAVAILABLE)
        // An engine outage: the caller gets a generic 503; the log keeps what failed (no stack: not Engram's bug).
        log.warn({ cause: outageText(err), rpc: `${service}/${method}`, requestId: requestIdOf(call) }, "rpc unavailable");
      else log.debug({ rpc: `${service}/${method}`, code: grpc.status[st.code], msg: st.details, requestId: requestIdOf(call) }, "rpc rejected");
      return st;
    };
    const unimplemented = new UnimplementedError(`${service}.${method}`, "this operation arrives in a later release; see docs/api-decisions.md");
    type Status = ReturnType<typeof fail>;
    /**
     * Runs the handler in its span's context and hands `answer` the result (no status)
     * or the mapped error; an operation the module does not implement answers UNIMPLEMENTED.
     */
    const settle = (
      t: ReturnType<typeof begin>,
      call: { metadata: grpc.Metadata },
      invoke: () => Promise<unknown>,
      answer: (st: Status | null, res?: unknown) => void,
    ) => {
      if (!fn) return (answer(fail(unimplemented, call)), finish(t, grpc.status.UNIMPLEMENTED, unimplemented));
      context.with(t.ctx, guarded(call, invoke)).then(
        (res) => (answer(null, res), finish(t, grpc.status.OK)),
        (err) => {
          const st = fail(err, call);
          answer(st);
          finish(t, st.code, err);
        },
      );
    };
    /**
     * A call that answers from a handler turn (unary, server-streaming): started when its
     * turn comes, unless the caller gave up (deadline, cancel) while it was queued.
     */
    const queued = (call: { metadata: grpc.Metadata; cancelled: boolean }, start: (t: ReturnType<typeof begin>) => void) =>
      handlerTurns.push(() => {
        const t = begin(call);
        if (call.cancelled) return finish(t, grpc.status.CANCELLED);
        start(t);
      });
    if (md.requestStream && !md.responseStream) {
      return (call: grpc.ServerReadableStream<any, any>, callback: grpc.sendUnaryData<any>) =>
        settle(
          begin(call),
          call,
          () => (fn as ClientStreamImpl)(call),
          (st, res) => callback(st, st ? null : res),
        );
    }
    if (md.responseStream && !md.requestStream) {
      return (call: grpc.ServerWritableStream<any, any>) =>
        queued(call, (t) =>
          settle(
            t,
            call,
            () => (fn as ServerStreamImpl)(call.request, call),
            (st) => (st ? call.emit("error", st) : call.end()),
          ),
        );
    }
    if (md.requestStream && md.responseStream) {
      return (call: grpc.ServerDuplexStream<any, any>) => {
        const t = begin(call);
        call.emit("error", fail(unimplemented, call));
        finish(t, grpc.status.UNIMPLEMENTED, unimplemented);
      };
    }
    return (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) =>
      queued(call, (t) =>
        settle(
          t,
          call,
          () => (fn as UnaryImpl)(call.request, call),
          (st, res) => callback(st, st ? null : res),
        ),
      );
  }

  /** Binds host:port (port 0 picks a free one) and returns the bound port. */
  async bind(address: string): Promise<number> {
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, this.options.credentials ?? grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
    return this.port;
  }

  setServing(serving: boolean): void {
    const status = serving ? "SERVING" : "NOT_SERVING";
    this.health.setStatus("", status);
    for (const s of this.services) this.health.setStatus(s, status);
  }

  /** The grpc.health.v1 status of one more name (a part of the process, not a gRPC service): SERVING or NOT_SERVING. */
  setHealth(name: string, serving: boolean): void {
    this.health.setStatus(name, serving ? "SERVING" : "NOT_SERVING");
  }

  /** Not serving, then drain in-flight calls up to the deadline, then force. */
  async shutdown(deadlineMs: number): Promise<void> {
    this.setServing(false);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn({ deadlineMs }, "gRPC drain deadline passed, forcing shutdown");
        this.server.forceShutdown();
        resolve();
      }, deadlineMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
