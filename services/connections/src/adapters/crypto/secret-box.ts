import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Authenticated encryption of small secrets at rest (OAuth client secrets,
 * later provider tokens): AES-256-GCM, a fresh random 96-bit nonce per value,
 * 128-bit tag. A sealed value is
 *
 *   version (1 byte, 0x01) | nonce (12) | ciphertext | tag (16)
 *
 * The version byte and the caller's `context` (what the value is and whom it
 * belongs to, e.g. `oauth-client-secret:<tenant>:<provider>`) are bound as
 * additional authenticated data, so a sealed value copied to another row or
 * tenant, altered, or opened with another key fails to open.
 */
export const SECRET_KEY_BYTES = 32;
const VERSION = 0x01;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

export class SecretBox {
  private readonly key: Buffer;
  /** A non-secret fingerprint of the key (HMAC of a fixed label), to detect a changed key. */
  readonly keyId: string;

  constructor(key: Uint8Array) {
    if (key.byteLength !== SECRET_KEY_BYTES) throw new SecretBoxError(`the secret key must be ${SECRET_KEY_BYTES} bytes (got ${key.byteLength})`);
    this.key = Buffer.from(key);
    this.keyId = createHmac("sha256", this.key).update("engram secret-box key id v1").digest("hex").slice(0, 32);
  }

  seal(plaintext: string | Uint8Array, context: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), nonce, body, cipher.getAuthTag()]);
  }

  /** Throws SecretBoxError when the value is malformed, altered, sealed for another context or with another key. */
  open(sealed: Uint8Array, context: string): Buffer {
    const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    if (buf.length < 1 + NONCE_BYTES + TAG_BYTES || buf[0] !== VERSION) throw new SecretBoxError("sealed value is malformed or of an unknown version");
    const nonce = buf.subarray(1, 1 + NONCE_BYTES);
    const tag = buf.subarray(buf.length - TAG_BYTES);
    const body = buf.subarray(1 + NONCE_BYTES, buf.length - TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      throw new SecretBoxError("sealed value failed authentication (altered, sealed for another owner, or sealed with another key)");
    }
  }

  openString(sealed: Uint8Array, context: string): string {
    return this.open(sealed, context).toString("utf8");
  }

  /**
   * A 32-byte key for another purpose, derived from the secret key with
   * HKDF-SHA256 under `label` (the OAuth state's MAC key, webhook secrets):
   * independent of the sealing key and of every other label's key.
   */
  deriveKey(label: string): Buffer {
    return Buffer.from(hkdfSync("sha256", this.key, Buffer.alloc(0), `engram ${label}`, SECRET_KEY_BYTES));
  }
}

function aad(context: string): Buffer {
  return Buffer.concat([Buffer.of(VERSION), Buffer.from(context, "utf8")]);
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
