import type * as grpc from "@grpc/grpc-js";
import { createClient, serverStreamCall, unaryCall } from "@engram/grpc";
import type { GatewayConfig } from "../config";

export interface RequestMeta {
  requestId?: string;
  traceparent?: string;
}

/** A gRPC service the gateway calls, with the gateway's deadline. */
export class Backend {
  readonly client: grpc.Client;
  constructor(
    fullName: string,
    address: string,
    private readonly deadlineMs: number,
  ) {
    this.client = createClient(fullName, address);
  }

  /** `from` is the HTTP request: its request id and trace context travel in gRPC metadata. */
  call<Res>(method: string, request: unknown, from?: RequestMeta): Promise<Res> {
    return unaryCall<Res>(this.client, method, request, { deadlineMs: this.deadlineMs, requestId: from?.requestId, traceparent: from?.traceparent });
  }

  stream<Res>(method: string, request: unknown, from?: RequestMeta): Promise<Res[]> {
    return serverStreamCall<Res>(this.client, method, request, { deadlineMs: this.deadlineMs, requestId: from?.requestId, traceparent: from?.traceparent });
  }

  close(): void {
    this.client.close();
  }
}

export function createBackends(c: GatewayConfig) {
  const d = c.GATEWAY_RPC_DEADLINE_MS;
  const b = {
    ingestion: new Backend("engram.ingestion.v1.IngestionService", c.INGESTION_ADDRESS, d),
    containerTags: new Backend("engram.ingestion.v1.ContainerTagService", c.INGESTION_ADDRESS, d),
    conversations: new Backend("engram.ingestion.v1.ConversationService", c.INGESTION_ADDRESS, d),
    memories: new Backend("engram.memories.v1.MemoriesService", c.MEMORIES_ADDRESS, d),
    recall: new Backend("engram.recall.v1.RecallService", c.RECALL_ADDRESS, d),
    connections: new Backend("engram.connections.v1.ConnectionsService", c.CONNECTIONS_ADDRESS, d),
    settings: new Backend("engram.connections.v1.SettingsService", c.CONNECTIONS_ADDRESS, d),
  };
  return { ...b, close: () => Object.values(b).forEach((x) => x.close()) };
}

export type Backends = ReturnType<typeof createBackends>;
