import {
  type ClientSecurity,
  connect,
  ConnectionsService,
  ContainerTagService,
  ConversationService,
  IngestionService,
  MemoriesService,
  RecallService,
  SettingsService,
} from "@engram/grpc";
import type { GatewayConfig } from "../config";

/**
 * What a route passes as the call options of an RPC: the HTTP request, whose
 * request id and trace context travel in the gRPC metadata, and whose API key
 * (principal: tenant, scopes, container tags) the call's signed assertion carries.
 */
export interface RequestMeta {
  requestId?: string;
  traceparent?: string;
}

/**
 * The typed clients of the services the gateway calls (each RPC a method), with the gateway's deadline; with
 * `security`, every call carries an assertion the gateway signs (docs/api-decisions.md §19).
 */
export function createBackends(
  c: Pick<GatewayConfig, "INGESTION_ADDRESS" | "MEMORIES_ADDRESS" | "RECALL_ADDRESS" | "CONNECTIONS_ADDRESS" | "GATEWAY_RPC_DEADLINE_MS">,
  security?: ClientSecurity,
) {
  const d = { deadlineMs: c.GATEWAY_RPC_DEADLINE_MS, security };
  const b = {
    ingestion: connect(IngestionService, c.INGESTION_ADDRESS, d),
    containerTags: connect(ContainerTagService, c.INGESTION_ADDRESS, d),
    conversations: connect(ConversationService, c.INGESTION_ADDRESS, d),
    memories: connect(MemoriesService, c.MEMORIES_ADDRESS, d),
    recall: connect(RecallService, c.RECALL_ADDRESS, d),
    connections: connect(ConnectionsService, c.CONNECTIONS_ADDRESS, d),
    settings: connect(SettingsService, c.CONNECTIONS_ADDRESS, d),
  };
  return { ...b, close: () => Object.values(b).forEach((x) => x.close()) };
}

export type Backends = ReturnType<typeof createBackends>;

/** Every backend at one address (tests and tools that serve them all from one place); a client dials only when called. */
export function backendsAt(address: string, deadlineMs = 5000): Backends {
  const a = address;
  return createBackends({ INGESTION_ADDRESS: a, MEMORIES_ADDRESS: a, RECALL_ADDRESS: a, CONNECTIONS_ADDRESS: a, GATEWAY_RPC_DEADLINE_MS: deadlineMs });
}
