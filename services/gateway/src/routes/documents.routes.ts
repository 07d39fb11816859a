import { Router, type Request } from "express";
import { toStruct } from "@engram/grpc";
import type { AddDocumentResponse__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentResponse";
import type { GetDocumentResponse__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/GetDocumentResponse";
import type { ListChunksResponse__Output } from "@engram/grpc/src/gen/engram/recall/v1/ListChunksResponse";
import type { ListDocumentMemoriesResponse__Output } from "@engram/grpc/src/gen/engram/memories/v1/ListDocumentMemoriesResponse";
import { type Dreaming, type JsonObject, protoEnum, type TaskType } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { includeParam, pathId, pathNamespace, v3Document, v5Document, v5Query } from "./schemas";
import { presentChunk, presentV3Document, presentV5Document } from "./presenters";

export interface DocumentRoutesOptions {
  /** Namespace of legacy calls that name no container tag. */
  defaultNamespace: string;
}

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
    b.ingestion.call<AddDocumentResponse__Output>(
      "AddDocument",
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

  r.get("/ns/:namespace/document/:id", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const id = pathId.parse(req.params.id);
    const include = includeParam.parse(typeof req.query.include === "string" ? req.query.include : undefined);
    const { document } = await b.ingestion.call<GetDocumentResponse__Output>("GetDocument", { context: ctx(req), namespace, id }, req);
    const d = document!;
    const body: Record<string, unknown> = presentV5Document(d);
    const [chunks, memories] = await Promise.all([
      include.has("chunks")
        ? b.recall.call<ListChunksResponse__Output>("ListChunks", { context: ctx(req), namespace: d.namespace, documentId: d.id }, req)
        : undefined,
      include.has("memories")
        ? b.memories.call<ListDocumentMemoriesResponse__Output>("ListDocumentMemories", { context: ctx(req), namespace: d.namespace, documentId: d.id }, req)
        : undefined,
    ]);
    if (chunks) body.chunks = chunks.chunks.map(presentChunk);
    if (memories) body.memories = memories.memories;
    res.json(body);
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

  r.get("/v3/documents/:id", async (req, res) => {
    const id = pathId.parse(req.params.id);
    const { document } = await b.ingestion.call<GetDocumentResponse__Output>("GetDocument", { context: ctx(req), namespace: "", id }, req);
    res.json(presentV3Document(document!));
  });

  r.get("/v3/documents/:id/chunks", async (req, res) => {
    const id = pathId.parse(req.params.id);
    const { document } = await b.ingestion.call<GetDocumentResponse__Output>("GetDocument", { context: ctx(req), namespace: "", id }, req);
    const d = document!;
    const chunks = await b.recall.call<ListChunksResponse__Output>("ListChunks", { context: ctx(req), namespace: d.namespace, documentId: d.id }, req);
    res.json({ documentId: d.id, chunks: chunks.chunks.map(presentChunk), total: chunks.total });
  });

  return r;
}
