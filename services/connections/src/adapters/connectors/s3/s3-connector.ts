import path from "node:path/posix";
import { InvalidArgumentError, type JsonObject, UnavailableError } from "@engram/kernel";
import { type Connection, type ConnectionItem, type ConnectionMetadata, underDocumentLimit } from "../../../domain/connection";
import { ConnectorError } from "../../../domain/errors";
import type { Connector, ConnectorChange } from "../../../app/sync-ports";
import {
  CHECK_API_OPTIONS,
  classifyS3Error,
  MAX_OBJECT_BYTES,
  ObjectTooLargeError,
  S3Api,
  type S3ApiOptions,
  SYNC_API_OPTIONS,
  toConnectorError,
} from "./s3-api";
import { parseS3Secret, type S3Config, s3ConfigFromMetadata, s3ConfigJson, s3ConfigOf, s3Metadata, type S3Secret } from "./s3-config";
import { vetEndpoint } from "./s3-http";

export { parseS3Secret, type S3Secret } from "./s3-config";

/**
 * The S3 connector: the objects of one bucket under a prefix, on AWS S3 or
 * an S3-compatible store (MinIO, Cloudflare R2, …), read with the
 * connection's own access keys through `@aws-sdk/client-s3`.
 *
 * - Creation (`check`): the bucket, prefix, region and endpoint are
 *   validated, the endpoint goes through Engram's address policy, and one
 *   `ListObjectsV2` (MaxKeys=1, under the prefix) proves that the keys may
 *   list the bucket: refused keys, a missing bucket, denied access or a
 *   wrong region are a 400 naming the problem.
 * - Sync: every run lists the prefix completely (`ListObjectsV2` pages by
 *   ContinuationToken). An object whose ETag and size equal the ledger's
 *   version is not downloaded; a new or changed one is read with
 *   `GetObject`. "Folder" keys (ending in `/`), empty objects and objects
 *   over 50 MB are skipped (the last two reported on the run). When the
 *   listing completed without error, known keys it no longer holds are
 *   deleted (the prune). S3 has no change feed to resume from, and the
 *   ledger's ETags already make a repeated listing cheap, so no cursor is
 *   kept: an interrupted run simply lists again.
 * - No real-time notifications: S3 sends its event notifications to SNS,
 *   SQS, Lambda or EventBridge only (reaching Engram would take an SNS topic
 *   with an HTTPS subscription and SNS signature checks: not built). Syncs
 *   follow the 4-hour schedule and manual imports.
 * - Revoked keys (InvalidAccessKeyId, SignatureDoesNotMatch, AccessDenied on
 *   the bucket listing) fail the run as auth_expired; throttling left after
 *   the SDK's retries is rate_limited, 5xx and network failures
 *   provider_unavailable.
 */

export interface S3ConnectorOptions {
  /** The connection's access keys (its sealed credentials, opened and parsed with parseS3Secret). */
  credentialsOf: (c: Connection) => S3Secret;
  /** ENGRAM_ALLOW_PRIVATE_URLS: endpoints on private, loopback and link-local addresses, and plain http. */
  allowPrivate: boolean;
  /** Objects per listing page (S3's maximum and default: 1000); tests page with less. */
  pageSize?: number;
  /** Client settings of syncs (attempts, timeouts); tests shorten them. */
  api?: Partial<Omit<S3ApiOptions, "allowPrivate">>;
}

/** What a creation check keeps: the config, and the metadata shown on the connection. */
export interface S3Setup {
  config: JsonObject;
  metadata: ConnectionMetadata;
}

/** Media types by extension, for objects stored without a useful Content-Type. */
const MIME_BY_EXTENSION: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".mdx": "text/markdown",
  ".txt": "text/plain",
  ".text": "text/plain",
  ".log": "text/plain",
  ".rst": "text/x-rst",
  ".adoc": "text/asciidoc",
  ".org": "text/org",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".ndjson": "application/x-ndjson",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".html": "text/html",
  ".htm": "text/html",
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".odt": "application/vnd.oasis.opendocument.text",
  ".epub": "application/epub+zip",
  ".rtf": "application/rtf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};
/** What S3 and uploaders set when they do not know: the extension says more. */
const GENERIC_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream", "application/x-www-form-urlencoded"]);

/** The object's media type: its Content-Type unless generic, else by extension, else application/octet-stream. */
export function mimeTypeOf(key: string, contentType: string | undefined): string {
  const declared = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!GENERIC_TYPES.has(declared)) return contentType!.trim();
  return MIME_BY_EXTENSION[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/**
 * An object's version in the ledger: its ETag (quotes dropped: stores differ
 * in how they quote it) and size. An ETag is not an MD5 for multipart or
 * SSE-KMS objects, but it changes with every write.
 */
export function versionOf(etag: string | undefined, size: number | undefined): string {
  return `${(etag ?? "").replace(/^W\//, "").replace(/^"(.*)"$/, "$1")}:${size ?? 0}`;
}

/** The object's document URL: s3://bucket/key. */
export function objectUrl(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

export class S3Connector implements Connector {
  constructor(readonly o: S3ConnectorOptions) {}

  /**
   * Checks a new connection's metadata and keys with the provider (one
   * ListObjectsV2 of at most one key under the prefix) and returns the
   * config and metadata it keeps. InvalidArgumentError (400) for what the
   * user can fix; UnavailableError (503) when AWS itself cannot be reached.
   */
  async check(rawSecret: string, metadata: ConnectionMetadata): Promise<S3Setup> {
    const secret = parseS3Secret(rawSecret);
    const parsed = s3ConfigFromMetadata(metadata);
    let config: S3Config = parsed;
    if (parsed.endpoint !== undefined) {
      try {
        config = { ...parsed, endpoint: vetEndpoint(parsed.endpoint, this.o.allowPrivate) };
      } catch (err) {
        throw new InvalidArgumentError(`metadata.endpoint is refused: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const api = new S3Api(config, secret, { allowPrivate: this.o.allowPrivate, ...CHECK_API_OPTIONS });
    try {
      await api.list({ maxKeys: 1 });
    } catch (err) {
      throw checkError(err, config);
    } finally {
      api.destroy();
    }
    return { config: s3ConfigJson(config), metadata: s3Metadata(metadata, config) };
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    let config: S3Config;
    let secret: S3Secret;
    try {
      config = s3ConfigOf(conn);
    } catch (err) {
      throw new ConnectorError("internal", err instanceof Error ? err.message : "the connection's S3 config cannot be read", { cause: err });
    }
    try {
      secret = this.o.credentialsOf(conn);
    } catch (err) {
      if (err instanceof ConnectorError) throw err;
      throw new ConnectorError("auth_expired", "the connection's S3 access keys cannot be read", { cause: err });
    }
    let api: S3Api;
    try {
      api = new S3Api(config, secret, { allowPrivate: this.o.allowPrivate, ...SYNC_API_OPTIONS, ...this.o.api });
    } catch (err) {
      // The endpoint no longer passes the address policy (ENGRAM_ALLOW_PRIVATE_URLS turned off since the connection was made).
      throw toConnectorError(err, config.bucket);
    }
    const seen = new Set<string>();
    // New items this run would import: the documentLimit is checked before anything is downloaded.
    let count = known.size;
    try {
      let token: string | undefined;
      do {
        signal.throwIfAborted();
        let page;
        try {
          page = await api.list({ continuationToken: token, maxKeys: this.o.pageSize, signal });
        } catch (err) {
          throw toConnectorError(err, config.bucket);
        }
        for (const object of page.objects) {
          const key = object.Key;
          if (key === undefined || key.endsWith("/")) continue;
          seen.add(key);
          const item = known.get(key);
          const size = object.Size ?? 0;
          if (size > MAX_OBJECT_BYTES) {
            yield { kind: "failure", itemKey: key, reason: `the object is larger than ${MAX_OBJECT_BYTES / (1024 * 1024)} MB (${size} bytes)` };
            continue;
          }
          if (size === 0) {
            // An empty object has nothing to import; a document of earlier content goes.
            if (item) yield { kind: "delete", itemKey: key, reason: "the object is now empty" };
            continue;
          }
          if (item?.version === versionOf(object.ETag, size)) continue;
          if (!item && !underDocumentLimit(conn, count)) {
            yield { kind: "failure", itemKey: key, reason: "the connection's documentLimit is reached" };
            continue;
          }
          signal.throwIfAborted();
          const change = await this.read(api, config, key, versionOf(object.ETag, size), item, signal);
          if (change.kind === "upsert" && !item) count++;
          yield change;
        }
        token = page.next;
      } while (token);
      // The listing is complete: what it no longer holds is gone from the bucket.
      for (const key of known.keys()) if (!seen.has(key)) yield { kind: "delete", itemKey: key, reason: "the object is no longer in the bucket" };
    } finally {
      api.destroy();
    }
  }

  /** Downloads one object: an upsert, or what happened to it (per-item failures do not stop the run). */
  private async read(
    api: S3Api,
    config: S3Config,
    key: string,
    version: string,
    item: ConnectionItem | undefined,
    signal: AbortSignal,
  ): Promise<ConnectorChange> {
    try {
      const got = await api.get(key, signal);
      const base = path.basename(key);
      return {
        kind: "upsert",
        itemKey: key,
        url: objectUrl(config.bucket, key),
        title: base,
        filepath: key,
        metadata: { bucket: config.bucket, key },
        content: { bytes: got.bytes, mimeType: mimeTypeOf(key, got.contentType), fileName: base },
        // The listed version, compared with the next listing. Written again between the listing and the
        // download, the object is newer than its version says: the next sync downloads it once more and converges.
        version,
      };
    } catch (err) {
      if (err instanceof ObjectTooLargeError) return { kind: "failure", itemKey: key, reason: err.message };
      if (signal.aborted) throw err;
      const f = classifyS3Error(err);
      switch (f.kind) {
        case "no_key":
          // Deleted between the listing and the download.
          return item
            ? { kind: "delete", itemKey: key, reason: "the object is no longer in the bucket" }
            : { kind: "failure", itemKey: key, reason: f.message };
        case "access_denied":
          // The keys still list the bucket: this object alone is refused (an object ACL, a KMS key).
          return { kind: "failure", itemKey: key, reason: `access to the object is denied (${f.message})` };
        case "archived":
          return { kind: "failure", itemKey: key, reason: "the object is archived (Glacier storage class): restore it to import it" };
        case "other":
          return { kind: "failure", itemKey: key, reason: f.message };
        default:
          // Refused keys, throttling or an outage after retries: the run stops; the next one resumes (unchanged objects are skipped).
          throw toConnectorError(err, config.bucket);
      }
    }
  }
}

/** A creation check's failure as the API answers it. */
function checkError(err: unknown, config: S3Config): Error {
  const f = classifyS3Error(err);
  const where = config.endpoint ? ` at ${config.endpoint}` : "";
  switch (f.kind) {
    case "refused_keys":
      return new InvalidArgumentError(
        f.code === "SignatureDoesNotMatch" ? `S3 refused the secret access key (${f.code})` : `S3 refused the access key (${f.code})`,
        "check metadata.accessKeyId and metadata.secretAccessKey",
      );
    case "no_bucket":
      return new InvalidArgumentError(`bucket ${config.bucket} does not exist${where} (NoSuchBucket)`);
    case "access_denied":
      return new InvalidArgumentError(
        `the access key may not list bucket ${config.bucket}${config.prefix ? ` under ${config.prefix}` : ""} (${f.code})`,
        "grant s3:ListBucket on the bucket and s3:GetObject on its objects",
      );
    case "wrong_region":
      return new InvalidArgumentError(
        `bucket ${config.bucket} is not in region ${config.region}${f.region ? `: it is in ${f.region}` : ""}`,
        "set metadata.region to the bucket's region",
      );
    case "refused_address":
      return new InvalidArgumentError(`metadata.endpoint is refused: ${f.message}`);
    case "throttled":
    case "unavailable":
      // The user's own endpoint not answering is theirs to fix; AWS not answering is not.
      if (config.endpoint) return new InvalidArgumentError(`the S3 endpoint ${config.endpoint} could not be reached (${f.code})`, "check metadata.endpoint");
      return new UnavailableError(`S3 could not be reached to check the bucket (${f.code})`, "try again later", { cause: err });
    default:
      return new InvalidArgumentError(`S3 refused the connection's check of bucket ${config.bucket} (${f.message})`);
  }
}
