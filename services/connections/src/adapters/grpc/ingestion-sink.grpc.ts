import { connect, fromTimestamp, IngestionService, protoEnum } from "@engram/grpc";
import type { Connection } from "../../domain/connection";
import type { DocumentSink, ImportedDocument } from "../../app/sync-ports";

/** The most documents one listing answers (ingestion's page limit). */
const LIST_LIMIT = 1100;
const FRAME = 256 * 1024;

/**
 * Imported items become documents through ingestion's gRPC API, like any
 * other document: uploaded as files (the pipeline extracts them), tagged
 * with the connection, the provider and the item's URL.
 */
export class IngestionDocumentSink implements DocumentSink {
  private readonly client;
  constructor(address: string) {
    this.client = connect(IngestionService, address, { deadlineMs: 120_000 });
  }

  async put(
    conn: Connection,
    item: { customId: string; title?: string; url?: string; filepath?: string; content: { bytes: Uint8Array; mimeType: string; fileName: string } },
  ): Promise<string> {
    const header = {
      context: { tenantId: conn.tenantId },
      namespace: conn.namespace,
      containerTags: conn.containerTags,
      fileName: item.content.fileName,
      mimeType: item.content.mimeType,
      customId: item.customId,
      connectionId: conn.id,
      ...(item.filepath ? { filepath: item.filepath } : {}),
      sizeBytes: item.content.bytes.length,
      metadata: { fields: { source: { stringValue: conn.provider }, ...(item.url ? { url: { stringValue: item.url } } : {}) } },
    };
    const bytes = item.content.bytes;
    function* messages() {
      yield { header };
      for (let i = 0; i < bytes.length; i += FRAME) yield { data: Buffer.from(bytes.subarray(i, i + FRAME)) };
    }
    const out = await this.client.UploadDocumentFile(messages());
    return out.id;
  }

  async remove(conn: Connection, documentIds: string[]): Promise<void> {
    for (let i = 0; i < documentIds.length; i += 100)
      await this.client.DeleteDocuments({ context: { tenantId: conn.tenantId }, namespace: conn.namespace, ids: documentIds.slice(i, i + 100) });
  }

  async removeAll(tenantId: string, connectionId: string): Promise<number> {
    return (await this.client.DeleteDocuments({ context: { tenantId }, connectionId })).count;
  }

  async list(tenantId: string, connectionId: string): Promise<ImportedDocument[]> {
    const out = await this.client.ListDocuments({
      context: { tenantId },
      connectionId,
      page: { page: 1, limit: LIST_LIMIT, sort: "createdAt", order: "SORT_ORDER_DESC" },
    });
    return out.documents.map((d) => ({
      id: d.id,
      status: protoEnum.status.from(d.status),
      ...(d.title ? { title: d.title } : {}),
      ...(d.summary ? { summary: d.summary } : {}),
      ...(d.contentType ? { contentType: d.contentType } : {}),
      createdAt: (fromTimestamp(d.createdAt) ?? new Date(0)).toISOString(),
      updatedAt: (fromTimestamp(d.updatedAt) ?? new Date(0)).toISOString(),
    }));
  }

  close(): void {
    this.client.close();
  }
}
