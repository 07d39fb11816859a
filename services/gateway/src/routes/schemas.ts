import { z } from "zod";

/** Validation of REST inputs (shapes per the spec and the OpenAPI description). */
export const SCOPE_RE = /^[A-Za-z0-9._:-]{1,100}$/;
export const scope = (field: string) => z.string().regex(SCOPE_RE, `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`);
export const customId = (field: string) => z.string().regex(SCOPE_RE, `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`);

const metadataValue = z.union([z.string(), z.number().finite(), z.boolean(), z.array(z.string())], {
  message: "metadata values must be strings, numbers, booleans or arrays of strings",
});
export const metadata = z.record(z.string().min(1).max(128), metadataValue).refine((m) => Object.keys(m).length <= 100, "at most 100 metadata keys");

export const taskType = z.enum(["memory", "superrag"], { message: "taskType must be memory or superrag" });
export const dreaming = z.enum(["dynamic", "instant"], { message: "dreaming must be dynamic or instant" });
const content = z.string({ message: "content must be a string" }).refine((s) => s.trim().length > 0, "content must not be empty");
const date = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "date must be an ISO 8601 date or date-time");

export const v5Query = z.object({ taskType: taskType.optional(), dreaming: dreaming.optional() }).passthrough();

export const v5Document = z
  .object({
    content,
    id: customId("id").optional(),
    supportingContext: z.string().max(1500, "supportingContext must be at most 1500 characters").optional(),
    metadata: metadata.optional(),
    group: metadata.optional(),
    date: date.optional(),
  })
  .strict();

export const v3Document = z
  .object({
    content,
    containerTag: scope("containerTag").optional(),
    containerTags: z.array(scope("containerTags[]")).max(100).optional(),
    entityContext: z.string().max(1500, "entityContext must be at most 1500 characters").optional(),
    customId: customId("customId").optional(),
    metadata: metadata.optional(),
    taskType: taskType.optional(),
    filepath: z.string().max(1024).optional(),
    filterByMetadata: metadata.optional(),
    dreaming: dreaming.optional(),
    documentDate: date.optional(),
  })
  .strict();

export const includeParam = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const parts = (v ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    for (const p of parts) {
      if (p !== "chunks" && p !== "memories") {
        ctx.addIssue({ code: "custom", message: `include accepts chunks and memories, not '${p}'` });
        return z.NEVER;
      }
    }
    return new Set(parts);
  });

export const v4Search = z.object({
  q: z.string({ message: "q is required" }).min(1, "q must not be empty").max(10_000),
  containerTag: scope("containerTag").optional(),
  containerTags: z.array(scope("containerTags[]")).max(100).optional(),
  searchMode: z.enum(["memories", "hybrid", "documents"], { message: "searchMode must be memories, hybrid or documents" }).optional(),
  threshold: z.number().min(0).max(1).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
  include: z
    .object({
      documents: z.boolean().optional(),
      summaries: z.boolean().optional(),
      relatedMemories: z.boolean().optional(),
      forgottenMemories: z.boolean().optional(),
      chunks: z.boolean().optional(),
    })
    .strict()
    .optional(),
  rerank: z.boolean().optional(),
  aggregate: z.boolean().optional(),
  rewriteQuery: z.boolean().optional(),
  filepath: z.string().optional(),
});

export const pathNamespace = scope("namespace");
export const pathId = z.string().min(1).max(255, "id must be at most 255 characters");
