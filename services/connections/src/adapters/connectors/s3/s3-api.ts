import type { Readable } from "node:stream";
import { GetObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException, type _Object } from "@aws-sdk/client-s3";
import { UrlRefusedError } from "@engram/fetch";
import { ConnectorError } from "../../../domain/errors";
import type { S3Config, S3Secret } from "./s3-config";
import { guardedAgents, vetEndpoint } from "./s3-http";

/**
 * The S3 calls the connector makes, through the official client
 * (`@aws-sdk/client-s3` v3): ListObjectsV2 pages and GetObject, signed with
 * the connection's own access keys only (static credentials: the default
 * provider chain, which would read the server's environment, profile or
 * instance role, is never consulted), over the guarded agents of s3-http.ts.
 *
 * Retries are the SDK's `standard` strategy: throttling (SlowDown, 429) and
 * transient failures (5xx, resets, timeouts) are retried with exponential
 * backoff and jitter (base 100 ms, 500 ms for throttling, at most 20 s),
 * and a `Retry-After` (or `x-amz-retry-after`) is honoured up to 5 s beyond
 * the computed backoff. A retry repeats one read, so it never writes twice:
 * documents are written by the sync engine after a call returned. Errors
 * are then classified here (`classifyS3Error`) in S3's own terms.
 */

/** Objects larger than this are not downloaded; the run reports them. */
export const MAX_OBJECT_BYTES = 50 * 1024 * 1024;

export interface S3ApiOptions {
  allowPrivate: boolean;
  /** Attempts per call, the first included. */
  maxAttempts: number;
  /** Bound on opening a connection (ms). */
  connectionTimeoutMs: number;
  /** Bound on a response's silence (ms). */
  requestTimeoutMs: number;
}

export const SYNC_API_OPTIONS: Omit<S3ApiOptions, "allowPrivate"> = { maxAttempts: 5, connectionTimeoutMs: 10_000, requestTimeoutMs: 60_000 };
export const CHECK_API_OPTIONS: Omit<S3ApiOptions, "allowPrivate"> = { maxAttempts: 2, connectionTimeoutMs: 5_000, requestTimeoutMs: 15_000 };

/** One page of a listing. */
export interface S3Page {
  objects: _Object[];
  next?: string;
}

export interface S3ObjectContent {
  bytes: Uint8Array;
  etag?: string;
  contentType?: string;
  size: number;
}

/** The client of one connection's bucket: build it per sync, destroy it after (it holds sockets). */
export class S3Api {
  private readonly client: S3Client;

  constructor(
    private readonly config: S3Config,
    secret: S3Secret,
    o: S3ApiOptions,
  ) {
    const endpoint = config.endpoint === undefined ? undefined : vetEndpoint(config.endpoint, o.allowPrivate);
    this.client = new S3Client({
      region: config.region,
      credentials: { accessKeyId: secret.accessKeyId, secretAccessKey: secret.secretAccessKey },
      // An S3-compatible store is addressed path-style (https://host/bucket/key): MinIO and most others need it.
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      // The server's own AWS_ENDPOINT_URL(_S3) or ~/.aws/config endpoint_url must not redirect users' connections.
      ignoreConfiguredEndpointUrls: true,
      maxAttempts: o.maxAttempts,
      retryMode: "standard",
      // S3 redirects to the bucket's region are reported (the connection's region is wrong), not followed.
      followRegionRedirects: false,
      // Checksums only where S3 requires them: S3-compatible stores differ in what they send back.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      useFipsEndpoint: false,
      useDualstackEndpoint: false,
      requestHandler: { ...guardedAgents(o.allowPrivate), connectionTimeout: o.connectionTimeoutMs, requestTimeout: o.requestTimeoutMs },
    });
  }

  /** One page of the objects under the prefix (the whole bucket when it is empty). */
  async list(p: { continuationToken?: string; maxKeys?: number; signal?: AbortSignal }): Promise<S3Page> {
    const out = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.config.bucket,
        ...(this.config.prefix ? { Prefix: this.config.prefix } : {}),
        ...(p.continuationToken ? { ContinuationToken: p.continuationToken } : {}),
        ...(p.maxKeys ? { MaxKeys: p.maxKeys } : {}),
      }),
      { abortSignal: p.signal },
    );
    return { objects: out.Contents ?? [], ...(out.IsTruncated && out.NextContinuationToken ? { next: out.NextContinuationToken } : {}) };
  }

  /** An object's bytes; a body over MAX_OBJECT_BYTES is refused (ObjectTooLargeError) without reading it all. */
  async get(key: string, signal?: AbortSignal): Promise<S3ObjectContent> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal: signal });
    const body = out.Body as (Readable & { destroy?: () => void }) | undefined;
    if (out.ContentLength !== undefined && out.ContentLength > MAX_OBJECT_BYTES) {
      body?.destroy?.();
      throw new ObjectTooLargeError(out.ContentLength);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (body) {
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        total += chunk.byteLength;
        if (total > MAX_OBJECT_BYTES) {
          body.destroy?.();
          throw new ObjectTooLargeError(total);
        }
        chunks.push(chunk);
      }
    }
    return { bytes: Buffer.concat(chunks, total), etag: out.ETag, contentType: out.ContentType, size: total };
  }

  destroy(): void {
    this.client.destroy();
  }
}

export class ObjectTooLargeError extends Error {
  constructor(readonly size: number) {
    super(`the object is larger than ${MAX_OBJECT_BYTES / (1024 * 1024)} MB`);
  }
}

/** What went wrong with an S3 call, in terms the connector and the creation check act on. */
export type S3Failure =
  /** The keys are refused (unknown, deleted, wrong secret, expired session). */
  | { kind: "refused_keys"; code: string; message: string }
  /** The keys are valid but may not do this (bucket policy, IAM). */
  | { kind: "access_denied"; code: string; message: string }
  | { kind: "no_bucket"; code: string; message: string }
  | { kind: "no_key"; code: string; message: string }
  /** The bucket is in another region than the connection's. */
  | { kind: "wrong_region"; code: string; message: string; region?: string }
  /** Archived storage class (Glacier): not readable until restored. */
  | { kind: "archived"; code: string; message: string }
  /** Still throttled after the SDK's retries. */
  | { kind: "throttled"; code: string; message: string; retryAfterMs?: number }
  /** 5xx or a network failure, after the SDK's retries. */
  | { kind: "unavailable"; code: string; message: string }
  /** The address policy refused the endpoint. */
  | { kind: "refused_address"; code: string; message: string }
  | { kind: "other"; code: string; message: string };

const REFUSED_KEYS = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidToken",
  "ExpiredToken",
  "TokenRefreshRequired",
  "AccountProblem",
  "AllAccessDisabled",
]);
const THROTTLED = new Set(["SlowDown", "Throttling", "ThrottlingException", "TooManyRequests", "TooManyRequestsException", "RequestLimitExceeded"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE", "ECONNABORTED"]);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  // The SDK wraps what it does not recognise as an Error (a socket error of another realm) in a message-only error.
  const named = /\b(E[A-Z]{3,}|ERR_[A-Z_]+)\b/.exec(err instanceof Error ? err.message : String(err))?.[1];
  return named;
}

function header(err: S3ServiceException, name: string): string | undefined {
  const headers = (err.$response as { headers?: Record<string, string> } | undefined)?.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

function retryAfterMs(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The failure of an S3 call, as S3 (or the network) reported it. */
export function classifyS3Error(err: unknown): S3Failure {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof UrlRefusedError) return { kind: "refused_address", code: e.code, message: e.message };
  if (err instanceof S3ServiceException) {
    const code = err.name;
    const status = err.$metadata?.httpStatusCode;
    const message = `${code}${err.message && err.message !== code && err.message !== "UnknownError" ? `: ${err.message}` : ""}`;
    if (REFUSED_KEYS.has(code)) return { kind: "refused_keys", code, message };
    if (code === "NoSuchBucket") return { kind: "no_bucket", code, message };
    if (code === "NoSuchKey") return { kind: "no_key", code, message };
    if (code === "InvalidObjectState") return { kind: "archived", code, message };
    if (code === "PermanentRedirect" || code === "AuthorizationHeaderMalformed" || code === "IllegalLocationConstraintException" || status === 301)
      return { kind: "wrong_region", code, message, region: header(err, "x-amz-bucket-region") ?? regionInBody(err) };
    if (THROTTLED.has(code) || status === 429 || (status === 503 && code === "SlowDown"))
      return { kind: "throttled", code, message, retryAfterMs: retryAfterMs(header(err, "retry-after")) };
    if (code === "AccessDenied" || status === 403) return { kind: "access_denied", code, message };
    if (status !== undefined && status >= 500) return { kind: "unavailable", code, message };
    return { kind: "other", code, message };
  }
  const code = errorCode(err);
  const name = (err as { name?: unknown })?.name;
  if ((code && NETWORK_CODES.has(code)) || name === "TimeoutError" || (code && code.startsWith("ERR_TLS")) || code === "CERT_HAS_EXPIRED")
    return { kind: "unavailable", code: code ?? "TimeoutError", message: err instanceof Error ? err.message : String(err) };
  return { kind: "other", code: code ?? (typeof name === "string" ? name : "Error"), message: err instanceof Error ? err.message : String(err) };
}

/** S3 names the bucket's region in the body of an AuthorizationHeaderMalformed error. */
function regionInBody(err: S3ServiceException): string | undefined {
  const r = (err as unknown as { Region?: unknown }).Region;
  return typeof r === "string" ? r : undefined;
}

/**
 * A listing failure as the sync run reports it: refused keys and a bucket
 * the keys may no longer list are auth_expired (the connection waits for new
 * keys); throttling after retries is rate_limited; the rest is
 * provider_unavailable (the documents stay; the next run tries again).
 */
export function toConnectorError(err: unknown, bucket: string): ConnectorError {
  if (err instanceof ConnectorError) return err;
  const f = classifyS3Error(err);
  switch (f.kind) {
    case "refused_keys":
      return new ConnectorError("auth_expired", `S3 refused the connection's access key (${f.message})`, { cause: err });
    case "access_denied":
      return new ConnectorError("auth_expired", `the access key may no longer read bucket ${bucket} (${f.message})`, { cause: err });
    case "throttled":
      return new ConnectorError("rate_limited", `S3 is throttling requests (${f.message})`, { retryAfterMs: f.retryAfterMs, cause: err });
    case "no_bucket":
      return new ConnectorError("provider_unavailable", `bucket ${bucket} no longer exists (${f.message})`, { cause: err });
    case "wrong_region":
      return new ConnectorError("provider_unavailable", `bucket ${bucket} is not in the connection's region${f.region ? ` (it is in ${f.region})` : ""}`, {
        cause: err,
      });
    case "refused_address":
      return new ConnectorError("provider_unavailable", f.message, { cause: err });
    case "unavailable":
      return new ConnectorError("provider_unavailable", `S3 is unavailable (${f.message})`, { cause: err });
    default:
      return new ConnectorError("internal", `S3 call failed (${f.message})`, { cause: err });
  }
}
