import { Router, type Request, type RequestHandler } from "express";
import type { CallContext } from "@engram/grpc/src/gen/engram/common/v1/CallContext";
import type { Backends, RequestMeta } from "../http/backends";
import { callContext } from "../http/context";

/**
 * REST operations whose gRPC contract is in place but whose capability ships
 * in a later release. Each route still authenticates, dials its service and
 * maps the answer (UNIMPLEMENTED -> 501 with the API error body), so the
 * whole path is exercised. As capabilities land, routes move out of this file
 * into their own route modules with full validation and presenters.
 */

/** An RPC of a typed client whose request carries the call context. */
type Rpc<R> = (request: R & { context?: CallContext | null }, opts?: RequestMeta) => Promise<unknown>;

function forward<R>(rpc: Rpc<R>, build: (req: Request) => R = () => ({}) as R): RequestHandler {
  return async (req, res) => {
    const out = await rpc({ context: callContext(req), ...build(req) }, req);
    res.json(out);
  };
}

/** The request field named like the path parameter, from the path. */
const pathParam =
  <K extends string>(name: K) =>
  (req: Request) =>
    ({ [name]: String(req.params[name]) }) as Record<K, string>;

export function contractRoutes(b: Backends): Router {
  const r = Router();

  // Container-tag merges (501 until their release)
  r.post("/v3/container-tags/merge", forward(b.containerTags.MergeContainerTags));
  r.get("/v3/container-tags/merge/:mergeId", forward(b.containerTags.GetContainerTagMerge, pathParam("mergeId")));

  return r;
}
