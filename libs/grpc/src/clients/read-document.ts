import type { Document__Output } from "../gen/engram/ingestion/v1/Document";
import type { CallOptions } from "../client";
import type { IngestionService, RequestOf, ServiceClient } from "../services";

/**
 * A whole document, read through IngestionService.ReadDocument: the record,
 * then its content in parts, joined here. Whatever the content's size, no
 * single message comes near the gRPC limit (issue #33).
 */
export async function readDocument(
  client: Pick<ServiceClient<typeof IngestionService>, "ReadDocument">,
  request: RequestOf<typeof IngestionService, "ReadDocument">,
  opts?: CallOptions,
): Promise<Document__Output> {
  let document: Document__Output | undefined;
  const parts: Buffer[] = [];
  for await (const m of client.ReadDocument(request, opts)) {
    if (m.document) document = m.document;
    else if (m.content) parts.push(m.content);
  }
  if (!document) throw new Error("ReadDocument answered without the document");
  return { ...document, content: parts.length ? Buffer.concat(parts).toString("utf8") : "" };
}
