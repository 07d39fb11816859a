import type { KeyObject } from "node:crypto";
import fs from "node:fs";
import { z } from "@engram/config";
import {
  generateTrustMaterial,
  parsePrivateKey,
  parsePublicKeys,
  type ProcessSecurity,
  publicKeyOf,
  readTlsFiles,
  SERVICE_IDENTITIES,
  type ServiceIdentity,
  type TrustMaterial,
} from "@engram/grpc";

/** The variable holding a service's private trust key: `PIPELINE_WORKER_TRUST_KEY`, ... */
export const trustKeyVariable = (s: ServiceIdentity) => `${s.toUpperCase().replace(/-/g, "_")}_TRUST_KEY` as TrustKeyVariable;
type TrustKeyVariable =
  "GATEWAY_TRUST_KEY" | "INGESTION_TRUST_KEY" | "CONNECTIONS_TRUST_KEY" | "MEMORIES_TRUST_KEY" | "RECALL_TRUST_KEY" | "PIPELINE_WORKER_TRUST_KEY";

const optional = z.string().optional();

/**
 * Service-to-service trust and gRPC TLS (docs/configuration.md, "Service-to-service trust"; docs/api-decisions.md §19).
 * Every service signs its calls with its own Ed25519 key and verifies the calls it receives with every service's
 * public key. In one process (TARGETS=all) keys are generated in memory at start unless configured; services in
 * separate processes must be given them (`pnpm trust-keys` generates a set).
 */
export const securityConfigShape = {
  /** Every service's public key: `service:base64-spki` entries, comma-separated (the output of `pnpm trust-keys`). */
  ENGRAM_TRUST_PUBLIC_KEYS: optional,
  /** Each service's private key (base64 PKCS#8 or PEM): a process needs the keys of the services it runs. */
  GATEWAY_TRUST_KEY: optional,
  INGESTION_TRUST_KEY: optional,
  CONNECTIONS_TRUST_KEY: optional,
  MEMORIES_TRUST_KEY: optional,
  RECALL_TRUST_KEY: optional,
  PIPELINE_WORKER_TRUST_KEY: optional,
  /** Mutual TLS for gRPC: this pod's certificate, its key and the CA of every service's certificate (PEM files; all three or none). */
  GRPC_TLS_CERT: optional,
  GRPC_TLS_KEY: optional,
  GRPC_TLS_CA: optional,
};

type SecurityEnv = { [K in keyof typeof securityConfigShape]?: string | undefined };

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== "";

/** What is wrong with the trust and TLS variables for these targets (empty when they can be used). */
export function securityProblems(c: SecurityEnv, targets: ReadonlySet<ServiceIdentity>): string[] {
  const problems: string[] = [];
  const together = SERVICE_IDENTITIES.every((s) => targets.has(s));
  const anyPrivate = SERVICE_IDENTITIES.some((s) => set(c[trustKeyVariable(s)]));
  if (!set(c.ENGRAM_TRUST_PUBLIC_KEYS)) {
    if (!together)
      problems.push(
        "ENGRAM_TRUST_PUBLIC_KEYS: is required when services run in separate processes, with the <SERVICE>_TRUST_KEY of each service in TARGETS (generate them with `pnpm trust-keys`; docs/deployment.md)",
      );
    else if (anyPrivate) problems.push("ENGRAM_TRUST_PUBLIC_KEYS: is required when a <SERVICE>_TRUST_KEY is set");
  } else {
    let publicKeys: Map<ServiceIdentity, KeyObject> | undefined;
    try {
      publicKeys = parsePublicKeys(c.ENGRAM_TRUST_PUBLIC_KEYS);
    } catch (err) {
      problems.push(`ENGRAM_TRUST_PUBLIC_KEYS: ${(err as Error).message}`);
    }
    if (publicKeys) {
      const missing = SERVICE_IDENTITIES.filter((s) => !publicKeys.has(s));
      if (missing.length) problems.push(`ENGRAM_TRUST_PUBLIC_KEYS: has no key for ${missing.join(", ")} (every service's public key is needed)`);
      for (const s of SERVICE_IDENTITIES) {
        const v = trustKeyVariable(s);
        const value = c[v];
        if (!set(value)) {
          if (targets.has(s)) problems.push(`${v}: is required: ${s} runs in this process and signs its calls with it`);
          continue;
        }
        try {
          const key = parsePrivateKey(value);
          const expected = publicKeys.get(s);
          if (expected && spki(expected) !== publicKeyOf(key)) problems.push(`${v}: does not match the ${s} key in ENGRAM_TRUST_PUBLIC_KEYS`);
        } catch (err) {
          problems.push(`${v}: ${(err as Error).message}`);
        }
      }
    }
  }
  const tls = [c.GRPC_TLS_CERT, c.GRPC_TLS_KEY, c.GRPC_TLS_CA].filter(set).length;
  if (tls !== 0 && tls !== 3) problems.push("GRPC_TLS_CERT, GRPC_TLS_KEY and GRPC_TLS_CA: set all three (mutual TLS) or none");
  if (tls === 3)
    for (const v of ["GRPC_TLS_CERT", "GRPC_TLS_KEY", "GRPC_TLS_CA"] as const) if (!fs.existsSync(c[v]!)) problems.push(`${v}: no such file: ${c[v]}`);
  return problems;
}

const spki = (key: KeyObject) => key.export({ format: "der", type: "spki" }).toString("base64");

/**
 * The process's gRPC security from checked variables (securityProblems): the configured keys, or fresh ones in
 * memory for an all-in-one process without any; TLS when its files are set.
 */
export function processSecurity(c: SecurityEnv, targets: ReadonlySet<ServiceIdentity>): ProcessSecurity {
  let trust: TrustMaterial;
  if (set(c.ENGRAM_TRUST_PUBLIC_KEYS)) {
    const publicKeys = parsePublicKeys(c.ENGRAM_TRUST_PUBLIC_KEYS);
    trust = { privateKeys: {}, publicKeys: {} };
    for (const [s, key] of publicKeys) trust.publicKeys[s] = spki(key);
    // Only the private keys of the services this process runs are kept.
    for (const s of targets) {
      const value = c[trustKeyVariable(s)];
      if (set(value)) trust.privateKeys[s] = parsePrivateKey(value).export({ format: "der", type: "pkcs8" }).toString("base64");
    }
  } else {
    trust = generateTrustMaterial();
  }
  const tls =
    set(c.GRPC_TLS_CERT) && set(c.GRPC_TLS_KEY) && set(c.GRPC_TLS_CA)
      ? readTlsFiles({ cert: c.GRPC_TLS_CERT, key: c.GRPC_TLS_KEY, ca: c.GRPC_TLS_CA })
      : undefined;
  return { trust, ...(tls ? { tls } : {}) };
}

/** The part of the process's security one service needs (the gateway's thread gets only its own private key). */
export function securityOf(security: ProcessSecurity, s: ServiceIdentity): ProcessSecurity {
  const key = security.trust.privateKeys[s];
  return { ...security, trust: { publicKeys: security.trust.publicKeys, privateKeys: key ? { [s]: key } : {} } };
}
