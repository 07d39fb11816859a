import { mapAdapterErrors } from "./adapter-errors";
import { isDomainError, UnavailableError } from "./errors";

/**
 * Engine outages: errors that say a database, index or broker cannot be
 * reached or cannot serve right now (refused or reset connections, DNS
 * failures, timeouts, a MongoDB without a reachable primary, a busy or locked
 * SQLite file, a Qdrant answering 502/503/504, a Kafka broker not reachable).
 * A retry later can succeed, so the API answers 503 with `Retry-After`, not
 * 500. Recognised by shape (error names, codes, statuses, labels, along the
 * `cause` chain), so this module imports no driver.
 */

/** Node's and undici's codes of a network failure. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** Error classes of drivers and runtimes whose every instance is an outage. */
const OUTAGE_NAMES = new Set([
  // MongoDB driver
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoServerSelectionError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoWaitQueueTimeoutError",
  "MongoPoolClearedError",
  "MongoOperationTimeoutError",
  // kafkajs
  "KafkaJSConnectionError",
  "KafkaJSConnectionClosedError",
  "KafkaJSRequestTimeoutError",
  "KafkaJSBrokerNotFound",
  "KafkaJSNumberOfRetriesExceeded",
  "KafkaJSLockTimeout",
  // Qdrant's client and fetch
  "QdrantClientTimeoutError",
  "TimeoutError",
]);

/** MongoDB server error codes of a replica set that cannot take the operation now (elections, shutdowns, time limits). */
const MONGO_TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 50]);

/** MongoDB error labels of a failure a retry can get past. */
const MONGO_TRANSIENT_LABELS = ["TransientTransactionError", "RetryableWriteError", "ResetPool", "SystemOverloadedError"];

function ownReason(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { name?: unknown; code?: unknown; status?: unknown; errorLabels?: unknown; errorLabelSet?: unknown; message?: unknown };
  const name = typeof e.name === "string" ? e.name : "";
  const code = typeof e.code === "string" ? e.code : undefined;
  if (code && NETWORK_CODES.has(code)) return `connection failed (${code})`;
  if (code && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) return `database busy (${code})`;
  if (OUTAGE_NAMES.has(name)) return name;
  if (name.startsWith("Mongo")) {
    if (typeof e.code === "number" && MONGO_TRANSIENT_CODES.has(e.code)) return `${name} ${e.code}`;
    const labels = Array.isArray(e.errorLabels) ? (e.errorLabels as unknown[]) : e.errorLabelSet instanceof Set ? [...(e.errorLabelSet as Set<unknown>)] : [];
    const label = MONGO_TRANSIENT_LABELS.find((l) => labels.includes(l));
    if (label) return `${name} (${label})`;
  }
  // An HTTP engine (Qdrant) answering that it cannot serve: its client puts the status on the error.
  if (typeof e.status === "number" && (e.status === 502 || e.status === 503 || e.status === 504)) return `engine answered ${e.status}`;
  if (name === "QdrantClientUnexpectedResponseError" && typeof e.message === "string" && /Unexpected Response: 50[234]\b/.test(e.message))
    return "engine answered 5xx";
  return undefined;
}

/** Why `err` (or an error in its `cause` chain) is an engine outage; undefined when it is not one. Domain errors never are. */
export function outageReason(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur !== undefined && cur !== null; depth++) {
    if (isDomainError(cur)) return undefined;
    const reason = ownReason(cur);
    if (reason) return reason;
    // MongoDB's bulk write errors carry the failure that stopped them as `errorResponse`, others as `cause`.
    const e = cur as { cause?: unknown; errorResponse?: unknown };
    cur = e.cause ?? (e.errorResponse instanceof Error ? e.errorResponse : undefined);
  }
  return undefined;
}

export function isOutage(err: unknown): boolean {
  return outageReason(err) !== undefined;
}

/** `err` as an `UnavailableError` naming the engine (the original kept as `cause`) when it is an outage; otherwise `err` itself. */
export function asUnavailable(err: unknown, engine: string): unknown {
  const reason = outageReason(err);
  if (reason === undefined) return err;
  return new UnavailableError(`${engine} is unavailable`, "a storage engine could not be reached; retry shortly", { cause: err });
}

/**
 * The adapter with every method that returns a promise (or throws) turning an
 * engine outage into `UnavailableError` (see `asUnavailable`); other errors and
 * results pass unchanged. For adapters at the edge (the MongoDB and Qdrant
 * stores): the port's callers then only ever see domain errors for outages.
 */
export function raiseUnavailable<T extends object>(adapter: T, engine: string): T {
  return mapAdapterErrors(adapter, (err) => asUnavailable(err, engine));
}
