/*
 * A fake of the S3 REST API on 127.0.0.1 for the S3 connector's tests (node built-ins only):
 * path-style addressing (/{bucket}, /{bucket}/{key}) as S3-compatible stores serve it, with
 * ListObjectsV2 (XML; prefix, max-keys, continuation-token, start-after), GetObject, HeadObject
 * and HeadBucket. Every request must carry an AWS Signature Version 4 `Authorization` header:
 * the fake recomputes the signature with the secret of the access key id it names (canonical
 * request, string to sign, derived signing key, payload hash) and compares it in constant time.
 * The verification is written here with node:crypto rather than taken from the SDK's signer
 * (@smithy/signature-v4, not a dependency of this package): an independent implementation checks
 * what the client signs instead of mirroring it.
 * Answers as S3 does: 403 InvalidAccessKeyId (unknown or revoked key), 403 SignatureDoesNotMatch,
 * 403 AccessDenied (no Authorization, or a denied bucket or object), 403 RequestTimeTooSkewed,
 * 404 NoSuchBucket / NoSuchKey, 400 AuthorizationHeaderMalformed naming the bucket's region when
 * the signature's scope has another one; HEAD answers carry no body.
 * Controls: `addKey`, `revokeKey`, `createBucket` (with a region), `putObject`, `deleteObject`,
 * `deny` (AccessDenied for a bucket or one object), `failNext` (a status and S3 error code,
 * optionally with Retry-After, for one operation only, after some requests passed). Log: `requests`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { FakeHttpServer } from "./fake-http-server";
import { readRequestBody } from "./fake-oauth";

export type FakeS3Operation = "ListObjectsV2" | "GetObject" | "HeadObject" | "HeadBucket";

export interface FakeS3Object {
  body: Buffer;
  etag: string;
  contentType?: string;
  lastModified: Date;
  storageClass: string;
}

export interface FakeS3Bucket {
  region: string;
  objects: Map<string, FakeS3Object>;
}

export interface FakeS3Failure {
  status: number;
  /** The S3 error code in the XML body (SlowDown, InternalError, …). */
  code?: string;
  /** The Retry-After header. */
  retryAfter?: string;
  /** Only requests of this operation fail (others pass). */
  op?: FakeS3Operation;
  /** Matching requests that pass before this one fails (0: the next one). */
  skip?: number;
}

export interface FakeS3Request {
  method: string;
  op?: FakeS3Operation;
  bucket?: string;
  key?: string;
  accessKeyId?: string;
  status: number;
}

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");
const sha256 = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
/** RFC 3986 escaping as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const escape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, "%20"));

/** The signing key of a SigV4 scope: HMAC chain from "AWS4" + secret over date, region, service, "aws4_request". */
export function sigV4SigningKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
}

export class FakeS3 extends FakeHttpServer {
  readonly buckets = new Map<string, FakeS3Bucket>();
  /** Access key id → secret access key. */
  readonly keys = new Map<string, string>();
  requests: FakeS3Request[] = [];
  failures: FakeS3Failure[] = [];
  /** "bucket" or "bucket/key": AccessDenied. */
  readonly denied = new Set<string>();
  /** Largest allowed distance between a request's x-amz-date and now (S3: 15 minutes). */
  maxSkewMs = 15 * 60_000;

  /** A new access key (random unless given); returns it. */
  addKey(accessKeyId = `AKIA${randomBytes(8).toString("hex").toUpperCase()}`, secretAccessKey = randomBytes(30).toString("base64")) {
    this.keys.set(accessKeyId, secretAccessKey);
    return { accessKeyId, secretAccessKey };
  }

  /** The key is deleted: its requests answer 403 InvalidAccessKeyId. */
  revokeKey(accessKeyId: string): void {
    this.keys.delete(accessKeyId);
  }

  createBucket(name: string, o: { region?: string } = {}): FakeS3Bucket {
    const b = { region: o.region ?? "us-east-1", objects: new Map<string, FakeS3Object>() };
    this.buckets.set(name, b);
    return b;
  }

  /** Writes an object (a new ETag when the content changes); returns its ETag. */
  putObject(bucket: string, key: string, body: string | Buffer, o: { contentType?: string; storageClass?: string } = {}): string {
    const b = this.buckets.get(bucket);
    if (!b) throw new Error(`no bucket ${bucket}`);
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    const etag = `"${createHash("md5").update(bytes).digest("hex")}"`;
    b.objects.set(key, { body: bytes, etag, contentType: o.contentType, lastModified: new Date(), storageClass: o.storageClass ?? "STANDARD" });
    return etag;
  }

  deleteObject(bucket: string, key: string): void {
    this.buckets.get(bucket)?.objects.delete(key);
  }

  /** Access denied to a bucket, or to one object of it. */
  deny(bucket: string, key?: string): void {
    this.denied.add(key === undefined ? bucket : `${bucket}/${key}`);
  }

  /** The next matching request answers this failure (queued: one failure per request). */
  failNext(f: FakeS3Failure): void {
    this.failures.push(f);
  }

  /** Requests of an operation (optionally of one key). */
  count(op: FakeS3Operation, key?: string): number {
    return this.requests.filter((r) => r.op === op && (key === undefined || r.key === key)).length;
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readRequestBody(req);
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? "" : rawUrl.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    const method = req.method ?? "GET";
    const segments = rawPath.split("/").slice(1);
    const bucketName = segments[0] ? decode(segments[0]) : undefined;
    const key = segments.length > 1 ? decode(segments.slice(1).join("/")) : undefined;
    const op: FakeS3Operation | undefined =
      bucketName === undefined
        ? undefined
        : key === undefined || key === ""
          ? method === "HEAD"
            ? "HeadBucket"
            : method === "GET" && query.get("list-type") === "2"
              ? "ListObjectsV2"
              : undefined
          : method === "GET"
            ? "GetObject"
            : method === "HEAD"
              ? "HeadObject"
              : undefined;
    const log: FakeS3Request = { method, op, bucket: bucketName, key: key || undefined, status: 0 };
    this.requests.push(log);
    const head = method === "HEAD";
    const error = (status: number, code: string, message: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}): void => {
      log.status = status;
      const requestId = randomBytes(8).toString("hex").toUpperCase();
      res.writeHead(status, { "content-type": "application/xml", "x-amz-request-id": requestId, ...headers });
      if (head) {
        res.end();
        return;
      }
      const fields = Object.entries(extra)
        .map(([k, v]) => `<${k}>${xml(v)}</${k}>`)
        .join("");
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xml(message)}</Message>${fields}<RequestId>${requestId}</RequestId></Error>`,
      );
    };

    // Authentication: SigV4 with a known key.
    const auth = this.verify(req, rawPath, rawQuery, body);
    if (auth.accessKeyId) log.accessKeyId = auth.accessKeyId;
    if (auth.error) return error(auth.error.status, auth.error.code, auth.error.message, auth.error.extra ?? {});

    const fi = this.failures.findIndex((f) => f.op === undefined || f.op === op);
    if (fi >= 0 && (this.failures[fi]!.skip ?? 0) > 0) this.failures[fi]!.skip! -= 1;
    else if (fi >= 0) {
      const [f] = this.failures.splice(fi, 1);
      return error(
        f!.status,
        f!.code ?? (f!.status === 503 ? "SlowDown" : "InternalError"),
        "injected failure",
        {},
        f!.retryAfter ? { "retry-after": f!.retryAfter } : {},
      );
    }
    if (!bucketName || !op) return error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    const bucket = this.buckets.get(bucketName);
    if (!bucket) return error(404, "NoSuchBucket", "The specified bucket does not exist", { BucketName: bucketName });
    if (auth.region !== bucket.region)
      return error(
        400,
        "AuthorizationHeaderMalformed",
        `The authorization header is malformed; the region '${auth.region}' is wrong; expecting '${bucket.region}'`,
        { Region: bucket.region },
        { "x-amz-bucket-region": bucket.region },
      );
    if (this.denied.has(bucketName)) return error(403, "AccessDenied", "Access Denied");

    if (op === "HeadBucket") {
      log.status = 200;
      res.writeHead(200, { "x-amz-bucket-region": bucket.region });
      res.end();
      return;
    }
    if (op === "ListObjectsV2") return this.list(res, log, bucketName, bucket, query, error);

    const object = bucket.objects.get(key!);
    if (this.denied.has(`${bucketName}/${key}`)) return error(403, "AccessDenied", "Access Denied");
    if (!object) return error(404, "NoSuchKey", "The specified key does not exist.", { Key: key! });
    if (op === "GetObject" && /GLACIER|DEEP_ARCHIVE/.test(object.storageClass))
      return error(403, "InvalidObjectState", "The operation is not valid for the object's storage class", { StorageClass: object.storageClass });
    log.status = 200;
    res.writeHead(200, {
      "content-type": object.contentType ?? "binary/octet-stream",
      "content-length": String(object.body.length),
      etag: object.etag,
      "last-modified": object.lastModified.toUTCString(),
      "accept-ranges": "bytes",
      "x-amz-storage-class": object.storageClass,
    });
    res.end(head ? undefined : object.body);
  }

  private list(
    res: http.ServerResponse,
    log: FakeS3Request,
    name: string,
    bucket: FakeS3Bucket,
    query: URLSearchParams,
    error: (status: number, code: string, message: string) => void,
  ): void {
    const prefix = query.get("prefix") ?? "";
    const maxKeys = Math.min(1000, Math.max(0, Number(query.get("max-keys") ?? 1000)));
    if (!Number.isInteger(maxKeys)) return error(400, "InvalidArgument", "max-keys must be an integer");
    const token = query.get("continuation-token");
    let after = query.get("start-after") ?? "";
    if (token) {
      try {
        after = Buffer.from(token, "base64url").toString("utf8");
      } catch {
        return error(400, "InvalidArgument", "The continuation token provided is incorrect");
      }
    }
    // S3 lists keys in UTF-8 binary order.
    const keys = [...bucket.objects.keys()]
      .filter((k) => k.startsWith(prefix) && Buffer.compare(Buffer.from(k), Buffer.from(after)) > 0)
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page
      .map((k) => {
        const o = bucket.objects.get(k)!;
        return `<Contents><Key>${xml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>${o.storageClass}</StorageClass></Contents>`;
      })
      .join("");
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]!).toString("base64url")}</NextContinuationToken>` : "";
    log.status = 200;
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(name)}</Name><Prefix>${xml(prefix)}</Prefix>` +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        `${token ? `<ContinuationToken>${xml(token)}</ContinuationToken>` : ""}${next}${contents}</ListBucketResult>`,
    );
  }

  /** Checks the request's SigV4 signature; the scope's region when it holds. */
  private verify(
    req: http.IncomingMessage,
    rawPath: string,
    rawQuery: string,
    body: Buffer,
  ): { accessKeyId?: string; region?: string; error?: { status: number; code: string; message: string; extra?: Record<string, string> } } {
    const header = req.headers.authorization;
    if (!header) return { error: { status: 403, code: "AccessDenied", message: "Access Denied" } };
    const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
    if (!m) return { error: { status: 400, code: "AuthorizationHeaderMalformed", message: "The authorization header is malformed" } };
    const [, accessKeyId, date, region, service, signedHeaders, signature] = m as unknown as string[];
    const secret = this.keys.get(accessKeyId!);
    if (secret === undefined)
      return {
        accessKeyId,
        error: {
          status: 403,
          code: "InvalidAccessKeyId",
          message: "The AWS Access Key Id you provided does not exist in our records.",
          extra: { AWSAccessKeyId: accessKeyId! },
        },
      };
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!at || amzDate.slice(0, 8) !== date)
      return { accessKeyId, error: { status: 403, code: "AccessDenied", message: "AWS authentication requires a valid Date or x-amz-date header" } };
    const when = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
    if (Math.abs(when - Date.now()) > this.maxSkewMs)
      return {
        accessKeyId,
        error: { status: 403, code: "RequestTimeTooSkewed", message: "The difference between the request time and the current time is too large." },
      };
    const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
    if (!payloadHash)
      return { accessKeyId, error: { status: 400, code: "InvalidRequest", message: "Missing required header for this request: x-amz-content-sha256" } };
    if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== (body.length ? sha256(body) : EMPTY_SHA256))
      return {
        accessKeyId,
        error: { status: 400, code: "XAmzContentSHA256Mismatch", message: "The provided 'x-amz-content-sha256' header does not match what was computed." },
      };
    const names = signedHeaders!.split(";");
    if (!names.includes("host") || !names.includes("x-amz-date"))
      return { accessKeyId, error: { status: 403, code: "AccessDenied", message: "host and x-amz-date must be signed" } };
    const canonicalHeaders = names
      .map((n) => {
        const v = req.headers[n];
        const value = Array.isArray(v) ? v.join(",") : (v ?? "");
        return `${n}:${value.trim().replace(/\s+/g, " ")}\n`;
      })
      .join("");
    const canonicalQuery = rawQuery
      .split("&")
      .filter((p) => p.length > 0)
      .map((p) => {
        const i = p.indexOf("=");
        const k = decode(i < 0 ? p : p.slice(0, i));
        const v = i < 0 ? "" : decode(p.slice(i + 1));
        return [escape(k), escape(v)] as const;
      })
      .sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    // S3 signs the path as sent (escaped once, not normalised).
    const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
    const scope = `${date}/${region}/${service}/aws4_request`;
    const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
    const expected = createHmac("sha256", sigV4SigningKey(secret, date!, region!, service!))
      .update(stringToSign)
      .digest();
    const given = Buffer.from(signature!, "hex");
    if (service !== "s3" || given.length !== expected.length || !timingSafeEqual(given, expected))
      return {
        accessKeyId,
        error: {
          status: 403,
          code: "SignatureDoesNotMatch",
          message: "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        },
      };
    return { accessKeyId, region };
  }
}
