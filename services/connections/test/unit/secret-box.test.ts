import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createCipheriv } from "node:crypto";
import {
  isValidSecretKey,
  loadSecretKey,
  loadSecretKeyring,
  parseSecretKey,
  parseSecretKeys,
  SecretBox,
  SecretBoxError,
  SecretKeyring,
} from "../../src/adapters/crypto/secret-box";

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
    const head = 2 + "default".length;
    expect(a.subarray(head, head + 12).equals(b.subarray(head, head + 12))).toBe(false);
    expect(a.includes(Buffer.from("same-secret-value"))).toBe(false);
    // version + key id length + key id + 12-byte nonce + ciphertext (same length as the plaintext) + 16-byte tag
    expect(a.length).toBe(head + 12 + "same-secret-value".length + 16);
    expect(a[0]).toBe(2);
    expect(a.subarray(2, head).toString("ascii")).toBe("default");
  });

  it("detects any altered byte (version, key id, nonce, ciphertext, tag)", () => {
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

/** A value as the single-key SecretBox sealed it before the keyring (version 1, no key id). */
function legacySeal(key: Buffer, plaintext: string, context: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: 16 });
  cipher.setAAD(Buffer.concat([Buffer.of(1), Buffer.from(context, "utf8")]));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.of(1), nonce, body, cipher.getAuthTag()]);
}

describe(SecretKeyring.name, () => {
  const k0 = randomBytes(32);
  const k1 = randomBytes(32);
  const old = new SecretKeyring([{ id: "k0", key: k0 }]);
  const ring = new SecretKeyring([
    { id: "k1", key: k1 },
    { id: "k0", key: k0 },
  ]);

  it("seals with the newest key and names it in the value", () => {
    const sealed = ring.seal("token", CTX);
    expect(ring.sealedWith(sealed)).toBe("k1");
    expect(ring.isStale(sealed)).toBe(false);
    expect(ring.openString(sealed, CTX)).toBe("token");
    expect(() => old.open(sealed, CTX)).toThrow(/key k1, which is not in the keyring/);
  });

  it("opens values sealed with an older key of the ring, and reseals them with the newest", () => {
    const before = old.seal("refresh-token", CTX);
    expect(ring.sealedWith(before)).toBe("k0");
    expect(ring.isStale(before)).toBe(true);
    expect(ring.openString(before, CTX)).toBe("refresh-token");
    const after = ring.reseal(before, CTX)!;
    expect(ring.sealedWith(after)).toBe("k1");
    expect(ring.reseal(after, CTX)).toBeUndefined();
    // once resealed, the old key can leave the ring
    expect(new SecretKeyring([{ id: "k1", key: k1 }]).openString(after, CTX)).toBe("refresh-token");
    // the context still binds after a reseal
    expect(() => ring.open(after, "oauth-client-secret:other:notion")).toThrow(SecretBoxError);
  });

  it("opens legacy values (no key id) with the ring's keys, reports them stale and reseals them", () => {
    const legacy = legacySeal(k0, "client-secret", CTX);
    expect(new SecretBox(k0).openString(legacy, CTX)).toBe("client-secret");
    expect(ring.openString(legacy, CTX)).toBe("client-secret");
    expect(ring.sealedWith(legacy)).toBeUndefined();
    expect(ring.isStale(legacy)).toBe(true);
    expect(ring.openString(ring.reseal(legacy, CTX)!, CTX)).toBe("client-secret");
    expect(() => new SecretBox(k1).open(legacy, CTX)).toThrow(/failed authentication/);
  });

  it("refuses a value sealed with a key id the ring does not hold, naming the id", () => {
    const foreign = new SecretKeyring([{ id: "k9", key: randomBytes(32) }]).seal("x", CTX);
    expect(() => ring.open(foreign, CTX)).toThrow(/sealed with key k9, which is not in the keyring/);
    expect(() => ring.reseal(foreign, CTX)).toThrow(SecretBoxError);
  });

  it("still opens a value whose key was renamed in the ring", () => {
    const sealed = new SecretBox(k0).seal("x", CTX); // id "default"
    expect(ring.openString(sealed, CTX)).toBe("x");
  });

  it("derives per-key keys: the same label gives a different key per key id, stable for the same key", () => {
    expect(ring.deriveKey("oauth-state", "k0").equals(old.deriveKey("oauth-state"))).toBe(true);
    expect(ring.deriveKey("oauth-state").equals(ring.deriveKey("oauth-state", "k0"))).toBe(false);
    expect(ring.deriveKey("oauth-state").equals(ring.deriveKey("webhook-secret"))).toBe(false);
    expect(ring.deriveKeys("oauth-state").map((k) => k.id)).toEqual(["k1", "k0"]);
    expect(() => ring.deriveKey("oauth-state", "k7")).toThrow(/not in the keyring/);
  });

  it("lists fingerprints newest first and refuses duplicate or malformed ids", () => {
    expect(ring.fingerprints).toEqual([new SecretBox(k1).keyId, new SecretBox(k0).keyId]);
    expect(ring.keyId).toBe(ring.fingerprints[0]);
    expect(() => new SecretKeyring([])).toThrow(/no key/);
    expect(
      () =>
        new SecretKeyring([
          { id: "a", key: k0 },
          { id: "a", key: k1 },
        ]),
    ).toThrow(/twice/);
    expect(() => new SecretKeyring([{ id: "has space", key: k0 }])).toThrow(/key id/);
  });
});

describe("ENGRAM_SECRET_KEYS", () => {
  const k0 = randomBytes(32);
  const k1 = randomBytes(32);

  it("parses id:key entries newest first (base64 or hex)", () => {
    expect(parseSecretKeys(`k1:${k1.toString("base64")}, k0:${k0.toString("hex")}`)).toEqual([
      { id: "k1", key: k1 },
      { id: "k0", key: k0 },
    ]);
  });

  it("refuses malformed entries without echoing any key", () => {
    for (const bad of ["", ",", k1.toString("base64"), `k1:short`, `k1:${k1.toString("base64")},k1:${k0.toString("base64")}`, `bad id:${k0.toString("hex")}`]) {
      let message = "";
      try {
        parseSecretKeys(bad);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).not.toBe("");
      expect(message).not.toContain(k1.toString("base64"));
      expect(message).not.toContain(k0.toString("hex"));
    }
  });

  it("a ring from ENGRAM_SECRET_KEYS, one named default from ENGRAM_SECRET_KEY; both set only when the key is in the ring", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ring-"));
    try {
      expect(loadSecretKeyring(dir, { keys: `k1:${k1.toString("base64")},k0:${k0.toString("base64")}` }).ring.ids).toEqual(["k1", "k0"]);
      expect(loadSecretKeyring(dir, { key: k0.toString("base64") }).ring.ids).toEqual(["default"]);
      expect(() => loadSecretKeyring(dir, { keys: `k1:${k1.toString("base64")}`, key: k0.toString("base64") })).toThrow(/not one of the keys/);
      expect(loadSecretKeyring(dir, { keys: `k1:${k1.toString("base64")},k0:${k0.toString("hex")}`, key: k0.toString("base64") }).ring.ids).toEqual([
        "k1",
        "k0",
      ]);
      expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
