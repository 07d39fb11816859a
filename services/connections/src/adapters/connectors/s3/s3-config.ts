import { InvalidArgumentError, type JsonObject } from "@engram/kernel";
import { z } from "zod";
import type { Connection, ConnectionMetadata } from "../../../domain/connection";

/**
 * What an S3 connection is made of, checked with zod: the bucket it reads
 * (given at creation as `metadata.bucket`, `prefix`, `region`, `endpoint`;
 * kept as the connection's config) and its access keys (given as
 * `metadata.accessKeyId` and `metadata.secretAccessKey`; sealed as the
 * connection's credentials, never stored in metadata or config). Pure: no I/O.
 */

export const DEFAULT_REGION = "us-east-1";

/**
 * S3's bucket naming rules (general purpose buckets): 3–63 characters of
 * lower-case letters, digits, dots and hyphens, starting and ending with a
 * letter or digit, no two adjacent dots, not an IPv4 address, none of the
 * reserved prefixes and suffixes. MinIO and R2 follow the same rules.
 */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return "must be 3 to 63 characters long";
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name))
    return "may hold only lower-case letters, digits, dots and hyphens, and must start and end with a letter or digit";
  if (name.includes("..")) return "must not contain two adjacent dots";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return "must not be formatted as an IP address";
  for (const p of ["xn--", "sthree-", "amzn-s3-demo-"]) if (name.startsWith(p)) return `must not start with ${p}`;
  for (const s of ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"]) if (name.endsWith(s)) return `must not end with ${s}`;
  return undefined;
}

const bucket = z.string().superRefine((v, ctx) => {
  const problem = bucketNameProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: `the bucket name ${JSON.stringify(v.slice(0, 80))} ${problem}` });
});
/** AWS regions (us-east-1, eu-central-1) and the names S3-compatible stores use (R2's "auto"). */
const region = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "must be a region name such as us-east-1 (R2: auto)");
/** An object key prefix: S3 keys are at most 1024 bytes of UTF-8. */
const prefix = z.string().refine((v) => Buffer.byteLength(v, "utf8") <= 1024, "must be at most 1024 bytes");
/** The endpoint is checked against the address policy separately (s3-http.ts); here only its shape. */
const endpoint = z.string().min(1).max(2048);

/** The metadata a creation call gives (besides the access keys, which the use case takes out first). */
export const s3MetadataSchema = z.object({
  bucket,
  prefix: prefix.optional(),
  region: region.optional(),
  endpoint: endpoint.optional(),
});

/** What the connection keeps as its config, and the sync reads. */
export interface S3Config {
  bucket: string;
  /** Empty: the whole bucket. */
  prefix: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, …) addressed path-style; absent: AWS. */
  endpoint?: string;
}

const s3ConfigSchema = z.object({ bucket, prefix, region, endpoint: endpoint.optional() });

/** The access keys of a connection, as sealed in its credentials. */
export interface S3Secret {
  accessKeyId: string;
  secretAccessKey: string;
}

export const s3SecretSchema = z.object({
  // AWS access key ids are 16–128 characters; S3-compatible stores choose their own (MinIO: any 3+).
  accessKeyId: z
    .string()
    .min(3, "metadata.accessKeyId is too short")
    .max(128, "metadata.accessKeyId is longer than 128 characters")
    .regex(/^[\x21-\x7e]+$/, "metadata.accessKeyId must be printable ASCII without spaces"),
  secretAccessKey: z
    .string()
    .min(8, "metadata.secretAccessKey is too short")
    .max(1024, "metadata.secretAccessKey is longer than 1024 characters")
    .regex(/^[\x20-\x7e]+$/, "metadata.secretAccessKey must be printable ASCII"),
});

function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return "invalid";
  const where = issue.path.length ? `metadata.${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/** A connection's sealed secret, opened: validated, never trusted as it is. */
export function parseS3Secret(raw: string): S3Secret {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new InvalidArgumentError("the S3 credentials are not valid JSON");
  }
  const r = s3SecretSchema.safeParse(json);
  if (!r.success) throw new InvalidArgumentError(`the S3 credentials are not valid: ${firstIssue(r.error)}`);
  return r.data;
}

/** The creation metadata read as a config (the endpoint as given: the address policy checks it next). */
export function s3ConfigFromMetadata(metadata: Readonly<Record<string, unknown>>): S3Config {
  const r = s3MetadataSchema.safeParse(metadata);
  if (!r.success)
    throw new InvalidArgumentError(
      `an s3 connection needs a valid bucket: ${firstIssue(r.error)}`,
      "metadata: bucket (required), prefix, region (default us-east-1), endpoint (an S3-compatible store), accessKeyId and secretAccessKey",
    );
  const { bucket: b, prefix: p, region: rg, endpoint: e } = r.data;
  return { bucket: b, prefix: p ?? "", region: rg ?? DEFAULT_REGION, ...(e ? { endpoint: e } : {}) };
}

/** The stored config of a connection (written at creation by s3ConfigFromMetadata). */
export function s3ConfigOf(conn: Pick<Connection, "config">): S3Config {
  const r = s3ConfigSchema.safeParse(conn.config ?? {});
  if (!r.success) throw new InvalidArgumentError(`the connection's S3 config is not valid: ${firstIssue(r.error)}`);
  return { bucket: r.data.bucket, prefix: r.data.prefix, region: r.data.region, ...(r.data.endpoint ? { endpoint: r.data.endpoint } : {}) };
}

/** The config as stored (a JSON object). */
export function s3ConfigJson(c: S3Config): JsonObject {
  return { bucket: c.bucket, prefix: c.prefix, region: c.region, ...(c.endpoint ? { endpoint: c.endpoint } : {}) };
}

/**
 * The metadata the connection shows (GET /v3/connections/{id}): what the
 * caller gave besides the access keys, with the bucket, prefix, region and
 * endpoint as the connection uses them.
 */
export function s3Metadata(given: ConnectionMetadata, c: S3Config): ConnectionMetadata {
  const { bucket: _b, prefix: _p, region: _r, endpoint: _e, ...rest } = given;
  return { ...rest, bucket: c.bucket, region: c.region, ...(c.prefix ? { prefix: c.prefix } : {}), ...(c.endpoint ? { endpoint: c.endpoint } : {}) };
}
