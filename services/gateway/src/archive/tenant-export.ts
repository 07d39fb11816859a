import { createHash } from "node:crypto";
import { once } from "node:events";
import { EXPORT_PAGE_BYTES } from "@engram/kernel";
import type { Pack } from "tar-stream";
import type { Backends, RequestMeta } from "../http/backends";
import { presentConnection } from "../routes/presenters";
import { presentSettings } from "../routes/settings.routes";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type ArchiveContainerTag, ENTRY, type Manifest } from "./archive-format";

/** Deadline of one file's stream from ingestion. */
const FILE_DEADLINE_MS = 10 * 60_000;

type Context = { tenantId: string; requestId: string };
type Entries = Manifest["entries"];

const ndjson = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8");

/** Adds one entry of known size to the pack, with back-pressure, and records its size and sha256. */
async function addEntry(pack: Pack, entries: Entries, name: string, size: number, data: Buffer | AsyncIterable<Uint8Array>): Promise<void> {
  const hash = createHash("sha256");
  let written = 0;
  await new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date() }, (err) => (err ? reject(err) : resolve()));
    const chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array> = Buffer.isBuffer(data) ? [data] : data;
    (async () => {
      for await (const chunk of chunks) {
        hash.update(chunk);
        written += chunk.byteLength;
        if (written > size) throw new Error(`entry ${name} is longer than its ${size} bytes`);
        if (!entry.write(chunk)) await once(entry as unknown as NodeJS.EventEmitter, "drain");
      }
      if (written !== size) throw new Error(`entry ${name} has ${written} bytes, ${size} announced`);
      (entry as unknown as { end(): void }).end();
    })().catch((err: Error) => {
      entry.destroy(err);
      reject(err);
    });
  });
  entries[name] = { size, sha256: hash.digest("hex") };
}

const addJson = (pack: Pack, entries: Entries, name: string, value: unknown) => {
  const buf = Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8");
  return addEntry(pack, entries, name, buf.length, buf);
};

const addLines = (pack: Pack, entries: Entries, name: string, lines: string[]) => {
  const buf = ndjson(lines);
  return addEntry(pack, entries, name, buf.length, buf);
};

/** The bytes of a document's stored original, streamed from ingestion. */
async function* fileBytes(b: Backends, context: Context, namespace: string, id: string, meta: RequestMeta): AsyncIterable<Uint8Array> {
  const stream = b.ingestion.GetDocumentSource({ context, namespace, id, generation: 0 }, { ...meta, deadlineMs: FILE_DEADLINE_MS });
  try {
    for await (const m of stream) if (m.data?.length) yield m.data;
  } finally {
    stream.cancel();
  }
}

/**
 * Writes the tenant's archive into `pack` (then finalized by the caller):
 * settings, container tags, connections (without credentials), documents
 * page by page each followed by its pages' original files, memories page by
 * page, and the manifest last. Every page is one RPC answer within a byte
 * budget. Not a snapshot: writes during the export may or may not be in it
 * (docs/export-format.md).
 */
export async function exportTenant(b: Backends, context: Context, meta: RequestMeta, pack: Pack): Promise<Manifest> {
  const entries: Entries = {};
  const createdAt = new Date().toISOString();
  const counts = { documents: 0, files: 0, memories: 0, containerTags: 0, connections: 0 };
  await addJson(pack, entries, ENTRY.header, { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, createdAt });

  const settings = await b.settings.GetSettings({ context }, meta);
  await addJson(pack, entries, ENTRY.settings, presentSettings(settings.settings));

  const tags = await b.containerTags.ListContainerTags({ context }, meta);
  const tagLines: string[] = [];
  for (const t of tags.containerTags) {
    const item: ArchiveContainerTag = {
      containerTag: t.namespace,
      name: t.name ?? null,
      entityContext: t.entityContext ?? null,
      memoryFilesystemPaths: t.memoryFilesystemPaths ? [...t.memoryFilesystemPaths.paths] : null,
      profileBuckets: t.profileBuckets.map((x) => ({ key: x.key, description: x.description })),
    };
    if (item.name === null && item.entityContext === null && item.memoryFilesystemPaths === null && item.profileBuckets.length === 0) continue;
    tagLines.push(JSON.stringify(item));
  }
  counts.containerTags = tagLines.length;
  await addLines(pack, entries, ENTRY.containerTags, tagLines);

  const connections = await b.connections.ListConnections({ context, containerTags: [] }, meta);
  counts.connections = connections.connections.length;
  await addLines(
    pack,
    entries,
    ENTRY.connections,
    connections.connections.map((c) => JSON.stringify(presentConnection(c))),
  );

  let cursor = "";
  for (let page = 1; ; page++) {
    const res = await b.ingestion.ExportDocuments({ context, cursor, maxBytes: EXPORT_PAGE_BYTES }, meta);
    if (res.records.length) {
      await addLines(pack, entries, ENTRY.documentsPage(page), res.records);
      counts.documents += res.records.length;
      for (const line of res.records) {
        const d = JSON.parse(line) as { id: string; namespace: string; file?: { path: string; sizeBytes: number } };
        if (!d.file) continue;
        await addEntry(pack, entries, ENTRY.file(d.id), d.file.sizeBytes, fileBytes(b, context, d.namespace, d.id, meta));
        counts.files++;
      }
    }
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }

  cursor = "";
  for (let page = 1; ; page++) {
    const res = await b.memories.ExportMemories({ context, cursor, maxBytes: EXPORT_PAGE_BYTES }, meta);
    if (res.records.length) {
      await addLines(pack, entries, ENTRY.memoriesPage(page), res.records);
      counts.memories += res.records.length;
    }
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }

  const manifest: Manifest = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, createdAt, counts, entries: { ...entries } };
  await addJson(pack, entries, ENTRY.manifest, manifest);
  return manifest;
}
