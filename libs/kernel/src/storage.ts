import { mapAdapterErrors } from "./adapter-errors";
import { DomainError, isDomainError } from "./errors";

/**
 * Storage faults: a write refused because the disk under a store is full
 * (ENOSPC, EDQUOT, SQLITE_FULL) or because the store cannot be written at all
 * (a read-only file system, a directory the server may not write). Unlike an
 * engine outage (outage.ts) a retry in a few seconds does not help: space has
 * to be freed first. The API answers 507 Insufficient Storage naming the part
 * that cannot write, and readiness reports the part (docs/api-decisions.md
 * section 21). Recognised by shape along the `cause` chain: no driver imported.
 */

/** The parts of Engram that write to local storage, as readiness names them. */
export const STORAGE_PARTS = ["store", "fileStore", "index", "bus"] as const;
export type StoragePart = (typeof STORAGE_PARTS)[number];

/** What is wrong with a part's storage: no space left, or not writable at all. */
export type StorageFault = "full" | "unwritable";

export interface StorageFaultCause {
  fault: StorageFault;
  /** The error code that says so (ENOSPC, SQLITE_FULL, EROFS, ...). */
  code: string;
  /** The file the failed call named, when the error carries one. */
  path?: string;
}

/** How readiness and API errors name each part. */
export const STORAGE_PART_LABELS: Record<StoragePart, string> = {
  store: "document and memory store",
  fileStore: "file store",
  index: "search index",
  bus: "event log",
};

/** Codes of a disk (or quota) with no space left. */
const FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);
/** Codes that always mean the storage cannot be written (a read-only file system or database). */
const READ_ONLY_CODES = new Set(["EROFS"]);
/** Codes that mean "not writable" only when a storage adapter's own write raised them (a read elsewhere can say EACCES too). */
const DENIED_CODES = new Set(["EACCES", "EPERM"]);

function ownFault(err: unknown, inStorage: boolean): StorageFaultCause | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { code?: unknown; path?: unknown; metadata?: { get?: unknown } };
  // A gRPC status from another Engram service that refused the write for lack of storage (its kind travels in metadata).
  if (typeof e.metadata?.get === "function") {
    const kind = (e.metadata.get as (k: string) => unknown[])("engram-error-kind")?.[0];
    return kind !== undefined && String(kind) === "insufficient_storage" ? { fault: "full", code: "insufficient_storage" } : undefined;
  }
  if (typeof e.code !== "string") return undefined;
  const code = e.code;
  const at = typeof e.path === "string" ? { path: e.path } : {};
  if (FULL_CODES.has(code) || code.startsWith("SQLITE_FULL")) return { fault: "full", code, ...at };
  if (READ_ONLY_CODES.has(code) || code.startsWith("SQLITE_READONLY")) return { fault: "unwritable", code, ...at };
  if (inStorage && DENIED_CODES.has(code)) return { fault: "unwritable", code, ...at };
  return undefined;
}

/**
 * The storage fault `err` (or an error in its `cause` chain) reports; undefined when it is none.
 * `inStorage`: the error came from a storage adapter's own call, so permission errors count too.
 */
export function storageFaultOf(err: unknown, opts: { inStorage?: boolean } = {}): StorageFaultCause | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur !== undefined && cur !== null; depth++) {
    if (cur instanceof InsufficientStorageError) return { fault: cur.fault, code: cur.code };
    if (isDomainError(cur)) return undefined;
    const fault = ownFault(cur, opts.inStorage ?? false);
    if (fault) return fault;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isStorageFault(err: unknown): boolean {
  return storageFaultOf(err) !== undefined;
}

/** What the API tells a client whose write a part's storage refused. */
export function storageFaultDetails(part: StoragePart | undefined, fault: StorageFault): string {
  const what = part ? `the ${STORAGE_PART_LABELS[part]}` : "the server's storage";
  return fault === "full"
    ? `${what} cannot write: its disk is full. Nothing was stored; retry after space is freed on the server's data volume`
    : `${what} cannot write: its storage is read-only or not writable by the server. Nothing was stored; retry after the server's data volume is writable again`;
}

/** A write refused for lack of space (or write access): HTTP 507 with a body naming the part. */
export class InsufficientStorageError extends DomainError {
  readonly part: StoragePart | undefined;
  readonly fault: StorageFault;
  readonly code: string;

  constructor(part: StoragePart | undefined, cause: StorageFaultCause, options?: { cause?: unknown }) {
    super("insufficient_storage", "Insufficient storage", storageFaultDetails(part, cause.fault), options);
    this.part = part;
    this.fault = cause.fault;
    this.code = cause.code;
  }
}

/** `err` as an `InsufficientStorageError` naming `part` (the original kept as `cause`) when it is a storage fault; otherwise `err` itself. */
export function asInsufficientStorage(err: unknown, part: StoragePart): unknown {
  if (err instanceof InsufficientStorageError) return err;
  const fault = storageFaultOf(err, { inStorage: true });
  return fault ? new InsufficientStorageError(part, fault, { cause: err }) : err;
}

/**
 * The adapter with every method that returns a promise (or throws) turning a
 * storage fault into `InsufficientStorageError` naming `part`; other errors and
 * results pass unchanged. For the adapters that write local files (the SQLite
 * stores, the file store, the chunk index, the embedded event log).
 */
export function raiseStorageFaults<T extends object>(adapter: T, part: StoragePart, onFault?: (err: InsufficientStorageError) => void): T {
  const raise = (err: unknown): unknown => {
    const out = asInsufficientStorage(err, part);
    if (out instanceof InsufficientStorageError && out !== err) onFault?.(out);
    return out;
  };
  return mapAdapterErrors(adapter, raise);
}
