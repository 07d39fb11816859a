import { randomBytes } from "node:crypto";

/**
 * W3C trace context (`traceparent: 00-<trace-id>-<span-id>-<flags>`), carried
 * from the gateway through gRPC metadata and event headers into the worker so
 * one request's logs share a trace id across services and processes.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; flags: string } | undefined {
  const m = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { traceId: m[1]!, spanId: m[2]!, flags: m[3]! };
}

/** A child span of the given parent, or a new trace when there is none (or it is malformed). */
export function childTraceparent(parent?: string): string {
  const p = parseTraceparent(parent);
  const traceId = p?.traceId ?? randomBytes(16).toString("hex");
  return `00-${traceId}-${randomBytes(8).toString("hex")}-${p?.flags ?? "01"}`;
}

export function traceIdOf(traceparent: string | undefined): string | undefined {
  return parseTraceparent(traceparent)?.traceId;
}
