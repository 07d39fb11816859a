import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { isValidSecretKey, loadSecretKey, parseSecretKey, SecretBox, SecretBoxError } from "../../src/adapters/crypto/secret-box";

const CTX = "oauth-client-secret:acme:notion";

describe(SecretBox.name, () => {
  const box = new SecretBox(randomBytes(32));

  it("round-trips text and bytes under the same context", () => {
    for (const secret of ["s3cr3t-value", "ünïcødé 🔑", "x".repeat(5000), ""]) {
      expect(box.openString(box.seal(secret, CTX), CTX)).toBe(secret);
    }
    const bytes = randomBytes(100);
    expect(box.open(box.seal(bytes, CTX), CTX).equals(bytes)).toBe(true);
  });

  it("uses a fresh nonce per value: sealing twice gives different bytes, neither containing the plaintext", () => {
    const a = box.seal("same-secret-value", CTX);
    const b = box.seal("same-secret-value", CTX);
    expect(a.equals(b)).toBe(false);
    expect(a.subarray(1, 13).equals(b.subarray(1, 13))).toBe(false);
    expect(a.includes(Buffer.from("same-secret-value"))).toBe(false);
    // version + 12-byte nonce + ciphertext (same length as the plaintext) + 16-byte tag
    expect(a.length).toBe(1 + 12 + "same-secret-value".length + 16);
    expect(a[0]).toBe(1);
  });

  it("detects any altered byte (version, nonce, ciphertext, tag)", () => {
    const sealed = box.seal("tamper-me", CTX);
    for (let i = 0; i < sealed.length; i++) {
      const t = Buffer.from(sealed);
      t[i] = t[i]! ^ 0x01;
      expect(() => box.open(t, CTX)).toThrow(SecretBoxError);
    }
  });

  it("refuses truncated and malformed values", () => {
    const sealed = box.seal("short", CTX);
    expect(() => box.open(sealed.subarray(0, sealed.length - 1), CTX)).toThrow(SecretBoxError);
    expect(() => box.open(Buffer.alloc(10), CTX)).toThrow(/malformed/);
    expect(() => box.open(Buffer.alloc(0), CTX)).toThrow(SecretBoxError);
  });

  it("binds the context: a value sealed for one owner does not open for another", () => {
    const sealed = box.seal("tenant-a-secret", "oauth-client-secret:a:notion");
    expect(() => box.open(sealed, "oauth-client-secret:b:notion")).toThrow(/failed authentication/);
    expect(() => box.open(sealed, "oauth-client-secret:a:github")).toThrow(SecretBoxError);
  });

  it("does not open with another key", () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(box.seal("k", CTX), CTX)).toThrow(/failed authentication/);
  });

  it("requires a 32-byte key and derives a stable, key-specific, non-revealing key id", () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
    const key = randomBytes(32);
    expect(new SecretBox(key).keyId).toBe(new SecretBox(key).keyId);
    expect(new SecretBox(key).keyId).not.toBe(box.keyId);
    expect(new SecretBox(key).keyId).toMatch(/^[0-9a-f]{32}$/);
    expect(new SecretBox(key).keyId).not.toContain(key.toString("hex").slice(0, 8));
  });
});

describe("secret key parsing and loading", () => {
  const key = randomBytes(32);

  it("accepts 32 bytes as hex, base64 and base64url (padding optional)", () => {
    expect(parseSecretKey(key.toString("hex")).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString("hex").toUpperCase()).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString("base64")).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString("base64").replace(/=$/, "")).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString("base64url")).equals(key)).toBe(true);
    expect(parseSecretKey(` ${key.toString("hex")}\n`).equals(key)).toBe(true);
  });

  it("refuses other lengths and encodings", () => {
    for (const bad of [
      "",
      "short",
      randomBytes(16).toString("hex"),
      randomBytes(31).toString("base64"),
      randomBytes(33).toString("base64"),
      "z".repeat(64),
      "!".repeat(44),
    ]) {
      expect(isValidSecretKey(bad)).toBe(false);
      expect(() => parseSecretKey(bad)).toThrow(SecretBoxError);
    }
  });

  describe(loadSecretKey.name, () => {
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-secret-"))));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("uses the configured key without touching the data directory", () => {
      const r = loadSecretKey(dir, key.toString("base64"));
      expect(r.source).toBe("config");
      expect(r.key.equals(key)).toBe(true);
      expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);
    });

    it("generates <dataDir>/secret.key once, mode 0600, and reads the same key afterwards", () => {
      const first = loadSecretKey(path.join(dir, "nested"));
      expect(first.source).toBe("generated");
      const file = path.join(dir, "nested", "secret.key");
      expect(first.file).toBe(file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
      const second = loadSecretKey(path.join(dir, "nested"));
      expect(second.source).toBe("file");
      expect(second.key.equals(first.key)).toBe(true);
      // nothing left behind besides the key
      expect(fs.readdirSync(path.join(dir, "nested"))).toEqual(["secret.key"]);
    });

    it("refuses a key file that holds no valid key instead of replacing it", () => {
      fs.writeFileSync(path.join(dir, "secret.key"), "not a key", { mode: 0o600 });
      expect(() => loadSecretKey(dir)).toThrow(/does not hold a valid key/);
      expect(fs.readFileSync(path.join(dir, "secret.key"), "utf8")).toBe("not a key");
    });
  });
});
