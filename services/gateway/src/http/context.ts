import type { Request } from "express";
import type { Principal } from "../auth/keys.service";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
      requestId?: string;
      traceparent?: string;
      /** The gRPC deadline of this request's calls when not the gateway's default (a write with an Idempotency-Key: see guards.ts). */
      deadlineMs?: number;
    }
  }
}

/** The CallContext every gRPC request carries: tenant from the API key, request id for logs. */
export function callContext(req: Request): { tenantId: string; requestId: string } {
  if (!req.principal) throw new Error("route reached without authentication");
  return { tenantId: req.principal.tenantId, requestId: req.requestId ?? "" };
}
