import { z } from "zod";

/**
 * The tenant archive (docs/export-format.md): a tar of
 *
 *   engram-archive.json         {format, version, createdAt}: first, so a reader knows what it holds
 *   settings.json               organisation settings (no secret: OAuth client secrets are null)
 *   container-tags.ndjson       container tags with settings (name, entity context, memory paths, buckets)
 *   connections.ndjson          connections as the API lists them (never their credentials)
 *   documents/NNNNNN.ndjson     document records, oldest first, in pages
 *   files/<documentId>          the original file of a file document
 *   memories/NNNNNN.ndjson      memory records: every version, forgotten or not
 *   manifest.json               last: counts, and the size and sha256 of every other entry
 *
 * The manifest comes last because the export is streamed: an archive cut off
 * mid-way has no manifest, and import refuses it.
 */
export const ARCHIVE_FORMAT = "engram-tenant-archive";
export const ARCHIVE_VERSION = 1;

export const ENTRY = {
  header: "engram-archive.json",
  settings: "settings.json",
  containerTags: "container-tags.ndjson",
  connections: "connections.ndjson",
  manifest: "manifest.json",
  documentsPage: (n: number) => `documents/${String(n).padStart(6, "0")}.ndjson`,
  memoriesPage: (n: number) => `memories/${String(n).padStart(6, "0")}.ndjson`,
  file: (documentId: string) => `files/${documentId}`,
} as const;

/** Every entry name an archive may hold besides the manifest. */
export const ENTRY_NAME =
  /^(engram-archive\.json|settings\.json|container-tags\.ndjson|connections\.ndjson|(documents|memories)\/\d{6}\.ndjson|files\/[A-Za-z0-9_-]{1,64})$/;

export const archiveHeaderSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT, { message: `not an ${ARCHIVE_FORMAT}` }),
  version: z.literal(ARCHIVE_VERSION, { message: `only archive version ${ARCHIVE_VERSION} is read` }),
  createdAt: z.string(),
});

export const manifestSchema = archiveHeaderSchema.extend({
  counts: z.object({
    documents: z.number().int().min(0),
    files: z.number().int().min(0),
    memories: z.number().int().min(0),
    containerTags: z.number().int().min(0),
    connections: z.number().int().min(0),
  }),
  entries: z.record(
    z.string().regex(ENTRY_NAME, "an entry name of the format"),
    z.object({ size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** A container tag's settings as the archive holds them (the PATCH /v3/container-tags body, plus the tag). */
export const archiveContainerTagSchema = z.strictObject({
  containerTag: z.string(),
  name: z.string().nullable(),
  entityContext: z.string().nullable(),
  memoryFilesystemPaths: z.array(z.string()).nullable(),
  profileBuckets: z.array(z.object({ key: z.string(), description: z.string() })),
});

export type ArchiveContainerTag = z.infer<typeof archiveContainerTagSchema>;

/** What import needs of a document record (the services own the rest of it). */
export const archiveDocumentHeadSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  customId: z.string().optional(),
  status: z.string(),
  generation: z.number().int(),
  file: z.object({ path: z.string(), sizeBytes: z.number().int() }).optional(),
});
