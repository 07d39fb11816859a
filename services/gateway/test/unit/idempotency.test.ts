import { canonicalJson, classify, fingerprint, IDEMPOTENCY_KEY } from "../../src/guards/idempotency";

describe("canonicalJson", () => {
  it("sorts object keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"x":2,"y":1}]},"b":1}');
  });
  it("drops undefined fields as JSON does", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe(canonicalJson({ b: 1 }));
  });
});

describe("fingerprint", () => {
  const base = { tenantId: "acme", method: "POST", path: "/v3/documents", body: { json: { content: "hi", containerTag: "t" } } };

  it("ignores key order and whitespace in the body", () => {
    expect(fingerprint(base)).toBe(fingerprint({ ...base, body: { json: JSON.parse('{ "containerTag": "t",  "content": "hi" }') } }));
  });

  it("differs by tenant, method, path, query and body", () => {
    const fp = fingerprint(base);
    expect(fingerprint({ ...base, tenantId: "beta" })).not.toBe(fp);
    expect(fingerprint({ ...base, method: "PATCH" })).not.toBe(fp);
    expect(fingerprint({ ...base, path: "/v3/documents/batch" })).not.toBe(fp);
    expect(fingerprint({ ...base, query: { taskType: "memory" } })).not.toBe(fp);
    expect(fingerprint({ ...base, body: { json: { content: "hi!", containerTag: "t" } } })).not.toBe(fp);
  });

  it("multipart: fields in any order, the file by its bytes' hash", () => {
    const parts = (file: string) => ({
      ...base,
      body: {
        multipart: [
          { field: "containerTag", value: "t" },
          { field: "file", fileSha256: file, filename: "a.txt", mimetype: "text/plain" },
          { field: "customId", value: "c1" },
        ],
      },
    });
    const a = parts("aa");
    const reordered = { ...a, body: { multipart: [...a.body.multipart].reverse() } };
    expect(fingerprint(reordered)).toBe(fingerprint(a));
    expect(fingerprint(parts("bb"))).not.toBe(fingerprint(a));
    expect(fingerprint(a)).not.toBe(fingerprint(base));
  });
});

describe("classify", () => {
  const answer = { status: 200, body: "{}" };
  it("decides from the record found", () => {
    expect(classify(undefined, "fp", 0)).toBe("claim");
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50, answer }, "fp", 10)).toEqual({ kind: "replay", answer });
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50, answer }, "x", 10)).toEqual({ kind: "mismatch" });
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50, answer }, "fp", 100)).toBe("claim");
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50 }, "fp", 10)).toEqual({ kind: "in_flight", retryAfterMs: 1000 });
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50 }, "x", 10)).toEqual({ kind: "mismatch" });
    expect(classify({ fingerprint: "fp", expiresAt: 100, leaseUntil: 50 }, "fp", 50)).toBe("claim");
  });
});

describe("IDEMPOTENCY_KEY", () => {
  it("accepts UUIDs and printable ASCII up to 255 characters", () => {
    expect(IDEMPOTENCY_KEY.test("3f1c2a9e-6a43-4c8e-9e0b-1b2f0c9d7e11")).toBe(true);
    expect(IDEMPOTENCY_KEY.test("x".repeat(255))).toBe(true);
    expect(IDEMPOTENCY_KEY.test("x".repeat(256))).toBe(false);
    expect(IDEMPOTENCY_KEY.test("")).toBe(false);
    expect(IDEMPOTENCY_KEY.test("has space")).toBe(false);
  });
});
