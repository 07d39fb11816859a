/**
 * The two ways a guarded fetch fails. Callers decide on the class alone:
 * a {@link UrlRefusedError} is permanent (the document fails with its
 * message), a {@link UrlFetchError} is retried when `retryable` is true.
 */

/** Why a URL was refused; `message` says it in words for the document's failure reason. */
export type RefusalCode =
  | "invalid_url" // not a URL, or no host
  | "scheme" // scheme not in the allow-list
  | "credentials" // user:password@ in the URL
  | "private_address" // the host is, or resolves to, a private/loopback/link-local/reserved address
  | "too_large" // the body is larger than maxBytes
  | "too_many_redirects"
  | "bad_redirect" // a 3xx without a usable Location
  | "http_status" // a permanent 4xx answer
  | "tls"; // the server's certificate was rejected

export class UrlRefusedError extends Error {
  readonly code: RefusalCode;
  /** The human-readable reason (same as `message`), e.g. "the URL answered 404 Not Found". */
  readonly reason: string;
  /** The URL of the hop that was refused (after redirects, if any). */
  readonly url: string | undefined;
  /** The HTTP status, when the refusal is the server's answer. */
  readonly status: number | undefined;

  constructor(code: RefusalCode, reason: string, opts: { url?: string; status?: number; cause?: unknown } = {}) {
    super(reason, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "UrlRefusedError";
    this.code = code;
    this.reason = reason;
    this.url = opts.url;
    this.status = opts.status;
  }
}

export class UrlFetchError extends Error {
  /** True for transient failures worth another attempt (timeouts, resets, 429, 5xx). */
  readonly retryable: boolean;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  readonly url: string | undefined;
  readonly status: number | undefined;

  constructor(message: string, opts: { retryable: boolean; retryAfterMs?: number; url?: string; status?: number; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "UrlFetchError";
    this.retryable = opts.retryable;
    this.retryAfterMs = opts.retryAfterMs;
    this.url = opts.url;
    this.status = opts.status;
  }
}
