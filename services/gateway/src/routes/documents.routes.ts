import { Router, type Request } from "express";
import { toStruct } from "@engram/grpc";
import { fromTimestamp } from "@engram/grpc";
import { type Dreaming, type JsonObject, type TaskType } from "@engram/kernel";
import { protoEnum } from "@engram/grpc";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";
import {
  includeParam,
  listQuery,
  pathId,
  pathNamespace,
  v3BatchEnvelope,
  v3BatchItem,
  v3BulkDeleteBody,
  v3Document,
  v3ListBody,
  v3Patch,
  v5BatchEnvelope,
  v5DeleteBody,
  v5Document,
  v5ListBody,
  v5Query,
} from "./schemas";
import { presentChunk, presentMemoryEntry, presentProcessing, presentV3Document, presentV3ListItem, presentV5Document } from "./presenters";
import { ZodError } from "zod";

export interface DocumentRoutesOptions {
  /** Namespace of legacy calls that name no container tag. */
  defaultNamespace: string;
  /** Base URL of file links; derived from the request when unset. */
  publicUrl?: string;
}

interface BatchOutcome {
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
const sortOrder = (o: string | undefined) => (o === "asc" ? "SORT_ORDER_ASC" : "SORT_ORDER_DESC");

/** Documents, v5 (/ns/{namespace}/...) and legacy v3 (/v3/documents...). */
export function documentRoutes(b: Backends, opts: DocumentRoutesOptions): Router {
  const r = Router();
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
    const { document } = await b.ingestion.GetDocument({ context: ctx(req), namespace, id }, req);
    return document!;
  };

  // --- v5 ---
  r.post("/ns/:namespace/document", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = v5Query.parse(req.query);
    const body = v5Document.parse(req.body);
    const out = await add(req, {
      namespace,
      document: { content: body.content, customId: body.id ?? "", supportingContext: body.supportingContext ?? "", date: body.date ?? "" },
      metadata: body.metadata,
      group: body.group,
      taskType: q.taskType,
      dreaming: q.dreaming,
    });
    res.json({ id: out.customId || out.id, status: protoEnum.status.from(out.status) });
  });

  r.post("/ns/:namespace/document/batch", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = v5Query.parse(req.query);
    const { documents } = v5BatchEnvelope.parse(req.body);
    const results = await batch(req, {
      namespace,
      items: documents,
      taskType: q.taskType,
      dreaming: q.dreaming,
      parse: (item) => {
        const d = v5Document.parse(item);
        return {
          content: d.content,
          customId: d.id ?? "",
          supportingContext: d.supportingContext ?? "",
          date: d.date ?? "",
          metadata: toStruct(d.metadata),
          group: toStruct(d.group),
        };
      },
    });
    res.json({
      count: results.filter((x) => x.ok).length,
      failed: results.filter((x) => !x.ok).length,
      results: results.map((x) =>
        x.ok
          ? { id: x.customId ?? x.id, status: x.status }
          : { ...(x.customId ? { id: x.customId } : x.url ? { url: x.url } : {}), status: "error", error: x.error },
      ),
    });
  });

  r.get("/ns/:namespace/document/:id", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const id = pathId.parse(req.params.id);
    const include = includeParam.parse(typeof req.query.include === "string" ? req.query.include : undefined);
    const d = await present(req, id, namespace);
    const body: Record<string, unknown> = presentV5Document(d);
    const [chunks, memories] = await Promise.all([
      include.has("chunks") ? b.recall.ListChunks({ context: ctx(req), namespace: d.namespace, documentId: d.id }, req) : undefined,
      include.has("memories") ? b.memories.ListDocumentMemories({ context: ctx(req), namespace: d.namespace, documentId: d.id }, req) : undefined,
    ]);
    if (chunks) body.chunks = chunks.chunks.map(presentChunk);
    if (memories) body.memories = memories.memories.map((m) => presentMemoryEntry(m));
    res.json(body);
  });

  r.post("/ns/:namespace/list/documents", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = listQuery.parse(req.query);
    const body = v5ListBody.parse(req.body && Object.keys(req.body).length ? req.body : undefined);
    const filter = body?.filter ?? body?.filters;
    const out = await b.ingestion.ListDocuments(
      {
        context: ctx(req),
        namespace,
        page: { page: q.page ?? 1, limit: q.limit ?? 100, sort: q.sort ?? "createdAt", order: sortOrder(q.order) },
        filter: filter ? { expression: toStruct(filter as JsonObject) } : null,
        includeContent: true,
      },
      req,
    );
    res.json({ documents: out.documents.map(presentV5Document), chunks: [], memories: [], pagination: out.pagination });
  });

  r.delete("/ns/:namespace/document", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const { ids } = v5DeleteBody.parse(req.body);
    const out = await b.ingestion.DeleteDocuments({ context: ctx(req), namespace, ids }, req);
    res.json({ count: out.count, errors: out.errors.map((e) => ({ id: e.id, error: e.error })) });
  });

  // --- legacy v3 ---
  r.post("/v3/documents", async (req, res) => {
    const body = v3Document.parse(req.body);
    const namespace = body.containerTag ?? body.containerTags?.[0] ?? opts.defaultNamespace;
    const out = await add(req, {
      namespace,
      document: {
        content: body.content,
        customId: body.customId ?? "",
        supportingContext: body.entityContext ?? "",
        date: body.documentDate ?? "",
        filepath: body.filepath ?? "",
      },
      metadata: body.metadata,
      group: body.filterByMetadata,
      taskType: body.taskType,
      dreaming: body.dreaming,
      containerTags: body.containerTags,
    });
    res.json({ id: out.id, status: protoEnum.status.from(out.status) });
  });

  r.post("/v3/documents/batch", async (req, res) => {
    const env = v3BatchEnvelope.parse(req.body);
    const namespace = env.containerTag ?? env.containerTags?.[0] ?? opts.defaultNamespace;
    const results = await batch(req, {
      namespace,
      items: env.documents,
      taskType: env.taskType,
      dreaming: env.dreaming,
      containerTags: env.containerTags,
      parse: (item) => {
        const d = v3BatchItem.parse(typeof item === "string" ? { content: item } : item);
        const metadata = d.metadata ?? env.metadata;
        const group = d.filterByMetadata ?? env.filterByMetadata;
        return {
          content: d.content,
          customId: d.customId ?? "",
          supportingContext: d.entityContext ?? env.entityContext ?? "",
          filepath: d.filepath ?? env.filepath ?? "",
          metadata: toStruct(metadata),
          group: toStruct(group),
          namespace: d.containerTag ?? d.containerTags?.[0] ?? "",
        };
      },
    });
    res.json({
      results: results.map((x) =>
        x.ok ? { id: x.id, status: x.status } : { id: x.customId ?? x.url ?? "", status: "error", error: "invalid document", details: x.error },
      ),
      success: results.filter((x) => x.ok).length,
      failed: results.filter((x) => !x.ok).length,
    });
  });

  r.post("/v3/documents/list", async (req, res) => {
    const body = v3ListBody.parse(req.body ?? {});
    const out = await b.ingestion.ListDocuments(
      {
        context: ctx(req),
        containerTags: body.containerTags ?? [],
        page: { page: body.page ?? 1, limit: body.limit ?? 10, sort: body.sort ?? "createdAt", order: sortOrder(body.order) },
        filter: body.filters ? { expression: toStruct(body.filters as JsonObject) } : null,
        includeContent: body.includeContent ?? false,
        filepath: body.filepath ?? "",
      },
      req,
    );
    res.json({ memories: out.documents.map((d) => presentV3ListItem(d, body.includeContent ?? false)), pagination: out.pagination });
  });

  r.get("/v3/documents/processing", async (req, res) => {
    const out = await b.ingestion.ListProcessingDocuments({ context: ctx(req) }, req);
    res.json({ documents: out.documents.map(presentProcessing), totalCount: out.totalCount });
  });

  r.delete("/v3/documents/bulk", async (req, res) => {
    const body = v3BulkDeleteBody.parse(req.body);
    const out = await b.ingestion.DeleteDocuments({ context: ctx(req), ids: body.ids ?? [], containerTags: body.containerTags ?? [] }, req);
    res.json({
      success: true,
      deletedCount: out.count,
      ...(body.ids ? { errors: out.errors.map((e) => ({ id: e.id, error: e.error })) } : { containerTags: body.containerTags }),
    });
  });

  r.get("/v3/documents/:id", async (req, res) => {
    res.json(presentV3Document(await present(req, pathId.parse(req.params.id), "")));
  });

  r.patch("/v3/documents/:id", async (req, res) => {
    const id = pathId.parse(req.params.id);
    const body = v3Patch.parse(req.body);
    const mask = [
      ...(body.content !== undefined ? ["content"] : []),
      ...(body.customId !== undefined ? ["custom_id"] : []),
      ...(body.containerTag !== undefined || body.containerTags ? ["namespace"] : []),
      ...(body.containerTags ? ["container_tags"] : []),
      ...(body.metadata !== undefined ? ["metadata"] : []),
      ...(body.filterByMetadata !== undefined ? ["group"] : []),
      ...(body.filepath !== undefined ? ["filepath"] : []),
    ];
    const out = await b.ingestion.UpdateDocument(
      {
        context: ctx(req),
        id,
        document: {
          content: body.content ?? "",
          customId: body.customId ?? "",
          namespace: body.containerTag ?? body.containerTags?.[0] ?? "",
          metadata: toStruct(body.metadata),
          group: toStruct(body.filterByMetadata),
          filepath: body.filepath ?? "",
        },
        updateMask: mask,
        taskType: protoEnum.taskType.to(body.taskType),
        containerTags: body.containerTags ?? [],
      },
      req,
    );
    res.json({ id: out.id, status: protoEnum.status.from(out.status) });
  });

  r.delete("/v3/documents/:id", async (req, res) => {
    const id = pathId.parse(req.params.id);
    const out = await b.ingestion.DeleteDocuments({ context: ctx(req), ids: [id] }, req);
    if (out.count === 0) {
      const why = out.errors[0]?.error ?? "document not found";
      throw new HttpProblem(/not a document id/.test(why) ? 400 : 404, why.startsWith("document not found") ? `document ${id} not found` : why);
    }
    res.status(204).end();
  });

  r.get("/v3/documents/:id/chunks", async (req, res) => {
    const d = await present(req, pathId.parse(req.params.id), "");
    const chunks = await b.recall.ListChunks({ context: ctx(req), namespace: d.namespace, documentId: d.id }, req);
    res.json({ documentId: d.id, chunks: chunks.chunks.map(presentChunk), total: chunks.total });
  });

  r.get("/v3/documents/:id/file-url", async (req, res) => {
    const id = pathId.parse(req.params.id);
    const out = await b.ingestion.CreateFileUrl({ context: ctx(req), id }, req);
    const base = opts.publicUrl ?? `${req.protocol}://${req.get("host")}`;
    res.json({ url: `${base.replace(/\/$/, "")}/files/${out.token}`, expiresAt: fromTimestamp(out.expiresAt)?.toISOString() ?? null });
  });

  return r;
}
