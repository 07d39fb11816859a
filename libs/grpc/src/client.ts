import * as grpc from "@grpc/grpc-js";
import { CHANNEL_OPTIONS, serviceConstructor } from "./protos";

export interface CallOptions {
  /** Per-call deadline; defaults to 30 s. */
  deadlineMs?: number;
  requestId?: string;
  /** W3C traceparent of the caller's span. */
  traceparent?: string;
}

/** A client for a service by full name (`engram.ingestion.v1.IngestionService`). */
export function createClient<C extends grpc.Client = grpc.Client>(fullName: string, address: string): C {
  const Ctor = serviceConstructor(fullName);
  return new Ctor(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS) as unknown as C;
}

export function callMetadata(opts: CallOptions = {}): grpc.Metadata {
  const md = new grpc.Metadata();
  if (opts.requestId) md.set("x-request-id", opts.requestId);
  if (opts.traceparent) md.set("traceparent", opts.traceparent);
  return md;
}

type AnyMethod = (this: grpc.Client, ...args: unknown[]) => unknown;

function method(client: grpc.Client, name: string): AnyMethod | undefined {
  const fn = (client as unknown as Record<string, unknown>)[name];
  return typeof fn === "function" ? (fn as AnyMethod) : undefined;
}

function deadline(opts: CallOptions): grpc.CallOptions {
  return { deadline: Date.now() + (opts.deadlineMs ?? 30_000) };
}

/** Promise form of a unary call. Rejects with the grpc.ServiceError. */
export function unaryCall<Res>(client: grpc.Client, name: string, request: unknown, opts: CallOptions = {}): Promise<Res> {
  const fn = method(client, name);
  if (!fn) return Promise.reject(new Error(`no RPC ${name} on client`));
  return new Promise<Res>((resolve, reject) => {
    fn.call(client, request, callMetadata(opts), deadline(opts), (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

/** Server-streaming call collected into an array of messages. */
export function serverStreamCall<Res>(client: grpc.Client, name: string, request: unknown, opts: CallOptions = {}): Promise<Res[]> {
  const fn = method(client, name);
  if (!fn) return Promise.reject(new Error(`no RPC ${name} on client`));
  return new Promise<Res[]>((resolve, reject) => {
    const out: Res[] = [];
    const stream = fn.call(client, request, callMetadata(opts), deadline(opts)) as grpc.ClientReadableStream<Res>;
    stream.on("data", (m: Res) => out.push(m));
    stream.on("error", reject);
    stream.on("end", () => resolve(out));
  });
}

/** Client-streaming call: writes each message, resolves with the single response. */
export function clientStreamCall<Req, Res>(
  client: grpc.Client,
  name: string,
  messages: AsyncIterable<Req> | Iterable<Req>,
  opts: CallOptions = {},
): Promise<Res> {
  const fn = method(client, name);
  if (!fn) return Promise.reject(new Error(`no RPC ${name} on client`));
  return new Promise<Res>((resolve, reject) => {
    const stream = fn.call(client, callMetadata(opts), deadline(opts), (err: grpc.ServiceError | null, res: Res) =>
      err ? reject(err) : resolve(res),
    ) as grpc.ClientWritableStream<Req>;
    (async () => {
      for await (const m of messages) {
        if (!stream.write(m)) await new Promise((r) => stream.once("drain", r));
      }
      stream.end();
    })().catch((err) => {
      stream.cancel();
      reject(err);
    });
  });
}

/** Resolves when the channel is ready (or rejects after the deadline). */
export function waitForReady(client: grpc.Client, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve())));
}
