import { Router } from "express";
import { toStruct } from "@engram/grpc";
import type { JsonObject } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { presentChunk, presentContentLimit, presentSearchResult, presentV3SearchResult } from "./presenters";
import { listQuery, pathNamespace, v3Search, v4Profile, v4ProfileBuckets, v4Search, v5ListBody } from "./schemas";

const SEARCH_MODE = { memories: "SEARCH_MODE_MEMORIES", hybrid: "SEARCH_MODE_HYBRID", documents: "SEARCH_MODE_DOCUMENTS" } as const;
const SECTION = { static: "PROFILE_SECTION_STATIC", dynamic: "PROFILE_SECTION_DYNAMIC", buckets: "PROFILE_SECTION_BUCKETS" } as const;
const filterOf = (f: unknown) => (f ? { expression: toStruct(f as JsonObject) } : null);

/** Recall: POST /v4/search, /v3/search, /v4/profile, /v4/profile/buckets, and the v5 chunk list. */
export function searchRoutes(b: Backends): Router {
  const r = Router();

  r.post("/v4/search", async (req, res) => {
    const body = v4Search.parse(req.body);
    const include = body.include ?? {};
    const out = await b.recall.SearchV4(
      {
        context: callContext(req),
        q: body.q,
        namespace: body.containerTag ?? "",
        containerTags: body.containerTags ?? [],
        searchMode: SEARCH_MODE[body.searchMode ?? "memories"],
        ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
        limit: body.limit ?? 10,
        filter: filterOf(body.filters),
        include,
        rerank: body.rerank ?? false,
        rewriteQuery: body.rewriteQuery ?? false,
        aggregate: body.aggregate ?? false,
        filepath: body.filepath ?? "",
      },
      req,
    );
    res.json({ results: out.results.map((x) => presentSearchResult(x, include)), timing: out.timingMs, total: out.total });
  });

  r.post("/v3/search", async (req, res) => {
    const body = v3Search.parse(req.body);
    const out = await b.recall.SearchV3(
      {
        context: callContext(req),
        q: body.q,
        namespace: body.containerTag ?? "",
        containerTags: body.containerTags ?? [],
        ...(body.chunkThreshold !== undefined ? { chunkThreshold: body.chunkThreshold } : {}),
        ...(body.documentThreshold !== undefined ? { documentThreshold: body.documentThreshold } : {}),
        docId: body.docId ?? "",
        ...(body.onlyMatchingChunks !== undefined ? { onlyMatchingChunks: body.onlyMatchingChunks } : {}),
        includeFullDocs: body.includeFullDocs ?? false,
        includeSummary: body.includeSummary ?? false,
        rerank: body.rerank ?? false,
        rewriteQuery: body.rewriteQuery ?? false,
        filter: filterOf(body.filters),
        limit: body.limit ?? 10,
        categoriesFilter: body.categoriesFilter ?? [],
        filepath: body.filepath ?? "",
      },
      req,
    );
    const include = { fullDocs: body.includeFullDocs ?? false, summary: body.includeSummary ?? false };
    res.json({ results: out.results.map((x) => presentV3SearchResult(x, include)), timing: out.timingMs, total: out.total, ...presentContentLimit(out) });
  });

  r.post("/v4/profile", async (req, res) => {
    const body = v4Profile.parse(req.body);
    const sections = new Set(body.include?.length ? body.include : ["static", "dynamic", "buckets"]);
    const out = await b.recall.GetProfile(
      {
        context: callContext(req),
        namespace: body.containerTag,
        ...(body.q?.trim() ? { q: body.q } : {}),
        ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
        filter: filterOf(body.filters),
        include: [...sections].map((s) => SECTION[s as keyof typeof SECTION]),
        buckets: body.buckets ?? [],
      },
      req,
    );
    const p = out.profile!;
    res.json({
      profile: {
        ...(sections.has("static") ? { static: p.staticMemories } : {}),
        ...(sections.has("dynamic") ? { dynamic: p.dynamicMemories } : {}),
        ...(sections.has("buckets") ? { buckets: Object.fromEntries(Object.entries(p.buckets).map(([k, v]) => [k, v.memories])) } : {}),
      },
      ...(out.searchResults
        ? {
            searchResults: {
              results: out.searchResults.results.map((x) => presentSearchResult(x, {})),
              total: out.searchResults.total,
              timing: out.searchResults.timingMs,
            },
          }
        : {}),
    });
  });

  r.post("/v4/profile/buckets", async (req, res) => {
    const body = v4ProfileBuckets.parse(req.body);
    const out = await b.recall.GetProfileBuckets({ context: callContext(req), namespace: body.containerTag }, req);
    res.json({ buckets: out.buckets.map((x) => ({ key: x.key, description: x.description })) });
  });

  r.post("/ns/:namespace/list/chunks", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = listQuery.parse(req.query);
    if (q.sort === "updatedAt") q.sort = "createdAt"; // chunks do not change after indexing: both orders are the same
    const body = v5ListBody.parse(req.body && Object.keys(req.body).length ? req.body : undefined);
    const out = await b.recall.ListChunks(
      {
        context: callContext(req),
        namespace,
        page: { page: q.page ?? 1, limit: q.limit ?? 100, sort: "createdAt", order: q.order === "asc" ? "SORT_ORDER_ASC" : "SORT_ORDER_DESC" },
        filter: filterOf(body?.filter ?? body?.filters),
      },
      req,
    );
    res.json({ documents: [], chunks: out.chunks.map(presentChunk), memories: [], pagination: out.pagination });
  });

  return r;
}
