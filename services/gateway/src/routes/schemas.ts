import { z } from "zod";
import { protoEnum } from "@engram/grpc";
import { parseFilter } from "@engram/filters";
import { BUCKET_KEY_RE, CONNECTOR_PROVIDERS, DOCUMENT_STATUSES, isDomainError, PROFILE_BUCKET_LIMITS } from "@engram/kernel";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../http/json";

/**
 * A required string field: "<name> is required" when it is absent, "<name> must be a string" when it has another
 * type; other problems (too long, empty) keep their own messages.
 */
export const requiredString = (name: string) =>
  z.string({
    error: (iss) => (iss.code === "invalid_type" ? (iss.input === undefined ? `${name} is required` : `${name} must be a string`) : undefined),
  });

/** Validation of REST inputs (shapes per the spec and the OpenAPI description). */
export const SCOPE_RE = /^[A-Za-z0-9._:-]{1,100}$/;
export const scope = (field: string) => z.string().regex(SCOPE_RE, `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`);
export const customId = (field: string) => z.string().regex(SCOPE_RE, `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`);

const metadataValue = z.union([z.string(), z.number().finite(), z.boolean(), z.array(z.string())], {
  message: "metadata values must be strings, numbers, booleans or arrays of strings",
});
/**
 * At most 100 keys of 1-128 characters. A `__proto__` key would not survive
 * as a key of a JavaScript object (zod drops it), so it is refused by name
 * instead of being lost without a word. The key count is checked before the
 * keys are validated one by one, so a huge object costs nothing to refuse.
 */
export const metadata = z
  .unknown()
  .superRefine((v, ctx) => {
    if (typeof v !== "object" || v === null) return;
    if (Object.hasOwn(v, "__proto__")) ctx.addIssue({ code: "custom", message: "'__proto__' is not allowed as a metadata key" });
    if (!Array.isArray(v) && Object.keys(v).length > 100) ctx.addIssue({ code: "custom", message: "at most 100 metadata keys" });
  })
  .pipe(z.record(z.string().min(1).max(128), metadataValue));

export const taskType = z.enum(["memory", "superrag"], { message: "taskType must be memory or superrag" });
export const dreaming = z.enum(["dynamic", "instant"], { message: "dreaming must be dynamic or instant" });
const content = z.string({ message: "content must be a string" }).refine((s) => s.trim().length > 0, "content must not be empty");
const date = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "date must be an ISO 8601 date or date-time")
  .meta({ description: "An ISO 8601 date or date-time", example: "2025-01-15T10:30:00Z" });

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

export const pathNamespace = scope("namespace");
export const pathId = z.string().min(1).max(255, "id must be at most 255 characters");

// --- batch, list, delete, patch (documents release) ---

export const v5BatchEnvelope = z
  .object({
    documents: z
      .array(z.unknown(), { message: "documents must be an array" })
      .min(1, "documents must hold 1 to 600 items")
      .max(600, "documents must hold 1 to 600 items (got more than 600)"),
  })
  .strict();

/** A v3 batch item: the single-add body without a document date (OpenAPI). */
export const v3BatchItem = v3Document.omit({ documentDate: true });

export const v3BatchEnvelope = z
  .object({
    documents: z
      .array(z.unknown(), { message: "documents must be an array" })
      .min(1, "documents must hold 1 to 600 items")
      .max(600, "documents must hold 1 to 600 items (got more than 600)"),
    containerTag: scope("containerTag").optional(),
    containerTags: z.array(scope("containerTags[]")).max(100).optional(),
    metadata: metadata.optional(),
    taskType: taskType.optional(),
    filepath: z.string().max(1024).optional(),
    filterByMetadata: metadata.optional(),
    entityContext: z.string().max(1500).optional(),
    dreaming: dreaming.optional(),
    content: z.null().optional(),
  })
  .strict();

const intLike = (field: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, `${field} must be a whole number`)])
    .transform((v) => Number(v))
    .pipe(z.number().int(`${field} must be a whole number`).min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`));

export const listQuery = z
  .object({
    page: intLike("page", 1, 1_000_000).optional(),
    limit: intLike("limit", 1, 1100).optional(),
    sort: z.enum(["createdAt", "updatedAt"], { message: "sort must be createdAt or updatedAt" }).optional(),
    order: z.enum(["asc", "desc"], { message: "order must be asc or desc" }).optional(),
  })
  .strict();

/**
 * A filter, sent as an object or as its JSON string (OpenAPI: "a JSON string
 * or Query object"). It is validated here with the parser the services use
 * (`@engram/filters`: AND / OR at most 5 levels deep, at most 100 conditions,
 * strict conditions), so a malformed or oversized filter is a 400 naming the
 * problem before anything is sent over gRPC. The JSON string is checked for
 * depth before it is parsed, like a body. An empty object is no filter.
 */
export const filterValue = z.unknown().transform((v, ctx): Record<string, unknown> => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let f = v;
  if (typeof v === "string") {
    if (exceedsJsonDepth(v)) return refuse(`filters must be nested at most ${MAX_JSON_DEPTH} levels deep`);
    try {
      f = JSON.parse(v) as unknown;
    } catch {
      return refuse("filters must be a filter object or its JSON string");
    }
  }
  if (typeof f !== "object" || f === null || Array.isArray(f)) return refuse("filters must be a filter object or its JSON string");
  if (Object.keys(f).length > 0) {
    try {
      parseFilter(f);
    } catch (err) {
      if (!isDomainError(err)) throw err;
      return refuse(err.details ? `${err.message} (${err.details})` : err.message);
    }
  }
  return f as Record<string, unknown>;
});

export const v5ListBody = z.object({ filter: filterValue.optional(), filters: filterValue.optional() }).strict().optional();

export const v3ListBody = z
  .object({
    containerTags: z.array(scope("containerTags[]")).max(100).optional(),
    filters: filterValue.optional(),
    includeContent: z.boolean().optional(),
    limit: intLike("limit", 1, 1100).optional(),
    page: intLike("page", 1, 1_000_000).optional(),
    order: z.enum(["asc", "desc"], { message: "order must be asc or desc" }).optional(),
    sort: z.enum(["createdAt", "updatedAt"], { message: "sort must be createdAt or updatedAt" }).optional(),
    filepath: z.string().optional(),
    /** Engram extension: only documents in one of these states. */
    statuses: z
      .array(z.enum(DOCUMENT_STATUSES, { message: `statuses: each one of ${DOCUMENT_STATUSES.join(", ")}` }))
      .min(1, "statuses must name at least one status")
      .max(DOCUMENT_STATUSES.length)
      .optional()
      .meta({ description: "Engram extension: only documents in one of these processing states", example: ["failed"] }),
  })
  .strict();

export const idList = z
  .array(z.string().min(1, "ids must not be empty strings").max(255), { message: "ids must be an array of strings" })
  .min(1, "ids must hold 1 to 100 ids")
  .max(100, "ids must hold 1 to 100 ids (got more than 100)");

export const v5DeleteBody = z.object({ ids: idList }).strict();

export const v3BulkDeleteBody = z
  .object({
    ids: idList.optional(),
    containerTags: z.array(scope("containerTags[]")).min(1).max(100).optional(),
    filepath: z.string().min(1, "filepath must not be empty").max(1024).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.ids) !== Boolean(b.containerTags), "give either ids or containerTags")
  // A filepath narrows a delete by container tags; with ids it would be a second, conflicting selection.
  .refine((b) => b.filepath === undefined || b.containerTags !== undefined, "filepath goes with containerTags, not with ids");

/** PATCH /v3/documents/{id}: the add body's fields, every one optional (an empty body changes nothing). */
export const v3Patch = v3Document.omit({ entityContext: true, dreaming: true, documentDate: true }).partial().strict();

/** Multipart text parts: plain strings, metadata/group/filterByMetadata as JSON strings. */
const jsonPart = (field: string) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        if (!exceedsJsonDepth(s)) return JSON.parse(s) as unknown;
      } catch {
        /* refused below */
      }
      ctx.addIssue({ code: "custom", message: `${field} must be a JSON-encoded object` });
      return z.NEVER;
    })
    .pipe(metadata);

export const v5FileParts = z
  .object({
    id: customId("id").optional(),
    supportingContext: z.string().max(1500, "supportingContext must be at most 1500 characters").optional(),
    date: date.optional(),
    metadata: jsonPart("metadata").optional(),
    group: jsonPart("group").optional(),
  })
  .strict();

export const v3FileParts = z
  .object({
    containerTag: scope("containerTag").optional(),
    containerTags: z.string().optional(),
    fileType: z.string().max(32).optional(),
    mimeType: z.string().max(255).optional(),
    metadata: jsonPart("metadata").optional(),
    filterByMetadata: jsonPart("filterByMetadata").optional(),
    filepath: z.string().max(1024).optional(),
    useAdvancedProcessing: z.string().optional(),
    customId: customId("customId").optional(),
    entityContext: z.string().max(1500, "entityContext must be at most 1500 characters").optional(),
    taskType: taskType.optional(),
    dreaming: dreaming.optional(),
  })
  .strict();

export const fileQuery = z
  .object({
    fileType: z.string().max(32).optional(),
    mimeType: z.string().max(255).optional(),
    taskType: taskType.optional(),
    dreaming: dreaming.optional(),
  })
  .strict();

// --- memories and recall (memories release) ---

/** OpenAPI container tag of the memories and profile operations (required there). */
const requiredTag = scope("containerTag");
const optionalText = (field: string, max: number) => z.string().max(max, `${field} must be at most ${max} characters`).nullable();
const instant = (field: string) =>
  z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), `${field} must be an ISO 8601 date-time`)
    .meta({ format: "date-time", example: "2026-06-01T00:00:00Z" })
    .nullable();

export const temporalContext = z
  .object({
    documentDate: instant("temporalContext.documentDate").optional(),
    /** Plain strings as the description types them (an ISO date, a month, "spring 2026"), kept as given. */
    eventDate: z
      .array(z.string().trim().min(1, "eventDate items must not be empty").max(100, "eventDate items must be at most 100 characters"))
      .max(100)
      .nullable()
      .optional(),
  })
  .strict();

export const memoryInput = z
  .object({
    content: z.string({ message: "content must be a string" }).min(1, "content must not be empty").max(10_000, "content must be at most 10000 characters"),
    isStatic: z.boolean().optional(),
    metadata: metadata.optional(),
    forgetAfter: instant("forgetAfter").optional(),
    forgetReason: optionalText("forgetReason", 1000).optional(),
    temporalContext: temporalContext.optional(),
  })
  .strict();

export const v4CreateMemories = z
  .object({
    memories: z
      .array(memoryInput, { message: "memories must be an array" })
      .min(1, "memories must hold 1 to 100 items")
      .max(100, "memories must hold 1 to 100 items (got more than 100)"),
    containerTag: requiredTag,
  })
  .strict();

/** A memory named by id or by its exact content (PATCH and DELETE /v4/memories). */
const memorySelector = {
  id: z.string().min(1).max(255).optional(),
  content: z.string().min(1).max(10_000).optional(),
  containerTag: requiredTag,
};
/** The id, the exact content, or both (then the id decides, as the description says content is for when there is no id). */
const oneSelector = (b: { id?: string; content?: string }) => b.id !== undefined || b.content !== undefined;
const SELECTOR_MESSAGE = "give the memory's id or its exact content";

export const v4UpdateMemory = z
  .object({
    ...memorySelector,
    newContent: requiredString("newContent").min(1, "newContent must not be empty").max(10_000),
    metadata: metadata.nullable().optional(),
    forgetAfter: instant("forgetAfter").optional(),
    forgetReason: optionalText("forgetReason", 1000).optional(),
    temporalContext: temporalContext.nullable().optional(),
  })
  .strict()
  .refine(oneSelector, SELECTOR_MESSAGE);

export const v4ForgetMemory = z
  .object({ ...memorySelector, reason: z.string().max(1000).optional() })
  .strict()
  .refine(oneSelector, SELECTOR_MESSAGE);

export const v4ForgetMatching = z
  .object({
    query: z.string().min(1, "query must not be empty").max(2000, "query must be at most 2000 characters").optional(),
    /** The OpenAPI example sends `q`; accepted as the same field. */
    q: z.string().min(1, "q must not be empty").max(2000, "q must be at most 2000 characters").optional(),
    ids: z.array(z.string().min(1).max(255)).min(1, "ids must hold 1 to 500 ids").max(500, "ids must hold 1 to 500 ids (got more than 500)").optional(),
    containerTag: requiredTag,
    dryRun: z.boolean().optional(),
    threshold: z.number().min(0).max(1).optional(),
    maxForget: z.number().int().min(1).max(500).optional(),
    reason: z.string().max(1000).optional(),
  })
  .strict()
  .refine((b) => !(b.query && b.q), "send the query once, as query")
  .refine((b) => Boolean(b.query ?? b.q) !== Boolean(b.ids), "give either query or ids");

export const v4ListMemories = z
  .object({
    containerTags: z.array(scope("containerTags[]")).min(1, "containerTags must name at least one container tag").max(100).optional(),
    /** The OpenAPI example sends a single `containerTag`; accepted. */
    containerTag: scope("containerTag").optional(),
    filters: filterValue.optional(),
    limit: intLike("limit", 1, 1100).optional(),
    page: intLike("page", 1, 1_000_000).optional(),
    order: z.enum(["asc", "desc"], { message: "order must be asc or desc" }).optional(),
    sort: z.enum(["createdAt", "updatedAt"], { message: "sort must be createdAt or updatedAt" }).optional(),
    includeForgotten: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.containerTags || b.containerTag, "containerTags are required");

export const v5ForgetIds = z.object({ ids: idList }).strict();

export const v5ForgetSemantic = z
  .object({
    query: requiredString("query").min(1, "query must not be empty").max(2000, "query must be at most 2000 characters"),
    dryRun: z.boolean().optional(),
  })
  .strict();

export const v3Search = z
  .object({
    q: requiredString("q").min(1, "q must not be empty").max(10_000),
    chunkThreshold: z.number().min(0).max(1).optional(),
    containerTag: scope("containerTag").optional(),
    containerTags: z.array(scope("containerTags[]")).max(100).optional(),
    docId: z.string().min(1).max(255).optional(),
    documentThreshold: z.number().min(0).max(1).optional(),
    filters: filterValue.optional(),
    includeFullDocs: z.boolean().optional(),
    includeSummary: z.boolean().optional(),
    limit: z.number().int().min(1).max(100).optional(),
    onlyMatchingChunks: z.boolean().optional(),
    rerank: z.boolean().optional(),
    rewriteQuery: z.boolean().optional(),
    categoriesFilter: z.array(z.string().max(256)).max(100).optional(),
    filepath: z.string().max(1024).optional(),
  })
  .strict();

export const v4Profile = z
  .object({
    q: z.string().max(10_000).optional(),
    containerTag: requiredTag,
    threshold: z.number().min(0).max(1).optional(),
    filters: filterValue.optional(),
    include: z
      .array(z.enum(["static", "dynamic", "buckets"], { message: "include accepts static, dynamic and buckets" }))
      .max(16, "include holds at most 16 items")
      .optional(),
    buckets: z.array(z.string().min(1).max(64)).max(50).optional(),
  })
  .strict();

export const v4ProfileBuckets = z.object({ containerTag: requiredTag }).strict();

export const v4Search = z
  .object({
    q: requiredString("q").min(1, "q must not be empty").max(10_000),
    containerTag: scope("containerTag").optional(),
    containerTags: z.array(scope("containerTags[]")).max(100).optional(),
    searchMode: z.enum(["memories", "hybrid", "documents"], { message: "searchMode must be memories, hybrid or documents" }).optional(),
    threshold: z.number().min(0).max(1).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    filters: filterValue.optional(),
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
    filepath: z.string().max(1024).optional(),
  })
  // Like every body: unknown fields are refused, by name (docs/api-decisions.md section 20).
  .strict();

// --- settings (PATCH /v3/settings) ---

/** Custom OAuth apps: REST field prefix per provider (`<prefix>ClientId`, `<prefix>ClientSecret`, `<prefix>CustomKeyEnabled`). */
export const SETTINGS_OAUTH_PROVIDERS = [
  { prefix: "googleDrive", provider: "google-drive", proto: protoEnum.provider.to("google-drive") },
  { prefix: "notion", provider: "notion", proto: protoEnum.provider.to("notion") },
  { prefix: "onedrive", provider: "onedrive", proto: protoEnum.provider.to("onedrive") },
  { prefix: "github", provider: "github", proto: protoEnum.provider.to("github") },
] as const;

const ITEMS_MAX_BYTES = 64 * 1024;
const ITEMS_MAX_DEPTH = 32;

function jsonDepth(v: unknown, limit: number, depth = 0): number {
  if (depth > limit) return depth;
  const children = Array.isArray(v) ? v : v !== null && typeof v === "object" ? Object.values(v) : undefined;
  if (!children) return depth;
  return children.reduce<number>((m, x) => Math.max(m, jsonDepth(x, limit, depth + 1)), depth + 1);
}

/** include/excludeItems: any JSON value (null clears), bounded in depth and size. */
const settingsItems = (field: string) =>
  z.unknown().superRefine((v, ctx) => {
    if (v === null || v === undefined) return;
    if (jsonDepth(v, ITEMS_MAX_DEPTH) > ITEMS_MAX_DEPTH)
      ctx.addIssue({ code: "custom", message: `${field} must be nested at most ${ITEMS_MAX_DEPTH} levels deep` });
    else if (Buffer.byteLength(JSON.stringify(v), "utf8") > ITEMS_MAX_BYTES)
      ctx.addIssue({ code: "custom", message: `${field} must be at most ${ITEMS_MAX_BYTES} bytes of JSON` });
  });

const nullableString = (field: string, max: number, opts: { nonEmpty?: boolean } = {}) =>
  z
    .string({ message: `${field} must be a string or null` })
    .max(max, `${field} must be at most ${max} characters`)
    .refine((s) => !opts.nonEmpty || s.length > 0, `${field} must not be empty; send null to remove it`)
    .nullable();

const nullableBoolean = (field: string) => z.boolean({ message: `${field} must be a boolean or null` }).nullable();

const profileBucket = z
  .object({
    key: z
      .string({ message: "key is required and must be a string" })
      .min(1, `key must be 1-${PROFILE_BUCKET_LIMITS.key} characters`)
      .max(PROFILE_BUCKET_LIMITS.key, `key must be 1-${PROFILE_BUCKET_LIMITS.key} characters`)
      .regex(BUCKET_KEY_RE, "key must be lowercase letters, digits, '_' and '-', starting with a letter or digit"),
    description: z
      .string({ message: "description must be a string" })
      .max(PROFILE_BUCKET_LIMITS.description, `description must be at most ${PROFILE_BUCKET_LIMITS.description} characters`)
      .optional(),
  })
  .strict();

export const profileBuckets = z
  .array(profileBucket, { message: "profileBuckets must be an array of {key, description}" })
  .max(PROFILE_BUCKET_LIMITS.buckets, `profileBuckets holds at most ${PROFILE_BUCKET_LIMITS.buckets} buckets`)
  .superRefine((buckets, ctx) => {
    const seen = new Set<string>();
    buckets.forEach((b, i) => {
      if (seen.has(b.key)) ctx.addIssue({ code: "custom", path: [i, "key"], message: `duplicate bucket key '${b.key}'` });
      seen.add(b.key);
    });
  });

/** First form of the PATCH body (OpenAPI anyOf): the workspace prompt alone. */
export const workspacePromptPatch = z.object({ workspacePrompt: nullableString("workspacePrompt", 1500) }).strict();

const clientId = (field: string) => nullableString(field, 1024, { nonEmpty: true }).optional();
const clientSecret = (field: string) => nullableString(field, 4096, { nonEmpty: true }).optional();
const customKeyEnabled = (field: string) => nullableBoolean(field).optional();

/** Second form of the PATCH body: any of the other settings (strict; profileBuckets is not nullable). */
export const orgSettingsPatch = z
  .object({
    excludeItems: settingsItems("excludeItems").optional(),
    includeItems: settingsItems("includeItems").optional(),
    filterPrompt: nullableString("filterPrompt", 20_000).optional(),
    shouldLLMFilter: nullableBoolean("shouldLLMFilter").optional(),
    chunkSize: z
      .number({ message: "chunkSize must be an integer or null" })
      .int("chunkSize must be an integer")
      .min(-2_147_483_648, "chunkSize must be a 32-bit integer")
      .max(2_147_483_647, "chunkSize must be a 32-bit integer")
      .nullable()
      .optional(),
    profileBuckets: profileBuckets.optional(),
    googleDriveClientId: clientId("googleDriveClientId"),
    googleDriveClientSecret: clientSecret("googleDriveClientSecret"),
    googleDriveCustomKeyEnabled: customKeyEnabled("googleDriveCustomKeyEnabled"),
    notionClientId: clientId("notionClientId"),
    notionClientSecret: clientSecret("notionClientSecret"),
    notionCustomKeyEnabled: customKeyEnabled("notionCustomKeyEnabled"),
    onedriveClientId: clientId("onedriveClientId"),
    onedriveClientSecret: clientSecret("onedriveClientSecret"),
    onedriveCustomKeyEnabled: customKeyEnabled("onedriveCustomKeyEnabled"),
    githubClientId: clientId("githubClientId"),
    githubClientSecret: clientSecret("githubClientSecret"),
    githubCustomKeyEnabled: customKeyEnabled("githubCustomKeyEnabled"),
    allowedRedirectOrigins: z
      .array(z.string({ message: "allowedRedirectOrigins[] must be strings" }).max(2048), {
        message: "allowedRedirectOrigins must be a list of origins or null",
      })
      .max(50, "allowedRedirectOrigins: at most 50 origins")
      .nullable()
      .optional()
      .meta({
        description:
          "Engram extension: the origins (https://app.example.com; http only for localhost) a connection's redirectUrl may point to. The deployment's own ENGRAM_PUBLIC_URL origin is always allowed. Replaces the list; null or [] clears it.",
      }),
  })
  .strict();

// --- connections (/v3/connections...) ---

export const connectorProvider = z.enum(CONNECTOR_PROVIDERS, { message: `provider must be one of ${CONNECTOR_PROVIDERS.join(", ")}` });
/** The OpenAPI description's container tag pattern for connections (no '.'). */
const connectionTag = (field: string) => z.string().regex(/^[A-Za-z0-9_:-]{1,100}$/, `${field} must be 1-100 characters of letters, digits, '-', '_' and ':'`);
const connectionTags = z.array(connectionTag("containerTags[]")).max(100);
/** Flat metadata of a connection: string, number and boolean values. */
const connectionMetadata = z
  .unknown()
  .superRefine((v, ctx) => {
    if (typeof v === "object" && v !== null && Object.hasOwn(v, "__proto__"))
      ctx.addIssue({ code: "custom", message: "'__proto__' is not allowed as a metadata key" });
    if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length > 100)
      ctx.addIssue({ code: "custom", message: "at most 100 metadata keys" });
  })
  .pipe(
    z.record(
      z.string().min(1).max(128),
      z.union([z.string().max(4096), z.number().finite(), z.boolean()], { message: "connection metadata values must be strings, numbers or booleans" }),
    ),
  );

const LOOPBACK_HOST = /^(localhost|.+\.localhost|\[::1\]|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;
/**
 * Where the OAuth callback sends the browser: https (http only on a loopback
 * host); javascript:, data:, vbscript:, file: and the rest are refused. The
 * connections service also checks the origin against the organisation's
 * allowedRedirectOrigins.
 */
export const redirectUrl = z
  .string()
  .max(2048, "redirectUrl must be at most 2048 characters")
  .superRefine((v, ctx) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return void ctx.addIssue({ code: "custom", message: "redirectUrl must be an absolute URL" });
    }
    if (u.protocol === "http:" ? !LOOPBACK_HOST.test(u.hostname) : u.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: `redirectUrl must be an https URL (http only for localhost); ${u.protocol} is not allowed` });
    else if (u.username || u.password) ctx.addIssue({ code: "custom", message: "redirectUrl must not contain credentials" });
  })
  .meta({ format: "uri", description: "An https URL (http only for localhost) whose origin the organisation allows (allowedRedirectOrigins)" });

export const createConnectionBody = z
  .object({
    containerTag: connectionTag("containerTag").optional(),
    containerTags: connectionTags.optional(),
    documentLimit: z.number().int("documentLimit must be an integer").min(1).max(10_000).optional(),
    metadata: connectionMetadata.nullable().optional(),
    redirectUrl: redirectUrl.optional(),
  })
  .strict();
export const listConnectionsBody = z.object({ containerTags: connectionTags.optional() }).strict();
/** Body of the by-provider operations that name container tags (required for the single-connection ones). */
export const providerTagsBody = z.object({ containerTags: connectionTags.min(1, "containerTags must name at least one container tag") }).strict();
export const optionalProviderTagsBody = z.object({ containerTags: connectionTags.optional() }).strict();
export const connectionIdParam = z.string().min(1).max(100, "connectionId must be at most 100 characters");
export const deleteConnectionQuery = z
  .object({
    deleteDocuments: z.enum(["true", "false"], { message: "deleteDocuments must be true or false" }).optional(),
  })
  .passthrough();
export const resourcesQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).optional(),
    per_page: z.coerce.number().int().min(1).max(100).optional(),
    parent_id: z.string().max(1024).optional(),
  })
  .passthrough();
/** Most sync runs a connection keeps (the connections service prunes the rest), so the most a page can hold. */
export const SYNC_RUNS_MAX = 100;
/** GET /v3/connections/{connectionId}/runs (Engram extension): how many of the newest runs; unknown parameters are 400. */
export const connectionRunsQuery = z
  .object({
    limit: intLike("limit", 1, SYNC_RUNS_MAX)
      .default(20)
      .meta({ description: `How many of the newest runs to answer (1-${SYNC_RUNS_MAX})`, example: 20 }),
  })
  .strict();
export const configureBody = z
  .object({
    resources: z.array(z.record(z.string().max(128), z.unknown()), { message: "resources must be an array of objects" }).max(1000),
  })
  .strict();
export const oauthCallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(4096).optional(),
    error: z.string().max(1024).optional(),
    error_description: z.string().max(4096).optional(),
  })
  .passthrough();

const conversationPart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().max(200_000) }).strict(),
  z.object({ type: z.literal("image_url"), imageUrl: z.object({ url: z.string().url("imageUrl.url must be a URL").max(4096) }).strict() }).strict(),
]);

const conversationIdOf = (field: string) =>
  z
    .string({ message: `${field} must be a string` })
    .min(1, `${field} must not be empty`)
    .max(255, `${field} must be at most 255 characters`);

/**
 * POST /v4/conversations, as the OpenAPI description gives it, plus the two
 * aliases its own cURL sample sends (docs/api-decisions.md section 20):
 * `customId` for `conversationId` (one of the two, required) and `containerTag`
 * beside `containerTags` (it comes first: it names the conversation's container).
 * `conversationRequest` gives the canonical fields.
 */
export const v4Conversation = z
  .object({
    conversationId: conversationIdOf("conversationId").optional().meta({ description: "The conversation's id (or send it as `customId`)" }),
    customId: conversationIdOf("customId")
      .optional()
      .meta({ description: "Alias of `conversationId` (the description's cURL sample sends it): send one of the two", example: "chat_offsite_2026" }),
    containerTag: scope("containerTag")
      .optional()
      .meta({ description: "Alias: one container tag, as `containerTags` [containerTag] (first, when both are sent)", example: "user_123" }),
    messages: z
      .array(
        z
          .object({
            role: z.enum(["user", "assistant", "system", "tool"], { message: "role must be user, assistant, system or tool" }),
            content: z.union([z.string().max(200_000), z.array(conversationPart).max(100)]),
            name: z.string().max(100).optional(),
            tool_calls: z.array(z.unknown()).max(100).optional(),
            tool_call_id: z.string().max(255).optional(),
          })
          .strict(),
      )
      .min(1, "messages must hold at least one message")
      .max(10_000, "messages: at most 10000"),
    containerTags: z.array(scope("containerTags[]")).max(20).optional(),
    metadata: metadata.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.conversationId === undefined && b.customId === undefined)
      ctx.addIssue({ code: "custom", path: ["conversationId"], message: "conversationId is required (or its alias customId)" });
    else if (b.conversationId !== undefined && b.customId !== undefined)
      ctx.addIssue({ code: "custom", path: ["customId"], message: "customId is an alias of conversationId: send one of the two" });
    if (b.containerTag !== undefined && (b.containerTags?.filter((t) => t !== b.containerTag).length ?? 0) >= 20)
      ctx.addIssue({ code: "custom", path: ["containerTags"], message: "containerTag and containerTags name at most 20 container tags together" });
  });

/** A conversation body in its canonical fields: the id whichever name it came under, containerTag first among the tags. */
export function conversationRequest(b: z.infer<typeof v4Conversation>) {
  const { customId, containerTag, conversationId, containerTags, ...rest } = b;
  const tags = containerTag !== undefined ? [containerTag, ...(containerTags ?? []).filter((t) => t !== containerTag)] : containerTags;
  return { ...rest, conversationId: (conversationId ?? customId)!, containerTags: tags };
}
