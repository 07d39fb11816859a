import { createHash, randomBytes } from "node:crypto";

/**
 * Typed, recognisable identifiers. Every service-generated id is 22
 * characters: a one-letter kind, an underscore and 20 base62 characters
 * (~119 bits of randomness). A document id can never be mistaken for a
 * memory id, so an id handed to the wrong endpoint gets a clear 4xx.
 */
export const ID_KINDS = {
  document: "d",
  memory: "m",
  chunk: "c",
  connection: "n",
  key: "k",
  event: "e",
  /** One bulk operation (a forget-matching call tags every memory it forgets). */
  batch: "b",
  /** A container tag (a space): derived from its tenant and name, see spaceIdOf. */
  space: "s",
  /** A container-tag merge job. */
  merge: "g",
} as const;

export type IdKind = keyof typeof ID_KINDS;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 20;

// Random bytes are drawn from a pool refilled 4 KiB at a time (one syscall per ~150 ids).
let pool = Buffer.alloc(0);
let poolPos = 0;

function randomByte(): number {
  if (poolPos >= pool.length) {
    pool = randomBytes(4096);
    poolPos = 0;
  }
  return pool[poolPos++]!;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const b = randomByte();
    // 248 = 62 * 4: reject the tail so every character is equally likely.
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

export function newId(kind: IdKind): string {
  return `${ID_KINDS[kind]}_${randomBase62(BODY_LENGTH)}`;
}

/**
 * The id of a container tag (OpenAPI's space id): the same for the same
 * tenant and tag on every replica and across restarts, with nothing stored,
 * so a tag that only has documents or memories has one too.
 */
export function spaceIdOf(tenantId: string, namespace: string): string {
  const digest = createHash("sha256").update(`${tenantId}\u0000${namespace}`).digest();
  let body = "";
  for (let i = 0; body.length < BODY_LENGTH; i++) body += ALPHABET[digest[i % digest.length]! % 62];
  return `${ID_KINDS.space}_${body}`;
}

/**
 * A service id of `kind` derived from `parts`: the same parts give the same
 * id on every replica, with nothing stored. An import that has to give an
 * item a new id derives it from the target tenant and the item's id in the
 * archive, so importing the same archive again finds the item already there.
 */
export function derivedId(kind: IdKind, ...parts: string[]): string {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest();
  let body = "";
  for (let i = 0; body.length < BODY_LENGTH; i++) body += ALPHABET[digest[i % digest.length]! % 62];
  return `${ID_KINDS[kind]}_${body}`;
}

const SERVICE_ID = /^([a-z])_[0-9A-Za-z]{20}$/;

/** The kind of a service-generated id, or undefined for anything else. */
export function idKindOf(id: string): IdKind | undefined {
  const m = SERVICE_ID.exec(id);
  if (!m) return undefined;
  const letter = m[1];
  return (Object.keys(ID_KINDS) as IdKind[]).find((k) => ID_KINDS[k] === letter);
}

export function isServiceId(id: string, kind: IdKind): boolean {
  return idKindOf(id) === kind;
}
