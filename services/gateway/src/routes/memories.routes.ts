import { Router, type Request } from "express";
import { toStruct, toTimestamp } from "@engram/grpc";
import type { ForgetCandidate__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetCandidate";
import type { JsonObject } from "@engram/kernel";
import type { z } from "zod";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { presentCreatedMemory, presentMemoryEntry, presentUpdatedMemory } from "./presenters";
import {
  listQuery,
  pathNamespace,
  type temporalContext,
  v4CreateMemories,
  v4ForgetMatching,
  v4ForgetMemory,
  v4ListMemories,
  v4UpdateMemory,
  v5ForgetIds,
  v5ForgetSemantic,
  v5ListBody,
} from "./schemas";

type Temporal = z.infer<typeof temporalContext>;
const temporalToProto = (t: Temporal | null | undefined) => (t ? { documentDate: toTimestamp(t.documentDate ?? null), eventDates: t.eventDate ?? [] } : null);
const candidate = (c: ForgetCandidate__Output) => ({ id: c.id, memory: c.content, score: c.score });
const filterOf = (f: unknown) => (f ? { expression: toStruct(f as JsonObject) } : null);
const sortOrder = (o: string | undefined) => (o === "asc" ? "SORT_ORDER_ASC" : "SORT_ORDER_DESC");

/** Memories: /v4/memories* and the v5 memory operations under /ns/{namespace}. */
export function memoryRoutes(b: Backends): Router {
  const r = Router();
  const ctx = (req: Request) => callContext(req);

  r.post("/v4/memories", async (req, res) => {
    const body = v4CreateMemories.parse(req.body);
    const out = await b.memories.CreateMemories(
      {
        context: ctx(req),
        namespace: body.containerTag,
        memories: body.memories.map((m) => ({
          content: m.content,
          isStatic: m.isStatic ?? false,
          metadata: toStruct(m.metadata),
          forgetAfter: toTimestamp(m.forgetAfter ?? null),
          ...(m.forgetReason ? { forgetReason: m.forgetReason } : {}),
          temporalContext: temporalToProto(m.temporalContext),
        })),
      },
      req,
    );
    res.status(201).json({ documentId: out.documentId ?? null, memories: out.memories.map(presentCreatedMemory) });
  });

  r.patch("/v4/memories", async (req, res) => {
    const body = v4UpdateMemory.parse(req.body);
    const mask = [
      ...(body.metadata !== undefined ? ["metadata"] : []),
      ...(body.forgetAfter !== undefined ? ["forget_after"] : []),
      ...(body.forgetReason !== undefined ? ["forget_reason"] : []),
      ...(body.temporalContext !== undefined ? ["temporal_context"] : []),
    ];
    const out = await b.memories.UpdateMemory(
      {
        context: ctx(req),
        namespace: body.containerTag,
        ...(body.id !== undefined ? { id: body.id } : { content: body.content }),
        newContent: body.newContent,
        metadata: toStruct(body.metadata ?? null),
        forgetAfter: toTimestamp(body.forgetAfter ?? null),
        ...(body.forgetReason ? { forgetReason: body.forgetReason } : {}),
        temporalContext: temporalToProto(body.temporalContext),
        updateMask: mask,
      },
      req,
    );
    res.json(presentUpdatedMemory(out.memory!));
  });

  r.delete("/v4/memories", async (req, res) => {
    const body = v4ForgetMemory.parse(req.body);
    const out = await b.memories.ForgetMemory(
      {
        context: ctx(req),
        namespace: body.containerTag,
        ...(body.id !== undefined ? { id: body.id } : { content: body.content }),
        reason: body.reason ?? "",
      },
      req,
    );
    res.json({ id: out.id, forgotten: out.forgotten });
  });

  r.post("/v4/memories/forget-matching", async (req, res) => {
    const body = v4ForgetMatching.parse(req.body);
    const out = await b.memories.ForgetMatchingMemories(
      {
        context: ctx(req),
        namespace: body.containerTag,
        query: body.query ?? body.q ?? "",
        ids: body.ids ?? [],
        dryRun: body.dryRun ?? false,
        ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
        ...(body.maxForget !== undefined ? { maxForget: body.maxForget } : {}),
        reason: body.reason ?? "",
      },
      req,
    );
    res.json({
      dryRun: out.dryRun,
      count: out.count,
      forgetBatchId: out.forgetBatchId ?? null,
      summary: out.summary,
      ...(out.dryRun ? { candidates: out.candidates.map(candidate) } : { forgotten: out.forgotten.map(candidate) }),
    });
  });

  r.post("/v4/memories/list", async (req, res) => {
    const body = v4ListMemories.parse(req.body ?? {});
    const page = body.page ?? 1;
    const limit = body.limit ?? 10;
    const out = await b.memories.ListMemories(
      {
        context: ctx(req),
        containerTags: body.containerTags ?? [body.containerTag!],
        page: { page, limit, sort: body.sort ?? "createdAt", order: sortOrder(body.order) },
        filter: filterOf(body.filters),
        includeHistory: true,
        includeForgotten: body.includeForgotten ?? false,
      },
      req,
    );
    res.json({ memoryEntries: out.entries.map((e) => presentMemoryEntry(e.memory!, e.history)), pagination: out.pagination });
  });

  // --- v5 ---
  r.post("/ns/:namespace/list/memories", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = listQuery.parse(req.query);
    const body = v5ListBody.parse(req.body && Object.keys(req.body).length ? req.body : undefined);
    const out = await b.memories.ListMemories(
      {
        context: ctx(req),
        namespace,
        page: { page: q.page ?? 1, limit: q.limit ?? 100, sort: q.sort ?? "createdAt", order: sortOrder(q.order) },
        filter: filterOf(body?.filter ?? body?.filters),
        includeHistory: false,
      },
      req,
    );
    res.json({ documents: [], chunks: [], memories: out.entries.map((e) => presentMemoryEntry(e.memory!)), pagination: out.pagination });
  });

  r.delete("/ns/:namespace/memories/semantic", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const body = v5ForgetSemantic.parse(req.body);
    const out = await b.memories.ForgetMemoriesByQuery({ context: ctx(req), namespace, query: body.query, dryRun: body.dryRun ?? false }, req);
    res.json({ count: out.count, matches: out.matches.map(candidate), errors: out.errors.map((e) => ({ id: e.id, error: e.error })) });
  });

  r.delete("/ns/:namespace/memories", async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const { ids } = v5ForgetIds.parse(req.body);
    const out = await b.memories.ForgetMemoriesByIds({ context: ctx(req), namespace, ids }, req);
    res.json({ count: out.count, matches: out.matches.map(candidate), errors: out.errors.map((e) => ({ id: e.id, error: e.error })) });
  });

  return r;
}
