import { status } from "@grpc/grpc-js";
import { type Request, Router } from "express";
import { z } from "zod";
import { fromTimestamp } from "@engram/grpc";
import type { ContainerTag__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ContainerTag";
import type { NamespaceMemoryCount__Output } from "@engram/grpc/src/gen/engram/memories/v1/NamespaceMemoryCount";
import { isServiceError } from "@engram/grpc";
import { spaceIdOf } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { ownTags } from "../http/authorize";
import { HttpProblem } from "../http/errors";
import { profileBuckets, scope } from "./schemas";

const iso = (t: Parameters<typeof fromTimestamp>[0]) => fromTimestamp(t)?.toISOString();
const latest = (...times: (string | undefined)[]) =>
  times
    .filter((t): t is string => !!t)
    .sort()
    .at(-1);

/** PATCH /v3/container-tags/{tag}: the description's fields, nothing else. */
export const containerTagPatch = z
  .object({
    name: z.string({ message: "name must be a string" }).min(1, "name must be 1-100 characters").max(100, "name must be 1-100 characters").optional(),
    entityContext: z
      .string({ message: "entityContext must be a string or null" })
      .max(1500, "entityContext must be at most 1500 characters")
      .nullable()
      .optional(),
    memoryFilesystemPaths: z
      .array(z.string().min(1, "memoryFilesystemPaths items must not be empty").max(1024, "memoryFilesystemPaths items must be at most 1024 characters"), {
        message: "memoryFilesystemPaths must be an array of strings or null",
      })
      .max(100, "memoryFilesystemPaths holds at most 100 paths")
      .nullable()
      .optional(),
    profileBuckets: profileBuckets.optional(),
  })
  .strict();

/**
 * POST /v3/container-tags/merge: the description's body (exactly two tags, and
 * the target), or the alias its own cURL sample sends, `{"from": …, "to": …}`:
 * `from` merged into `to`, the same as containerTags [from, to] with
 * targetContainerTag `to` (docs/api-decisions.md section 20). One form or the
 * other; `mergeRequest` gives the canonical fields.
 */
export const containerTagMerge = z
  .object({
    containerTags: z
      .array(scope("containerTags[]"), { message: "containerTags must be an array of 2 container tags" })
      .length(2, "containerTags must hold exactly 2 container tags")
      .optional(),
    targetContainerTag: scope("targetContainerTag").optional(),
    from: scope("from")
      .optional()
      .meta({ description: "Alias form (the description's cURL sample): the tag merged into `to`, instead of containerTags", example: "user_old" }),
    to: scope("to")
      .optional()
      .meta({ description: "Alias form: the tag `from` is merged into (the target), instead of targetContainerTag", example: "user_123" }),
  })
  .strict()
  .superRefine((b, ctx) => {
    const canonical = b.containerTags !== undefined || b.targetContainerTag !== undefined;
    const alias = b.from !== undefined || b.to !== undefined;
    if (canonical && alias) return ctx.addIssue({ code: "custom", message: "send containerTags and targetContainerTag, or from and to, not both forms" });
    if (alias) {
      if (b.from === undefined || b.to === undefined) ctx.addIssue({ code: "custom", message: "from and to go together: from is merged into to" });
      else if (b.from === b.to) ctx.addIssue({ code: "custom", message: "from must name a tag other than to" });
      return;
    }
    if (b.containerTags === undefined) ctx.addIssue({ code: "custom", path: ["containerTags"], message: "containerTags is required (2 container tags)" });
    if (b.targetContainerTag === undefined) ctx.addIssue({ code: "custom", path: ["targetContainerTag"], message: "targetContainerTag is required" });
    if (b.containerTags && b.targetContainerTag !== undefined && !b.containerTags.some((t) => t !== b.targetContainerTag))
      ctx.addIssue({ code: "custom", message: "containerTags must name a tag other than targetContainerTag" });
  });

/** A merge body in its canonical fields. */
export function mergeRequest(b: z.infer<typeof containerTagMerge>): { containerTags: string[]; targetContainerTag: string } {
  if (b.from !== undefined && b.to !== undefined) return { containerTags: [b.from, b.to], targetContainerTag: b.to };
  return { containerTags: b.containerTags!, targetContainerTag: b.targetContainerTag! };
}

/** The merge id of GET /v3/container-tags/merge/{mergeId}. */
export const mergeIdParam = z.string().min(1).max(100);

const MERGE_STATUS: Record<string, string> = {
  MERGE_STATUS_QUEUED: "queued",
  MERGE_STATUS_RUNNING: "running",
  MERGE_STATUS_COMPLETED: "completed",
  MERGE_STATUS_FAILED: "failed",
};

const tagParam = (req: Request) => scope("containerTag").parse(String(req.params.containerTag));

/** A tag as the documents side and the memories side know it (either may be absent). */
interface TagParts {
  namespace: string;
  tag?: ContainerTag__Output;
  memories?: NamespaceMemoryCount__Output;
}

function listItem(tenantId: string, p: TagParts) {
  const t = p.tag;
  const memoryActivity = iso(p.memories?.lastActivityAt);
  const lastActivityAt = latest(iso(t?.lastActivityAt), memoryActivity) ?? null;
  return {
    id: t?.id || spaceIdOf(tenantId, p.namespace),
    // Lists show the tag itself when no display name was set.
    name: t?.name || p.namespace,
    containerTag: p.namespace,
    // The auto-maintained topic summary is not built yet.
    description: t?.description || null,
    // A tag with memories only has no stored times: its latest memory activity stands for both.
    createdAt: iso(t?.createdAt) ?? memoryActivity ?? lastActivityAt,
    updatedAt: latest(iso(t?.updatedAt), memoryActivity) ?? lastActivityAt,
    isExperimental: t?.isExperimental ?? false,
    isNova: p.namespace.startsWith("sm_project_"),
    documentCount: t?.documentCount ?? 0,
    memoryCount: p.memories?.memoryCount ?? 0,
    lastActivityAt,
  };
}

function settingsView(p: TagParts) {
  const t = p.tag;
  const item = listItem("", p);
  return {
    containerTag: p.namespace,
    name: t?.name || null,
    entityContext: t?.entityContext ?? null,
    memoryFilesystemPaths: t?.memoryFilesystemPaths ? [...t.memoryFilesystemPaths.paths] : null,
    profileBuckets: (t?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

const notFound = (err: unknown) => isServiceError(err) && err.code === status.NOT_FOUND;

/**
 * Container tags: the document side (settings, documents) from ingestion's
 * ContainerTagService and the memory side (counts, forgetting) from the
 * memories service, put together here so that neither service calls the
 * other. A tag exists while it holds documents or active memories, or once
 * its settings were set (PATCH creates them). A merge moves the memories at
 * once and queues the documents' move (GET …/merge/{mergeId} follows it).
 */
export function containerTagRoutes(b: Backends): Router {
  const r = Router();

  r.get("/v3/container-tags/list", async (req, res) => {
    const context = callContext(req);
    const [tags, counts] = await Promise.all([
      b.containerTags.ListContainerTags({ context }, req),
      b.memories.CountNamespaceMemories({ context, namespaces: [] }, req),
    ]);
    // A key limited to container tags is answered its own tags only (docs/api-decisions.md, "Scoped keys").
    const own = ownTags(req);
    const visible = (namespace: string) => !own || own.has(namespace);
    const parts = new Map<string, TagParts>();
    for (const tag of tags.containerTags) if (visible(tag.namespace)) parts.set(tag.namespace, { namespace: tag.namespace, tag });
    for (const m of counts.counts) if (visible(m.namespace)) parts.set(m.namespace, { ...(parts.get(m.namespace) ?? { namespace: m.namespace }), memories: m });
    res.json([...parts.values()].sort((x, y) => (x.namespace < y.namespace ? -1 : 1)).map((p) => listItem(context.tenantId, p)));
  });

  // Merges: the memories move at once (so that re-processed documents find their facts in the target), the documents in
  // the queued job ingestion runs; the sources must exist (documents, memories or settings).
  r.post("/v3/container-tags/merge", async (req, res) => {
    const body = mergeRequest(containerTagMerge.parse(req.body));
    const sources = [...new Set(body.containerTags)].filter((t) => t !== body.targetContainerTag);
    for (const tag of sources) await tagParts(b, req, tag);
    const context = callContext(req);
    const moved = await b.memories.MoveNamespaceMemories({ context, sourceNamespaces: sources, targetNamespace: body.targetContainerTag }, req);
    const out = await b.containerTags.MergeContainerTags(
      { context, containerTags: body.containerTags, targetNamespace: body.targetContainerTag, movedMemoriesCount: moved.count },
      req,
    );
    res.status(202).json({ success: true, status: "queued", mergeId: out.mergeId, targetTag: out.targetNamespace, sourceTags: out.sourceNamespaces });
  });

  r.get("/v3/container-tags/merge/:mergeId", async (req, res) => {
    const mergeId = mergeIdParam.parse(String(req.params.mergeId));
    const m = (await b.containerTags.GetContainerTagMerge({ context: callContext(req), mergeId }, req)).merge;
    if (!m) throw new HttpProblem(404, "Merge job not found");
    res.json({
      id: m.id,
      status: MERGE_STATUS[m.status] ?? "queued",
      targetTag: m.targetNamespace,
      sourceTags: m.sourceNamespaces,
      movedDocumentsCount: m.movedDocumentsCount,
      movedMemoriesCount: m.movedMemoriesCount,
      error: m.error || null,
      createdAt: iso(m.createdAt) ?? null,
      updatedAt: iso(m.updatedAt) ?? null,
      completedAt: iso(m.completedAt) ?? null,
    });
  });

  r.get("/v3/container-tags/:containerTag", async (req, res) => {
    res.json(settingsView(await tagParts(b, req, tagParam(req))));
  });

  r.patch("/v3/container-tags/:containerTag", async (req, res) => {
    const namespace = tagParam(req);
    const body = containerTagPatch.parse(req.body);
    const sent = (Object.keys(body) as (keyof typeof body)[]).filter((k) => body[k] !== undefined);
    const FIELD = {
      name: "name",
      entityContext: "entity_context",
      memoryFilesystemPaths: "memory_filesystem_paths",
      profileBuckets: "profile_buckets",
    } as const;
    const context = callContext(req);
    const out = await b.containerTags.UpdateContainerTag(
      {
        context,
        namespace,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(typeof body.entityContext === "string" ? { entityContext: body.entityContext } : {}),
        memoryFilesystemPaths: body.memoryFilesystemPaths ? { paths: body.memoryFilesystemPaths } : null,
        profileBuckets: (body.profileBuckets ?? []).map((x) => ({ key: x.key, description: x.description ?? "" })),
        updateMask: sent.map((k) => FIELD[k]),
      },
      req,
    );
    const memories = (await b.memories.CountNamespaceMemories({ context, namespaces: [namespace] }, req)).counts[0];
    res.json(settingsView({ namespace, tag: out.containerTag ?? undefined, memories }));
  });

  r.delete("/v3/container-tags/:containerTag", async (req, res) => {
    const namespace = tagParam(req);
    const context = callContext(req);
    let deletedDocumentsCount = 0;
    let existed = true;
    try {
      deletedDocumentsCount = (await b.containerTags.DeleteContainerTag({ context, namespace }, req)).deletedDocumentsCount;
    } catch (err) {
      if (!notFound(err)) throw err;
      existed = false;
    }
    const forgotten = (await b.memories.ForgetNamespaceMemories({ context, namespace, reason: "container tag deleted" }, req)).count;
    if (!existed && forgotten === 0) throw new HttpProblem(404, "Container tag not found", `${namespace} holds no documents, memories or settings`);
    res.json({ success: true, containerTag: namespace, deletedDocumentsCount, deletedMemoriesCount: forgotten });
  });

  return r;
}

/** The tag's two sides; 404 when neither knows it. */
async function tagParts(b: Backends, req: Request, namespace: string): Promise<TagParts> {
  const context = callContext(req);
  const [tag, counts] = await Promise.all([
    b.containerTags.GetContainerTag({ context, namespace }, req).then(
      (o) => o.containerTag ?? undefined,
      (err: unknown) => {
        if (notFound(err)) return undefined;
        throw err;
      },
    ),
    b.memories.CountNamespaceMemories({ context, namespaces: [namespace] }, req),
  ]);
  const memories = counts.counts[0];
  if (!tag && !memories) throw new HttpProblem(404, "Container tag not found", `${namespace} holds no documents, memories or settings`);
  return { namespace, tag, memories };
}
