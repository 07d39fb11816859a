import { ConnectionsService, fromStruct, implement, protoEnum, type ServiceImplementation, tenantOf, toStruct, toTimestamp } from "@engram/grpc";
import type { Connection as ConnectionMessage } from "@engram/grpc/src/gen/engram/connections/v1/Connection";
import type { SyncRun as SyncRunMessage } from "@engram/grpc/src/gen/engram/connections/v1/SyncRun";
import type { ConnectionsUseCases, ConnectionWithRun } from "../app/connections.usecase";
import type { ProviderEndpoints } from "../app/provider-endpoints.usecase";
import type { SyncRun } from "../domain/connection";

/** A run as the API reports it; a partial run's item failures are summed up in its error text. */
function runToProto(r: SyncRun): SyncRunMessage {
  const failures = r.itemFailures.count ? `${r.itemFailures.count} item(s) failed, e.g. ${r.itemFailures.samples[0]?.reason ?? ""}` : undefined;
  const error = r.error ?? failures;
  return {
    id: r.id,
    status: protoEnum.syncRunStatus.to(r.status),
    trigger: protoEnum.syncTrigger.to(r.trigger),
    errorCode: protoEnum.syncErrorCode.to(r.errorCode),
    ...(error !== undefined ? { error } : {}),
    startedAt: toTimestamp(r.startedAt),
    completedAt: toTimestamp(r.completedAt),
    documentsImported: r.documentsImported,
  };
}

function connectionToProto({ connection: c, lastRun }: ConnectionWithRun): ConnectionMessage {
  return {
    id: c.id,
    provider: protoEnum.provider.to(c.provider),
    email: c.email ?? "",
    ...(c.documentLimit !== undefined ? { documentLimit: c.documentLimit } : {}),
    createdAt: toTimestamp(c.createdAt),
    expiresAt: toTimestamp(c.expiresAt),
    namespace: c.namespace,
    containerTags: c.containerTags,
    metadata: toStruct(c.metadata),
    status: protoEnum.connectionStatus.to(c.status),
    lastSyncRun: lastRun ? runToProto(lastRun) : null,
    updatedAt: toTimestamp(c.updatedAt),
  };
}

const providerName = (p: string | number | undefined) => protoEnum.provider.from(typeof p === "string" ? p : undefined) ?? "";

/** engram.connections.v1.ConnectionsService: proto <-> use case mapping only. */
export function connectionsGrpc(uc: ConnectionsUseCases, provider: ProviderEndpoints): ServiceImplementation {
  return implement(ConnectionsService, {
    async ListConnectionResources(req) {
      const out = await provider.resources(tenantOf(req.context), req.connectionId, req.page || 1, req.perPage || 30);
      return { resources: out.resources.map((r) => toStruct(r)!), ...(out.totalCount !== undefined ? { totalCount: out.totalCount } : {}) };
    },

    async ConfigureConnection(req) {
      const resources = req.resources.map((r) => fromStruct(r) ?? {});
      return provider.configure(tenantOf(req.context), req.connectionId, resources);
    },

    async HandleOAuthCallback(req) {
      const out = await provider.callback(providerName(req.provider), {
        code: req.code,
        state: req.state,
        error: req.error || undefined,
        errorDescription: req.errorDescription || undefined,
      });
      return { redirectUrl: out.redirectUrl ?? "", connectionId: out.connectionId, success: out.success, error: out.error ?? "" };
    },

    async HandleProviderWebhook(req) {
      const out = await provider.webhook(providerName(req.provider), {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v])),
        query: req.query,
        body: Buffer.from(req.body),
      });
      return {
        httpStatus: out.httpStatus,
        responseBody: Buffer.from(out.body),
        responseContentType: out.contentType ?? "text/plain",
        syncsTriggered: out.syncsTriggered,
      };
    },

    async CreateConnection(req) {
      const out = await uc.create({
        tenantId: tenantOf(req.context),
        provider: providerName(req.provider),
        namespace: req.namespace || undefined,
        containerTags: req.containerTags,
        documentLimit: req.documentLimit ?? undefined,
        metadata: fromStruct(req.metadata),
        redirectUrl: req.redirectUrl || undefined,
      });
      return {
        id: out.connection.id,
        authLink: out.authLink,
        expiresIn: out.expiresIn,
        redirectsTo: out.redirectsTo ?? "",
        status: protoEnum.connectionStatus.to(out.connection.status),
      };
    },

    async ListConnections(req) {
      return { connections: (await uc.list(tenantOf(req.context), req.containerTags)).map(connectionToProto) };
    },

    async GetConnection(req) {
      return { connection: connectionToProto(await uc.get(tenantOf(req.context), req.connectionId)) };
    },

    async ListSyncRuns(req) {
      return { runs: (await uc.runs(tenantOf(req.context), req.connectionId, req.limit)).map(runToProto) };
    },

    async GetConnectionByTags(req) {
      return { connection: connectionToProto(await uc.getByTags(tenantOf(req.context), providerName(req.provider), req.containerTags)) };
    },

    async DeleteConnection(req) {
      const out = await uc.delete(tenantOf(req.context), req.connectionId, req.deleteDocuments ?? true);
      return { id: out.connection.id, provider: protoEnum.provider.to(out.connection.provider), deletedDocuments: out.deletedDocuments };
    },

    async DeleteConnectionByProvider(req) {
      const out = await uc.deleteByProvider(tenantOf(req.context), providerName(req.provider), req.containerTags, req.deleteDocuments ?? true);
      return { id: out.connection.id, provider: protoEnum.provider.to(out.connection.provider), deletedDocuments: out.deletedDocuments };
    },

    async ImportConnections(req) {
      const ids = await uc.import(tenantOf(req.context), providerName(req.provider), req.containerTags);
      return { message: "Importing connections...", connectionIds: ids };
    },

    async ListConnectionDocuments(req) {
      const docs = await uc.listDocuments(tenantOf(req.context), providerName(req.provider), req.containerTags);
      return {
        documents: docs.map((d) => ({
          id: d.id,
          status: protoEnum.status.to(d.status),
          title: d.title ?? "",
          summary: d.summary ?? "",
          contentType: d.contentType ?? "",
          createdAt: toTimestamp(d.createdAt),
          updatedAt: toTimestamp(d.updatedAt),
        })),
      };
    },
  });
}
