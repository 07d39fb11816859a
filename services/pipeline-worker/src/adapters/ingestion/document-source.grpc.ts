import * as grpc from "@grpc/grpc-js";
import {
  type ClientSecurity,
  collect,
  connect,
  fromStruct,
  fromTimestamp,
  IngestionService,
  isServiceError,
  protoEnum,
  type ReceivedResponseOf,
} from "@engram/grpc";
import type { DocumentFilepathReader, DocumentSource, DocumentSourceReader } from "../../app/ports";

/** Reads sources from ingestion's GetDocumentSource stream (and a document's filepath by GetDocument, without content). */
export class GrpcDocumentSourceReader implements DocumentSourceReader, DocumentFilepathReader {
  private readonly client;
  constructor(address: string, security?: ClientSecurity) {
    this.client = connect(IngestionService, address, { deadlineMs: 60_000, security });
  }

  async read(tenantId: string, namespace: string, documentId: string, generation: number, traceparent?: string): Promise<DocumentSource | undefined> {
    let parts: ReceivedResponseOf<typeof IngestionService, "GetDocumentSource">[];
    try {
      // The worker needs the whole source (extraction reads it at once): collected.
      parts = await collect(this.client.GetDocumentSource({ context: { tenantId }, namespace, id: documentId, generation }, { traceparent }));
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
      kind: protoEnum.sourceKind.from(info.sourceKind) ?? "text",
      // A large text comes in data parts (UTF-8), joined before decoding so no character is cut.
      text: info.textInData ? Buffer.concat(parts.flatMap((p) => (p.data ? [p.data] : []))).toString("utf8") : info.text,
      url: info.url || undefined,
      bytes: info.sourceKind === "SOURCE_KIND_FILE" ? Buffer.concat(parts.flatMap((p) => (p.data ? [p.data] : []))) : undefined,
      fileName: info.fileName || undefined,
      mimeType: info.mimeType || undefined,
      fileType: info.fileType || undefined,
      customId: d.customId || undefined,
      metadata: fromStruct(d.metadata),
      filepath: d.filepath || undefined,
      title: d.title || undefined,
      createdAt: (fromTimestamp(d.createdAt) ?? new Date()).toISOString(),
      updatedAt: (fromTimestamp(d.updatedAt) ?? new Date()).toISOString(),
    };
  }

  async filepath(tenantId: string, documentId: string): Promise<{ found: boolean; filepath?: string }> {
    try {
      // Namespace "": by id within the tenant (the chunks' namespace may be behind a move).
      const { document } = await this.client.GetDocument({ context: { tenantId }, namespace: "", id: documentId, omitContent: true });
      if (!document) return { found: false };
      return document.filepath ? { found: true, filepath: document.filepath } : { found: true };
    } catch (err) {
      if (isServiceError(err) && err.code === grpc.status.NOT_FOUND) return { found: false };
      throw err;
    }
  }

  close(): void {
    this.client.close();
  }
}
