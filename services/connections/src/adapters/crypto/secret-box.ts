import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Authenticated encryption of small secrets at rest (OAuth client secrets,
 * provider tokens, direct credentials): AES-256-GCM, a fresh random 96-bit
 * nonce per value, 128-bit tag, under a keyring of named keys (newest
 * first) so that the key can be rotated. A sealed value is
 *
 *   0x02 | id length (1 byte) | key id (ASCII) | nonce (12) | ciphertext | tag (16)
 *
 * sealed with the newest key. Values written before the keyring existed
 * are `0x01 | nonce | ciphertext | tag` with no key id (legacy): they are
 * opened by trying the ring's keys. The version byte, the key id and the
 * caller's `context` (what the value is and whom it belongs to, e.g.
 * `oauth-client-secret:<tenant>:<provider>`) are bound as additional
 * authenticated data, so a sealed value copied to another row or tenant,
 * altered, or opened with another key fails to open.
 */
export const SECRET_KEY_BYTES = 32;
/** The id of a key configured alone (ENGRAM_SECRET_KEY, `<dataDir>/secret.key`): name it so in ENGRAM_SECRET_KEYS to keep it. */
export const DEFAULT_KEY_ID = "default";
const LEGACY_VERSION = 0x01;
const VERSION = 0x02;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

export interface RingKey {
  /** A short name (letters, digits, `.`, `_`, `-`), carried in every value the key seals. */
  id: string;
  key: Uint8Array;
}

interface Key {
  id: string;
  key: Buffer;
  fingerprint: string;
}

/** A non-secret fingerprint of a key (HMAC of a fixed label), to detect a changed key without storing it. */
export function keyFingerprint(key: Uint8Array): string {
  return createHmac("sha256", Buffer.from(key)).update("engram secret-box key id v1").digest("hex").slice(0, 32);
}

/**
 * The keys that seal and open secrets, newest first: the newest seals, every
 * one opens what it sealed, and `reseal` moves a value to the newest key.
 * Keys derived for other purposes (the OAuth state, webhook secrets) are
 * derived per key id.
 */
export class SecretKeyring {
  private readonly keys: Key[];

  constructor(keys: readonly RingKey[]) {
    if (keys.length === 0) throw new SecretBoxError("the keyring has no key");
    const seen = new Set<string>();
    this.keys = keys.map(({ id, key }) => {
      if (!KEY_ID.test(id)) throw new SecretBoxError(`key id "${id.slice(0, 40)}" must be 1 to 32 letters, digits, '.', '_' or '-'`);
      if (seen.has(id)) throw new SecretBoxError(`key id ${id} appears twice in the keyring`);
      seen.add(id);
      if (key.byteLength !== SECRET_KEY_BYTES) throw new SecretBoxError(`the secret key must be ${SECRET_KEY_BYTES} bytes (got ${key.byteLength})`);
      return { id, key: Buffer.from(key), fingerprint: keyFingerprint(key) };
    });
  }

  /** The id of the key that seals new values. */
  get newestId(): string {
    return this.keys[0]!.id;
  }

  /** The keys' ids, newest first. */
  get ids(): string[] {
    return this.keys.map((k) => k.id);
  }

  /** The keys' fingerprints, newest first (the start-up check compares the stored one with these). */
  get fingerprints(): string[] {
    return this.keys.map((k) => k.fingerprint);
  }

  /** The newest key's fingerprint. */
  get keyId(): string {
    return this.keys[0]!.fingerprint;
  }

  /** Seals with the newest key. */
  seal(plaintext: string | Uint8Array, context: string): Buffer {
    const k = this.keys[0]!;
    const id = Buffer.from(k.id, "ascii");
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", k.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(VERSION, k.id, context));
    const body = Buffer.concat([cipher.update(typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION, id.length), id, nonce, body, cipher.getAuthTag()]);
  }

  /** Throws SecretBoxError when the value is malformed, altered, sealed for another context or with a key not in the ring. */
  open(sealed: Uint8Array, context: string): Buffer {
    const p = parse(sealed);
    // The key named by the value first; then the others (a key renamed in the ring still opens what it sealed; legacy values name none).
    const candidates = p.keyId === undefined ? this.keys : [...this.keys.filter((k) => k.id === p.keyId), ...this.keys.filter((k) => k.id !== p.keyId)];
    for (const k of candidates) {
      const out = tryOpen(k.key, p, context);
      if (out) return out;
    }
    if (p.keyId !== undefined && !this.keys.some((k) => k.id === p.keyId))
      throw new SecretBoxError(`sealed value was sealed with key ${p.keyId}, which is not in the keyring (ENGRAM_SECRET_KEYS)`);
    throw new SecretBoxError("sealed value failed authentication (altered, sealed for another owner, or sealed with another key)");
  }

  openString(sealed: Uint8Array, context: string): string {
    return this.open(sealed, context).toString("utf8");
  }

  /** The id of the key a value names (undefined: a legacy value, which names none). Throws SecretBoxError when malformed. */
  sealedWith(sealed: Uint8Array): string | undefined {
    return parse(sealed).keyId;
  }

  /** Whether the value is sealed with another key than the newest (a legacy value always is). */
  isStale(sealed: Uint8Array): boolean {
    return parse(sealed).keyId !== this.newestId;
  }

  /** The value sealed again with the newest key, or undefined when it already is. Throws SecretBoxError when it does not open. */
  reseal(sealed: Uint8Array, context: string): Buffer | undefined {
    if (!this.isStale(sealed)) return undefined;
    return this.seal(this.open(sealed, context), context);
  }

  /**
   * A 32-byte key for another purpose, derived from one of the ring's keys
   * (the newest by default) with HKDF-SHA256 under `label` (the OAuth
   * state's key, webhook secrets): independent of the sealing key and of
   * every other label's key.
   */
  deriveKey(label: string, keyId: string = this.newestId): Buffer {
    const k = this.keys.find((x) => x.id === keyId);
    if (!k) throw new SecretBoxError(`key ${keyId} is not in the keyring`);
    return Buffer.from(hkdfSync("sha256", k.key, Buffer.alloc(0), `engram ${label}`, SECRET_KEY_BYTES));
  }

  /** `label`'s key derived from every key of the ring, newest first. */
  deriveKeys(label: string): { id: string; key: Buffer }[] {
    return this.keys.map((k) => ({ id: k.id, key: this.deriveKey(label, k.id) }));
  }
}

/** A one-key ring (the key named DEFAULT_KEY_ID): what ENGRAM_SECRET_KEY and `<dataDir>/secret.key` give. */
export class SecretBox extends SecretKeyring {
  constructor(key: Uint8Array, id: string = DEFAULT_KEY_ID) {
    super([{ id, key }]);
  }
}

interface Parsed {
  version: number;
  keyId?: string;
  nonce: Buffer;
  body: Buffer;
  tag: Buffer;
}

function parse(sealed: Uint8Array): Parsed {
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const malformed = () => new SecretBoxError("sealed value is malformed or of an unknown version");
  let offset: number;
  let keyId: string | undefined;
  if (buf[0] === LEGACY_VERSION) offset = 1;
  else if (buf[0] === VERSION && buf.length > 2) {
    const n = buf[1]!;
    keyId = buf.subarray(2, 2 + n).toString("ascii");
    if (n === 0 || !KEY_ID.test(keyId)) throw malformed();
    offset = 2 + n;
  } else throw malformed();
  if (buf.length < offset + NONCE_BYTES + TAG_BYTES) throw malformed();
  return {
    version: buf[0]!,
    ...(keyId !== undefined ? { keyId } : {}),
    nonce: buf.subarray(offset, offset + NONCE_BYTES),
    body: buf.subarray(offset + NONCE_BYTES, buf.length - TAG_BYTES),
    tag: buf.subarray(buf.length - TAG_BYTES),
  };
}

function tryOpen(key: Buffer, p: Parsed, context: string): Buffer | undefined {
  const decipher = createDecipheriv("aes-256-gcm", key, p.nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad(p.version, p.keyId, context));
  decipher.setAuthTag(p.tag);
  try {
    return Buffer.concat([decipher.update(p.body), decipher.final()]);
  } catch {
    return undefined;
  }
}

function aad(version: number, keyId: string | undefined, context: string): Buffer {
  // Legacy values bound the version and the context only.
  if (keyId === undefined) return Buffer.concat([Buffer.of(version), Buffer.from(context, "utf8")]);
  return Buffer.concat([Buffer.of(version), Buffer.from(keyId, "ascii"), Buffer.of(0), Buffer.from(context, "utf8")]);
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}=?$/;

/**
 * A 32-byte key written as 64 hex characters or as base64 (standard or URL-safe,
 * padding optional). Throws SecretBoxError for anything else.
 */
export function parseSecretKey(text: string): Buffer {
  const t = text.trim();
  let key: Buffer | undefined;
  if (HEX_KEY.test(t)) key = Buffer.from(t, "hex");
  else if (BASE64_KEY.test(t)) key = Buffer.from(t, "base64");
  else if (BASE64URL_KEY.test(t)) key = Buffer.from(t, "base64url");
  if (!key || key.length !== SECRET_KEY_BYTES) throw new SecretBoxError("must be 32 bytes written as base64 (44 characters) or hex (64 characters)");
  return key;
}

export function isValidSecretKey(text: string): boolean {
  try {
    parseSecretKey(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * ENGRAM_SECRET_KEYS: `id:key` entries separated by commas, newest first
 * (`2026-11:<base64>,default:<base64>`). Throws SecretBoxError naming the
 * entry (by position and id, never the key) that is wrong.
 */
export function parseSecretKeys(text: string): RingKey[] {
  const entries = text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (entries.length === 0) throw new SecretBoxError("must list at least one id:key");
  const ids = new Set<string>();
  return entries.map((entry, i) => {
    const colon = entry.indexOf(":");
    if (colon < 1) throw new SecretBoxError(`entry ${i + 1} must be id:key (a key id, a colon, then the key)`);
    const id = entry.slice(0, colon).trim();
    if (!KEY_ID.test(id)) throw new SecretBoxError(`entry ${i + 1}: the key id must be 1 to 32 letters, digits, '.', '_' or '-'`);
    if (ids.has(id)) throw new SecretBoxError(`entry ${i + 1}: key id ${id} appears twice`);
    ids.add(id);
    try {
      return { id, key: parseSecretKey(entry.slice(colon + 1)) };
    } catch {
      throw new SecretBoxError(`entry ${i + 1} (key ${id}): the key must be 32 bytes written as base64 (44 characters) or hex (64 characters)`);
    }
  });
}

export function isValidSecretKeys(text: string): boolean {
  try {
    parseSecretKeys(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The keyring: ENGRAM_SECRET_KEYS when set, else the one key of
 * loadSecretKey (ENGRAM_SECRET_KEY or the key file) named DEFAULT_KEY_ID.
 * When both are set (a deployment whose ENGRAM_SECRET_KEY is required),
 * ENGRAM_SECRET_KEY must be one of the ring's keys: a configured key that
 * would be silently ignored is refused.
 */
export function loadSecretKeyring(
  dataDir: string,
  configured: { keys?: string; key?: string },
): { ring: SecretKeyring; source: "config" | "file" | "generated"; file?: string } {
  if (configured.keys) {
    const keys = parseSecretKeys(configured.keys);
    if (configured.key) {
      const one = parseSecretKey(configured.key);
      if (!keys.some((k) => one.equals(Buffer.from(k.key))))
        throw new SecretBoxError("ENGRAM_SECRET_KEY is not one of the keys of ENGRAM_SECRET_KEYS: list it there (e.g. as default:<key>) or unset it");
    }
    return { ring: new SecretKeyring(keys), source: "config" };
  }
  const one = loadSecretKey(dataDir, configured.key);
  return { ring: new SecretBox(one.key), source: one.source, ...(one.file ? { file: one.file } : {}) };
}

/**
 * The key that seals secrets: the configured one (ENGRAM_SECRET_KEY), or the
 * one kept in `<dataDir>/secret.key` (64 hex characters, mode 0600), created
 * with a random key on first use. The file is created atomically (written
 * aside, then hard-linked into place), so concurrent starts agree on one key
 * and a crash never leaves a half-written key behind. An existing file that
 * does not hold a valid key is an error: replacing it would make every stored
 * secret unreadable.
 */
export function loadSecretKey(dataDir: string, configured?: string): { key: Buffer; source: "config" | "file" | "generated"; file?: string } {
  if (configured) return { key: parseSecretKey(configured), source: "config" };
  const file = path.join(dataDir, "secret.key");
  fs.mkdirSync(dataDir, { recursive: true });
  let source: "file" | "generated" = "file";
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      const fd = fs.openSync(tmp, "wx", 0o600);
      try {
        fs.writeSync(fd, randomBytes(SECRET_KEY_BYTES).toString("hex") + "\n");
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      try {
        fs.linkSync(tmp, file);
      } catch (err) {
        // File systems without hard links: an exclusive copy still never replaces an existing key.
        if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes((err as { code?: string }).code ?? "")) throw err;
        fs.copyFileSync(tmp, file, fs.constants.COPYFILE_EXCL);
      }
      source = "generated";
    } catch (err) {
      if ((err as { code?: string }).code !== "EEXIST") throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const text = fs.readFileSync(file, "utf8");
  try {
    return { key: parseSecretKey(text), source, file };
  } catch {
    throw new SecretBoxError(`${file} does not hold a valid key (32 bytes as hex or base64); restore it or set ENGRAM_SECRET_KEY`);
  }
}
