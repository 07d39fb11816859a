import * as grpc from "@grpc/grpc-js";
import { type ClientSecurity, connect, fromStruct, fromTimestamp, IngestionService, isServiceError } from "@engram/grpc";
import type { DocumentChunks, SourceDocument, SourceDocumentReader } from "../../app/ports";

const DEADLINE_MS = 30_000;

/**
 * A source document: the record (context, date, metadata) from ingestion's
 * gRPC API, the extracted text as chunks from the chunk index (the store the
 * pipeline-worker writes). NOT_FOUND from ingestion means the document is gone.
 */
export class GrpcSourceDocumentReader implements SourceDocumentReader {
  private readonly ingestion;

  constructor(
    address: { ingestion: string; security?: ClientSecurity },
    private readonly chunks: DocumentChunks,
  ) {
    this.ingestion = connect(IngestionService, address.ingestion, { deadlineMs: DEADLINE_MS, security: address.security });
  }

  async read(tenantId: string, namespace: string, documentId: string, traceparent?: string): Promise<SourceDocument | undefined> {
    const opts = { traceparent };
    try {
      const [{ document: d }, chunks] = await Promise.all([
        // The text comes from the chunks: the record only, whatever the content's size.
        this.ingestion.GetDocument({ context: { tenantId }, namespace, id: documentId, omitContent: true }, opts),
        this.chunks.listDocumentChunks(tenantId, namespace, documentId),
      ]);
      if (!d) return undefined;
      return {
        id: d.id,
        namespace: d.namespace,
        chunks: chunks.map((c) => ({ position: c.position, content: c.content })),
        supportingContext: d.supportingContext || undefined,
        title: d.title || undefined,
        date: d.date || undefined,
        metadata: fromStruct(d.metadata),
        filepath: d.filepath || undefined,
        createdAt: (fromTimestamp(d.createdAt) ?? new Date()).toISOString(),
        generation: d.generation,
      };
    } catch (err) {
      if (isServiceError(err) && err.code === grpc.status.NOT_FOUND) return undefined;
      throw err;
    }
  }

  close(): void {
    this.ingestion.close();
  }
}
