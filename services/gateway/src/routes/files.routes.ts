import fs from "node:fs";
import { checkNamedTags } from "../http/authorize";
import { Router, type Request, type RequestHandler, type Response } from "express";
import multer from "multer";
import type { Logger } from "@engram/observability";
import { toStruct } from "@engram/grpc";
import { type Dreaming, type JsonObject, type TaskType } from "@engram/kernel";
import { protoEnum } from "@engram/grpc";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";
import { writeStream } from "../http/stream";
import { defaultSpoolDir, UploadSpool } from "../http/upload-spool";
import { fileQuery, pathNamespace, v3FileParts, v5FileParts } from "./schemas";

export interface FileRoutesOptions {
  maxBytes: number;
  defaultNamespace: string;
  logger: Logger;
  /** Where uploads wait while their request runs; `<tmpdir>/engram-uploads` by default. */
  spoolDir?: string;
  /** Run once the upload is parsed, before the handler (idempotency and quota guards: http/guards.ts). */
  afterParse?: RequestHandler[];
}

interface UploadHeader {
  namespace: string;
  customId?: string;
  supportingContext?: string;
  date?: string;
  metadata?: JsonObject;
  group?: JsonObject;
  fileType?: string;
  mimeType?: string;
  taskType?: TaskType;
  dreaming?: Dreaming;
  containerTags?: string[];
  filepath?: string;
}

const FRAME = 256 * 1024;

/** Deadline of an upload's gRPC call (the answer deadline of upload requests too). */
export const UPLOAD_DEADLINE_MS = 120_000;

/** Deadline of a file download's gRPC stream: the whole transfer, to a slow client too (files are at most 50 MB). */
const DOWNLOAD_DEADLINE_MS = 10 * 60_000;

/**
 * Multipart uploads: multer spools the file to a temporary file (bounded
 * memory; larger than the limit -> 413), then the gateway streams it to
 * ingestion, which answers only once the bytes are durably stored. The spool
 * file is deleted when the request is over, whatever the outcome (see
 * UploadSpool); leftovers of a gateway that died are swept when the routes
 * are built, at gateway start. The path and query are checked before the
 * body is read, so a request refused for them spools nothing.
 */
export function fileRoutes(b: Backends, opts: FileRoutesOptions): { authed: Router; open: Router } {
  const spool = UploadSpool.open(opts.spoolDir ?? defaultSpoolDir(), opts.logger);
  spool.sweep().then(
    (removed) => {
      if (removed > 0) opts.logger.info({ removed, dir: spool.dir }, "removed upload spool files left by an earlier gateway");
    },
    (err: unknown) => opts.logger.warn({ err, dir: spool.dir }, "could not sweep the upload spool"),
  );
  const upload = multer({
    storage: spool.storage(),
    limits: { fileSize: opts.maxBytes, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 },
    // Browsers and curl send non-ASCII file names as raw UTF-8 in the part header (busboy reads latin1 by default).
    defParamCharset: "utf8",
  });
  const parse = spool.track(upload.single("file"));
  const single: RequestHandler = (req, res, next) => {
    if (!req.is("multipart/form-data")) return next(new HttpProblem(415, "Unsupported media type", "send the file as multipart/form-data with a 'file' part"));
    parse(req, res, (err: unknown) => {
      if (!err) return next();
      const e = err as { code?: string; field?: string };
      if (e.code === "LIMIT_FILE_SIZE") return next(new HttpProblem(413, "File too large", `files are limited to ${opts.maxBytes} bytes`));
      if (e.code === "LIMIT_UNEXPECTED_FILE")
        return next(new HttpProblem(400, "Invalid upload", `unexpected file part '${e.field}': send exactly one part named 'file'`));
      if (typeof e.code === "string" && e.code.startsWith("LIMIT_")) return next(new HttpProblem(400, "Invalid upload", (err as Error).message));
      return next(new HttpProblem(400, "Invalid upload", (err as Error).message || "malformed multipart body"));
    });
  };

  const send = async (req: Request, h: UploadHeader) => {
    const file = req.file;
    if (!file) throw new HttpProblem(400, "Invalid upload", "the multipart body has no part named 'file'");
    // The spool file is deleted when the response closes (UploadSpool.track).
    async function* messages() {
      yield {
        header: {
          context: callContext(req),
          namespace: h.namespace,
          fileName: file!.originalname,
          mimeType: h.mimeType ?? (file!.mimetype !== "application/octet-stream" ? file!.mimetype : ""),
          fileType: h.fileType ?? "",
          supportingContext: h.supportingContext ?? "",
          metadata: toStruct(h.metadata),
          group: toStruct(h.group),
          date: h.date ?? "",
          customId: h.customId ?? "",
          taskType: protoEnum.taskType.to(h.taskType),
          dreaming: protoEnum.dreaming.to(h.dreaming),
          containerTags: h.containerTags ?? [],
          sizeBytes: String(file!.size),
          filepath: h.filepath ?? "",
        },
      };
      for await (const chunk of fs.createReadStream(file!.path, { highWaterMark: FRAME })) yield { data: chunk as Buffer };
    }
    return b.ingestion.UploadDocumentFile(messages(), {
      requestId: req.requestId,
      traceparent: req.traceparent,
      principal: req.principal,
      // Longer for a write with an Idempotency-Key (it may complete after its 504 answer: http/guards.ts).
      deadlineMs: Math.max(req.deadlineMs ?? 0, UPLOAD_DEADLINE_MS),
    });
  };

  /** The v5 path and query, checked again by the handler: refused before the body is read. */
  const v5Precheck: RequestHandler = (req, _res, next) => {
    pathNamespace.parse(req.params.namespace);
    fileQuery.parse(req.query);
    next();
  };

  const guards = opts.afterParse ?? [];
  const authed = Router();
  authed.post("/ns/:namespace/document/file", v5Precheck, single, ...guards, async (req, res) => {
    const namespace = pathNamespace.parse(req.params.namespace);
    const q = fileQuery.parse(req.query);
    const p = v5FileParts.parse(req.body ?? {});
    const out = await send(req, {
      namespace,
      customId: p.id,
      supportingContext: p.supportingContext,
      date: p.date,
      metadata: p.metadata,
      group: p.group,
      ...q,
    });
    res.json({ id: out.customId || out.id, status: protoEnum.status.from(out.status) });
  });

  authed.post("/v3/documents/file", single, ...guards, async (req, res) => {
    const p = v3FileParts.parse(req.body ?? {});
    const tags = parseTags(p.containerTags);
    // A key limited to container tags names its tags in the parts (the route table cannot see them).
    if (req.principal) checkNamedTags(req.principal.rights, [...(p.containerTag ? [p.containerTag] : []), ...tags]);
    const out = await send(req, {
      namespace: p.containerTag ?? tags[0] ?? opts.defaultNamespace,
      containerTags: tags,
      customId: p.customId,
      supportingContext: p.entityContext,
      metadata: p.metadata,
      group: p.filterByMetadata,
      fileType: p.fileType,
      mimeType: p.mimeType,
      taskType: p.taskType,
      dreaming: p.dreaming,
      filepath: p.filepath,
    });
    res.json({ id: out.id, status: protoEnum.status.from(out.status) });
  });

  /** Expiring file links (GET /v3/documents/{id}/file-url) are served here, without an API key. */
  const open = Router();
  /**
   * Streamed end to end: the file's frames go from ingestion's gRPC stream to the response as they come, the gRPC
   * stream pulled only while the response accepts more (`writeStream`), so a download of any size holds about one
   * frame here and a slow client slows ingestion's reads instead of filling the gateway's memory. The first message
   * (the file's name, type and size) sets the headers; a failure before it is an API error (403 for a bad link), one
   * after it cuts the response off (its Content-Length then tells the client the file is incomplete).
   */
  open.get("/files/:token", async (req, res) => {
    const stream = b.ingestion.ReadDocumentFile({ token: req.params.token }, { requestId: req.requestId, deadlineMs: DOWNLOAD_DEADLINE_MS });
    const messages = stream[Symbol.asyncIterator]();
    const first = await messages.next();
    const info = first.done ? undefined : first.value.info;
    setFileHeaders(res, info?.mimeType, info?.fileName);
    const size = Number(info?.sizeBytes ?? 0);
    if (Number.isSafeInteger(size) && size > 0) res.setHeader("content-length", String(size));
    async function* bytes(): AsyncIterable<Uint8Array> {
      if (!first.done && first.value.data) yield first.value.data;
      for (let m = await messages.next(); !m.done; m = await messages.next()) if (m.value.data) yield m.value.data;
    }
    try {
      const written = await writeStream(bytes(), res);
      if (res.hasHeader("content-length") && written !== size) throw new Error(`the stored file has ${written} bytes, its record says ${size}`);
    } catch (err) {
      stream.cancel();
      // Headers (and part of the file) are out: nothing else can be said; the client sees a cut-off transfer.
      opts.logger.warn({ err, requestId: req.requestId, path: "/files/[token]" }, "file download cut off");
      res.destroy();
      return;
    }
    res.end();
  });
  return { authed, open };
}

/** v3 containerTags part: a JSON array string or a single tag. */
function parseTags(v: string | undefined): string[] {
  if (!v) return [];
  const t = v.trim();
  if (t.startsWith("[")) {
    try {
      const arr = JSON.parse(t) as unknown;
      if (Array.isArray(arr) && arr.every((x) => typeof x === "string")) return arr;
    } catch {
      /* fall through */
    }
    throw new HttpProblem(400, "Invalid request", "containerTags must be a JSON array of strings or a single tag");
  }
  return [t];
}

/**
 * Types a browser shows or hands to an application without running anything
 * in the gateway's origin: text, images other than SVG, PDF, office
 * documents, audio, video and archives. A stored file of any other type
 * (HTML, SVG, XML, JavaScript, anything unknown) is served as
 * `application/octet-stream`: the type is the uploader's claim, not a fact.
 */
export const SAFE_FILE_TYPES: ReadonlySet<string> = new Set([
  "text/plain",
  "text/csv",
  "text/tab-separated-values",
  "text/markdown",
  "application/json",
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/tiff",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
  "application/rtf",
  "application/epub+zip",
  "application/zip",
  "application/gzip",
  "audio/mpeg",
  "audio/mp4",
  "audio/ogg",
  "audio/wav",
  "audio/webm",
  "video/mp4",
  "video/ogg",
  "video/webm",
  "video/quicktime",
]);

/** The Content-Type a stored file is served with: its own bare type when safe, else application/octet-stream. */
export function servedFileType(mimeType: string | undefined): string {
  const base = (mimeType ?? "").split(";", 1)[0]!.trim().toLowerCase();
  return SAFE_FILE_TYPES.has(base) ? base : "application/octet-stream";
}

/** Lone UTF-16 surrogates, which encodeURIComponent refuses. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `attachment` with the file's name: a plain-ASCII `filename` for old
 * clients and the exact name as RFC 8187 `filename*`.
 */
export function attachmentDisposition(fileName: string | undefined): string {
  if (!fileName) return "attachment";
  const name = fileName.replace(LONE_SURROGATE, "\uFFFD");
  const ascii = name.replace(/[^\x20-\x7e]|["\\/]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A stored original is served as a download that cannot act in the
 * gateway's origin: a safe type (above), always `attachment`, a CSP that
 * sandboxes it and lets it load nothing, no caching. It may be embedded by
 * other origins (`<img>` of a signed link): the link itself is the credential.
 */
function setFileHeaders(res: Response, mimeType: string | undefined, fileName: string | undefined): void {
  res.setHeader("content-type", servedFileType(mimeType));
  res.setHeader("content-disposition", attachmentDisposition(fileName));
  res.setHeader("content-security-policy", "default-src 'none'; sandbox; frame-ancestors 'none'");
  res.setHeader("cross-origin-resource-policy", "cross-origin");
  res.setHeader("cache-control", "private, no-store");
}
