import { Router } from "express";
import { fromStruct, fromTimestamp, toStruct } from "@engram/grpc";
import type { JsonObject } from "@engram/kernel";
import type { SearchV4Response__Output } from "@engram/grpc/src/gen/engram/recall/v1/SearchV4Response";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { v4Search } from "./schemas";

const SEARCH_MODE = { memories: "SEARCH_MODE_MEMORIES", hybrid: "SEARCH_MODE_HYBRID", documents: "SEARCH_MODE_DOCUMENTS" } as const;

/** Recall: POST /v4/search (and, as they arrive, /v3/search and profiles). */
export function searchRoutes(b: Backends): Router {
  const r = Router();

  r.post("/v4/search", async (req, res) => {
    const body = v4Search.parse(req.body);
    const out = await b.recall.call<SearchV4Response__Output>(
      "SearchV4",
      {
        context: callContext(req),
        q: body.q,
        namespace: body.containerTag ?? "",
        containerTags: body.containerTags ?? [],
        searchMode: SEARCH_MODE[body.searchMode ?? "memories"],
        ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
        limit: body.limit ?? 10,
        filter: body.filters ? { expression: toStruct(body.filters as JsonObject) } : null,
        include: body.include ?? {},
        rerank: body.rerank ?? false,
        rewriteQuery: body.rewriteQuery ?? false,
        aggregate: body.aggregate ?? false,
        filepath: body.filepath ?? "",
      },
      req,
    );
    const include = body.include ?? {};
    const results = out.results.map((r) => {
      if (r.chunk) {
        const doc = r.documents[0];
        return {
          id: r.chunk.documentId,
          chunk: r.chunk.content,
          metadata: fromStruct(r.chunk.metadata) ?? null,
          updatedAt: fromTimestamp(doc?.updatedAt)?.toISOString() ?? fromTimestamp(r.chunk.createdAt)?.toISOString() ?? null,
          similarity: r.similarity,
          ...(include.documents && doc
            ? {
                documents: [
                  {
                    id: doc.id,
                    title: doc.title || null,
                    type: doc.contentType || null,
                    metadata: fromStruct(doc.metadata) ?? null,
                    createdAt: fromTimestamp(doc.createdAt)?.toISOString(),
                    updatedAt: fromTimestamp(doc.updatedAt)?.toISOString(),
                  },
                ],
              }
            : {}),
          ...(include.chunks
            ? {
                chunks: r.chunks.map((c) => ({
                  content: c.chunk?.content ?? "",
                  score: c.score,
                  position: c.chunk?.position ?? 0,
                  documentId: c.chunk?.documentId ?? "",
                })),
              }
            : {}),
        };
      }
      return { id: r.memory?.id ?? "", memory: r.memory?.content ?? "", similarity: r.similarity };
    });
    res.json({ results, timing: out.timingMs, total: out.total });
  });

  return r;
}
