import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { extract } from "tar-stream";
import { z } from "zod";
import type { Backends, RequestMeta } from "../http/backends";
import { HttpProblem } from "../http/errors";
import { parseSettingsPatch, updateRequest } from "../routes/settings.routes";
import { archiveContainerTagSchema, archiveDocumentHeadSchema, archiveHeaderSchema, ENTRY, ENTRY_NAME, type Manifest, manifestSchema } from "./archive-format";

type Context = { tenantId: string; requestId: string };

/** Records per import call, and their byte budget (under the 4 MiB gRPC message limit). */
const DOCUMENTS_PER_CALL = 200;
const MEMORIES_PER_CALL = 200;
const CALL_BYTES = 2 * 1024 * 1024;
/** Ids per plan call. */
const IDS_PER_PLAN = 1000;
/** Deadline of one import call (memories are embedded as they are written). */
const IMPORT_DEADLINE_MS = 5 * 60_000;
const FRAME = 256 * 1024;

const bad = (detail: string) => new HttpProblem(400, "Invalid archive", detail);

/** An archive unpacked into a private directory, every entry checked against the manifest. */
export interface UnpackedArchive {
  dir: string;
  manifest: Manifest;
  /** Entry path on disk. */
  file(name: string): string;
  remove(): Promise<void>;
}

/**
 * Unpacks a tenant archive from `body` into a new directory under `spoolDir`
 * (mode 0700), refusing anything the format does not name, more than
 * `maxBytes` in all, and an archive whose manifest is missing (cut off) or
 * does not match its entries (size, sha256, an entry missing or extra).
 * Nothing is written to the tenant before the whole archive checked out.
 */
export async function unpackArchive(body: Readable, spoolDir: string, maxBytes: number): Promise<UnpackedArchive> {
  fs.mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(spoolDir, `import-${randomBytes(4).toString("hex")}-`));
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  const onDisk = (name: string) => path.join(dir, ...name.split("/"));
  try {
    const seen = new Map<string, { size: number; sha256: string }>();
    let total = 0;
    const ex = extract();
    const reading = (async () => {
      for await (const entry of ex) {
        const name = entry.header.name;
        if (entry.header.type !== "file" || (name !== ENTRY.manifest && !ENTRY_NAME.test(name)))
          throw bad(`unexpected entry ${JSON.stringify(name.slice(0, 200))}: not part of the archive format (docs/export-format.md)`);
        if (seen.has(name)) throw bad(`entry ${name} appears twice`);
        const target = onDisk(name);
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        const hash = createHash("sha256");
        let size = 0;
        const out = fs.createWriteStream(target, { mode: 0o600 });
        await pipeline(
          entry,
          async function* (src: AsyncIterable<unknown>) {
            for await (const c of src) {
              const chunk = c as Buffer;
              size += chunk.length;
              total += chunk.length;
              if (total > maxBytes) throw new HttpProblem(413, "Archive too large", `an archive holds at most ${maxBytes} bytes here`);
              hash.update(chunk);
              yield chunk;
            }
          },
          out,
        );
        seen.set(name, { size, sha256: hash.digest("hex") });
      }
    })();
    await Promise.all([pipeline(body, ex), reading]);

    if (!seen.has(ENTRY.manifest)) throw bad("no manifest.json: the archive is incomplete (an export cut off?)");
    const manifest = parseJson(manifestSchema, fs.readFileSync(onDisk(ENTRY.manifest), "utf8"), ENTRY.manifest);
    for (const [name, want] of Object.entries(manifest.entries)) {
      const got = seen.get(name);
      if (!got) throw bad(`entry ${name} is listed in the manifest but missing`);
      if (got.size !== want.size || got.sha256 !== want.sha256) throw bad(`entry ${name} does not match its size and sha256 in the manifest`);
    }
    for (const name of seen.keys()) if (name !== ENTRY.manifest && !manifest.entries[name]) throw bad(`entry ${name} is not listed in the manifest`);
    if (!seen.has(ENTRY.header)) throw bad(`no ${ENTRY.header}`);
    parseJson(archiveHeaderSchema, fs.readFileSync(onDisk(ENTRY.header), "utf8"), ENTRY.header);
    return { dir, manifest, file: onDisk, remove };
  } catch (err) {
    await remove();
    if (err instanceof HttpProblem) throw err;
    throw bad(`not a readable tar archive: ${(err as Error).message}`);
  }
}

function parseJson<T>(schema: z.ZodType<T>, text: string, where: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad(`${where} is not valid JSON`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw bad(`${where}: ${i.path.join(".") || "value"}: ${i.message}`);
  }
  return r.data;
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

/** Pages of an NDJSON series (documents/, memories/) in order. */
function pagesOf(a: UnpackedArchive, prefix: "documents/" | "memories/"): string[] {
  return Object.keys(a.manifest.entries)
    .filter((n) => n.startsWith(prefix))
    .sort();
}

function* batches(records: string[], count: number, bytes: number): Iterable<string[]> {
  let cur: string[] = [];
  let size = 0;
  for (const r of records) {
    const n = Buffer.byteLength(r);
    if (cur.length && (cur.length >= count || size + n > bytes)) {
      yield cur;
      cur = [];
      size = 0;
    }
    cur.push(r);
    size += n;
  }
  if (cur.length) yield cur;
}

export interface ImportSummary {
  settings: boolean;
  containerTags: number;
  documents: { imported: number; existing: number; failed: number; errors: { id: string; error: string }[] };
  files: number;
  memories: { imported: number; skipped: number };
  /** Connections are listed in the archive but not created: their credentials never leave an instance. */
  connections: { skipped: number };
}

/**
 * Loads an unpacked archive into the caller's tenant, through the services:
 * settings (secrets are not in archives: the target's stay), container tag
 * settings, then ids planned (kept where free on this instance; taken ones
 * get new ids; documents the tenant already holds — same id, or same caller
 * id in the namespace — are not written twice), memories with every version
 * (their chains, relations and provenance remapped) and the imported
 * documents' generations marked formed, then the documents, which the
 * pipeline re-indexes without forming their memories again.
 */
export async function importTenant(b: Backends, context: Context, meta: RequestMeta, a: UnpackedArchive): Promise<ImportSummary> {
  const opts = { ...meta, deadlineMs: IMPORT_DEADLINE_MS };
  const read = (name: string) => fs.readFileSync(a.file(name), "utf8");
  const summary: ImportSummary = {
    settings: false,
    containerTags: 0,
    documents: { imported: 0, existing: 0, failed: 0, errors: [] },
    files: 0,
    memories: { imported: 0, skipped: 0 },
    connections: { skipped: 0 },
  };

  // Organisation settings: every field but the OAuth applications (their secrets are never exported; a client id
  // without its secret would break the target's own application).
  if (a.manifest.entries[ENTRY.settings]) {
    const s = parseJson(z.record(z.string(), z.unknown()), read(ENTRY.settings), ENTRY.settings);
    const { workspacePrompt, ...rest } = s;
    const others = Object.fromEntries(Object.entries(rest).filter(([k]) => !/(ClientId|ClientSecret|CustomKeyEnabled)$/.test(k)));
    try {
      if (Object.keys(others).length) await b.settings.UpdateSettings({ context, ...updateRequest(parseSettingsPatch(others)) }, opts);
      if (workspacePrompt !== undefined) await b.settings.UpdateSettings({ context, ...updateRequest(parseSettingsPatch({ workspacePrompt })) }, opts);
    } catch (err) {
      if (err instanceof z.ZodError) throw bad(`settings.json: ${err.issues[0]?.path.join(".")}: ${err.issues[0]?.message}`);
      throw err;
    }
    summary.settings = true;
  }

  for (const line of a.manifest.entries[ENTRY.containerTags] ? lines(read(ENTRY.containerTags)) : []) {
    const t = parseJson(archiveContainerTagSchema, line, ENTRY.containerTags);
    const mask = ["name", "entity_context", "memory_filesystem_paths", "profile_buckets"];
    await b.containerTags.UpdateContainerTag(
      {
        context,
        namespace: t.containerTag,
        ...(t.name !== null ? { name: t.name } : {}),
        ...(t.entityContext !== null ? { entityContext: t.entityContext } : {}),
        memoryFilesystemPaths: t.memoryFilesystemPaths ? { paths: t.memoryFilesystemPaths } : null,
        profileBuckets: t.profileBuckets,
        updateMask: mask,
      },
      opts,
    );
    summary.containerTags++;
  }
  summary.connections.skipped = a.manifest.entries[ENTRY.connections] ? lines(read(ENTRY.connections)).length : 0;

  // Plan the documents' ids.
  const docPages = pagesOf(a, "documents/");
  const heads: z.infer<typeof archiveDocumentHeadSchema>[] = [];
  for (const page of docPages) for (const line of lines(read(page))) heads.push(parseJson(archiveDocumentHeadSchema, line, page));
  const newDocIds = new Map<string, string>();
  const existingDocs = new Map<string, string>();
  for (let i = 0; i < heads.length; i += IDS_PER_PLAN) {
    const part = heads.slice(i, i + IDS_PER_PLAN);
    const plan = await b.ingestion.PlanDocumentImport(
      { context, documents: part.map((d) => ({ id: d.id, namespace: d.namespace, customId: d.customId ?? "" })) },
      opts,
    );
    for (const [k, v] of Object.entries(plan.newIds)) newDocIds.set(k, v);
    for (const [k, v] of Object.entries(plan.existingIds)) existingDocs.set(k, v);
  }
  const documentIds: Record<string, string> = Object.fromEntries([...newDocIds, ...existingDocs]);
  const newDocIdsObj = Object.fromEntries(newDocIds);

  // Plan the memories' ids.
  const memPages = pagesOf(a, "memories/");
  const memIds: string[] = [];
  for (const page of memPages) for (const line of lines(read(page))) memIds.push(parseJson(z.object({ id: z.string() }).loose(), line, page).id);
  const memoryIds: Record<string, string> = {};
  for (let i = 0; i < memIds.length; i += IDS_PER_PLAN) {
    const plan = await b.memories.PlanMemoryImport({ context, ids: memIds.slice(i, i + IDS_PER_PLAN) }, opts);
    Object.assign(memoryIds, plan.newIds);
  }

  // Memories, then the formation marks of the documents about to be written whose memories were formed at the source
  // (final state done): their re-indexing here forms nothing again.
  for (const page of memPages) {
    for (const records of batches(lines(read(page)), MEMORIES_PER_CALL, CALL_BYTES)) {
      const res = await b.memories.ImportMemories({ context, records, memoryIds, documentIds, formed: [] }, opts);
      summary.memories.imported += res.imported;
      summary.memories.skipped += res.skipped;
    }
  }
  const formed = heads
    .filter((d) => d.status === "done" && !existingDocs.has(d.id))
    .map((d) => ({ documentId: newDocIds.get(d.id) ?? d.id, generation: d.generation }));
  for (let i = 0; i < formed.length; i += IDS_PER_PLAN)
    await b.memories.ImportMemories({ context, records: [], memoryIds: {}, documentIds: {}, formed: formed.slice(i, i + IDS_PER_PLAN) }, opts);

  // Documents: records without a file in batches, file documents one stream each.
  const record = (r: { sourceId: string; id: string; error: string }) => {
    if (r.error) {
      summary.documents.failed++;
      if (summary.documents.errors.length < 50) summary.documents.errors.push({ id: r.sourceId, error: r.error });
    } else summary.documents.imported++;
  };
  for (const page of docPages) {
    const all = lines(read(page)).map((line) => ({ line, head: parseJson(archiveDocumentHeadSchema, line, page) }));
    summary.documents.existing += all.filter((d) => existingDocs.has(d.head.id)).length;
    const toWrite = all.filter((d) => !existingDocs.has(d.head.id));
    const plain = toWrite.filter((d) => !d.head.file).map((d) => d.line);
    for (const records of batches(plain, DOCUMENTS_PER_CALL, CALL_BYTES)) {
      const res = await b.ingestion.ImportDocuments({ context, records, newIds: newDocIdsObj }, opts);
      res.results.forEach(record);
    }
    for (const { line, head } of toWrite) {
      if (!head.file) continue;
      const fileEntry = ENTRY.file(head.id);
      if (!a.manifest.entries[fileEntry]) throw bad(`document ${head.id} names a file the archive does not hold (${fileEntry})`);
      const messages = async function* () {
        yield { header: { context, record: line, newIds: newDocIdsObj } };
        for await (const chunk of fs.createReadStream(a.file(fileEntry), { highWaterMark: FRAME })) yield { data: chunk as Buffer };
      };
      const res = await b.ingestion.ImportDocumentFile(messages(), opts);
      res.results.forEach(record);
      if (!res.results.some((r) => r.error)) summary.files++;
    }
  }
  return summary;
}
