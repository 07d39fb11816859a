import * as grpc from "@grpc/grpc-js";
import { type ClientSecurity, connect, fromStruct, fromTimestamp, IngestionService, isServiceError, readDocument } from "@engram/grpc";
import type { DocumentInfo, DocumentLookup } from "../../app/ports";

/** Documents from ingestion (the record by GetDocument, with the content by ReadDocument, streamed); NOT_FOUND and a wrong id kind mean "no such document". */
export class GrpcDocumentLookup implements DocumentLookup {
  private readonly client;
  constructor(address: string, security?: ClientSecurity) {
    this.client = connect(IngestionService, address, { deadlineMs: 30_000, security });
  }

  async get(tenantId: string, namespace: string, id: string, opts: { content?: boolean } = {}): Promise<DocumentInfo | undefined> {
    try {
      const request = { context: { tenantId }, namespace, id };
      const d = opts.content ? await readDocument(this.client, request) : (await this.client.GetDocument({ ...request, omitContent: true })).document;
      if (!d) return undefined;
      return {
        id: d.id,
        customId: d.customId || undefined,
        namespace: d.namespace,
        title: d.title || undefined,
        contentType: d.contentType || undefined,
        metadata: fromStruct(d.metadata),
        summary: d.summary || undefined,
        filepath: d.filepath || undefined,
        content: opts.content && d.sourceKind === "SOURCE_KIND_TEXT" ? d.content : undefined,
        createdAt: (fromTimestamp(d.createdAt) ?? new Date(0)).toISOString(),
        updatedAt: (fromTimestamp(d.updatedAt) ?? new Date(0)).toISOString(),
      };
    } catch (err) {
      if (isServiceError(err) && err.code === grpc.status.NOT_FOUND) return undefined;
      throw err;
    }
  }

  close(): void {
    this.client.close();
  }
}
