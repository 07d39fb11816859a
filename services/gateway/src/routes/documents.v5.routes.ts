import { Router } from "express";
import { protoEnum, toStruct } from "@engram/grpc";
import type { JsonObject } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext as ctx } from "../http/context";
import { documentCalls, sortOrder } from "./document-calls";
import { presentChunk, presentContentLimit, presentMemoryEntry, presentV5Document } from "./presenters";
import { includeParam, listQuery, pathId, pathNamespace, v5BatchEnvelope, v5DeleteBody, v5Document, v5ListBody, v5Query } from "./schemas";

/** Documents, v5: /ns/{namespace}/document..., /ns/{namespace}/list/documents. */
export function v5DocumentRoutes(b: Backends): Router {
  const r = Router();
  const { add, batch, present, chunksOf } = documentCalls(b);

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
      include.has("chunks") ? chunksOf(req, d) : undefined,
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
    res.json({ documents: out.documents.map(presentV5Document), chunks: [], memories: [], pagination: out.pagination, ...presentContentLimit(out) });
  });

  r.delete("/ns/:namespace/document", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const { ids } = v5DeleteBody.parse(req.body);
    const out = await b.ingestion.DeleteDocuments({ context: ctx(req), namespace, ids }, req);
    res.json({ count: out.count, errors: out.errors.map((e) => ({ id: e.id, error: e.error })) });
  });

  return r;
}
