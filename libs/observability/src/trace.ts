import { randomFillSync } from "node:crypto";

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

/**
 * Random ids for trace and span ids: hex from a pool of random bytes refilled
 * 4 KiB at a time (one crypto call per few hundred ids rather than one per id:
 * every request makes several).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
export function randomHexId(bytes: 8 | 16): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString("hex", used, used + bytes);
  used += bytes;
  // An all-zero id is invalid in W3C trace context; 2^-64 odds, but never hand one out.
  return /^0+$/.test(id) ? randomHexId(bytes) : id;
}

/** A child span of the given parent, or a new trace when there is none (or it is malformed). */
export function childTraceparent(parent?: string): string {
  const p = parseTraceparent(parent);
  const traceId = p?.traceId ?? randomHexId(16);
  return `00-${traceId}-${randomHexId(8)}-${p?.flags ?? "01"}`;
}

export function traceIdOf(traceparent: string | undefined): string | undefined {
  return parseTraceparent(traceparent)?.traceId;
}
