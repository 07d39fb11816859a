import * as grpc from "@grpc/grpc-js";
import {
  childTraceparent,
  injectTraceparent,
  parentContext,
  recordError,
  spansRecorded,
  SpanKind,
  startSpan,
  trace,
  traceparentOfContext,
} from "@engram/observability";
import { CHANNEL_OPTIONS, serviceConstructor } from "./protos";
import { ASSERTION_METADATA_KEY, type AssertionSigner, requestTenant, type ServiceIdentity } from "./trust";

/** The API key a gateway call acts for: its tenant, scopes and container-tag limit travel in the assertion. */
export interface CallPrincipal {
  tenantId: string;
  rights?: { scopes: readonly string[]; containerTags?: readonly string[] };
}

/** How a client signs its calls: as which service, to which service (docs/api-decisions.md §19). */
export interface CallSigning {
  signer: AssertionSigner;
  audience: ServiceIdentity;
}

export interface CallOptions {
  /** Per-call deadline; defaults to 30 s. */
  deadlineMs?: number;
  requestId?: string;
  /**
   * W3C traceparent of the caller's span. The call gets a client span, a child
   * of the active span when that is in the same trace (else of this one); the
   * client span's context travels in the metadata.
   */
  traceparent?: string;
  /**
   * The API key the call acts for (the gateway passes the HTTP request, whose principal this is). Without one the
   * assertion names the tenant of the request's CallContext (or of a streamed upload's header) and no scopes: the
   * calling service acting on its own.
   */
  principal?: CallPrincipal;
  /** Set by `connect`: the call carries an assertion signed by this signer. */
  signing?: CallSigning;
}

/**
 * A client for a service by full name (`engram.ingestion.v1.IngestionService`): plaintext unless `credentials`
 * (TLS, see tls.ts) are given.
 */
export function createClient<C extends grpc.Client = grpc.Client>(fullName: string, address: string, credentials?: grpc.ChannelCredentials): C {
  const Ctor = serviceConstructor(fullName);
  return new Ctor(address, credentials ?? grpc.credentials.createInsecure(), CHANNEL_OPTIONS) as unknown as C;
}

/**
 * A per-call interceptor that adds the signed assertion to the call's metadata. The tenant is the principal's, else
 * the one the first request message names, so the metadata is held until that message is sent (signing is
 * asynchronous; a cached assertion costs a resolved promise). Messages and the half-close wait behind it in order.
 */
function assertionInterceptor(signing: CallSigning, principal: CallPrincipal | undefined): grpc.Interceptor {
  return (options, nextCall) => {
    let held: { metadata: grpc.Metadata; listener: grpc.Listener; next: (md: grpc.Metadata, listener: grpc.Listener) => void } | undefined;
    let ready: Promise<void> | undefined;
    const begin = (message: unknown, then: () => void): Promise<void> => {
      const tenant = principal?.tenantId ?? requestTenant(message) ?? "";
      const start = (token?: string) => {
        const h = held!;
        if (token) h.metadata.set(ASSERTION_METADATA_KEY, token);
        then();
        h.next(h.metadata, h.listener);
      };
      // A signature that fails (it cannot with a valid key) sends the call without an assertion: the server refuses it.
      return signing.signer
        .sign({ audience: signing.audience, tenant, scopes: principal?.rights?.scopes, containerTags: principal?.rights?.containerTags })
        .then(start, () => start());
    };
    return new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        held = { metadata, listener, next };
      },
      sendMessage(message, next) {
        if (!ready) ready = begin(message, () => next(message));
        else void ready.then(() => next(message));
      },
      halfClose(next) {
        if (!ready) ready = begin(undefined, () => undefined).then(() => next());
        else void ready.then(() => next());
      },
    });
  };
}

export function callMetadata(opts: CallOptions = {}): grpc.Metadata {
  const md = new grpc.Metadata();
  if (opts.requestId) md.set("x-request-id", opts.requestId);
  if (opts.traceparent) md.set("traceparent", opts.traceparent);
  return md;
}

type AnyMethod = ((this: grpc.Client, ...args: unknown[]) => unknown) & { path?: string };

function method(client: grpc.Client, name: string): AnyMethod | undefined {
  const fn = (client as unknown as Record<string, unknown>)[name];
  return typeof fn === "function" ? (fn as AnyMethod) : undefined;
}

/** rpc.* attributes of a call: the method's path is `/<package>.<Service>/<Method>`. */
export function rpcAttributes(path: string): { "rpc.system": "grpc"; "rpc.service": string; "rpc.method": string } {
  const [service = "", method = ""] = path.replace(/^\//, "").split("/");
  return { "rpc.system": "grpc", "rpc.service": service, "rpc.method": method };
}

const attributesByPath = new Map<string, ReturnType<typeof rpcAttributes>>();

/**
 * A client span for one call and the metadata that carries its context (plus the request id).
 * When spans are not recorded (no exporter: the default) only the context travels: a new span id in
 * the caller's trace, the same ids a non-recording span would get, without building the span.
 */
function clientSpan(fn: AnyMethod, name: string, opts: CallOptions): { md: grpc.Metadata; done: (err: grpc.ServiceError | null) => void } {
  if (!spansRecorded()) {
    const md = callMetadata({ ...opts, traceparent: childTraceparent(opts.traceparent ?? traceparentOfContext()) });
    return { md, done: () => undefined };
  }
  const path = fn.path ?? `/unknown/${name}`;
  let attrs = attributesByPath.get(path);
  if (!attrs) attributesByPath.set(path, (attrs = rpcAttributes(path)));
  const parent = parentContext(opts.traceparent);
  const span = startSpan(`${attrs["rpc.service"]}/${attrs["rpc.method"]}`, { kind: SpanKind.CLIENT, attributes: attrs }, parent);
  const carrier = injectTraceparent({} as Record<string, string>, trace.setSpan(parent, span));
  const md = callMetadata({ ...opts, traceparent: carrier.traceparent ?? opts.traceparent });
  if (carrier.tracestate) md.set("tracestate", carrier.tracestate);
  let ended = false;
  const done = (err: grpc.ServiceError | null) => {
    if (ended) return;
    ended = true;
    span.setAttribute("rpc.grpc.status_code", err ? (err.code ?? grpc.status.UNKNOWN) : grpc.status.OK);
    if (err) recordError(span, err);
    span.end();
  };
  return { md, done };
}

/** A call's grpc-js options: its deadline and, on a signing client, the assertion interceptor. */
function deadline(opts: CallOptions): grpc.CallOptions {
  const o: grpc.CallOptions = { deadline: Date.now() + (opts.deadlineMs ?? 30_000) };
  if (opts.signing) o.interceptors = [assertionInterceptor(opts.signing, opts.principal)];
  return o;
}

/** Promise form of a unary call. Rejects with the grpc.ServiceError. */
export function unaryCall<Res>(client: grpc.Client, name: string, request: unknown, opts: CallOptions = {}): Promise<Res> {
  const fn = method(client, name);
  if (!fn) return Promise.reject(new Error(`no RPC ${name} on client`));
  const { md, done } = clientSpan(fn, name, opts);
  return new Promise<Res>((resolve, reject) => {
    fn.call(client, request, md, deadline(opts), (err: grpc.ServiceError | null, res: Res) => {
      done(err);
      if (err) reject(err);
      else resolve(res);
    });
  });
}

/**
 * A server-streaming call as it arrives: iterate it (`for await`) to pull
 * messages one at a time. grpc-js asks the server for the next message only
 * when the iteration wants one, so a consumer that stops pulling stops the
 * server through HTTP/2 flow control (back-pressure end to end); at most the
 * readable's small object buffer (16 messages) waits here. Ending the
 * iteration early (`break`, a throw) or `cancel()` cancels the call. Errors
 * reject the iteration with the grpc.ServiceError.
 */
export interface ServerStream<Res> extends AsyncIterable<Res> {
  cancel(): void;
}

export function serverStream<Res>(client: grpc.Client, name: string, request: unknown, opts: CallOptions = {}): ServerStream<Res> {
  const fn = method(client, name);
  if (!fn) {
    return {
      cancel: () => undefined,
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error(`no RPC ${name} on client`)) }),
    };
  }
  const { md, done } = clientSpan(fn, name, opts);
  const stream = fn.call(client, request, md, deadline(opts)) as grpc.ClientReadableStream<Res>;
  let finished = false;
  // Until the iteration starts, errors are kept (an unhandled 'error' event would crash the process).
  let early: grpc.ServiceError | undefined;
  const keep = (err: grpc.ServiceError) => (early ??= err);
  stream.on("error", keep);
  const finish = (err: grpc.ServiceError | null) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  stream.once("end", () => finish(null));
  async function* iterate(): AsyncGenerator<Res> {
    stream.off("error", keep);
    if (early) {
      finish(early);
      throw early;
    }
    let completed = false;
    try {
      for await (const m of stream as AsyncIterable<Res>) yield m;
      completed = true;
    } catch (err) {
      finish(err as grpc.ServiceError);
      throw err;
    } finally {
      // The consumer stopped early: the server is told (CANCELLED) instead of streaming into the void.
      if (!completed && !finished) {
        stream.cancel();
        finish(null);
      }
    }
  }
  return {
    cancel: () => stream.cancel(),
    [Symbol.asyncIterator]: () => iterate(),
  };
}

/** A server stream's messages collected into an array (for callers that need the whole answer anyway). */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const m of stream) out.push(m);
  return out;
}

/** Server-streaming call collected into an array of messages. */
export function serverStreamCall<Res>(client: grpc.Client, name: string, request: unknown, opts: CallOptions = {}): Promise<Res[]> {
  const fn = method(client, name);
  if (!fn) return Promise.reject(new Error(`no RPC ${name} on client`));
  const { md, done } = clientSpan(fn, name, opts);
  return new Promise<Res[]>((resolve, reject) => {
    const out: Res[] = [];
    const stream = fn.call(client, request, md, deadline(opts)) as grpc.ClientReadableStream<Res>;
    stream.on("data", (m: Res) => out.push(m));
    stream.on("error", (err: grpc.ServiceError) => {
      done(err);
      reject(err);
    });
    stream.on("end", () => {
      done(null);
      resolve(out);
    });
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
  const { md, done } = clientSpan(fn, name, opts);
  return new Promise<Res>((resolve, reject) => {
    const stream = fn.call(client, md, deadline(opts), (err: grpc.ServiceError | null, res: Res) => {
      done(err);
      if (err) reject(err);
      else resolve(res);
    }) as grpc.ClientWritableStream<Req>;
    (async () => {
      for await (const m of messages) {
        if (!stream.write(m)) await new Promise((r) => stream.once("drain", r));
      }
      stream.end();
    })().catch((err) => {
      stream.cancel();
      done(err as grpc.ServiceError);
      reject(err);
    });
  });
}

/** Resolves when the channel is ready (or rejects after the deadline). */
export function waitForReady(client: grpc.Client, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve())));
}
