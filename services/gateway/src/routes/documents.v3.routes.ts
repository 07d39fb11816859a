import { Router } from "express";
import { fromTimestamp, protoEnum, toStruct } from "@engram/grpc";
import type { JsonObject } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext as ctx } from "../http/context";
import { HttpProblem } from "../http/errors";
import { documentCalls, sortOrder } from "./document-calls";
import { presentChunk, presentContentLimit, presentProcessing, presentV3Document, presentV3ListItem } from "./presenters";
import { pathId, v3BatchEnvelope, v3BatchItem, v3BulkDeleteBody, v3Document, v3ListBody, v3Patch } from "./schemas";

export interface V3DocumentRoutesOptions {
  /** Namespace of legacy calls that name no container tag. */
  defaultNamespace: string;
  /** Base URL of file links; derived from the request when unset. */
  publicUrl?: string;
}

/** Documents, legacy v3: /v3/documents... */
export function v3DocumentRoutes(b: Backends, opts: V3DocumentRoutesOptions): Router {
  const r = Router();
  const { add, batch, present, record, chunksOf } = documentCalls(b);

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
        statuses: (body.statuses ?? []).map((x) => protoEnum.status.to(x)),
      },
      req,
    );
    res.json({
      memories: out.documents.map((d) => presentV3ListItem(d, body.includeContent ?? false)),
      pagination: out.pagination,
      ...presentContentLimit(out),
    });
  });

  r.get("/v3/documents/processing", async (req, res) => {
    const out = await b.ingestion.ListProcessingDocuments({ context: ctx(req) }, req);
    res.json({ documents: out.documents.map(presentProcessing), totalCount: out.totalCount });
  });

  r.delete("/v3/documents/bulk", async (req, res) => {
    const body = v3BulkDeleteBody.parse(req.body);
    const out = await b.ingestion.DeleteDocuments(
      { context: ctx(req), ids: body.ids ?? [], containerTags: body.containerTags ?? [], filepath: body.filepath ?? "" },
      req,
    );
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
    // Nothing to change (every field is optional in the description): the document as it is.
    if (mask.length === 0 && body.taskType === undefined) {
      const doc = await present(req, id, "");
      return res.json({ id: doc.id, status: protoEnum.status.from(doc.status) });
    }
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
    const d = await record(req, pathId.parse(req.params.id), "");
    const chunks = await chunksOf(req, d);
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
