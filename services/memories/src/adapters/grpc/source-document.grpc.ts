import * as grpc from "@grpc/grpc-js";
import { connect, fromStruct, fromTimestamp, IngestionService, isServiceError, RecallService } from "@engram/grpc";
import type { SourceDocument, SourceDocumentReader } from "../../app/ports";

const DEADLINE_MS = 30_000;

/**
 * A source document through its owners' gRPC APIs: the record (context,
 * date, metadata) from ingestion, the extracted text as chunks from recall's
 * read side. NOT_FOUND from either means the document is gone.
 */
export class GrpcSourceDocumentReader implements SourceDocumentReader {
  private readonly ingestion;
  private readonly recall;

  constructor(addresses: { ingestion: string; recall: string }) {
    this.ingestion = connect(IngestionService, addresses.ingestion, { deadlineMs: DEADLINE_MS });
    this.recall = connect(RecallService, addresses.recall, { deadlineMs: DEADLINE_MS });
  }

  async read(tenantId: string, namespace: string, documentId: string, traceparent?: string): Promise<SourceDocument | undefined> {
    const opts = { traceparent };
    try {
      const [{ document: d }, chunks] = await Promise.all([
        this.ingestion.GetDocument({ context: { tenantId }, namespace, id: documentId }, opts),
        this.recall.ListChunks({ context: { tenantId }, namespace, documentId }, opts),
      ]);
      if (!d) return undefined;
      return {
        id: d.id,
        namespace: d.namespace,
        chunks: chunks.chunks.flatMap((c) => (c.chunk ? [{ position: c.chunk.position, content: c.chunk.content }] : [])),
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
    this.recall.close();
  }
}
