import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Router, type Request, type RequestHandler } from "express";
import multer from "multer";
import { clientStreamCall, serverStreamCall, toStruct } from "@engram/grpc";
import type { AddDocumentResponse__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/AddDocumentResponse";
import type { ReadDocumentFileResponse__Output } from "@engram/grpc/src/gen/engram/ingestion/v1/ReadDocumentFileResponse";
import { type Dreaming, type JsonObject, protoEnum, type TaskType } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";
import { fileQuery, pathNamespace, v3FileParts, v5FileParts } from "./schemas";

export interface FileRoutesOptions {
  maxBytes: number;
  defaultNamespace: string;
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

/**
 * Multipart uploads: multer spools the file to a temporary file (bounded
 * memory; larger than the limit -> 413), then the gateway streams it to
 * ingestion, which answers only once the bytes are durably stored.
 */
export function fileRoutes(b: Backends, opts: FileRoutesOptions): { authed: Router; open: Router } {
  const spool = path.join(os.tmpdir(), "engram-uploads");
  fs.mkdirSync(spool, { recursive: true });
  const upload = multer({ dest: spool, limits: { fileSize: opts.maxBytes, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 } });
  const single: RequestHandler = (req, res, next) => {
    if (!req.is("multipart/form-data")) return next(new HttpProblem(415, "Unsupported media type", "send the file as multipart/form-data with a 'file' part"));
    upload.single("file")(req, res, (err: unknown) => {
      if (!err) return next();
      const e = err as { code?: string; field?: string };
      if (e.code === "LIMIT_FILE_SIZE") return next(new HttpProblem(413, "File too large", `files are limited to ${opts.maxBytes} bytes`));
      if (e.code === "LIMIT_UNEXPECTED_FILE")
        return next(new HttpProblem(400, "Invalid upload", `unexpected file part '${e.field}': send exactly one part named 'file'`));
      if (typeof e.code === "string" && e.code.startsWith("LIMIT_")) return next(new HttpProblem(400, "Invalid upload", (err as Error).message));
      return next(new HttpProblem(400, "Invalid upload", (err as Error).message ?? "malformed multipart body"));
    });
  };

  const send = async (req: Request, h: UploadHeader) => {
    const file = req.file;
    if (!file) throw new HttpProblem(400, "Invalid upload", "the multipart body has no part named 'file'");
    try {
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
      return await clientStreamCall<unknown, AddDocumentResponse__Output>(b.ingestion.client, "UploadDocumentFile", messages(), {
        requestId: req.requestId,
        traceparent: req.traceparent,
        deadlineMs: 120_000,
      });
    } finally {
      fs.rm(file.path, { force: true }, () => undefined);
    }
  };

  const authed = Router();
  authed.post("/ns/:namespace/document/file", single, async (req, res) => {
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

  authed.post("/v3/documents/file", single, async (req, res) => {
    const p = v3FileParts.parse(req.body ?? {});
    const tags = parseTags(p.containerTags);
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
  open.get("/files/:token", async (req, res) => {
    const parts = await serverStreamCall<ReadDocumentFileResponse__Output>(
      b.ingestion.client,
      "ReadDocumentFile",
      { token: req.params.token },
      { requestId: req.requestId },
    );
    const info = parts.find((x) => x.info)?.info;
    res.setHeader("content-type", info?.mimeType || "application/octet-stream");
    if (info?.fileName) res.setHeader("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(info.fileName)}`);
    res.setHeader("cache-control", "private, no-store");
    for (const x of parts) if (x.data) res.write(x.data);
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
