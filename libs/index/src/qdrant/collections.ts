import { createHash } from "node:crypto";
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { CHUNK_FILEPATH_FIELDS, CHUNK_FILEPATH_KNOWN, filterIndexFields, FILTER_LIST_FIELDS } from "./filter";

/** Named vectors of every Engram collection. */
export const DENSE_VECTOR = "dense";
export const SPARSE_VECTOR = "text";

export type QdrantCollectionKind = "chunks" | "memories";

export function collectionName(prefix: string, kind: QdrantCollectionKind): string {
  return `${prefix}_${kind}`;
}

/**
 * Qdrant point id of a tenant's record: a UUID (version 5 layout) from the
 * SHA-1 of tenant and record id, so the same record always lands on the same
 * point (Qdrant takes only unsigned integers and UUIDs as ids) and one tenant
 * can never overwrite another's. The record id itself is in the payload.
 */
export function pointId(tenantId: string, id: string): string {
  const h = createHash("sha1").update(`${tenantId}\u0000${id}`, "utf8").digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** Milliseconds since the epoch of an ISO date (0 when it does not parse): what lists order by. */
export function epochMs(iso: string | undefined): number {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
}

export interface PayloadIndexSpec {
  field: string;
  schema: Schemas["PayloadFieldSchema"];
}

/** What a collection must look like: vector sizes and the payload indexes its queries rely on. */
export interface QdrantCollectionSpec {
  dimensions: number;
  payloadIndexes: PayloadIndexSpec[];
}

// `enable_hnsw: false` (Qdrant ≥ 1.17; ignored before) keeps Qdrant from building extra HNSW links per
// value of fields that never narrow a dense search much (one model for everything, a stem per value, ...).
const keyword = (enableHnsw = true): Schemas["KeywordIndexParams"] => ({ type: "keyword", ...(enableHnsw ? {} : { enable_hnsw: false }) });

function common(indexedMetadataKeys: readonly string[]): PayloadIndexSpec[] {
  return [
    // Every query filters by tenant: Qdrant co-locates a tenant's points (`is_tenant`, Qdrant ≥ 1.11).
    { field: "tenantId", schema: { type: "keyword", is_tenant: true } },
    { field: "namespace", schema: keyword() },
    { field: "model", schema: keyword(false) },
    // Distinct stems of the text: document frequencies for the similarity calibration.
    { field: "terms", schema: keyword(false) },
    { field: "createdAtMs", schema: { type: "integer", enable_hnsw: false } },
    ...FILTER_LIST_FIELDS.map((field) => ({ field, schema: keyword(false) })),
    ...[...new Set(indexedMetadataKeys)].flatMap((key) =>
      filterIndexFields(key).map(({ field, schema }) => ({ field, schema: schema === "keyword" ? keyword() : ({ type: "float" } as const) })),
    ),
  ];
}

export function chunkCollectionSpec(dimensions: number, indexedMetadataKeys: readonly string[] = []): QdrantCollectionSpec {
  return {
    dimensions,
    payloadIndexes: [
      ...common(indexedMetadataKeys),
      { field: "documentId", schema: keyword(false) },
      // The filepath filter runs inside the search (exact path, or a prefix ending in '/'), see `filepathCondition`.
      ...CHUNK_FILEPATH_FIELDS.map((field) => ({ field, schema: keyword() })),
      { field: CHUNK_FILEPATH_KNOWN, schema: { type: "bool" } as const },
    ],
  };
}

export function memoryCollectionSpec(dimensions: number, indexedMetadataKeys: readonly string[] = []): QdrantCollectionSpec {
  return {
    dimensions,
    payloadIndexes: [
      ...common(indexedMetadataKeys),
      { field: "isLatest", schema: "bool" },
      { field: "isForgotten", schema: "bool" },
      { field: "isStatic", schema: "bool" },
      { field: "forgetAfterMs", schema: { type: "integer", enable_hnsw: false } },
    ],
  };
}

/** A collection exists but cannot serve Engram as configured (its vectors differ). */
export class QdrantSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QdrantSchemaError";
  }
}

function schemaType(s: Schemas["PayloadFieldSchema"]): string {
  return typeof s === "string" ? s : s.type;
}

function isTenant(s: unknown): boolean {
  return typeof s === "object" && s !== null && (s as { is_tenant?: unknown }).is_tenant === true;
}

/** Problems of an existing collection's vector configuration (empty when it fits the spec). */
export function vectorConfigProblems(name: string, params: Schemas["CollectionParams"], spec: QdrantCollectionSpec): string[] {
  const problems: string[] = [];
  const vectors = params.vectors;
  const dense = vectors && !("size" in vectors) ? (vectors as Record<string, Schemas["VectorParams"] | undefined>)[DENSE_VECTOR] : undefined;
  if (!dense) problems.push(`Qdrant collection "${name}" has no named dense vector "${DENSE_VECTOR}" (it was not created by Engram)`);
  else {
    if (dense.size !== spec.dimensions)
      problems.push(
        `Qdrant collection "${name}" stores dense vectors of ${dense.size} dimensions but the embedder makes ${spec.dimensions}: ` +
          `vectors of different sizes cannot share a collection; use another QDRANT_COLLECTION_PREFIX (and re-index) or delete the collection`,
      );
    if (dense.distance !== "Cosine") problems.push(`Qdrant collection "${name}": dense vector "${DENSE_VECTOR}" uses ${dense.distance} distance, not Cosine`);
  }
  const sparse = params.sparse_vectors?.[SPARSE_VECTOR];
  if (!sparse) problems.push(`Qdrant collection "${name}" has no sparse vector "${SPARSE_VECTOR}"`);
  else if (sparse.modifier !== "idf") problems.push(`Qdrant collection "${name}": sparse vector "${SPARSE_VECTOR}" lacks the idf modifier`);
  return problems;
}

/** The payload indexes missing from a collection, or present with another type (or without `is_tenant` where wanted). */
export function missingPayloadIndexes(
  existing: Record<string, Schemas["PayloadIndexInfo"] | undefined>,
  wanted: readonly PayloadIndexSpec[],
): PayloadIndexSpec[] {
  return wanted.filter((w) => {
    const have = existing[w.field];
    if (!have) return true;
    if (have.data_type !== schemaType(w.schema)) return true;
    return isTenant(w.schema) && !isTenant(have.params);
  });
}

/** Qdrant's own explanation of a failed request (the client's error message is only the HTTP status text). */
export function qdrantErrorDetail(err: unknown): string {
  const e = err as { status?: unknown; message?: unknown; data?: { status?: { error?: unknown } } } | undefined;
  const detail = e?.data?.status?.error;
  const base = String(e?.message ?? err);
  return typeof detail === "string" && detail !== "" ? `${base}: ${detail}` : base;
}

function isAlreadyExists(err: unknown): boolean {
  return (err as { status?: number })?.status === 409 || /already exists/i.test(qdrantErrorDetail(err));
}

/** Runs one start-up request, naming the collection and Qdrant's reason when it fails. */
async function step<T>(what: string, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new Error(`Qdrant: ${what} of collection "${name}" failed: ${qdrantErrorDetail(err)}`, { cause: err });
  }
}

/**
 * Start-up creation and migration of one collection: creates it when missing
 * (named dense vector `dense`, Cosine, of the embedder's size; sparse vector
 * `text` with the idf modifier), refuses one whose vectors differ (a clear
 * `QdrantSchemaError`), and adds the payload indexes it lacks (new metadata
 * keys in `QDRANT_INDEXED_METADATA_KEYS`, or fields a later release indexes).
 * Idempotent; safe when several processes start together. Returns whether the
 * collection was created now.
 */
export async function ensureCollection(client: QdrantClient, name: string, spec: QdrantCollectionSpec): Promise<boolean> {
  let created = false;
  if (!(await step("the existence check", name, () => client.collectionExists(name))).exists) {
    try {
      await client.createCollection(name, {
        vectors: { [DENSE_VECTOR]: { size: spec.dimensions, distance: "Cosine" } },
        sparse_vectors: { [SPARSE_VECTOR]: { modifier: "idf" } },
      });
      created = true;
    } catch (err) {
      // Another process created it first: verify it like any existing collection.
      if (!isAlreadyExists(err)) throw new Error(`Qdrant: creation of collection "${name}" failed: ${qdrantErrorDetail(err)}`, { cause: err });
    }
  }
  const info = await step("reading the configuration", name, () => client.getCollection(name));
  const problems = vectorConfigProblems(name, info.config.params, spec);
  if (problems.length) throw new QdrantSchemaError(problems.join("; "));
  for (const ix of missingPayloadIndexes(info.payload_schema, spec.payloadIndexes)) {
    await step(`creating the payload index on ${ix.field}`, name, () =>
      client.createPayloadIndex(name, { field_name: ix.field, field_schema: ix.schema, wait: true }),
    );
  }
  return created;
}

/**
 * Oldest Qdrant server Engram's chunk index works with: replacing a document's chunks moves its generation marker
 * with a conditional update (`update_filter`, added in Qdrant 1.16), which an older server would not honour.
 */
export const QDRANT_MIN_VERSION = "1.16.0";

function versionParts(v: string): number[] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Refuses (at start-up) a Qdrant server older than `min`, naming both versions. A version it cannot read is let through. */
export async function assertQdrantVersion(client: QdrantClient, min: string = QDRANT_MIN_VERSION): Promise<void> {
  let version: string;
  try {
    version = (await client.versionInfo()).version;
  } catch (err) {
    throw new Error(`Qdrant: reading the server version failed: ${qdrantErrorDetail(err)}`, { cause: err });
  }
  const have = versionParts(version);
  const need = versionParts(min)!;
  if (!have) return;
  for (let i = 0; i < 3; i++) {
    if (have[i]! > need[i]!) return;
    if (have[i]! < need[i]!) throw new QdrantSchemaError(`Qdrant ${version} is too old: Engram needs Qdrant ${min} or later (conditional updates)`);
  }
}

/**
 * The read-only counterpart of `ensureCollection`, for processes that must not change the schema (recall): an
 * existing collection is read and refused with a `QdrantSchemaError` when its vectors do not fit; nothing is
 * created, not even missing payload indexes. Returns whether the collection exists (its owner creates it otherwise).
 */
export async function checkCollection(client: QdrantClient, name: string, spec: QdrantCollectionSpec): Promise<boolean> {
  if (!(await step("the existence check", name, () => client.collectionExists(name))).exists) return false;
  const info = await step("reading the configuration", name, () => client.getCollection(name));
  const problems = vectorConfigProblems(name, info.config.params, spec);
  if (problems.length) throw new QdrantSchemaError(problems.join("; "));
  return true;
}

export interface QdrantCollectionsOptions {
  /** `QDRANT_COLLECTION_PREFIX`: collections are `<prefix>_chunks` and `<prefix>_memories`. */
  prefix: string;
  /** The embedder's dimensions (size of the dense vectors). */
  dimensions: number;
  /** `QDRANT_INDEXED_METADATA_KEYS`: metadata keys filters use often (each gets payload indexes). */
  indexedMetadataKeys?: readonly string[];
  /** Which collections to prepare (default both). */
  kinds?: readonly QdrantCollectionKind[];
}

/** Prepares Engram's collections at start-up (see `ensureCollection`); returns their names. */
export async function ensureQdrantCollections(client: QdrantClient, o: QdrantCollectionsOptions): Promise<Record<QdrantCollectionKind, string>> {
  const names = { chunks: collectionName(o.prefix, "chunks"), memories: collectionName(o.prefix, "memories") };
  const keys = o.indexedMetadataKeys ?? [];
  for (const kind of o.kinds ?? (["chunks", "memories"] as const)) {
    const spec = kind === "chunks" ? chunkCollectionSpec(o.dimensions, keys) : memoryCollectionSpec(o.dimensions, keys);
    await ensureCollection(client, names[kind], spec);
  }
  return names;
}
