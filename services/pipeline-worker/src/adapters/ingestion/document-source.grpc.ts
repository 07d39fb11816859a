import * as grpc from "@grpc/grpc-js";
import { createClient, fromStruct, fromTimestamp, isServiceError, serverStreamCall } from "@engram/grpc";
import type { GetDocumentSourceResponse__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentSourceResponse";
import type { DocumentSource, DocumentSourceReader } from "../../app/ports";

const KIND: Record<string, DocumentSource["kind"]> = {
  SOURCE_KIND_TEXT: "text",
  SOURCE_KIND_URL: "url",
  SOURCE_KIND_FILE: "file",
  SOURCE_KIND_CONNECTOR: "connector",
  SOURCE_KIND_CONVERSATION: "conversation",
};

/** Reads sources from ingestion's GetDocumentSource stream. */
export class GrpcDocumentSourceReader implements DocumentSourceReader {
  private readonly client: grpc.Client;
  constructor(address: string) {
    this.client = createClient("engram.ingestion.v1.IngestionService", address);
  }

  async read(tenantId: string, namespace: string, documentId: string, generation: number, traceparent?: string): Promise<DocumentSource | undefined> {
    let parts: GetDocumentSourceResponse__Output[];
    try {
      parts = await serverStreamCall<GetDocumentSourceResponse__Output>(
        this.client,
        "GetDocumentSource",
        { context: { tenantId }, namespace, id: documentId, generation },
        { deadlineMs: 60_000, traceparent },
      );
    } catch (err) {
      if (isServiceError(err) && err.code === grpc.status.NOT_FOUND) return undefined;
      throw err;
    }
    const info = parts.find((p) => p.info)?.info;
    if (!info?.document) throw new Error(`ingestion returned no source for ${documentId}`);
    const d = info.document;
    return {
      tenantId,
      namespace: d.namespace,
      documentId: d.id,
      generation: d.generation,
      current: info.current,
      kind: KIND[info.sourceKind] ?? "text",
      text: info.text,
      url: info.url || undefined,
      bytes: info.sourceKind === "SOURCE_KIND_FILE" ? Buffer.concat(parts.flatMap((p) => (p.data ? [p.data] : []))) : undefined,
      fileName: info.fileName || undefined,
      mimeType: info.mimeType || undefined,
      fileType: info.fileType || undefined,
      customId: d.customId || undefined,
      metadata: fromStruct(d.metadata),
      title: d.title || undefined,
      createdAt: (fromTimestamp(d.createdAt) ?? new Date()).toISOString(),
      updatedAt: (fromTimestamp(d.updatedAt) ?? new Date()).toISOString(),
    };
  }

  close(): void {
    this.client.close();
  }
}
