/**
 * HTTP calls to configured model providers (OpenAI-compatible embeddings and
 * chat-completions servers): one attempt with a timeout, and a retry loop with
 * exponential backoff and full jitter that honours the server's
 * `retry-after-ms` / `Retry-After` hints. Shared by `@engram/index` (embedder)
 * and `@engram/nlp` (chat providers) so both behave the same.
 *
 * Provider URLs come from the operator's configuration (often a local server
 * such as Ollama), so they are not fetched through `@engram/fetch`'s guard for
 * user-supplied URLs.
 */

/**
 * A failure talking to a provider. `retryable` tells the caller whether trying
 * again later may succeed (rate limits, 5xx, network errors, timeouts, and
 * giving up after exhausting retries on those) or not (other 4xx, malformed
 * responses, misconfiguration).
 */
export class ProviderError extends Error {
  override name = "ProviderError";
  readonly retryable: boolean;
  /** HTTP status when the failure was an HTTP response. */
  readonly status: number | undefined;
  /** Wait the server asked for (`retry-after-ms` / `Retry-After`), in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /** The server's error message (secrets scrubbed), for HTTP failures. */
  readonly serverMessage: string | undefined;

  constructor(message: string, opts: ProviderErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.retryable = opts.retryable;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.serverMessage = opts.serverMessage;
  }
}

export interface ProviderErrorOptions {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  serverMessage?: string;
  cause?: unknown;
}

/** Constructor of the error class a client throws (a subclass of ProviderError). */
export type ProviderErrorClass<E extends ProviderError = ProviderError> = new (message: string, opts: ProviderErrorOptions) => E;

/** Statuses worth retrying: rate limited, or the server (or a proxy in front of it) failing. */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Server-requested wait in milliseconds from `retry-after-ms` (milliseconds)
 * or `Retry-After` (delta-seconds or an HTTP date), or undefined when absent
 * or unparsable. Never negative.
 */
export function parseRetryAfter(headers: { get(name: string): string | null }, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n)) return Math.max(0, n);
  }
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Best-effort extraction of the server's error message from an error body (OpenAI, Ollama, FastAPI shapes, else the raw text). */
export function serverMessage(body: string): string {
  try {
    const j = JSON.parse(body) as unknown;
    if (j && typeof j === "object") {
      const o = j as Record<string, unknown>;
      const err = o.error;
      if (typeof err === "string") return err;
      if (err && typeof err === "object" && typeof (err as Record<string, unknown>).message === "string") return (err as { message: string }).message;
      if (typeof o.message === "string") return o.message;
      if (typeof o.detail === "string") return o.detail;
      if (o.detail !== undefined) return JSON.stringify(o.detail);
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  const text = body.trim();
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Message of a fetch failure, with its cause (undici puts the socket error there). */
export function describeNetworkError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : "";
  return detail && detail !== e.message ? `${e.message} (${detail})` : e.message;
}

/** The URL as it may appear in messages: without user info, query or fragment (they can carry credentials). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/** Replaces every occurrence of the given secrets in a text. */
export function scrub(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}

export interface RetryPolicy {
  /** Retries after the first attempt for retryable failures. */
  maxRetries: number;
  /** Backoff cap of the first retry; doubles each retry, with full jitter. */
  initialBackoffMs: number;
  /** Upper bound of any single wait between attempts, server hints included. */
  maxBackoffMs: number;
}

/** Wait before retry number `attempt + 1`: the server's hint (capped), else full jitter over the exponential cap. */
export function backoffDelay(attempt: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxBackoffMs);
  return random() * Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** attempt);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, it throws anything but a retryable
 * ProviderError, or `maxRetries` retries are spent; then throws an error of
 * `errorClass` saying how many attempts failed, with the last error as cause.
 */
export async function withRetries<T, E extends ProviderError>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  giveUp: { errorClass: ProviderErrorClass<E>; what: string },
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (!(e instanceof ProviderError) || !e.retryable) throw e;
      if (n >= policy.maxRetries) {
        throw new giveUp.errorClass(`${giveUp.what} failed after ${n + 1} attempts: ${e.message}`, {
          retryable: true,
          status: e.status,
          retryAfterMs: e.retryAfterMs,
          serverMessage: e.serverMessage,
          cause: e,
        });
      }
      await sleep(backoffDelay(n, policy, e.retryAfterMs));
    }
  }
}

export interface RequestJsonOptions<E extends ProviderError> {
  method: "GET" | "POST" | "DELETE";
  url: string;
  /** Further request headers (a provider's media type or API version). */
  headers?: Record<string, string>;
  /** Sent as JSON (POST). */
  body?: unknown;
  /** Sent as `Authorization: Bearer <apiKey>` when set; scrubbed from every message. */
  apiKey?: string;
  /** Whole-request timeout, response body included. */
  timeoutMs: number;
  fetch: typeof fetch;
  /** Start of every message, e.g. "Embedding request to http://host/v1/embeddings". */
  what: string;
  errorClass: ProviderErrorClass<E>;
}

/** A 2xx answer: its status, body text and headers (pagination links, rate-limit counters). */
export interface JsonAnswer {
  status: number;
  text: string;
  headers: Headers;
}

export type PostJsonOptions<E extends ProviderError> = Omit<RequestJsonOptions<E>, "method" | "body"> & { body: unknown };

/** One POST of a JSON body (see requestJson). */
export function postJson<E extends ProviderError>(o: PostJsonOptions<E>): Promise<JsonAnswer> {
  return requestJson({ ...o, method: "POST" });
}

/**
 * One request that expects JSON back. Resolves with the status and body text
 * of a 2xx answer; throws `errorClass` otherwise: retryable for network
 * errors, timeouts and RETRYABLE_STATUS answers (with the server's
 * Retry-After hint), not retryable for other statuses.
 */
export async function requestJson<E extends ProviderError>(o: RequestJsonOptions<E>): Promise<JsonAnswer> {
  const headers: Record<string, string> = {
    accept: "application/json",
    ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
    ...o.headers,
  };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), o.timeoutMs);
  let status: number;
  let text: string;
  let retryAfterMs: number | undefined;
  let resHeaders: Headers;
  try {
    const res = await o.fetch(o.url, {
      method: o.method,
      headers,
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      signal: controller.signal,
    });
    status = res.status;
    resHeaders = res.headers;
    retryAfterMs = parseRetryAfter(res.headers);
    text = await res.text();
  } catch (e) {
    const msg = controller.signal.aborted ? `${o.what} timed out after ${o.timeoutMs} ms` : `${o.what} failed: ${scrub(describeNetworkError(e), [o.apiKey])}`;
    throw new o.errorClass(msg, { retryable: true, cause: e });
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status > 299) {
    const server = scrub(serverMessage(text), [o.apiKey]);
    throw new o.errorClass(`${o.what} failed with HTTP ${status}: ${server || "(empty body)"}`, {
      retryable: RETRYABLE_STATUS.has(status),
      status,
      retryAfterMs,
      serverMessage: server,
    });
  }
  return { status, text, headers: resHeaders };
}
