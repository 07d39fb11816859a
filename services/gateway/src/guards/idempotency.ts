import { createHash } from "node:crypto";

/**
 * Idempotent writes (docs/api-decisions.md section 16): a creating request
 * sent with an `Idempotency-Key` is done once per tenant and key; a repeat
 * with the same fingerprint within the retention time gets the first answer.
 * Pure: no I/O here, the store is a port.
 */

/** Keys are opaque to the server: printable ASCII, 1 to 255 characters (UUIDs recommended). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** How long a completed answer is replayed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The first answer, as it was sent (or would have been sent, when the client had already been told 504). */
export interface StoredAnswer {
  status: number;
  /** The JSON body as sent. */
  body: string;
}

export type BeginResult =
  /** No live record: this request holds the key now and must complete or release it. */
  | { kind: "started" }
  /** The key's first request finished: answer what it answered. */
  | { kind: "replay"; answer: StoredAnswer }
  /** The key's first request is still running (or its gateway stopped less than a lease ago). */
  | { kind: "in_flight"; retryAfterMs: number }
  /** The key was used for another request (method, path or body). */
  | { kind: "mismatch" };

/** Where idempotency records live: the gateway's own store (SQLite embedded, MongoDB distributed). Every call is per tenant. */
export interface IdempotencyStore {
  /**
   * Atomically claims (tenant, key) for a request with `fingerprint`, unless
   * a live record holds it: a completed one until `expiresAt`, an in-flight one
   * until its lease ends (after which the key can be claimed again).
   */
  begin(tenantId: string, key: string, fingerprint: string, now: Date, opts: { leaseMs: number; retentionMs: number }): Promise<BeginResult>;
  /** Records the answer of the request that claimed the key (only while it holds it). */
  complete(tenantId: string, key: string, fingerprint: string, answer: StoredAnswer, now: Date, retentionMs: number): Promise<void>;
  /** Gives the key up without an answer (the request did nothing a retry could duplicate). */
  release(tenantId: string, key: string, fingerprint: string): Promise<void>;
  close(): Promise<void>;
}

/** A record as the adapters keep it. */
export interface IdempotencyRecord {
  fingerprint: string;
  /** Epoch ms; a completed record is replayed until then. */
  expiresAt: number;
  /** Epoch ms; an in-flight record holds the key until then. */
  leaseUntil: number;
  answer?: StoredAnswer;
}

/** What `begin` answers given the record found (if any) — shared by both adapters so they decide alike. */
export function classify(rec: IdempotencyRecord | undefined, fingerprint: string, now: number): BeginResult | "claim" {
  if (!rec) return "claim";
  if (rec.answer) {
    if (rec.expiresAt <= now) return "claim";
    return rec.fingerprint === fingerprint ? { kind: "replay", answer: rec.answer } : { kind: "mismatch" };
  }
  if (rec.leaseUntil <= now) return "claim";
  return rec.fingerprint === fingerprint ? { kind: "in_flight", retryAfterMs: Math.max(1000, Math.min(rec.leaseUntil - now, 5000)) } : { kind: "mismatch" };
}

/**
 * JSON with object keys sorted at every level: two bodies that differ only
 * in key order or whitespace have the same canonical form.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** One part of a multipart body: a text field, or a file given by its bytes' SHA-256. */
export type MultipartPart = { field: string; value: string } | { field: string; fileSha256: string; filename?: string; mimetype?: string };

/** What a request is, for comparing a repeat with the first: tenant, method, path and canonical body. */
export interface RequestShape {
  tenantId: string;
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string's parameters (part of the request). */
  query?: Record<string, unknown>;
  /** A JSON body, or the parts of a multipart one. */
  body: { json: unknown } | { multipart: MultipartPart[] };
}

/** SHA-256 over the request's canonical form. Multipart parts are compared in the order sent per field name. */
export function fingerprint(r: RequestShape): string {
  const body =
    "json" in r.body
      ? { json: r.body.json === undefined ? null : r.body.json }
      : { multipart: [...r.body.multipart].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0)) };
  const canonical = canonicalJson({ tenant: r.tenantId, method: r.method.toUpperCase(), path: r.path, query: r.query ?? {}, body });
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}
