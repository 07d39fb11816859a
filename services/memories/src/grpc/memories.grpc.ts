import { filterFromProto, fromStruct, fromTimestamp, tenantOf, implement, MemoriesService, type ServiceImplementation, toTimestamp } from "@engram/grpc";
import type { BatchGetMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/BatchGetMemoriesRequest";
import type { BatchGetMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/BatchGetMemoriesResponse";
import type { CreateMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/CreateMemoriesRequest";
import type { CreateMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/CreateMemoriesResponse";
import type { ForgetMatchingMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMatchingMemoriesRequest";
import type { ForgetMatchingMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMatchingMemoriesResponse";
import type { CountNamespaceMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/CountNamespaceMemoriesRequest";
import type { CountNamespaceMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/CountNamespaceMemoriesResponse";
import type { ForgetNamespaceMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetNamespaceMemoriesRequest";
import type { ForgetNamespaceMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ForgetNamespaceMemoriesResponse";
import type { MoveNamespaceMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/MoveNamespaceMemoriesRequest";
import type { MoveNamespaceMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/MoveNamespaceMemoriesResponse";
import type { NamespaceMemoriesUseCase } from "../app/namespace-memories.usecase";
import type { PurgeTenantMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/PurgeTenantMemoriesRequest";
import type { PurgeTenantMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/PurgeTenantMemoriesResponse";
import type { ForgetMemoriesByIdsRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoriesByIdsRequest";
import type { ForgetMemoriesByIdsResponse } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoriesByIdsResponse";
import type { ForgetMemoriesByQueryRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoriesByQueryRequest";
import type { ForgetMemoriesByQueryResponse } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoriesByQueryResponse";
import type { ForgetMemoryRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoryRequest";
import type { ForgetMemoryResponse } from "@engram/grpc/src/gen/engram/memories/v1/ForgetMemoryResponse";
import type { ListDocumentMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ListDocumentMemoriesRequest";
import type { ListDocumentMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ListDocumentMemoriesResponse";
import type { ListMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ListMemoriesRequest";
import type { ListMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ListMemoriesResponse";
import type { TemporalContext__Output } from "@engram/grpc/src/gen/engram/memories/v1/TemporalContext";
import type { UpdateMemoryRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/UpdateMemoryRequest";
import type { UpdateMemoryResponse } from "@engram/grpc/src/gen/engram/memories/v1/UpdateMemoryResponse";
import type { ExportMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ExportMemoriesRequest";
import type { ExportMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ExportMemoriesResponse";
import type { ImportMemoriesRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/ImportMemoriesRequest";
import type { ImportMemoriesResponse } from "@engram/grpc/src/gen/engram/memories/v1/ImportMemoriesResponse";
import type { PlanMemoryImportRequest__Output } from "@engram/grpc/src/gen/engram/memories/v1/PlanMemoryImportRequest";
import type { PlanMemoryImportResponse } from "@engram/grpc/src/gen/engram/memories/v1/PlanMemoryImportResponse";
import { InvalidArgumentError } from "@engram/kernel";
import type { MemoryArchiveUseCase } from "../app/memory-archive.usecase";
import { memoryToProto } from "@engram/memory-model";
import type { CreateMemoriesUseCase } from "../app/create-memories.usecase";
import type { ForgetMemoriesUseCase, ForgetOutcome } from "../app/forget-memories.usecase";
import type { ListMemoriesUseCase } from "../app/list-memories.usecase";
import type { MemoryRepository } from "../app/ports";
import type { MemorySelector, UpdateMemoryUseCase } from "../app/update-memory.usecase";
import type { MemoryTemporalContext } from "../domain/memory";
import { ListMemoriesUseCase as ListLimits } from "../app/list-memories.usecase";

export interface MemoriesUseCases {
  create: CreateMemoriesUseCase;
  namespaces: NamespaceMemoriesUseCase;
  update: UpdateMemoryUseCase;
  forget: ForgetMemoriesUseCase;
  list: ListMemoriesUseCase;
  archive: MemoryArchiveUseCase;
  repo: MemoryRepository;
}

const iso = (t: Parameters<typeof fromTimestamp>[0]) => fromTimestamp(t)?.toISOString();

function temporalOf(t: TemporalContext__Output | null | undefined): MemoryTemporalContext | undefined {
  if (!t) return undefined;
  const documentDate = iso(t.documentDate);
  return { ...(documentDate ? { documentDate } : {}), ...(t.eventDates.length ? { eventDates: t.eventDates } : {}) };
}

function selectorOf(req: { selector?: "id" | "content"; id?: string; content?: string }): MemorySelector {
  if (req.selector === "id" && req.id) return { id: req.id };
  if (req.selector === "content" && req.content) return { content: req.content };
  throw new InvalidArgumentError("give the memory's id or its exact content");
}

const candidates = (o: ForgetOutcome) => o.selected.map((s) => ({ id: s.memory.id, content: s.memory.content, score: s.score }));

/** engram.memories.v1.MemoriesService: proto <-> use case mapping only. */
export function memoriesGrpc(uc: MemoriesUseCases): ServiceImplementation {
  return implement(MemoriesService, {
    async CreateMemories(req: CreateMemoriesRequest__Output): Promise<CreateMemoriesResponse> {
      const written = await uc.create.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace,
        memories: req.memories.map((m) => ({
          content: m.content,
          isStatic: m.isStatic,
          metadata: fromStruct(m.metadata),
          forgetAfter: iso(m.forgetAfter),
          forgetReason: m.forgetReason,
          temporalContext: temporalOf(m.temporalContext),
        })),
      });
      return { memories: written.map(memoryToProto) };
    },

    async ListMemories(req: ListMemoriesRequest__Output): Promise<ListMemoriesResponse> {
      const page = req.page?.page || 1;
      const limit = req.page?.limit || ListLimits.DEFAULT_LIMIT;
      const sort = req.page?.sort || "createdAt";
      if (sort !== "createdAt" && sort !== "updatedAt") throw new InvalidArgumentError("sort must be createdAt or updatedAt");
      const { entries, total } = await uc.list.execute({
        tenantId: tenantOf(req.context),
        namespaces: req.namespace ? [req.namespace] : [...new Set(req.containerTags)],
        filter: filterFromProto(req.filter),
        page,
        limit,
        sort,
        order: req.page?.order === "SORT_ORDER_ASC" ? "asc" : "desc",
        includeHistory: req.includeHistory,
        includeForgotten: req.includeForgotten,
      });
      return {
        entries: entries.map((e) => ({ memory: memoryToProto(e.memory), history: e.history.map(memoryToProto) })),
        pagination: { currentPage: page, limit, totalItems: total, totalPages: Math.ceil(total / limit) },
      };
    },

    async UpdateMemory(req: UpdateMemoryRequest__Output): Promise<UpdateMemoryResponse> {
      const mask = new Set(req.updateMask);
      const m = await uc.update.execute({
        tenantId: tenantOf(req.context),
        namespace: req.namespace,
        selector: selectorOf(req),
        newContent: req.newContent,
        ...(mask.has("metadata") ? { metadata: { value: fromStruct(req.metadata) } } : {}),
        ...(mask.has("forget_after") ? { forgetAfter: { value: iso(req.forgetAfter) } } : {}),
        ...(mask.has("forget_reason") ? { forgetReason: { value: req.forgetReason } } : {}),
        ...(mask.has("temporal_context") ? { temporalContext: { value: temporalOf(req.temporalContext) } } : {}),
      });
      return { memory: memoryToProto(m) };
    },

    async ForgetMemory(req: ForgetMemoryRequest__Output): Promise<ForgetMemoryResponse> {
      const m = await uc.forget.forgetOne({ tenantId: tenantOf(req.context), namespace: req.namespace, selector: selectorOf(req), reason: req.reason });
      return { id: m.id, forgotten: true };
    },

    async ForgetMatchingMemories(req: ForgetMatchingMemoriesRequest__Output): Promise<ForgetMatchingMemoriesResponse> {
      const tenantId = tenantOf(req.context);
      const hasQuery = req.query.trim().length > 0;
      if (hasQuery === req.ids.length > 0)
        throw new InvalidArgumentError("give either query or ids", "query selects by meaning, ids forgets exactly those memories");
      const o = hasQuery
        ? await uc.forget.byQuery({
            tenantId,
            namespace: req.namespace,
            query: req.query,
            dryRun: req.dryRun,
            threshold: req.threshold,
            maxForget: req.maxForget,
            reason: req.reason,
          })
        : await uc.forget.byIds({ tenantId, namespace: req.namespace, ids: req.ids, dryRun: req.dryRun, reason: req.reason });
      return {
        dryRun: o.dryRun,
        count: o.selected.length,
        ...(o.forgetBatchId ? { forgetBatchId: o.forgetBatchId } : {}),
        summary: o.summary,
        candidates: o.dryRun ? candidates(o) : [],
        forgotten: o.dryRun ? [] : candidates(o),
      };
    },

    async ForgetMemoriesByIds(req: ForgetMemoriesByIdsRequest__Output): Promise<ForgetMemoriesByIdsResponse> {
      const o = await uc.forget.byIds({ tenantId: tenantOf(req.context), namespace: req.namespace, ids: req.ids, dryRun: false });
      return { count: o.selected.length, matches: candidates(o), errors: o.errors };
    },

    async ForgetMemoriesByQuery(req: ForgetMemoriesByQueryRequest__Output): Promise<ForgetMemoriesByQueryResponse> {
      const o = await uc.forget.byQuery({ tenantId: tenantOf(req.context), namespace: req.namespace, query: req.query, dryRun: req.dryRun });
      return { count: o.selected.length, matches: candidates(o), errors: o.errors, dryRun: o.dryRun };
    },

    async ListDocumentMemories(req: ListDocumentMemoriesRequest__Output): Promise<ListDocumentMemoriesResponse> {
      const memories = await uc.list.ofDocument(tenantOf(req.context), req.namespace, req.documentId, req.includeForgotten);
      return { memories: memories.map(memoryToProto) };
    },

    // Container tags (through the gateway): their memory counts, and forgetting a deleted tag's memories.
    async CountNamespaceMemories(req: CountNamespaceMemoriesRequest__Output): Promise<CountNamespaceMemoriesResponse> {
      const counts = await uc.namespaces.counts(tenantOf(req.context), req.namespaces);
      return { counts: counts.map((c) => ({ namespace: c.namespace, memoryCount: c.memoryCount, lastActivityAt: toTimestamp(c.lastActivityAt) })) };
    },

    async ForgetNamespaceMemories(req: ForgetNamespaceMemoriesRequest__Output): Promise<ForgetNamespaceMemoriesResponse> {
      return { count: await uc.namespaces.forgetAll(tenantOf(req.context), req.namespace, req.reason) };
    },

    async MoveNamespaceMemories(req: MoveNamespaceMemoriesRequest__Output): Promise<MoveNamespaceMemoriesResponse> {
      return { count: await uc.namespaces.move(tenantOf(req.context), req.sourceNamespaces, req.targetNamespace) };
    },

    // The organisation reset (POST /v3/settings/reset, through the gateway).
    async PurgeTenantMemories(req: PurgeTenantMemoriesRequest__Output): Promise<PurgeTenantMemoriesResponse> {
      return { deletedMemoryRows: await uc.repo.purgeTenant(tenantOf(req.context)) };
    },

    async BatchGetMemories(req: BatchGetMemoriesRequest__Output): Promise<BatchGetMemoriesResponse> {
      const memories = await uc.repo.getMany(tenantOf(req.context), req.ids, req.namespace || undefined);
      return { memories: memories.map(memoryToProto) };
    },

    async ExportMemories(req: ExportMemoriesRequest__Output): Promise<ExportMemoriesResponse> {
      return uc.archive.exportPage(tenantOf(req.context), req.cursor, req.maxBytes);
    },

    async PlanMemoryImport(req: PlanMemoryImportRequest__Output): Promise<PlanMemoryImportResponse> {
      return { newIds: Object.fromEntries(await uc.archive.plan(tenantOf(req.context), req.ids)) };
    },

    async ImportMemories(req: ImportMemoriesRequest__Output): Promise<ImportMemoriesResponse> {
      return uc.archive.import({
        tenantId: tenantOf(req.context),
        records: req.records,
        memoryIds: new Map(Object.entries(req.memoryIds)),
        documentIds: new Map(Object.entries(req.documentIds)),
        formed: req.formed.map((f) => ({ documentId: f.documentId, generation: f.generation })),
      });
    },
  });
}
