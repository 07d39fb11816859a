import type { Request } from "express";
import { protoEnum, readDocument, toStruct } from "@engram/grpc";
import type { Dreaming, JsonObject, TaskType } from "@engram/kernel";
import { ZodError } from "zod";
import type { ChunkEntry__Output } from "@engram/grpc/src/gen/engram/recall/v1/ChunkEntry";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";

/**
 * The ingestion calls both document API generations (v5 /ns/{namespace}/...,
 * legacy v3 /v3/documents...) make; they differ only in field names, which
 * their route files map.
 */
export interface BatchOutcome {
  index: number;
  ok: boolean;
  id?: string;
  customId?: string;
  url?: string;
  status?: string;
  error?: string;
}

function issueText(err: unknown): string {
  if (err instanceof ZodError) return err.issues.map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`).join("; ");
  return err instanceof Error ? err.message : String(err);
}

const urlOf = (content: unknown) => (typeof content === "string" && /^https?:\/\//i.test(content.trim()) ? content.trim() : undefined);
export const sortOrder = (o: string | undefined) => (o === "asc" ? "SORT_ORDER_ASC" : "SORT_ORDER_DESC");

export function documentCalls(b: Backends) {
  const ctx = (req: Request) => callContext(req);
  /** The one AddDocument call both API generations make; they differ only in field names. */
  const add = (
    req: Request,
    a: {
      namespace: string;
      document: Record<string, unknown>;
      taskType?: TaskType;
      dreaming?: Dreaming;
      containerTags?: string[];
      metadata?: JsonObject;
      group?: JsonObject;
    },
  ) =>
    b.ingestion.AddDocument(
      {
        context: ctx(req),
        namespace: a.namespace,
        document: { ...a.document, metadata: toStruct(a.metadata), group: toStruct(a.group) },
        taskType: protoEnum.taskType.to(a.taskType),
        dreaming: protoEnum.dreaming.to(a.dreaming),
        containerTags: a.containerTags ?? [],
      },
      req,
    );

  /**
   * Batch add shared by both generations: items that fail validation here are
   * reported per item (never a 400 for the whole batch); the rest go to
   * ingestion in one call. Result order: accepted in request order, then failed.
   */
  const batch = async (
    req: Request,
    a: {
      namespace: string;
      items: unknown[];
      parse: (item: unknown) => Record<string, unknown>;
      taskType?: TaskType;
      dreaming?: Dreaming;
      containerTags?: string[];
    },
  ): Promise<BatchOutcome[]> => {
    const outcomes: BatchOutcome[] = [];
    const sent: { index: number; doc: Record<string, unknown> }[] = [];
    a.items.forEach((item, index) => {
      try {
        sent.push({ index, doc: a.parse(item) });
      } catch (err) {
        const raw = (item ?? {}) as Record<string, unknown>;
        const customId = typeof raw.customId === "string" ? raw.customId : typeof raw.id === "string" ? raw.id : undefined;
        outcomes.push({ index, ok: false, customId, url: customId ? undefined : urlOf(raw.content ?? item), error: issueText(err) });
      }
    });
    if (sent.length) {
      const res = await b.ingestion.AddDocumentBatch(
        {
          context: ctx(req),
          namespace: a.namespace,
          documents: sent.map((s) => s.doc),
          taskType: protoEnum.taskType.to(a.taskType),
          dreaming: protoEnum.dreaming.to(a.dreaming),
          containerTags: a.containerTags ?? [],
        },
        req,
      );
      for (const x of res.results) {
        const index = sent[x.index]!.index;
        outcomes.push(
          x.error
            ? { index, ok: false, customId: x.customId || undefined, url: x.url || undefined, error: x.errorMessage }
            : { index, ok: true, id: x.id, customId: x.customId || undefined, status: protoEnum.status.from(x.status) },
        );
      }
    }
    const byIndex = (p: BatchOutcome, q: BatchOutcome) => p.index - q.index;
    return [...outcomes.filter((o) => o.ok).sort(byIndex), ...outcomes.filter((o) => !o.ok).sort(byIndex)];
  };

  const present = async (req: Request, id: string, namespace: string) => {
    // Streamed: a document's content may be larger than one gRPC message.
    return readDocument(b.ingestion, { context: ctx(req), namespace, id }, req);
  };

  /** The document's record without its content (for routes that show something else of it). */
  const record = async (req: Request, id: string, namespace: string) => {
    const { document } = await b.ingestion.GetDocument({ context: ctx(req), namespace, id, omitContent: true }, req);
    return document!;
  };

  /** Every chunk of a document, streamed from recall in parts (there may be more than one message holds). */
  const chunksOf = async (req: Request, d: { id: string; namespace: string }) => {
    const chunks: ChunkEntry__Output[] = [];
    let total = 0;
    for await (const m of b.recall.ReadDocumentChunks({ context: ctx(req), namespace: d.namespace, documentId: d.id }, req)) {
      chunks.push(...m.chunks);
      total = m.total;
    }
    return { chunks, total };
  };

  return { add, batch, present, record, chunksOf };
}
