/* eslint-disable @typescript-eslint/no-explicit-any -- grpc-js untyped handlers: messages are typed at each service's mapping layer. */
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { UnimplementedError } from "@engram/kernel";
import { type Logger, metrics } from "@engram/observability";
import { CHANNEL_OPTIONS, serviceDefinition } from "./protos";
import { toGrpcError } from "./errors";

/** Async handler shapes: unary and server-streaming get the request; client-streaming gets the call. */
export type UnaryImpl = (request: any, call: grpc.ServerUnaryCall<any, any>) => Promise<unknown>;
export type ClientStreamImpl = (call: grpc.ServerReadableStream<any, any>) => Promise<unknown>;
export type ServerStreamImpl = (request: any, call: grpc.ServerWritableStream<any, any>) => Promise<void>;
export type ServiceImpl = Record<string, UnaryImpl | ClientStreamImpl | ServerStreamImpl>;

const rpcDuration = metrics.histogram(
  "engram_grpc_server_duration_seconds",
  "gRPC server call duration",
  ["service", "method", "code"],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/** W3C traceparent propagated in gRPC metadata. */
export function traceparentOf(call: { metadata: grpc.Metadata }): string | undefined {
  return call.metadata.get("traceparent")[0]?.toString();
}

/** Request id propagated from the gateway in gRPC metadata. */
export function requestIdOf(call: { metadata: grpc.Metadata }): string | undefined {
  return call.metadata.get("x-request-id")[0]?.toString();
}

/**
 * A gRPC server with grpc.health.v1, error mapping, metrics and graceful
 * shutdown. RPCs a module does not implement answer UNIMPLEMENTED with a
 * message naming the operation.
 */
export class GrpcServer {
  readonly server = new grpc.Server(CHANNEL_OPTIONS);
  private readonly health = new HealthImplementation({ "": "NOT_SERVING" });
  private readonly services: string[] = [];
  private port = 0;

  constructor(private readonly log: Logger) {
    this.health.addToServer(this.server);
  }

  addService(fullName: string, impl: ServiceImpl): void {
    const def = serviceDefinition(fullName);
    const shortName = fullName.split(".").pop() ?? fullName;
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [method, md] of Object.entries(def)) {
      const fn = impl[method] ?? impl[method.charAt(0).toLowerCase() + method.slice(1)];
      handlers[method] = this.wrap(shortName, method, md, fn);
    }
    this.server.addService(def, handlers);
    this.services.push(fullName);
    this.health.setStatus(fullName, "NOT_SERVING");
  }

  private wrap(service: string, method: string, md: grpc.MethodDefinition<any, any>, fn: ServiceImpl[string] | undefined): grpc.UntypedHandleCall {
    const log = this.log;
    const finish = (start: bigint, code: grpc.status) =>
      rpcDuration.labels(service, method, grpc.status[code] ?? String(code)).observe(Number(process.hrtime.bigint() - start) / 1e9);
    const fail = (err: unknown, call: { metadata: grpc.Metadata }) => {
      const st = toGrpcError(err);
      if (st.code === grpc.status.INTERNAL || st.code === grpc.status.UNKNOWN)
        log.error({ err, rpc: `${service}/${method}`, requestId: requestIdOf(call) }, "rpc failed");
      else log.debug({ rpc: `${service}/${method}`, code: grpc.status[st.code], msg: st.details, requestId: requestIdOf(call) }, "rpc rejected");
      return st;
    };
    const unimplemented = new UnimplementedError(`${service}.${method}`, "this operation arrives in a later release; see docs/api-decisions.md");
    if (md.requestStream && !md.responseStream) {
      return (call: grpc.ServerReadableStream<any, any>, callback: grpc.sendUnaryData<any>) => {
        const start = process.hrtime.bigint();
        if (!fn) return (callback(fail(unimplemented, call), null), finish(start, grpc.status.UNIMPLEMENTED));
        (fn as ClientStreamImpl)(call).then(
          (res) => (callback(null, res), finish(start, grpc.status.OK)),
          (err) => {
            const st = fail(err, call);
            callback(st, null);
            finish(start, st.code);
          },
        );
      };
    }
    if (md.responseStream && !md.requestStream) {
      return (call: grpc.ServerWritableStream<any, any>) => {
        const start = process.hrtime.bigint();
        if (!fn) return (call.emit("error", fail(unimplemented, call)), finish(start, grpc.status.UNIMPLEMENTED));
        (fn as ServerStreamImpl)(call.request, call).then(
          () => (call.end(), finish(start, grpc.status.OK)),
          (err) => {
            const st = fail(err, call);
            call.emit("error", st);
            finish(start, st.code);
          },
        );
      };
    }
    if (md.requestStream && md.responseStream) {
      return (call: grpc.ServerDuplexStream<any, any>) => call.emit("error", fail(unimplemented, call));
    }
    return (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
      const start = process.hrtime.bigint();
      if (!fn) return (callback(fail(unimplemented, call), null), finish(start, grpc.status.UNIMPLEMENTED));
      (fn as UnaryImpl)(call.request, call).then(
        (res) => (callback(null, res), finish(start, grpc.status.OK)),
        (err) => {
          const st = fail(err, call);
          callback(st, null);
          finish(start, st.code);
        },
      );
    };
  }

  /** Binds host:port (port 0 picks a free one) and returns the bound port. */
  async bind(address: string): Promise<number> {
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
    return this.port;
  }

  setServing(serving: boolean): void {
    const status = serving ? "SERVING" : "NOT_SERVING";
    this.health.setStatus("", status);
    for (const s of this.services) this.health.setStatus(s, status);
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
