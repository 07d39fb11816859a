import { type ClientSecurity, connect, fromTimestamp, IngestionService, protoEnum } from "@engram/grpc";
import type { Connection } from "../../domain/connection";
import type { DocumentSink, ImportedDocument, SinkItem } from "../../app/sync-ports";

const structValue = (v: string | number | boolean) =>
  typeof v === "string" ? { stringValue: v } : typeof v === "number" ? { numberValue: v } : { boolValue: v };

/** The most documents one listing page answers (ingestion's page limit). */
const LIST_LIMIT = 1100;
/** The most documents listed per connection (the largest documentLimit). */
const LIST_MAX = 10_000;
const FRAME = 256 * 1024;

/**
 * Imported items become documents through ingestion's gRPC API, like any
 * other document: uploaded as files (the pipeline extracts them), tagged
 * with the connection, the provider and the item's URL.
 */
export class IngestionDocumentSink implements DocumentSink {
  private readonly client;
  constructor(address: string, security?: ClientSecurity) {
    this.client = connect(IngestionService, address, { deadlineMs: 120_000, security });
  }

  async put(conn: Connection, item: SinkItem): Promise<string> {
    const header = {
      context: { tenantId: conn.tenantId },
      namespace: conn.namespace,
      containerTags: conn.containerTags,
      fileName: item.content.fileName,
      mimeType: item.content.mimeType,
      customId: item.customId,
      connectionId: conn.id,
      ...(item.filepath ? { filepath: item.filepath } : {}),
      ...(item.title ? { title: item.title.slice(0, 1000) } : {}),
      sizeBytes: item.content.bytes.length,
      metadata: {
        fields: {
          ...Object.fromEntries(Object.entries(item.metadata ?? {}).map(([k, v]) => [k, structValue(v)])),
          source: { stringValue: conn.provider },
          ...(item.url ? { url: { stringValue: item.url } } : {}),
        },
      },
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

  /** Page by page (ingestion's page limit), newest first, at most LIST_MAX (the largest documentLimit). */
  async list(tenantId: string, connectionId: string): Promise<ImportedDocument[]> {
    const out: ImportedDocument[] = [];
    for (let page = 1; out.length < LIST_MAX; page++) {
      const res = await this.client.ListDocuments({
        context: { tenantId },
        connectionId,
        page: { page, limit: LIST_LIMIT, sort: "createdAt", order: "SORT_ORDER_DESC" },
      });
      for (const d of res.documents)
        out.push({
          id: d.id,
          status: protoEnum.status.from(d.status),
          ...(d.title ? { title: d.title } : {}),
          ...(d.summary ? { summary: d.summary } : {}),
          ...(d.contentType ? { contentType: d.contentType } : {}),
          createdAt: (fromTimestamp(d.createdAt) ?? new Date(0)).toISOString(),
          updatedAt: (fromTimestamp(d.updatedAt) ?? new Date(0)).toISOString(),
        });
      if (res.documents.length < LIST_LIMIT) break;
    }
    return out.slice(0, LIST_MAX);
  }

  close(): void {
    this.client.close();
  }
}
