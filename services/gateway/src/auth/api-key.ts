import { createHash, randomBytes } from "node:crypto";
import { newId } from "@engram/kernel";
import type { KeyRights, Scope } from "./scopes";

/** API keys: random secrets shown once; only their SHA-256 is stored. */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  name: string;
  /** First characters of the key, to recognise it in listings. */
  prefix: string;
  hash: string;
  createdAt: string;
  revokedAt?: string;
  /** What the key may do; absent on keys stored before scopes existed, which have every scope (see rightsOf). */
  scopes?: Scope[];
  /** The container tags the key is limited to; absent = every tag of its tenant. */
  containerTags?: string[];
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function generateApiKey(): string {
  const bytes = randomBytes(40);
  let body = "";
  for (const b of bytes) if (b < 248 && body.length < 32) body += ALPHABET[b % 62];
  return `sk_engram_${body}`;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function newKeyRecord(key: string, tenantId: string, name: string, now: Date, rights?: KeyRights): ApiKeyRecord {
  return {
    id: newId("key"),
    tenantId,
    name,
    prefix: key.slice(0, 14),
    hash: hashApiKey(key),
    createdAt: now.toISOString(),
    ...(rights ? { scopes: [...rights.scopes] } : {}),
    ...(rights?.containerTags ? { containerTags: [...rights.containerTags] } : {}),
  };
}

export interface ApiKeyStore {
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  insert(rec: ApiKeyRecord): Promise<void>;
  /** Every key, oldest first; one tenant's only when `tenantId` is given. */
  list(tenantId?: string): Promise<ApiKeyRecord[]>;
  /** Revokes an active key (of that tenant only, when `tenantId` is given); false when there is no such active key. */
  revoke(id: string, at: Date, tenantId?: string): Promise<boolean>;
  countActive(): Promise<number>;
  close(): Promise<void>;
}
