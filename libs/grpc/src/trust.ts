/**
 * Service-to-service trust (docs/api-decisions.md §19): every RPC between Engram services carries a short-lived,
 * signed assertion of who calls (the issuing service), for which service (audience), for which tenant, and — for
 * calls the gateway makes on behalf of an API key — with which scopes and container tags. Services verify it before
 * any handler runs and take the tenant only from it: a request whose CallContext names another tenant is refused.
 *
 * Assertions are compact JWS (JWT) signed with Ed25519 (`jose`): each service holds its own private key and the
 * public keys of the services that call it, so a compromised service (the pipeline-worker, which parses untrusted
 * files and fetches URLs) can only sign as itself, and receivers accept a non-gateway caller only for the methods
 * INTERNAL_CALLERS lists.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto, { type KeyObject } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";

/** The metadata key that carries the assertion. */
export const ASSERTION_METADATA_KEY = "engram-assertion";

/** Every identity that signs or receives assertions (the services of deploy/topology.yaml). */
export const SERVICE_IDENTITIES = ["gateway", "ingestion", "connections", "memories", "recall", "pipeline-worker"] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];
export const isServiceIdentity = (s: string): s is ServiceIdentity => (SERVICE_IDENTITIES as readonly string[]).includes(s);

/** Lifetime of an assertion: long enough for a slow call's metadata to arrive, short enough that a stolen one expires. */
export const ASSERTION_TTL_SECONDS = 60;
/** Clock skew tolerated between pods. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** The service that serves a gRPC service (its assertions' audience): `engram.<service>.v1.<Name>`. */
export function audienceOf(fullName: string): ServiceIdentity {
  const name = fullName.split(".")[1] ?? "";
  if (!isServiceIdentity(name)) throw new Error(`no Engram service serves ${fullName}`);
  return name;
}

/** What a verified assertion says. `scopes` and `containerTags` are the API key's (gateway calls for a request). */
export interface Assertion {
  issuer: ServiceIdentity;
  audience: ServiceIdentity;
  /** The tenant the call acts for; empty for calls that act for no tenant yet (OAuth callbacks, webhooks, file links). */
  tenant: string;
  /** The API key's scopes; absent when the issuer acts on its own (background work, usage counts). */
  scopes?: string[];
  /** The API key's container-tag limit, when it has one. */
  containerTags?: string[];
  expiresAt: number;
}

/** The claims a caller asks to be signed for one call. */
export interface AssertionClaims {
  audience: ServiceIdentity;
  tenant: string;
  scopes?: readonly string[];
  containerTags?: readonly string[];
}

/**
 * Why a call was refused by the trust check. Not a domain error: the caller is
 * a service, not an API client, so the status carries no error kind and the
 * gateway answers its own client with a generic 500 (and logs this).
 */
export class TrustRefusal extends Error {
  override readonly name = "TrustRefusal";
  constructor(
    readonly code: grpc.status.UNAUTHENTICATED | grpc.status.PERMISSION_DENIED,
    message: string,
  ) {
    super(message);
  }
}

// ---- keys ------------------------------------------------------------------------------------------------

/** An Ed25519 key pair as environment values: base64 of PKCS#8 DER (private) and of SPKI DER (public). */
export interface EncodedKeyPair {
  privateKey: string;
  publicKey: string;
}

export function generateTrustKeyPair(): EncodedKeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  return {
    privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}

/** A private Ed25519 key from base64 PKCS#8 DER or a PEM block; throws a message naming the problem. */
export function parsePrivateKey(value: string): KeyObject {
  const v = value.trim();
  let key: KeyObject;
  try {
    key = v.startsWith("-----") ? crypto.createPrivateKey(v) : crypto.createPrivateKey({ key: Buffer.from(v, "base64"), format: "der", type: "pkcs8" });
  } catch {
    throw new Error("is not a private key (base64 PKCS#8 DER or PEM)");
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`must be an Ed25519 key, not ${key.asymmetricKeyType ?? "a symmetric key"}`);
  return key;
}

/** A public Ed25519 key from base64 SPKI DER or a PEM block. */
export function parsePublicKey(value: string): KeyObject {
  const v = value.trim();
  let key: KeyObject;
  try {
    key = v.startsWith("-----") ? crypto.createPublicKey(v) : crypto.createPublicKey({ key: Buffer.from(v, "base64"), format: "der", type: "spki" });
  } catch {
    throw new Error("is not a public key (base64 SPKI DER or PEM)");
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

/**
 * `ENGRAM_TRUST_PUBLIC_KEYS`: `service:base64-spki` entries, comma-separated, one per service. Throws a message
 * naming the first problem.
 */
export function parsePublicKeys(value: string): Map<ServiceIdentity, KeyObject> {
  const out = new Map<ServiceIdentity, KeyObject>();
  for (const entry of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = entry.indexOf(":");
    const name = at < 0 ? entry : entry.slice(0, at);
    if (!isServiceIdentity(name)) throw new Error(`"${name}" is not a service (${SERVICE_IDENTITIES.join(", ")})`);
    if (out.has(name)) throw new Error(`names ${name} twice`);
    try {
      out.set(name, parsePublicKey(entry.slice(at + 1)));
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}`);
    }
  }
  return out;
}

export function formatPublicKeys(keys: Partial<Record<ServiceIdentity, string>>): string {
  return Object.entries(keys)
    .map(([name, key]) => `${name}:${key}`)
    .join(",");
}

/** The public key of a private one, encoded as in ENGRAM_TRUST_PUBLIC_KEYS. */
export function publicKeyOf(privateKey: KeyObject): string {
  return crypto.createPublicKey(privateKey).export({ format: "der", type: "spki" }).toString("base64");
}

// ---- signing ----------------------------------------------------------------------------------------------

const MAX_CACHED = 10_000;

/**
 * Signs assertions as one service. A signed assertion is reused for the same claims until half its lifetime is
 * gone (a call's metadata then still has 30 s of validity), so the cost is one signature per (audience, tenant,
 * scopes, tags) every 30 s, not one per RPC.
 */
export class AssertionSigner {
  private readonly cache = new Map<string, { token: string; renewAt: number }>();

  constructor(
    readonly identity: ServiceIdentity,
    private readonly privateKey: KeyObject,
    private readonly now: () => number = Date.now,
  ) {}

  async sign(claims: AssertionClaims): Promise<string> {
    const key = JSON.stringify([claims.audience, claims.tenant, claims.scopes ?? null, claims.containerTags ?? null]);
    const nowMs = this.now();
    const hit = this.cache.get(key);
    if (hit && hit.renewAt > nowMs) return hit.token;
    const iat = Math.floor(nowMs / 1000);
    const token = await new SignJWT({
      ten: claims.tenant,
      ...(claims.scopes ? { scp: [...claims.scopes] } : {}),
      ...(claims.containerTags ? { tags: [...claims.containerTags] } : {}),
    })
      .setProtectedHeader({ alg: "EdDSA", typ: "engram-assertion" })
      .setIssuer(this.identity)
      .setAudience(claims.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_TTL_SECONDS)
      .sign(this.privateKey);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.delete(key);
    this.cache.set(key, { token, renewAt: nowMs + (ASSERTION_TTL_SECONDS * 1000) / 2 });
    return token;
  }
}

// ---- verification -----------------------------------------------------------------------------------------

const stringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/**
 * Verifies assertions addressed to one service against the public keys of the services it trusts. A token verified
 * once is remembered until it expires (callers reuse theirs), so most calls cost a map lookup.
 */
export class AssertionVerifier {
  private readonly verified = new Map<string, Assertion>();

  constructor(
    readonly audience: ServiceIdentity,
    private readonly publicKeys: ReadonlyMap<ServiceIdentity, KeyObject>,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(token: string | undefined): Promise<Assertion> {
    if (!token) throw new TrustRefusal(grpc.status.UNAUTHENTICATED, "no service assertion: every call must carry one signed by an Engram service");
    const nowMs = this.now();
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expiresAt * 1000 > nowMs - CLOCK_TOLERANCE_SECONDS * 1000) return hit;
      this.verified.delete(token);
    }
    const issuer = issuerOf(token);
    const key = issuer ? this.publicKeys.get(issuer) : undefined;
    if (!issuer || !key) throw new TrustRefusal(grpc.status.UNAUTHENTICATED, `service assertion from an unknown issuer${issuer ? ` (${issuer})` : ""}`);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ["EdDSA"],
        issuer,
        audience: this.audience,
        typ: "engram-assertion",
        requiredClaims: ["iat", "exp", "ten"],
        maxTokenAge: ASSERTION_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(nowMs),
      }));
    } catch (err) {
      throw new TrustRefusal(grpc.status.UNAUTHENTICATED, `invalid service assertion: ${refusalText(err)}`);
    }
    const { ten, scp, tags, exp } = payload;
    if (typeof ten !== "string" || (scp !== undefined && !stringArray(scp)) || (tags !== undefined && !stringArray(tags)) || typeof exp !== "number")
      throw new TrustRefusal(grpc.status.UNAUTHENTICATED, "invalid service assertion: malformed claims");
    const assertion: Assertion = {
      issuer,
      audience: this.audience,
      tenant: ten,
      ...(scp ? { scopes: scp } : {}),
      ...(tags ? { containerTags: tags } : {}),
      expiresAt: exp,
    };
    if (this.verified.size >= MAX_CACHED) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, assertion);
    return assertion;
  }
}

/** The unverified `iss` of a token (to pick the key); the signature check follows. */
function issuerOf(token: string): ServiceIdentity | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { iss?: unknown }).iss;
    return typeof iss === "string" && isServiceIdentity(iss) ? iss : undefined;
  } catch {
    return undefined;
  }
}

function refusalText(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return "expired";
  if (err instanceof joseErrors.JWTClaimValidationFailed)
    return `claim ${err.claim} ${err.reason === "check_failed" ? "does not match" : "is missing or invalid"}`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "bad signature";
  if (err instanceof joseErrors.JOSEError) return err.code;
  return "malformed";
}

// ---- who may call what ------------------------------------------------------------------------------------

/**
 * The RPCs a service other than the gateway may call, and who (`Service/Method` → callers). The gateway, which
 * signs for the API key of each request, may call every RPC; everything not listed here is the gateway's only.
 * The pipeline-worker may only read the source of a document and the organisation settings: it cannot write,
 * delete, list, or reach keys, settings changes, connections or memories.
 */
export const INTERNAL_CALLERS: Readonly<Record<string, readonly ServiceIdentity[]>> = {
  // Sources of documents to extract (pipeline) and the document a memory came from (memories, recall).
  "IngestionService/GetDocumentSource": ["pipeline-worker"],
  "IngestionService/GetDocument": ["memories", "recall"],
  // A whole document's content in parts (recall's v3 search with includeFullDocs).
  "IngestionService/ReadDocument": ["recall"],
  // Connections import, re-sync and clean up the documents of their connection.
  "IngestionService/UploadDocumentFile": ["connections"],
  "IngestionService/DeleteDocuments": ["connections"],
  "IngestionService/ListDocuments": ["connections"],
  // Profile buckets of a container tag (memories classify, recall builds profiles).
  "ContainerTagService/GetContainerTag": ["memories", "recall"],
  // Organisation settings: buckets (memories, recall) and chunk size (pipeline-worker).
  "SettingsService/GetSettings": ["memories", "recall", "pipeline-worker"],
};

/** Whether `issuer` may call `Service/Method`. */
export function mayCall(issuer: ServiceIdentity, service: string, method: string): boolean {
  return issuer === "gateway" || (INTERNAL_CALLERS[`${service}/${method}`]?.includes(issuer) ?? false);
}

// ---- per call ---------------------------------------------------------------------------------------------

const current = new AsyncLocalStorage<Assertion>();

/** The verified assertion of the call being handled (undefined outside a handler, or on a server without trust). */
export function currentAssertion(): Assertion | undefined {
  return current.getStore();
}

/** Runs a handler with its call's assertion as the current one. */
export function withAssertion<T>(assertion: Assertion | undefined, fn: () => T): T {
  return assertion ? current.run(assertion, fn) : fn();
}

/**
 * The tenant a request names (its CallContext, or the header's of a streamed upload) checked against the
 * assertion: a request for another tenant than the one asserted is refused.
 */
export function checkTenant(assertion: Assertion, tenantId: string): void {
  if (tenantId !== assertion.tenant)
    throw new TrustRefusal(
      grpc.status.PERMISSION_DENIED,
      `the request names tenant "${tenantId}" but the ${assertion.issuer}'s assertion is for ${assertion.tenant ? `"${assertion.tenant}"` : "no tenant"}`,
    );
}

/** The tenant of a request message as it names it: `context.tenantId`, or `header.context.tenantId`; undefined when it has no context. */
export function requestTenant(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as { context?: { tenantId?: unknown } | null; header?: { context?: { tenantId?: unknown } | null } | null };
  const ctx = m.context ?? m.header?.context;
  if (ctx === undefined || ctx === null) return "context" in m || m.header ? "" : undefined;
  return typeof ctx.tenantId === "string" ? ctx.tenantId : "";
}

/** What a server checks: its verifier (audience = this service). */
export interface ServerTrust {
  verifier: AssertionVerifier;
}

/**
 * The check before any handler: a valid assertion for this service, from a caller allowed for the method, for
 * the tenant the request names (when it names one; a streamed upload's header is checked by `tenantOf`).
 */
export async function admit(trust: ServerTrust, service: string, method: string, metadata: grpc.Metadata, request: unknown): Promise<Assertion> {
  const assertion = await trust.verifier.verify(metadata.get(ASSERTION_METADATA_KEY)[0]?.toString());
  if (!mayCall(assertion.issuer, service, method))
    throw new TrustRefusal(grpc.status.PERMISSION_DENIED, `${assertion.issuer} may not call ${service}/${method}`);
  const tenant = requestTenant(request);
  if (tenant !== undefined) checkTenant(assertion, tenant);
  return assertion;
}

// ---- the key material of a process ------------------------------------------------------------------------

/** Every key a process needs: the private keys of the services it runs, the public keys of every service. */
export interface TrustMaterial {
  privateKeys: Partial<Record<ServiceIdentity, string>>;
  publicKeys: Partial<Record<ServiceIdentity, string>>;
}

/** Fresh key pairs for every service (the all-in-one process when none are configured): nothing leaves memory. */
export function generateTrustMaterial(): TrustMaterial {
  const material: TrustMaterial = { privateKeys: {}, publicKeys: {} };
  for (const s of SERVICE_IDENTITIES) {
    const pair = generateTrustKeyPair();
    material.privateKeys[s] = pair.privateKey;
    material.publicKeys[s] = pair.publicKey;
  }
  return material;
}

/** The signer of one service of the process (its private key must be in the material). */
export function signerFor(material: TrustMaterial, identity: ServiceIdentity): AssertionSigner {
  const key = material.privateKeys[identity];
  if (!key) throw new Error(`no trust key for ${identity}`);
  return new AssertionSigner(identity, parsePrivateKey(key));
}

/** The verifier of one service of the process: every public key of the material. */
export function verifierFor(material: TrustMaterial, identity: ServiceIdentity): AssertionVerifier {
  const keys = new Map<ServiceIdentity, KeyObject>();
  for (const [name, key] of Object.entries(material.publicKeys)) keys.set(name as ServiceIdentity, parsePublicKey(key));
  return new AssertionVerifier(identity, keys);
}
