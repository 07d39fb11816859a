import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig, zodToOpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { filterConditionSchema, MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH } from "@engram/filters";
import { CONNECTION_STATUSES, CONNECTOR_PROVIDERS, DOCUMENT_STATUSES, STORAGE_PARTS, SYNC_ERROR_CODES, SYNC_RUN_STATUSES, SYNC_TRIGGERS } from "@engram/kernel";
import { CONTAINER_TAG_HEADER } from "../mcp/mcp.routes";
import { containerTagMerge, containerTagPatch, mergeIdParam } from "../routes/container-tags.routes";
import * as S from "../routes/schemas";
import { createKeyBody, keyIdParam, MAX_ACTIVE_KEYS_PER_TENANT } from "../routes/keys.routes";
import { SCOPES } from "../auth/scopes";
import { ruleFor } from "../http/authorize";
import { isCreatingPost, quotaRouteOf } from "../guards/creating-posts";
import { IDEMPOTENCY_KEY } from "../guards/idempotency";
import { resetBody } from "../routes/settings.routes";

/**
 * The OpenAPI 3.1 description of every route the gateway serves, generated
 * from the zod schemas the routes validate with (request bodies, path and
 * query parameters): one source of truth. What a schema cannot say by itself
 * (a value checked in code, like metadata and filters) is annotated here;
 * rules across fields (`give either query or ids`) are in the operation's
 * description. Every JSON answer is described field by field (only the
 * description itself and the MCP endpoint's JSON-RPC answers stay a plain
 * object); every 4xx and 5xx is the API's `ErrorResponse`.
 *
 * test/unit/openapi.test.ts fails when the app routes a METHOD + path this
 * description does not have (and the reverse), and when a body the
 * description calls valid is refused by the route's validation, or an
 * invalid one is not.
 */

type Method = RouteConfig["method"];
type ZodType = z.ZodType;

/** One operation: what the registry needs plus whether it needs the API key. */
interface Operation {
  method: Method;
  /** OpenAPI path template (`/v3/documents/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  description?: string;
  /** Open routes (health, metrics, file links, provider callbacks, this description): no key. */
  open?: boolean;
  params?: Record<string, ZodType>;
  query?: z.ZodObject;
  headers?: Record<string, ZodType>;
  body?: { schema: ZodType; example?: unknown; required?: boolean };
  /** multipart/form-data: the text parts (the `file` part is added). */
  multipart?: ZodType;
  /** Any other body (raw bytes, JSON-RPC): its media type and a permissive schema. */
  rawBody?: { mediaType: string; schema: ZodType; description: string; example?: unknown };
  /** Success status (200 unless said) and its body. */
  ok?: { status?: number; description: string; schema?: ZodType; mediaType?: string };
  /** Extra documented statuses (besides 400/401/404/500/503 set by default). */
  errors?: Record<number, string>;
}

// --- shared schemas ---

const ErrorResponse = z
  .object({
    error: z.string().meta({ description: "What went wrong, in a few words", example: "Invalid request" }),
    details: z.string().optional().meta({ description: "Which field or rule, or an error id to quote", example: "q: q must not be empty" }),
  })
  .meta({ id: "ErrorResponse", description: "The body of every 4xx and 5xx answer" });

/** A JSON answer described in words only (its shape is the hosted API's, see the public description). */
const jsonObject = (description: string) => z.object({}).catchall(z.unknown()).meta({ description });

const Status = (example: string) => z.object({ id: z.string(), status: z.string().meta({ example }) }).meta({ description: "The document's id and status" });
const Pagination = z
  .object({ currentPage: z.number(), limit: z.number().optional(), totalItems: z.number(), totalPages: z.number() })
  .catchall(z.unknown())
  .meta({ id: "Pagination" });

const MemorySource = z
  .object({
    documentId: z.string(),
    chunkPositions: z
      .array(z.number().int())
      .meta({ description: "0-based positions of the chunks the memory was formed from (GET /v3/documents/{id}/chunks)" }),
  })
  .meta({ id: "MemorySource", description: "Engram extension: where a memory came from, down to the chunk" });
const MemoryEntry = z
  .object({
    id: z.string(),
    memory: z.string(),
    version: z.number().int(),
    isLatest: z.boolean(),
    isForgotten: z.boolean(),
    isStatic: z.boolean(),
    parentMemoryId: z.string().nullable(),
    rootMemoryId: z.string().nullable(),
    memoryRelations: z.record(z.string(), z.enum(["updates", "extends", "derives"])).nullable(),
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    forgetAfter: z.string().nullable(),
    forgetReason: z.string().nullable(),
    history: z
      .array(
        z
          .object({
            id: z.string(),
            memory: z.string(),
            version: z.number().int(),
            createdAt: z.string().nullable(),
            updatedAt: z.string().nullable(),
            parentMemoryId: z.string().nullable(),
            rootMemoryId: z.string().nullable(),
            isLatest: z.boolean(),
            isForgotten: z.boolean(),
          })
          .meta({ id: "MemoryVersion", description: "An earlier version of a memory" }),
      )
      .optional()
      .meta({ description: "Earlier versions, oldest first" }),
    documentIds: z.array(z.string()),
    sources: z.array(MemorySource),
  })
  .catchall(z.unknown())
  .meta({ id: "MemoryEntry", description: "A memory with its versions, relations and provenance" });

const namespace = { namespace: S.pathNamespace.meta({ description: "The container (namespace) of the operation", example: "user_123" }) };
const documentId = { id: S.pathId.meta({ description: "The document's id or its caller id (customId)", example: "doc-api-rate-limits" }) };
const provider = S.connectorProvider.meta({ description: "The provider" });
const connectionId = S.connectionIdParam.meta({ description: "The connection's id" });
const containerTagParam = { containerTag: S.scope("containerTag").meta({ description: "The container tag", example: "user_123" }) };
const ApiKey = z
  .object({
    id: z.string().meta({ example: "k_0123456789ABCDEFabcd" }),
    name: z.string().meta({ example: "ci" }),
    prefix: z.string().meta({ description: "The key's first characters, to recognise it", example: "sk_engram_0123" }),
    createdAt: z.string().meta({ example: "2025-01-15T10:30:00.000Z" }),
    revokedAt: z.string().nullable().meta({ description: "When it was revoked; null while active" }),
    current: z.boolean().meta({ description: "Whether this is the key making the request" }),
    scopes: z
      .array(z.enum(SCOPES))
      .meta({ description: "What the key may do (keys created before scoped keys have all three)", example: ["read", "write", "admin"] }),
    containerTags: z
      .array(z.string())
      .nullable()
      .meta({ description: "The container tags the key is limited to; null: every container tag of the tenant", example: null }),
  })
  .meta({ id: "ApiKey" });
/** A sync run as presentSyncRun answers it (a connection's lastSyncRun, and GET /v3/connections/{connectionId}/runs). */
const SyncRun = z
  .object({
    status: z.enum(SYNC_RUN_STATUSES),
    errorCode: z.enum(SYNC_ERROR_CODES).nullable(),
    error: z.string().nullable().meta({ description: "Why it failed, or how many items failed and the first reason" }),
    startedAt: z.string().meta({ example: "2025-01-15T10:30:00.000Z" }),
    completedAt: z.string().optional().meta({ description: "Absent while it runs", example: "2025-01-15T10:31:00.000Z" }),
    documentsImported: z.number().int().meta({ description: "Engram extension: documents the run imported or re-imported" }),
    trigger: z.enum(SYNC_TRIGGERS).nullable().meta({ description: "Engram extension: what started the run" }),
  })
  .meta({ id: "SyncRun" });
// --- answers (what the presenters in routes/presenters.ts write; tests/e2e/test/openapi.e2e.test.ts checks live answers against them) ---

const when = z.string().nullable().meta({ description: "ISO 8601 time, or null when unknown", example: "2025-01-15T10:30:00.000Z" });
const metadataAnswer = z
  .record(z.string(), z.unknown())
  .nullable()
  .meta({ description: "The document's metadata", example: { team: "platform" } });
const DocumentListItem = z
  .object({
    id: z.string(),
    customId: z.string().nullable(),
    connectionId: z.string().nullable(),
    containerTags: z.array(z.string()),
    createdAt: when,
    updatedAt: when,
    filepath: z.string().nullable(),
    metadata: metadataAnswer,
    status: z.enum(DOCUMENT_STATUSES),
    summary: z.string().nullable(),
    title: z.string().nullable(),
    type: z.string(),
    url: z.string().nullable(),
    content: z.string().optional().meta({ description: "With includeContent, unless the answer's content budget left it out" }),
    contentOmitted: z.literal(true).optional().meta({
      description:
        "With includeContent: this document's content did not fit in the answer's content budget (see contentLimit); read it with GET /v3/documents/{id}",
    }),
    failureReason: z
      .string()
      .optional()
      .meta({ description: "Engram extension: why processing failed (only when status is failed)", example: "the URL answered 404" }),
  })
  .catchall(z.unknown())
  .meta({ id: "DocumentListItem" });
const ContentLimit = z
  .object({
    maxBytes: z.number().int().meta({ description: "Most content bytes (UTF-8) one listing carries (INGESTION_LIST_MAX_CONTENT_BYTES)", example: 33554432 }),
    omittedDocuments: z.number().int().meta({ description: "Documents of this page listed without their content (marked contentOmitted)", example: 3 }),
    details: z.string(),
  })
  .meta({
    id: "ContentLimit",
    description:
      "Present only when a listing with content reached its content budget: documents are taken in page order, each with its whole content or none; the page and its pagination are unchanged",
  });
const V3Document = z
  .object({
    id: z.string(),
    customId: z.string().nullable(),
    connectionId: z.string().nullable(),
    content: z.string().nullable(),
    containerTags: z.array(z.string()),
    createdAt: when,
    updatedAt: when,
    metadata: metadataAnswer,
    status: z.enum(DOCUMENT_STATUSES),
    dreamingStatus: z.enum(["dreaming", "done"]),
    summary: z.string().nullable(),
    title: z.string().nullable(),
    type: z.string().nullable(),
    url: z.string().nullable(),
    filepath: z.string().nullable(),
    source: z.string().nullable(),
    taskType: z.string(),
    failureReason: z
      .string()
      .optional()
      .meta({ description: "Engram extension: why processing failed (only when status is failed)", example: "the URL answered 404" }),
  })
  .catchall(z.unknown())
  .meta({ id: "Document" });
const Chunk = z
  .object({
    id: z.string(),
    documentId: z.string(),
    position: z.number().int().meta({ description: "0-based; what a memory's sources[].chunkPositions name" }),
    content: z.string(),
    startOffset: z.number().int(),
    endOffset: z.number().int(),
    tokenCount: z.number().int(),
    type: z.enum(["text", "image"]),
    createdAt: when,
  })
  .meta({ id: "Chunk" });
const SearchDocument = z
  .object({
    id: z.string(),
    title: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    metadata: metadataAnswer.optional(),
    summary: z.string().nullable().optional(),
    createdAt: when,
    updatedAt: when,
  })
  .catchall(z.unknown());
const ContextEntry = z
  .object({
    relation: z.enum(["updates", "extends", "derives"]),
    version: z.number().int().optional().meta({ description: "Relative version in the chain (negative: earlier)" }),
    memory: z.string(),
    metadata: metadataAnswer,
    updatedAt: when,
  })
  .meta({ id: "MemoryContextEntry" });
const SearchResult = z
  .object({
    id: z.string().meta({ description: "A memory's id, or a chunk's" }),
    similarity: z.number(),
    updatedAt: when,
    metadata: metadataAnswer,
    memory: z.string().optional().meta({ description: "A memory result's text" }),
    version: z.number().int().optional(),
    chunk: z.string().optional().meta({ description: "A chunk result's text" }),
    documentId: z.string().optional().meta({ description: "A chunk result's document (Engram addition)" }),
    documents: z.array(SearchDocument).optional(),
    chunks: z.array(z.object({ content: z.string(), score: z.number(), position: z.number().int(), documentId: z.string() })).optional(),
    filepath: z.string().optional().meta({ description: "A memory result's path, when it has one" }),
    isAggregated: z.boolean().optional().meta({ description: "Set on a memory aggregated from several" }),
    context: z
      .object({ parents: z.array(ContextEntry), children: z.array(ContextEntry), related: z.array(ContextEntry) })
      .optional()
      .meta({ description: "With include.relatedMemories: the memory's versions and relations" }),
  })
  .catchall(z.unknown())
  .meta({ id: "SearchResult", description: "A memory result (memory, version) or a chunk result (chunk, documentId)" });
const SearchResults = z.object({ results: z.array(SearchResult), timing: z.number(), total: z.number() });
const ForgetCandidate = z.object({ id: z.string(), memory: z.string(), score: z.number() });
const ForgetMatchingAnswer = z
  .object({
    dryRun: z.boolean(),
    count: z.number().int(),
    forgetBatchId: z.string().nullable(),
    summary: z.string(),
    candidates: z.array(ForgetCandidate).optional().meta({ description: "With dryRun: what would be forgotten" }),
    forgotten: z.array(ForgetCandidate).optional().meta({ description: "Without dryRun: what was forgotten" }),
  })
  .meta({ id: "ForgetMatchingResponse" });
const ProfileAnswer = z
  .object({
    profile: z.object({
      static: z.array(z.string()).optional(),
      dynamic: z.array(z.string()).optional(),
      buckets: z.record(z.string(), z.array(z.string())).optional(),
    }),
    searchResults: SearchResults.optional().meta({ description: "With q: the memories that answer it" }),
  })
  .meta({ id: "ProfileResponse" });
const ConnectionAnswer = z
  .object({
    id: z.string(),
    provider: z.enum([...CONNECTOR_PROVIDERS, "unknown"]),
    email: z.string().optional(),
    documentLimit: z.number().int().optional(),
    createdAt: when,
    expiresAt: when.optional(),
    metadata: z.record(z.string(), z.unknown()),
    containerTags: z.array(z.string()),
    status: z.enum(CONNECTION_STATUSES).nullable().meta({ description: "Engram extension: where the connection stands" }),
    lastSyncRun: SyncRun.optional(),
  })
  .catchall(z.unknown())
  .meta({ id: "Connection" });
const V5Document = z
  .object({
    id: z.string().meta({ description: "The caller's id when it has one, else the service id" }),
    content: z.string().meta({ description: 'In a listing: "" when the answer\'s content budget left it out (contentOmitted)' }),
    contentOmitted: z.literal(true).optional().meta({
      description: "In a listing: the content did not fit in the answer's content budget (see contentLimit); read it with GET /ns/{namespace}/document/{id}",
    }),
    metadata: z.record(z.string(), z.unknown()),
    system: z.object({ status: z.enum(DOCUMENT_STATUSES), createdAt: when, updatedAt: when, failureReason: z.string().optional() }).catchall(z.unknown()),
    chunks: z.array(Chunk).optional().meta({ description: "With include=chunks" }),
    memories: z.array(MemoryEntry).optional().meta({ description: "With include=memories: the memories formed from it" }),
  })
  .catchall(z.unknown())
  .meta({ id: "V5Document" });
const V5List = z
  .object({
    documents: z.array(V5Document),
    chunks: z.array(Chunk),
    memories: z.array(MemoryEntry),
    pagination: Pagination,
    contentLimit: ContentLimit.optional(),
  })
  .meta({ id: "V5ListResponse", description: "One page: the listed kind is filled, the other two arrays are empty" });
const CreatedMemory = z
  .object({
    id: z.string(),
    memory: z.string(),
    isStatic: z.boolean(),
    createdAt: when,
    forgetAfter: when,
    forgetReason: z.string().nullable(),
    metadata: metadataAnswer,
  })
  .catchall(z.unknown());
const UpdatedMemory = z
  .object({
    id: z.string().meta({ description: "The new version's id" }),
    memory: z.string(),
    version: z.number().int(),
    parentMemoryId: z.string().nullable(),
    rootMemoryId: z.string().nullable(),
    createdAt: when,
    forgetAfter: when,
    forgetReason: z.string().nullable(),
    metadata: metadataAnswer,
  })
  .catchall(z.unknown())
  .meta({ id: "UpdatedMemory" });
const ContainerTagItem = z
  .object({
    id: z.string(),
    name: z.string(),
    containerTag: z.string(),
    description: z.string().nullable(),
    createdAt: when,
    updatedAt: when,
    documentCount: z.number().int().meta({ description: "Engram extension: the documents in the tag, whatever their state" }),
    memoryCount: z.number().int().meta({ description: "Engram extension: the tag's latest, not forgotten memories" }),
    lastActivityAt: when.meta({ description: "Engram extension: the latest document or memory change in the tag; null when unknown" }),
  })
  .catchall(z.unknown())
  .meta({ id: "ContainerTag" });
const ItemError = z.object({ id: z.string(), error: z.string() }).meta({ id: "ItemError", description: "An item the operation could not act on, and why" });
const ForgetAnswerV5 = z
  .object({
    count: z.number().int().meta({ description: "How many were forgotten (with dryRun: would be)" }),
    matches: z.array(ForgetCandidate),
    errors: z.array(ItemError),
  })
  .meta({ id: "ForgetResponseV5" });
const V5BatchAnswer = z
  .object({
    count: z.number().int().meta({ description: "Items accepted" }),
    failed: z.number().int().meta({ description: "Items refused" }),
    results: z
      .array(
        z.union([
          z.object({ id: z.string().meta({ description: "The caller's id when it gave one, else the service id" }), status: z.enum(DOCUMENT_STATUSES) }),
          z.object({
            id: z.string().optional().meta({ description: "The item's id when it gave one" }),
            url: z.string().optional().meta({ description: "Else its URL, when it is one" }),
            status: z.literal("error"),
            error: z.string(),
          }),
        ]),
      )
      .meta({ description: "One per item, in the order sent" }),
  })
  .meta({ id: "BatchAddResponseV5" });
const V3BatchAnswer = z
  .object({
    results: z
      .array(
        z.union([
          z.object({ id: z.string(), status: z.enum(DOCUMENT_STATUSES) }),
          z.object({
            id: z.string().meta({ description: "The item's customId or URL, else empty" }),
            status: z.literal("error"),
            error: z.string(),
            details: z.string(),
          }),
        ]),
      )
      .meta({ description: "One per item, in the order sent" }),
    success: z.number().int().meta({ description: "Items accepted" }),
    failed: z.number().int().meta({ description: "Items refused" }),
  })
  .meta({ id: "BatchAddResponse" });
const ProcessingDocument = z
  .object({
    id: z.string(),
    customId: z.string().nullable(),
    title: z.string().nullable(),
    type: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    createdAt: when,
    updatedAt: when,
    metadata: metadataAnswer,
    containerTags: z.array(z.string()),
  })
  .meta({ id: "ProcessingDocument" });
const BulkDeleteAnswer = z
  .object({
    success: z.boolean(),
    deletedCount: z.number().int(),
    errors: z.array(ItemError).optional().meta({ description: "With ids: the ids not deleted, and why" }),
    containerTags: z.array(z.string()).optional().meta({ description: "With containerTags: the tags emptied" }),
  })
  .meta({ id: "BulkDeleteResponse" });
const V3SearchResult = z
  .object({
    documentId: z.string(),
    title: z.string().nullable(),
    type: z.string().nullable(),
    metadata: metadataAnswer,
    score: z.number(),
    chunks: z.array(z.object({ content: z.string(), isRelevant: z.boolean(), score: z.number() })).meta({ description: "The document's chunks that matched" }),
    createdAt: when,
    updatedAt: when,
    summary: z.string().nullable().optional().meta({ description: "With includeSummary" }),
    content: z.string().nullable().optional().meta({ description: "With includeFullDocs; null when the answer's content budget left it out (contentOmitted)" }),
    contentOmitted: z
      .literal(true)
      .optional()
      .meta({ description: "With includeFullDocs: the content did not fit in the answer's content budget (see contentLimit)" }),
  })
  .meta({ id: "DocumentSearchResult", description: "A document with its matching chunks" });
const ConversationAnswer = z
  .object({ id: z.string(), conversationId: z.string(), containerTag: z.string(), status: z.enum(DOCUMENT_STATUSES) })
  .meta({ id: "ConversationResponse", description: "The conversation's document" });
const jsonValue = z.unknown().meta({ description: "A JSON value, or null when unset" });
const Bucket = z.object({ key: z.string(), description: z.string() }).meta({ id: "ProfileBucket" });
/** GET /v3/settings, in the public description's order: unset values are null, client secrets always null. */
const SettingsAnswer = z
  .object({
    excludeItems: jsonValue,
    filterPrompt: z.string().nullable(),
    includeItems: jsonValue,
    ...Object.fromEntries(
      S.SETTINGS_OAUTH_PROVIDERS.flatMap(({ prefix }) => [
        [`${prefix}ClientId`, z.string().nullable()],
        [`${prefix}ClientSecret`, z.null().meta({ description: "Never answered: secrets are write-only" })],
        [`${prefix}CustomKeyEnabled`, z.boolean().nullable()],
      ]),
    ),
    shouldLLMFilter: z.boolean().nullable(),
    chunkSize: z.number().int().nullable(),
    profileBuckets: z.array(Bucket),
    workspacePrompt: z.string().nullable(),
    allowedRedirectOrigins: z.array(z.string()).meta({
      description: "Engram extension: the origins a connection's redirectUrl may point to (ENGRAM_PUBLIC_URL's origin is always allowed)",
    }),
  })
  .meta({ id: "Settings" });
const SettingsUpdateAnswer = z
  .object({
    orgId: z.string(),
    orgSlug: z.string(),
    updated: SettingsAnswer.partial().meta({ description: "The fields the request set, with their stored values" }),
    warnings: z.array(z.string()).optional(),
  })
  .meta({ id: "SettingsUpdateResponse" });
const ResetAnswer = z
  .object({
    success: z.boolean(),
    deletedConnections: z.number().int(),
    deletedDocumentBatches: z.number().int(),
    deletedDocumentsApprox: z.number().int(),
    deletedMemoryRows: z.number().int(),
    deletedExtraSpaces: z.number().int(),
    clearedDefaultSpaceContext: z.boolean(),
    clearedBrainMemoryRegistry: z.boolean(),
    settingsReset: z.boolean(),
  })
  .meta({ id: "ResetResponse" });
const MergeQueued = z
  .object({ success: z.boolean(), status: z.literal("queued"), mergeId: z.string(), targetTag: z.string(), sourceTags: z.array(z.string()) })
  .meta({ id: "MergeQueued" });
const Merge = z
  .object({
    id: z.string(),
    status: z.enum(["queued", "running", "completed", "failed"]),
    targetTag: z.string(),
    sourceTags: z.array(z.string()),
    movedDocumentsCount: z.number().int(),
    movedMemoriesCount: z.number().int(),
    error: z.string().nullable(),
    createdAt: when,
    updatedAt: when,
    completedAt: when,
  })
  .meta({ id: "ContainerTagMerge" });
const TagSettings = z
  .object({
    containerTag: z.string(),
    name: z.string().nullable(),
    entityContext: z.string().nullable(),
    memoryFilesystemPaths: z.array(z.string()).nullable(),
    profileBuckets: z.array(Bucket),
    createdAt: when,
    updatedAt: when,
  })
  .meta({ id: "ContainerTagSettings" });
const TagDeleted = z
  .object({ success: z.boolean(), containerTag: z.string(), deletedDocumentsCount: z.number().int(), deletedMemoriesCount: z.number().int() })
  .meta({ id: "ContainerTagDeleted" });
const ConnectionDocument = z
  .object({
    id: z.string(),
    createdAt: when,
    updatedAt: when,
    status: z.enum(DOCUMENT_STATUSES),
    summary: z.string().nullable(),
    title: z.string().nullable(),
    type: z.string(),
  })
  .meta({ id: "ConnectionDocument" });
const fileBinary = z.unknown().meta({ type: "string", contentMediaType: "application/octet-stream", description: "The file's bytes" });

/**
 * Schemas whose input side is checked in code (an unknown value refined or
 * transformed): what they accept, for the description. Metadata-like values
 * take the JSON Schema of the record they are piped into (zod's own
 * converter), so the text stays that of the validation.
 */
function annotateCheckedInCode(registry: OpenAPIRegistry): void {
  // The generator's own registry (not zod's global one): the schemas the routes parse are annotated for this document only.
  const annotate = (schema: ZodType, { id, ...meta }: Record<string, unknown>) => {
    if (!zodToOpenAPIRegistry.has(schema)) zodToOpenAPIRegistry.add(schema, { ...(id ? { _internal: { refId: id as string } } : {}), ...meta });
  };
  const recordOf = (pipe: ZodType) => {
    const { $schema: _ignored, ...json } = z.toJSONSchema((pipe as unknown as { def: { out: ZodType } }).def.out, { io: "input" }) as Record<string, unknown>;
    return json;
  };
  const { $schema: _ignored, ...condition } = z.toJSONSchema(filterConditionSchema, { io: "input" }) as Record<string, unknown>;
  registry.registerComponent("schemas", "FilterCondition", { ...condition, description: "One condition: the metadata value at key compared with value" });
  annotate(S.metadata, {
    id: "Metadata",
    ...recordOf(S.metadata),
    maxProperties: 100,
    description: "Flat key-value pairs (at most 100 keys of 1-128 characters): strings, numbers, booleans or arrays of strings",
    example: { source: "upload", language: "en" },
  });
  const group = (op: "AND" | "OR") => ({
    type: "object",
    properties: { [op]: { type: "array", minItems: 1, items: { $ref: "#/components/schemas/Filter" } } },
    required: [op],
    additionalProperties: false,
  });
  annotate(S.filterValue, {
    id: "Filter",
    anyOf: [
      { $ref: "#/components/schemas/FilterCondition" },
      group("AND"),
      group("OR"),
      { type: "object", maxProperties: 0, description: "No filter" },
      { type: "string", description: "The filter as JSON text" },
    ],
    description: `A condition, or AND / OR of filters (at most ${MAX_FILTER_DEPTH} levels deep and ${MAX_FILTER_CONDITIONS} conditions), or its JSON string`,
    example: { AND: [{ key: "group", value: "jira_users" }] },
  });
  const connectionMetadata = unwrap(S.createConnectionBody.shape.metadata);
  annotate(connectionMetadata, {
    id: "ConnectionMetadata",
    ...recordOf(connectionMetadata),
    maxProperties: 100,
    description: "Flat key-value pairs of the connection: strings, numbers and booleans",
  });
  for (const field of ["excludeItems", "includeItems"] as const)
    annotate(unwrap(S.orgSettingsPatch.shape[field]), {
      id: "SettingsItems",
      description: "Any JSON value (null clears it), at most 32 levels deep and 64 KiB",
    });
}

/** The schema inside optional/nullable wrappers. */
function unwrap(s: ZodType): ZodType {
  let cur = s as unknown as { def: { type: string; innerType?: ZodType } };
  while ((cur.def.type === "optional" || cur.def.type === "nullable") && cur.def.innerType) cur = cur.def.innerType as unknown as typeof cur;
  return cur as unknown as ZodType;
}

// --- examples (values of the public description's examples) ---

const EX = {
  v5Document: {
    content: "Our API rate limits are 100 req/min on free and 1000 on pro. Clients should use exponential backoff on 429s.",
    id: "doc-api-rate-limits",
    metadata: { source: "upload", language: "en" },
  },
  v3Document: {
    content: "Our API rate limits are 100 req/min on free and 1000 on pro. Clients should use exponential backoff on 429s.",
    containerTag: "user_alex",
    customId: "doc-api-rate-limits",
    metadata: { source: "upload", language: "en" },
    filterByMetadata: { department: "engineering", region: "us" },
    entityContext: "User's name is {XYZ}",
  },
  v3List: {
    filters: {
      AND: [
        { filterType: "metadata", key: "group", negate: false, value: "jira_users" },
        { filterType: "numeric", key: "timestamp", negate: false, numericOperator: ">", value: "1742745777" },
      ],
    },
    limit: 10,
    order: "desc",
    page: 1,
    sort: "createdAt",
  },
  v4Search: { q: "what are the API rate limits", containerTag: "user_alex", threshold: 0.5, limit: 10, searchMode: "memories", rerank: false },
  v3Search: { q: "what are the API rate limits", containerTag: "user_alex", chunkThreshold: 0.5, limit: 10, includeSummary: true, onlyMatchingChunks: true },
  memories: {
    containerTag: "user_123",
    memories: [{ content: "John prefers dark mode", isStatic: false, forgetAfter: "2026-06-01T00:00:00Z", forgetReason: "temporary project deadline" }],
  },
  forgetMatching: {
    query: "forget everything about Project Titan",
    containerTag: "user_123",
    dryRun: true,
    threshold: 0.5,
    maxForget: 100,
    reason: "project cancelled",
  },
  tags: { containerTags: ["user_123", "project_123"] },
};

// --- the operations ---

const documentsTag = "documents";
const OPERATIONS: Operation[] = [
  // Engram's own, open
  {
    method: "get",
    path: "/healthz",
    operationId: "getHealthz",
    summary: "Liveness",
    tag: "engram",
    open: true,
    ok: { description: "The process is alive", schema: z.object({ status: z.literal("ok") }) },
    errors: { 503: "An event loop is blocked" },
  },
  {
    method: "get",
    path: "/readyz",
    operationId: "getReadyz",
    summary: "Readiness",
    tag: "engram",
    open: true,
    description:
      'Ready while every backend serves and every storage part (store, fileStore, index, bus: those this deployment keeps on local disk) can write. The 503 answer carries the error body with `status: "not_ready"` and `parts`, its details naming each part that cannot write. Liveness (/healthz) does not depend on storage.',
    ok: {
      description: "Every backend is serving and every storage part can write",
      schema: z.object({
        status: z.literal("ready"),
        parts: z
          .partialRecord(z.enum(STORAGE_PARTS), z.enum(["ok", "low", "full", "unwritable", "failing"]))
          .meta({ description: "Each storage part on local disk and its state (`ok` when ready)" }),
      }),
    },
    errors: { 503: "A backend is not serving yet, a storage part cannot write (named in the details and `parts`), or the gateway is shutting down" },
  },
  {
    method: "get",
    path: "/metrics",
    operationId: "getMetrics",
    summary: "Prometheus metrics",
    tag: "engram",
    open: true,
    ok: { description: "Prometheus text exposition", mediaType: "text/plain", schema: z.string() },
  },
  {
    method: "get",
    path: "/files/{token}",
    operationId: "getFilesByToken",
    summary: "Download a stored file (expiring link)",
    tag: "engram",
    open: true,
    description: "The link GET /v3/documents/{id}/file-url returns; the token is the credential. Served as an attachment with a sandboxing CSP.",
    params: { token: z.string().min(1).meta({ description: "The link's token" }) },
    ok: { description: "The file's bytes", mediaType: "application/octet-stream", schema: fileBinary },
    errors: { 403: "Invalid or expired link" },
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenapiJson",
    summary: "This OpenAPI description",
    tag: "engram",
    open: true,
    ok: { description: "The OpenAPI 3.1 description of the gateway", schema: jsonObject("An OpenAPI 3.1 document") },
  },
  {
    method: "get",
    path: "/docs",
    operationId: "getDocs",
    summary: "API reference page (Swagger UI)",
    tag: "engram",
    open: true,
    ok: { description: "The reference page, rendered from /openapi.json", mediaType: "text/html", schema: z.string() },
  },
  {
    method: "get",
    path: "/docs/assets/{file}",
    operationId: "getDocsAsset",
    summary: "A file of the reference page (Swagger UI, initializer)",
    tag: "engram",
    open: true,
    params: { file: z.string().meta({ description: "The asset's file name", example: "swagger-ui-bundle.js" }) },
    ok: { description: "The asset", mediaType: "application/octet-stream", schema: fileBinary },
  },

  // documents, v5
  {
    method: "post",
    path: "/ns/{namespace}/document",
    operationId: "postNsDocument",
    summary: "Add document",
    tag: documentsTag,
    params: namespace,
    query: S.v5Query,
    body: { schema: S.v5Document, example: EX.v5Document },
    ok: { description: "The document is queued", schema: Status("queued") },
  },
  {
    method: "post",
    path: "/ns/{namespace}/document/batch",
    operationId: "postNsDocumentBatch",
    summary: "Batch add documents",
    tag: documentsTag,
    description: "Each item of `documents` is a document as POST /ns/{namespace}/document takes it, validated one by one: an invalid item fails alone.",
    params: namespace,
    query: S.v5Query,
    body: { schema: S.v5BatchEnvelope.extend({ documents: z.array(S.v5Document).min(1).max(600) }), example: { documents: [EX.v5Document] } },
    ok: { description: "One result per item", schema: V5BatchAnswer },
  },
  {
    method: "post",
    path: "/ns/{namespace}/document/file",
    operationId: "postNsDocumentFile",
    summary: "Upload a file",
    tag: documentsTag,
    params: namespace,
    query: S.fileQuery,
    multipart: S.v5FileParts,
    ok: { description: "The file is stored and queued", schema: Status("queued") },
    errors: { 413: "The file is larger than the upload limit", 415: "Not multipart/form-data" },
  },
  {
    method: "get",
    path: "/ns/{namespace}/document/{id}",
    operationId: "getNsDocument",
    summary: "Get document",
    tag: documentsTag,
    params: { ...namespace, ...documentId },
    query: z.object({ include: S.includeParam.meta({ description: "Comma-separated: chunks, memories", example: "chunks,memories" }) }),
    ok: { description: "The document, with its chunks and memories when asked", schema: V5Document },
  },
  {
    method: "delete",
    path: "/ns/{namespace}/document",
    operationId: "deleteNsDocuments",
    summary: "Delete documents",
    tag: documentsTag,
    params: namespace,
    body: { schema: S.v5DeleteBody, example: { ids: ["doc-api-rate-limits"] } },
    ok: { description: "How many were deleted", schema: z.object({ count: z.number().int(), errors: z.array(ItemError) }) },
  },
  {
    method: "post",
    path: "/ns/{namespace}/list/documents",
    operationId: "postNsListDocuments",
    summary: "List documents",
    tag: documentsTag,
    params: namespace,
    query: S.listQuery,
    body: { schema: S.v5ListBody, required: false, example: { filter: { AND: [{ key: "source", value: "upload" }] } } },
    ok: { description: "A page of documents", schema: V5List },
  },
  {
    method: "post",
    path: "/ns/{namespace}/list/chunks",
    operationId: "postNsListChunks",
    summary: "List chunks",
    tag: "search",
    params: namespace,
    query: S.listQuery,
    body: { schema: S.v5ListBody, required: false, example: {} },
    ok: { description: "A page of chunks", schema: V5List },
  },
  {
    method: "post",
    path: "/ns/{namespace}/list/memories",
    operationId: "postNsListMemories",
    summary: "List memories",
    tag: "memories",
    params: namespace,
    query: S.listQuery,
    body: { schema: S.v5ListBody, required: false, example: {} },
    ok: { description: "A page of memories", schema: V5List },
  },
  {
    method: "delete",
    path: "/ns/{namespace}/memories",
    operationId: "deleteNsMemories",
    summary: "Forget memories by id",
    tag: "memories",
    params: namespace,
    body: { schema: S.v5ForgetIds, example: { ids: ["abc123", "def456"] } },
    ok: { description: "What was forgotten", schema: ForgetAnswerV5 },
  },
  {
    method: "delete",
    path: "/ns/{namespace}/memories/semantic",
    operationId: "deleteNsMemoriesSemantic",
    summary: "Forget memories matching a query",
    tag: "memories",
    params: namespace,
    body: { schema: S.v5ForgetSemantic, example: { query: "forget everything about Project Titan", dryRun: true } },
    ok: { description: "What was (or would be) forgotten", schema: ForgetAnswerV5 },
  },

  // documents, v3
  {
    method: "post",
    path: "/v3/documents",
    operationId: "postV3Documents",
    summary: "Add document",
    tag: documentsTag,
    body: { schema: S.v3Document, example: EX.v3Document },
    ok: { description: "The document is queued", schema: Status("queued") },
  },
  {
    method: "post",
    path: "/v3/documents/batch",
    operationId: "postV3DocumentsBatch",
    summary: "Batch add documents",
    tag: documentsTag,
    description: "Each item of `documents` is a string (its content) or a document as POST /v3/documents takes it without documentDate, validated one by one.",
    body: {
      schema: S.v3BatchEnvelope.extend({
        documents: z
          .array(z.union([z.string(), S.v3BatchItem]))
          .min(1)
          .max(600),
      }),
      example: { containerTag: "user_alex", metadata: { source: "upload", language: "en" }, documents: [EX.v3Document] },
    },
    ok: { description: "One result per item", schema: V3BatchAnswer },
  },
  {
    method: "post",
    path: "/v3/documents/file",
    operationId: "postV3DocumentsFile",
    summary: "Upload a file",
    tag: documentsTag,
    multipart: S.v3FileParts,
    ok: { description: "The file is stored and queued", schema: Status("queued") },
    errors: { 413: "The file is larger than the upload limit", 415: "Not multipart/form-data" },
  },
  {
    method: "post",
    path: "/v3/documents/list",
    operationId: "postV3DocumentsList",
    summary: "List documents",
    tag: documentsTag,
    body: { schema: S.v3ListBody, required: false, example: EX.v3List },
    ok: {
      description: "A page of documents",
      schema: z.object({ memories: z.array(DocumentListItem), pagination: Pagination, contentLimit: ContentLimit.optional() }),
    },
  },
  {
    method: "get",
    path: "/v3/documents/processing",
    operationId: "getV3DocumentsProcessing",
    summary: "Get processing documents",
    tag: documentsTag,
    ok: { description: "Documents not done yet", schema: z.object({ documents: z.array(ProcessingDocument), totalCount: z.number().int() }) },
  },
  {
    method: "delete",
    path: "/v3/documents/bulk",
    operationId: "deleteV3DocumentsBulk",
    summary: "Bulk delete documents",
    tag: documentsTag,
    description: "Give either `ids` or `containerTags`.",
    body: { schema: S.v3BulkDeleteBody, example: { ids: ["acxV5LHMEsG2hMSNb4umbn", "bxcV5LHMEsG2hMSNb4umbn"] } },
    ok: { description: "How many were deleted", schema: BulkDeleteAnswer },
  },
  {
    method: "get",
    path: "/v3/documents/{id}",
    operationId: "getV3DocumentsById",
    summary: "Get document",
    tag: documentsTag,
    params: documentId,
    ok: { description: "The document", schema: V3Document },
  },
  {
    method: "patch",
    path: "/v3/documents/{id}",
    operationId: "patchV3DocumentsById",
    summary: "Update document",
    tag: documentsTag,
    params: documentId,
    body: { schema: S.v3Patch, example: { content: EX.v3Document.content, metadata: { source: "upload", language: "en" } } },
    ok: { description: "The document is queued again", schema: Status("queued") },
    errors: { 409: "The customId names another document" },
  },
  {
    method: "delete",
    path: "/v3/documents/{id}",
    operationId: "deleteV3DocumentsById",
    summary: "Delete document by ID or customId",
    tag: documentsTag,
    params: documentId,
    ok: { status: 204, description: "Deleted" },
  },
  {
    method: "get",
    path: "/v3/documents/{id}/chunks",
    operationId: "getV3DocumentsByIdChunks",
    summary: "Get document chunks",
    tag: documentsTag,
    params: documentId,
    ok: { description: "The document's chunks", schema: z.object({ documentId: z.string(), chunks: z.array(Chunk), total: z.number() }) },
  },
  {
    method: "get",
    path: "/v3/documents/{id}/file-url",
    operationId: "getV3DocumentsByIdFileUrl",
    summary: "Get presigned file URL",
    tag: documentsTag,
    params: documentId,
    ok: { description: "An expiring link to the stored file", schema: z.object({ url: z.string(), expiresAt: z.string().nullable() }) },
  },

  // search and profiles
  {
    method: "post",
    path: "/v4/search",
    operationId: "postV4Search",
    summary: "Search memory entries",
    tag: "search",
    body: { schema: S.v4Search, example: EX.v4Search },
    ok: { description: "Results", schema: SearchResults },
  },
  {
    method: "post",
    path: "/v3/search",
    operationId: "postV3Search",
    summary: "Search documents",
    tag: "search",
    body: { schema: S.v3Search, example: EX.v3Search },
    ok: {
      description: "Results",
      schema: z.object({ results: z.array(V3SearchResult), timing: z.number(), total: z.number(), contentLimit: ContentLimit.optional() }),
    },
  },
  {
    method: "post",
    path: "/v4/profile",
    operationId: "postV4Profile",
    summary: "Get user profile",
    tag: "search",
    body: { schema: S.v4Profile, example: { containerTag: "user_123", q: "what does John prefer", include: ["static", "dynamic"] } },
    ok: { description: "The profile (and search results when q is given)", schema: ProfileAnswer },
  },
  {
    method: "post",
    path: "/v4/profile/buckets",
    operationId: "postV4ProfileBuckets",
    summary: "Get profile buckets",
    tag: "search",
    body: { schema: S.v4ProfileBuckets, example: { containerTag: "user_123" } },
    ok: { description: "The buckets", schema: z.object({ buckets: z.array(z.object({ key: z.string(), description: z.string() })) }) },
  },

  // memories
  {
    method: "post",
    path: "/v4/memories",
    operationId: "postV4Memories",
    summary: "Create memories directly",
    tag: "memories",
    body: { schema: S.v4CreateMemories, example: EX.memories },
    ok: {
      status: 201,
      description: "The memories",
      schema: z.object({ documentId: z.string().nullable(), memories: z.array(CreatedMemory) }),
    },
  },
  {
    method: "patch",
    path: "/v4/memories",
    operationId: "patchV4Memories",
    summary: "Update a memory (creates new version)",
    tag: "memories",
    description: "Name the memory by `id` or by its exact `content` (the id decides when both are given).",
    body: { schema: S.v4UpdateMemory, example: { id: "mem_abc123", containerTag: "user_123", newContent: "John prefers light mode" } },
    ok: { description: "The new version", schema: UpdatedMemory },
  },
  {
    method: "delete",
    path: "/v4/memories",
    operationId: "deleteV4Memories",
    summary: "Forget a memory",
    tag: "memories",
    description: "Name the memory by `id` or by its exact `content` (the id decides when both are given).",
    body: { schema: S.v4ForgetMemory, example: { id: "mem_abc123", containerTag: "user_123", reason: "outdated" } },
    ok: { description: "Forgotten", schema: z.object({ id: z.string(), forgotten: z.boolean() }) },
  },
  {
    method: "post",
    path: "/v4/memories/forget-matching",
    operationId: "postV4MemoriesForgetMatching",
    summary: "Forget memories matching a prompt/query",
    tag: "memories",
    description: "Give either `query` (or its alias `q`) or `ids`, not both. `dryRun` lists the candidates without forgetting them.",
    body: { schema: S.v4ForgetMatching, example: EX.forgetMatching },
    ok: { description: "What was (or would be) forgotten", schema: ForgetMatchingAnswer },
  },
  {
    method: "post",
    path: "/v4/memories/list",
    operationId: "postV4MemoriesList",
    summary: "List memory entries with history",
    tag: "memories",
    description: "`containerTags` (or a single `containerTag`) is required.",
    body: { schema: S.v4ListMemories, example: { containerTags: ["user_123"], limit: "10", order: "desc", page: "1", sort: "createdAt" } },
    ok: { description: "A page of memories", schema: z.object({ memoryEntries: z.array(MemoryEntry), pagination: Pagination }) },
  },
  {
    method: "post",
    path: "/v4/conversations",
    operationId: "postV4Conversations",
    summary: "Ingest or update conversation",
    tag: "memories",
    description:
      "`conversationId` is required, or its alias `customId` (one of the two); a single `containerTag` is accepted beside `containerTags` and comes first. Both aliases are what the hosted description's own cURL sample sends (docs/api-decisions.md section 20).",
    body: {
      schema: S.v4Conversation,
      example: { conversationId: "conv_123", messages: [{ role: "user", content: "I prefer dark mode" }], containerTags: ["user_123"] },
    },
    ok: { description: "The conversation's document", schema: ConversationAnswer },
  },

  // settings
  {
    method: "get",
    path: "/v3/settings",
    operationId: "getV3Settings",
    summary: "Get settings",
    tag: "settings",
    ok: { description: "The organisation's settings (client secrets always null)", schema: SettingsAnswer },
  },
  {
    method: "patch",
    path: "/v3/settings",
    operationId: "patchV3Settings",
    summary: "Update settings",
    tag: "settings",
    description: "Either `workspacePrompt` alone, or any of the other settings; null clears a setting.",
    body: { schema: z.union([S.workspacePromptPatch, S.orgSettingsPatch]), example: { chunkSize: 1000, shouldLLMFilter: false } },
    ok: { description: "What changed", schema: SettingsUpdateAnswer },
  },
  {
    method: "post",
    path: "/v3/settings/suggest-buckets",
    operationId: "postV3SettingsSuggestBuckets",
    summary: "Suggest profile buckets",
    tag: "settings",
    ok: { description: "Suggestions", schema: z.object({ suggestions: z.array(z.object({ key: z.string(), description: z.string() })) }) },
  },
  {
    method: "post",
    path: "/v3/settings/reset",
    operationId: "postV3SettingsReset",
    summary: "Reset organization data",
    tag: "settings",
    body: { schema: resetBody, example: { confirmation: "my-org" } },
    ok: { description: "What was removed", schema: ResetAnswer },
  },

  // Tenant export and import (an Engram extension, docs/api-decisions.md section 23, docs/export-format.md)
  {
    method: "get",
    path: "/v3/export",
    operationId: "getV3Export",
    summary: "Export the tenant as an archive",
    tag: "archive",
    description:
      "Streams the calling key's tenant as one tar archive (format in docs/export-format.md): settings (no secrets), container tags, connections (never their credentials), documents with content, metadata and original files, and memories with every version, relation, expiry and provenance; the manifest with counts and sha256 comes last, so a cut-off download is refused by import. Needs the `admin` scope.",
    ok: { description: "The archive (application/x-tar)", mediaType: "application/x-tar", schema: fileBinary },
    errors: { 403: "The key lacks the admin scope, or is limited to container tags" },
  },
  {
    method: "post",
    path: "/v3/import",
    operationId: "postV3Import",
    summary: "Import an archive into the tenant",
    tag: "archive",
    description:
      "Loads an archive made by GET /v3/export into the calling key's tenant. Ids are kept where free on this instance (taken ones get new ids, and versions, relations and provenance follow); documents the tenant already holds (same id, or same caller id in the namespace) are not written again, so a repeated import adds nothing. Imported documents are re-indexed here without forming their memories again. Connections are not created (their credentials are never exported). Needs the `admin` scope.",
    rawBody: { mediaType: "application/x-tar", schema: fileBinary, description: "The archive, as GET /v3/export wrote it" },
    ok: {
      description: "What was imported",
      schema: jsonObject(
        "Counts: documents imported/existing/failed (with the first errors), files, memories imported/skipped, container tags, settings, connections skipped",
      ),
    },
    errors: {
      403: "The key lacks the admin scope, or is limited to container tags",
      413: "The archive is larger than this server takes",
      415: "Not application/x-tar",
    },
  },

  // API keys (an Engram extension, docs/api-decisions.md section 8)
  {
    method: "get",
    path: "/v3/keys",
    operationId: "getV3Keys",
    summary: "List the tenant's API keys",
    tag: "keys",
    description: "The keys of the calling key's tenant, oldest first, revoked ones included; never a key's secret. `current` marks the calling key.",
    ok: { description: "The keys", schema: z.object({ keys: z.array(ApiKey) }) },
  },
  {
    method: "post",
    path: "/v3/keys",
    operationId: "postV3Keys",
    summary: "Create an API key",
    tag: "keys",
    description: `A new key for the calling key's tenant (never another tenant). \`key\` is the secret: answered this once, only its SHA-256 is stored. At most ${MAX_ACTIVE_KEYS_PER_TENANT} active keys per tenant (409 beyond). \`scopes\` and \`containerTags\` default to the calling key's own; a key never creates a key with more rights than its own (403).`,
    body: { schema: createKeyBody, example: { name: "ci", scopes: ["read"], containerTags: ["user_123"] } },
    ok: {
      status: 201,
      description: "The key, with its secret",
      schema: ApiKey.extend({ key: z.string().meta({ example: "sk_engram_0123456789ABCDEFabcdef0123456789" }) }),
    },
    errors: { 409: "The tenant has too many active keys" },
  },
  {
    method: "delete",
    path: "/v3/keys/{id}",
    operationId: "deleteV3KeysById",
    summary: "Revoke an API key",
    tag: "keys",
    description:
      "Revokes a key of the calling key's tenant: it is refused (401) from then on (within the key cache time on other gateway replicas). A key cannot revoke itself (409). Another tenant's key is answered as unknown (404). Revoking a revoked key answers it unchanged.",
    params: { id: keyIdParam.meta({ description: "The key's id", example: "k_0123456789ABCDEFabcd" }) },
    ok: { description: "The key, revoked", schema: ApiKey },
    errors: { 409: "The key is the calling key" },
  },

  // container tags
  {
    method: "get",
    path: "/v3/container-tags/list",
    operationId: "getV3ContainerTagsList",
    summary: "List all container tags",
    tag: "container tags",
    description:
      "Every container tag of the organisation (by tag), with its document and memory counts and its last activity. A key limited to container tags is answered its own tags only.",
    ok: { description: "The container tags, with their document and memory counts", schema: z.array(ContainerTagItem) },
  },
  {
    method: "post",
    path: "/v3/container-tags/merge",
    operationId: "postV3ContainerTagsMerge",
    summary: "Merge container tags",
    tag: "container tags",
    description:
      "Either `containerTags` (exactly two) and `targetContainerTag`, or the alias form of the hosted description's own cURL sample, `from` and `to`: `from` is merged into `to` (docs/api-decisions.md section 20). The target must differ from one of the two tags.",
    body: { schema: containerTagMerge, example: { containerTags: ["project_a", "project_b"], targetContainerTag: "project_a" } },
    ok: { status: 202, description: "The merge is queued", schema: MergeQueued },
  },
  {
    method: "get",
    path: "/v3/container-tags/merge/{mergeId}",
    operationId: "getV3ContainerTagsMergeByMergeId",
    summary: "Get container tag merge status",
    tag: "container tags",
    params: { mergeId: mergeIdParam.meta({ description: "The merge's id" }) },
    ok: { description: "The merge", schema: Merge },
  },
  {
    method: "get",
    path: "/v3/container-tags/{containerTag}",
    operationId: "getV3ContainerTagsByContainerTag",
    summary: "Get container tag settings",
    tag: "container tags",
    params: containerTagParam,
    ok: { description: "The tag's settings", schema: TagSettings },
  },
  {
    method: "patch",
    path: "/v3/container-tags/{containerTag}",
    operationId: "patchV3ContainerTagsByContainerTag",
    summary: "Update container tag settings",
    tag: "container tags",
    params: containerTagParam,
    body: {
      schema: containerTagPatch,
      example: {
        name: "Research Notes",
        entityContext: "This project contains research papers about machine learning.",
        memoryFilesystemPaths: ["/memory/", "/user.md"],
      },
    },
    ok: { description: "The tag's settings", schema: TagSettings },
  },
  {
    method: "delete",
    path: "/v3/container-tags/{containerTag}",
    operationId: "deleteV3ContainerTagsByContainerTag",
    summary: "Delete container tag",
    tag: "container tags",
    params: containerTagParam,
    ok: { description: "What was removed", schema: TagDeleted },
  },

  // connections
  {
    method: "post",
    path: "/v3/connections/list",
    operationId: "postV3ConnectionsList",
    summary: "List connections",
    tag: "connections",
    body: { schema: S.listConnectionsBody, required: false, example: EX.tags },
    ok: { description: "The connections", schema: z.array(ConnectionAnswer) },
  },
  {
    method: "get",
    path: "/v3/connections/auth/callback/{provider}",
    operationId: "getV3ConnectionsAuthCallback",
    summary: "OAuth callback (called by the provider's consent page)",
    tag: "connections",
    open: true,
    params: { provider },
    query: S.oauthCallbackQuery,
    ok: { description: "Connected (a plain page when the connection has no redirectUrl)", mediaType: "text/plain", schema: z.string() },
    errors: { 302: "Redirect to the connection's redirectUrl with the outcome" },
  },
  {
    method: "post",
    path: "/v3/connections/webhooks/{provider}",
    operationId: "postV3ConnectionsWebhooks",
    summary: "Provider notification (webhook)",
    tag: "connections",
    open: true,
    params: { provider },
    rawBody: { mediaType: "*/*", schema: z.unknown(), description: "The provider's notification, verified by its signature or token" },
    ok: { description: "Accepted (some providers get their challenge echoed)" },
  },
  {
    method: "get",
    path: "/v3/connections/{connectionId}/resources",
    operationId: "getV3ConnectionsByConnectionIdResources",
    summary: "Fetch resources",
    tag: "connections",
    params: { connectionId },
    query: S.resourcesQuery,
    ok: {
      description: "The provider's resources",
      schema: z.object({ resources: z.array(z.record(z.string(), z.unknown())), total_count: z.number().int().optional() }),
    },
  },
  {
    method: "get",
    path: "/v3/connections/{connectionId}/runs",
    operationId: "getV3ConnectionsByConnectionIdRuns",
    summary: "List a connection's sync runs",
    tag: "connections",
    description: `Engram extension (docs/api-decisions.md section 14): the connection's sync runs, newest first, each as its \`lastSyncRun\` shows it. The last ${S.SYNC_RUNS_MAX} runs of a connection are kept (older ones are removed as each run finishes). Another tenant's connection is answered as unknown (404).`,
    params: { connectionId },
    query: S.connectionRunsQuery,
    ok: { description: "The runs, newest first", schema: z.object({ runs: z.array(SyncRun) }) },
  },
  {
    method: "post",
    path: "/v3/connections/{connectionId}/configure",
    operationId: "postV3ConnectionsByConnectionIdConfigure",
    summary: "Configure connection",
    tag: "connections",
    params: { connectionId },
    body: { schema: S.configureBody, example: { resources: [{ id: "repo_1", name: "engram" }] } },
    ok: { description: "Configured", schema: z.object({ success: z.boolean(), message: z.string(), webhooksRegistered: z.number().int() }) },
  },
  {
    method: "post",
    path: "/v3/connections/{provider}/connection",
    operationId: "postV3ConnectionsByProviderConnection",
    summary: "Get connection (by provider)",
    tag: "connections",
    params: { provider },
    body: { schema: S.providerTagsBody, example: EX.tags },
    ok: { description: "The connection", schema: ConnectionAnswer },
  },
  {
    method: "post",
    path: "/v3/connections/{provider}/documents",
    operationId: "postV3ConnectionsByProviderDocuments",
    summary: "List documents",
    tag: "connections",
    params: { provider },
    body: { schema: S.optionalProviderTagsBody, required: false, example: EX.tags },
    ok: { description: "The connection's documents", schema: z.array(ConnectionDocument) },
  },
  {
    method: "post",
    path: "/v3/connections/{provider}/import",
    operationId: "postV3ConnectionsByProviderImport",
    summary: "Sync connection",
    tag: "connections",
    params: { provider },
    body: { schema: S.optionalProviderTagsBody, required: false, example: EX.tags },
    ok: { status: 202, description: "The sync is started", mediaType: "text/plain", schema: z.string() },
  },
  // One path template per hierarchy (OpenAPI forbids /v3/connections/{provider} beside /v3/connections/{connectionId}):
  // the segment is a provider for POST, a connection id for GET, either for DELETE.
  {
    method: "post",
    path: "/v3/connections/{idOrProvider}",
    operationId: "postV3ConnectionsByProvider",
    summary: "Create connection",
    tag: "connections",
    description: "`idOrProvider` is the provider.",
    params: { idOrProvider: provider },
    body: { schema: S.createConnectionBody, required: false, example: { containerTags: ["user_123"], redirectUrl: "https://app.example/connected" } },
    ok: {
      description: "Where to send the user to authorise",
      schema: z.object({ id: z.string(), authLink: z.string(), expiresIn: z.string(), redirectsTo: z.string().optional() }),
    },
  },
  {
    method: "get",
    path: "/v3/connections/{idOrProvider}",
    operationId: "getV3ConnectionsByConnectionId",
    summary: "Get connection (by id)",
    tag: "connections",
    description: "`idOrProvider` is the connection's id.",
    params: { idOrProvider: connectionId },
    ok: { description: "The connection", schema: ConnectionAnswer },
  },
  {
    method: "delete",
    path: "/v3/connections/{idOrProvider}",
    operationId: "deleteV3Connections",
    summary: "Delete connection (by id, or by provider and container tags)",
    tag: "connections",
    description:
      "A provider name deletes that provider's connection of the body's `containerTags` (required then); anything else is a connection id (no body).",
    params: { idOrProvider: z.string().min(1).max(100).meta({ description: "A connection id or a provider", example: "github" }) },
    query: S.deleteConnectionQuery,
    body: { schema: S.providerTagsBody, required: false, example: EX.tags },
    ok: { description: "Deleted", schema: z.object({ id: z.string(), provider: z.string() }) },
  },

  // MCP
  {
    method: "post",
    path: "/mcp",
    operationId: "postMcp",
    summary: "MCP over Streamable HTTP (stateless)",
    tag: "mcp",
    description:
      "One JSON-RPC message per POST, read by the MCP transport (docs/mcp.md). Send `Accept: application/json, text/event-stream`. The session's container tag may be fixed with the header or `?containerTag=`.",
    headers: { [CONTAINER_TAG_HEADER]: S.scope(CONTAINER_TAG_HEADER).optional().meta({ description: "Fixes the session's container tag" }) },
    query: z.object({ containerTag: S.scope("containerTag").optional().meta({ description: "Fixes the session's container tag" }) }),
    rawBody: {
      mediaType: "application/json",
      schema: z.object({ jsonrpc: z.literal("2.0"), method: z.string(), id: z.union([z.string(), z.number()]).optional(), params: z.unknown().optional() }),
      description: "A JSON-RPC 2.0 request or notification",
      example: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    },
    ok: { description: "The JSON-RPC answer", schema: jsonObject("A JSON-RPC 2.0 response") },
    errors: { 406: "Accept does not list application/json and text/event-stream", 415: "Not application/json" },
  },
  {
    method: "get",
    path: "/mcp",
    operationId: "getMcp",
    summary: "Not allowed (stateless MCP: no event stream)",
    tag: "mcp",
    ok: { status: 405, description: "Method not allowed (Allow: POST)", schema: ErrorResponse },
  },
  {
    method: "delete",
    path: "/mcp",
    operationId: "deleteMcp",
    summary: "Not allowed (stateless MCP: no session to end)",
    tag: "mcp",
    ok: { status: 405, description: "Method not allowed (Allow: POST)", schema: ErrorResponse },
  },
];

/** `Retry-After` on an answer: whole seconds to wait before trying again. */
const retryAfterHeader = (when: string) => ({
  "Retry-After": { description: `Seconds to wait before retrying (${when})`, schema: { type: "integer" as const, minimum: 1 } },
});

/** The common error answers, shared as components (an operation's own text is inlined instead). */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: ReturnType<typeof retryAfterHeader> }> = {
  400: { name: "InvalidRequest", description: "Invalid request: the body, a parameter or the path does not validate" },
  401: { name: "Unauthorized", description: "Missing or invalid API key (with a `WWW-Authenticate: Bearer` challenge)" },
  402: {
    name: "QuotaExceeded",
    description:
      "Quota exceeded: the write would take the tenant past its document or memory quota (docs/api-decisions.md section 17); not worth retrying as is",
  },
  403: { name: "Forbidden", description: "The key lacks the operation's scope (named in the details) or is not allowed the container tag" },
  404: { name: "NotFound", description: "Not found" },
  409: {
    name: "RequestInProgress",
    description:
      "A request with this `Idempotency-Key` is still running: retry with the same key after `Retry-After` seconds (docs/api-decisions.md section 16)",
    headers: retryAfterHeader("1 to 5"),
  },
  422: {
    name: "IdempotencyKeyReused",
    description:
      "This `Idempotency-Key` was already used for another request (method, path or body): use a new key for a new request (docs/api-decisions.md section 16)",
  },
  429: {
    name: "TooManyRequests",
    description:
      "Rate limited: too many failed authentications from this client address, or too many requests with this API key (docs/api-decisions.md section 17)",
    headers: retryAfterHeader("until the limit lets the request through"),
  },
  500: { name: "InternalError", description: "Internal server error (the details carry an error id)" },
  503: { name: "Unavailable", description: "A backend service is unavailable; retry shortly" },
  507: {
    name: "InsufficientStorage",
    description:
      "The server's disk is full (or not writable): the details name the part that cannot write; nothing was stored. Retry after `Retry-After` seconds",
  },
};

/** The request header of the creating POSTs the guards make idempotent (docs/api-decisions.md section 16). */
const idempotencyKeyHeader = {
  "Idempotency-Key": z.string().regex(IDEMPOTENCY_KEY).optional().meta({
    description:
      "Engram extension: a key of your choice, 1 to 255 printable ASCII characters (a new UUID per write). A repeat with the same key and request within 24 hours answers the first answer (with `Idempotent-Replayed: true`) without writing again, also after a 504; the same key with another request answers 422, and 409 while the first still runs (docs/api-decisions.md section 16)",
    example: "3f1c2a9e-6a43-4c8e-9e0b-1b2f0c9d7e11",
  }),
};
const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } };

function routeConfig(op: Operation): RouteConfig {
  const json = (schema: ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
  const responses: RouteConfig["responses"] = {};
  const okStatus = op.ok?.status ?? 200;
  responses[okStatus] =
    op.ok?.schema && okStatus !== 204
      ? { description: op.ok.description, content: { [op.ok.mediaType ?? "application/json"]: { schema: op.ok.schema } } }
      : { description: op.ok?.description ?? "OK" };
  const statuses = new Set<number>([400, 404, 500, 503]);
  // Scoped keys: each authenticated operation's scope, from the gateway's one route → scope table.
  const rule = op.open ? undefined : ruleFor(op.method.toUpperCase(), op.path.replace(/\{[^}]+\}/g, "zz_sample"))?.rule;
  if (!op.open && !rule) throw new Error(`${op.method.toUpperCase()} ${op.path} has no scope in ROUTE_SCOPES (http/authorize.ts)`);
  // Every keyed operation is rate limited (429); the guards' route list says which POSTs honour
  // Idempotency-Key (409 in flight, 422 reused) and which count against a quota (402).
  if (!op.open) statuses.add(401).add(403).add(429);
  const samplePath = op.path.replace(/\{[^}]+\}/g, "zz_sample");
  const creating = !op.open && isCreatingPost(op.method, samplePath);
  if (creating) statuses.add(409).add(422);
  if (!op.open && quotaRouteOf(op.method, samplePath)) statuses.add(402);
  if (op.open && !op.params && !op.query) statuses.delete(400);
  // Any authenticated write can find the server's disk full (docs/api-decisions.md section 21).
  if (!op.open && op.method !== "get") statuses.add(507);
  for (const s of Object.keys(op.errors ?? {}).map(Number)) statuses.add(s);
  for (const s of [...statuses].sort()) {
    if (responses[s]) continue;
    const own = op.errors?.[s];
    const common = ERROR_RESPONSES[s];
    // An operation's own reason for a status the guards also answer: both, with the guard's headers.
    if (own && common && creating && (s === 409 || s === 422))
      responses[s] = { ...json(ErrorResponse, `${own}; or: ${common.description}`), ...(common.headers ? { headers: common.headers } : {}) };
    else if (own) responses[s] = s < 400 ? { description: own } : json(ErrorResponse, own);
    else if (common) responses[s] = { $ref: `#/components/responses/${common.name}` };
  }
  const request: NonNullable<RouteConfig["request"]> = {};
  if (op.params) request.params = z.object(op.params);
  if (op.query) request.query = op.query;
  if (op.headers || creating) request.headers = z.object({ ...(op.headers ?? {}), ...(creating ? idempotencyKeyHeader : {}) });
  if (op.body)
    request.body = {
      required: op.body.required ?? true,
      content: { "application/json": { schema: op.body.schema, ...(op.body.example !== undefined ? { example: op.body.example } : {}) } },
    };
  if (op.multipart) {
    const parts = (op.multipart as z.ZodObject).extend({ file: fileBinary });
    request.body = {
      required: true,
      content: { "multipart/form-data": { schema: parts.meta({ description: "The file part and optional text parts (JSON objects as JSON strings)" }) } },
    };
  }
  if (op.rawBody)
    request.body = {
      required: true,
      description: op.rawBody.description,
      content: { [op.rawBody.mediaType]: { schema: op.rawBody.schema, ...(op.rawBody.example !== undefined ? { example: op.rawBody.example } : {}) } },
    };
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description || rule ? { description: [op.description, rule && `Requires the \`${rule.scope}\` scope.`].filter(Boolean).join("\n\n") } : {}),
    ...(rule ? { "x-engram-scope": rule.scope } : {}),
    tags: [op.tag],
    ...(op.open ? { security: [] } : {}),
    request,
    responses,
  };
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

/** The description, generated from the operations above (build once and keep it: see docs.routes.ts). */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  annotateCheckedInCode(registry);
  const bearer = registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An Engram API key: `Authorization: Bearer <key>` (create one with `pnpm keys create --tenant <tenant>`)",
  });
  registry.definitions.push({ type: "schema", schema: ErrorResponse });
  for (const { name, description, headers } of Object.values(ERROR_RESPONSES))
    registry.registerComponent("responses", name, { description, content: errorContent, ...(headers ? { headers } : {}) });
  for (const op of OPERATIONS) registry.registerPath(routeConfig(op));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Engram API",
      version: "0.1.0",
      description:
        "Engram's REST API: the hosted supermemory API (v3, v4, and the v5 namespace operations), plus Engram's own routes (health, metrics, file links, MCP). Generated from the zod schemas the gateway validates requests with. Every 4xx and 5xx answer is an `ErrorResponse`.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    security: [{ [bearer.name]: [] }],
    tags: [...new Set(OPERATIONS.map((x) => x.tag))].map((name) => ({ name })),
  });
}
