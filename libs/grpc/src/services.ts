/* eslint-disable @typescript-eslint/no-explicit-any -- `any` in the positions an `infer` does not read: MethodDefinition is invariant in them. */
import type * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import type { ConnectionsServiceDefinition, ConnectionsServiceHandlers } from "./gen/engram/connections/v1/ConnectionsService";
import type { SettingsServiceDefinition, SettingsServiceHandlers } from "./gen/engram/connections/v1/SettingsService";
import type { ContainerTagServiceDefinition, ContainerTagServiceHandlers } from "./gen/engram/ingestion/v1/ContainerTagService";
import type { ConversationServiceDefinition, ConversationServiceHandlers } from "./gen/engram/ingestion/v1/ConversationService";
import type { IngestionServiceDefinition, IngestionServiceHandlers } from "./gen/engram/ingestion/v1/IngestionService";
import type { MemoriesServiceDefinition, MemoriesServiceHandlers } from "./gen/engram/memories/v1/MemoriesService";
import type { RecallServiceDefinition, RecallServiceHandlers } from "./gen/engram/recall/v1/RecallService";
import { type CallOptions, clientStreamCall, createClient, type ServerStream, serverStream, unaryCall } from "./client";
import { serviceDefinition } from "./protos";
import { type AssertionSigner, audienceOf } from "./trust";

/** How a client reaches its peers: the assertion signer of the calling service, and TLS credentials when configured. */
export interface ClientSecurity {
  signer: AssertionSigner;
  credentials?: grpc.ChannelCredentials;
}

/**
 * The typed gRPC boundary. One descriptor per service of the protos carries the
 * generated types (`*ServiceDefinition` for messages, `*ServiceHandlers` for the
 * call kind); `connect` gives a client whose methods are the RPCs and
 * `implement` checks a server's handlers against the same types. A renamed RPC
 * or a changed message fails the typecheck, and "go to definition" on
 * `client.ListMemories` lands in the generated service type.
 */
export interface ServiceDescriptor<D = unknown, H = unknown> {
  /** Full proto name, e.g. `engram.memories.v1.MemoriesService`. */
  readonly fullName: string;
  /** Type carrier only (never set at run time). */
  readonly types?: { definition: D; handlers: H };
}

const service = <D, H>(fullName: string): ServiceDescriptor<D, H> => Object.freeze({ fullName });

export const IngestionService = service<IngestionServiceDefinition, IngestionServiceHandlers>("engram.ingestion.v1.IngestionService");
export const ContainerTagService = service<ContainerTagServiceDefinition, ContainerTagServiceHandlers>("engram.ingestion.v1.ContainerTagService");
export const ConversationService = service<ConversationServiceDefinition, ConversationServiceHandlers>("engram.ingestion.v1.ConversationService");
export const MemoriesService = service<MemoriesServiceDefinition, MemoriesServiceHandlers>("engram.memories.v1.MemoriesService");
export const RecallService = service<RecallServiceDefinition, RecallServiceHandlers>("engram.recall.v1.RecallService");
export const ConnectionsService = service<ConnectionsServiceDefinition, ConnectionsServiceHandlers>("engram.connections.v1.ConnectionsService");
export const SettingsService = service<SettingsServiceDefinition, SettingsServiceHandlers>("engram.connections.v1.SettingsService");

/** Every service of the protos (a test checks this list against the loaded protos). */
export const SERVICES = [IngestionService, ContainerTagService, ConversationService, MemoriesService, RecallService, ConnectionsService, SettingsService];

// ---- types derived from the generated ones -----------------------------------------------------------------

type DefinitionOf<S> = S extends ServiceDescriptor<infer D, unknown> ? D : never;
type HandlersOf<S> = S extends ServiceDescriptor<unknown, infer H> ? H : never;
/** The RPC names of a service (the generated interfaces also carry an index signature; it is dropped). */
export type RpcName<S> = keyof { [K in keyof DefinitionOf<S> as string extends K ? never : number extends K ? never : K]: true } & string;
type Method<S, K extends RpcName<S>> = DefinitionOf<S>[K];

/** What a client sends (input shape: optional fields, enums by name or number). */
export type RequestOf<S, K extends RpcName<S>> = Method<S, K> extends MethodDefinition<infer Req, any, any, any> ? Req : never;
/** What a server receives (output shape: defaults filled, enums by name). */
export type ReceivedRequestOf<S, K extends RpcName<S>> = Method<S, K> extends MethodDefinition<any, any, infer Req, any> ? Req : never;
/** What a server answers with (input shape). */
export type ResponseOf<S, K extends RpcName<S>> = Method<S, K> extends MethodDefinition<any, infer Res, any, any> ? Res : never;
/** What a client receives (output shape). */
export type ReceivedResponseOf<S, K extends RpcName<S>> = Method<S, K> extends MethodDefinition<any, any, any, infer Res> ? Res : never;

type CallOf<H> = H extends (call: infer C, ...rest: never[]) => void ? C : never;
/** The call kind, read off the generated handler type (bidirectional streams are not used). */
export type RpcKind<S, K extends RpcName<S>> =
  CallOf<HandlersOf<S>[K & keyof HandlersOf<S>]> extends grpc.ServerWritableStream<unknown, unknown>
    ? "serverStream"
    : CallOf<HandlersOf<S>[K & keyof HandlersOf<S>]> extends grpc.ServerReadableStream<unknown, unknown>
      ? "clientStream"
      : "unary";

// ---- clients -------------------------------------------------------------------------------------------------

type ClientMethod<S, K extends RpcName<S>> =
  RpcKind<S, K> extends "serverStream"
    ? (request: RequestOf<S, K>, opts?: CallOptions) => ServerStream<ReceivedResponseOf<S, K>>
    : RpcKind<S, K> extends "clientStream"
      ? (messages: AsyncIterable<RequestOf<S, K>> | Iterable<RequestOf<S, K>>, opts?: CallOptions) => Promise<ReceivedResponseOf<S, K>>
      : (request: RequestOf<S, K>, opts?: CallOptions) => Promise<ReceivedResponseOf<S, K>>;

/** A client: one promise-returning method per RPC (server streams as `ServerStream`s, pulled as they arrive), plus close(). */
export type ServiceClient<S> = { readonly [K in RpcName<S>]: ClientMethod<S, K> } & { close(): void };

/**
 * A client of `service` at `address`. `defaults.deadlineMs` applies to every call that names no deadline;
 * `defaults.security` signs every call as the calling service (and dials over TLS when it has credentials);
 * each call's request id, traceparent and principal come from its own options (the gateway passes the HTTP request).
 */
export function connect<S extends ServiceDescriptor<unknown, unknown>>(
  svc: S,
  address: string,
  defaults: Pick<CallOptions, "deadlineMs"> & { security?: ClientSecurity } = {},
): ServiceClient<S> {
  const client = createClient(svc.fullName, address, defaults.security?.credentials);
  const signing = defaults.security ? { signer: defaults.security.signer, audience: audienceOf(svc.fullName) } : undefined;
  const options = (o?: CallOptions): CallOptions => ({
    deadlineMs: o?.deadlineMs ?? defaults.deadlineMs,
    requestId: o?.requestId,
    traceparent: o?.traceparent,
    principal: o?.principal,
    signing,
  });
  const methods: Record<string, unknown> = { close: () => client.close() };
  for (const [name, md] of Object.entries(serviceDefinition(svc.fullName))) {
    methods[name] = md.requestStream
      ? (messages: Iterable<unknown>, o?: CallOptions) => clientStreamCall(client, name, messages, options(o))
      : md.responseStream
        ? (request: unknown, o?: CallOptions) => serverStream(client, name, request, options(o))
        : (request: unknown, o?: CallOptions) => unaryCall(client, name, request, options(o));
  }
  return Object.freeze(methods) as ServiceClient<S>;
}

// ---- servers -------------------------------------------------------------------------------------------------

type HandlerOf<S, K extends RpcName<S>> =
  RpcKind<S, K> extends "serverStream"
    ? (request: ReceivedRequestOf<S, K>, call: grpc.ServerWritableStream<ReceivedRequestOf<S, K>, ResponseOf<S, K>>) => Promise<void>
    : RpcKind<S, K> extends "clientStream"
      ? (call: grpc.ServerReadableStream<ReceivedRequestOf<S, K>, ResponseOf<S, K>>) => Promise<ResponseOf<S, K>>
      : (request: ReceivedRequestOf<S, K>, call: grpc.ServerUnaryCall<ReceivedRequestOf<S, K>, ResponseOf<S, K>>) => Promise<ResponseOf<S, K>>;

/** A server's async handlers by RPC name; an RPC left out answers UNIMPLEMENTED naming the operation. */
export type ServiceHandlers<S> = { [K in RpcName<S>]?: HandlerOf<S, K> };

/** A service with its handlers, ready for GrpcServer.add (the types are checked by `implement`). */
export interface ServiceImplementation {
  readonly service: ServiceDescriptor;
  readonly handlers: Readonly<Record<string, ((...args: never[]) => Promise<unknown>) | undefined>>;
}

export function implement<S extends ServiceDescriptor<unknown, unknown>>(svc: S, handlers: ServiceHandlers<S>): ServiceImplementation {
  return { service: svc, handlers: handlers as ServiceImplementation["handlers"] };
}
