import { pipeline } from "node:stream/promises";
import { Router } from "express";
import { pack as tarPack } from "tar-stream";
import type { Logger } from "@engram/observability";
import { exportTenant } from "../archive/tenant-export";
import { importTenant, unpackArchive } from "../archive/tenant-import";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";

/** Largest archive POST /v3/import takes by default (it is unpacked to disk, not held in memory). */
export const ARCHIVE_MAX_BYTES = 16 * 1024 ** 3;

const ARCHIVE_TYPES = new Set(["application/x-tar", "application/tar", "application/octet-stream"]);

/**
 * Tenant export and import (issue #34; docs/export-format.md and
 * docs/api-decisions.md section 23), admin scope. GET /v3/export streams the
 * caller's tenant as a tar; POST /v3/import takes one (raw body, mounted
 * before the JSON body parser) and loads it into the caller's tenant.
 */
export function archiveRoutes(b: Backends, opts: { spoolDir: string; logger: Logger; maxBytes?: number }): Router {
  const r = Router();
  r.get("/v3/export", async (req, res) => {
    const context = callContext(req);
    const pack = tarPack();
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    res.status(200);
    res.setHeader("content-type", "application/x-tar");
    res.setHeader("content-disposition", `attachment; filename="engram-export-${stamp}.tar"`);
    res.setHeader("cache-control", "no-store");
    const sending = pipeline(pack, res);
    try {
      await exportTenant(b, context, req, pack);
      pack.finalize();
      await sending;
    } catch (err) {
      // The status line is out: the client sees a cut-off archive (no manifest), which import refuses.
      opts.logger.error({ err, requestId: req.requestId }, "tenant export cut off");
      pack.destroy(err as Error);
      res.destroy();
      await sending.catch(() => undefined);
    }
  });

  r.post("/v3/import", async (req, res) => {
    const context = callContext(req);
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (!ARCHIVE_TYPES.has(type)) throw new HttpProblem(415, "Unsupported media type", "send the archive as the raw body with Content-Type: application/x-tar");
    const archive = await unpackArchive(req, opts.spoolDir, opts.maxBytes ?? ARCHIVE_MAX_BYTES);
    try {
      const summary = await importTenant(b, context, req, archive);
      opts.logger.info({ requestId: req.requestId, tenantId: context.tenantId, ...summary.documents, memories: summary.memories }, "tenant archive imported");
      res.json({ success: true, counts: archive.manifest.counts, ...summary });
    } finally {
      await archive.remove();
    }
  });
  return r;
}
