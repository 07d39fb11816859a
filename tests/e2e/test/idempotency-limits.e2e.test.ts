import http from "node:http";
import { randomUUID } from "node:crypto";
import { waitFor } from "@engram/testing";
import { expectErrorBody, twoTenantStack } from "./helpers";

const KEY_A = "idem-a-key-0123456789abcdef";
const KEY_B = "idem-b-key-0123456789abcdef";

/** A request from a chosen loopback address (127.0.0.2 is another client than 127.0.0.1 on Linux). */
function fromAddress(url: string, localAddress: string, key: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/v3/documents/processing`,
      { method: "GET", localAddress, headers: { authorization: `Bearer ${key}` }, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("idempotent writes through the gateway, with a gateway deadline shorter than the writes", () => {
  // The reproduction: a short gateway deadline, so writes answer 504 while they are still being stored.
  const stack = twoTenantStack(KEY_A, KEY_B, { GATEWAY_RPC_DEADLINE_MS: "100" });
  const { a } = stack;

  it("writes answered 504 and retried with their Idempotency-Key are each stored exactly once; the retry gets the first answer", async () => {
    // Large documents, sent at once, so that several take longer than the 100 ms deadline.
    const content = (i: number) => `document ${i} ` + "lorem ipsum dolor sit amet ".repeat(80_000);
    const keys = Array.from({ length: 6 }, () => randomUUID());
    const first = await Promise.all(keys.map((k, i) => a("POST", "/v3/documents", { content: content(i), containerTag: "idem" }, { "idempotency-key": k })));
    const timedOut = first.filter((r) => r.status === 504);
    for (const r of timedOut) {
      expectErrorBody(r.body);
      expect(r.body.details).toMatch(/may have been stored.*same Idempotency-Key/);
    }
    console.log(`first attempts: ${first.map((r) => r.status).join(", ")}`);
    expect(timedOut.length).toBeGreaterThan(0);

    // Retry as told: the same key and body until an answer that is not 409 (in flight) or 504.
    const ids: string[] = [];
    for (const [i, k] of keys.entries()) {
      const r = await waitFor(
        async () => {
          const x = await a("POST", "/v3/documents", { content: content(i), containerTag: "idem" }, { "idempotency-key": k });
          return x.status === 409 || x.status === 504 ? undefined : x;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: `document ${i} to be answered` },
      );
      expect(r.status).toBe(200);
      if (first[i]!.status === 200) expect(r.body).toEqual(first[i]!.body);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      ids.push(r.body.id);
    }
    expect(new Set(ids).size).toBe(6);

    // Exactly six documents under the tag.
    const listed = await waitFor(
      async () => {
        const x = await a("POST", "/v3/documents/list", { containerTags: ["idem"], limit: 100 });
        return x.status === 200 ? x : undefined;
      },
      { timeoutMs: 30_000, what: "the list" },
    );
    expect(listed.body.pagination.totalItems).toBe(6);
    expect(listed.body.memories.map((d: { id: string }) => d.id).sort()).toEqual([...ids].sort());
  });

  it("the same Idempotency-Key with another body answers 422", async () => {
    const k = randomUUID();
    const one = await waitFor(
      async () => {
        const x = await a("POST", "/v3/documents", { content: "short one", containerTag: "idem2" }, { "idempotency-key": k });
        return x.status === 409 || x.status === 504 ? undefined : x;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: "the first write" },
    );
    expect(one.status).toBe(200);
    const other = await a("POST", "/v3/documents", { content: "another one", containerTag: "idem2" }, { "idempotency-key": k });
    expect(other.status).toBe(422);
    expectErrorBody(other.body);
  });
});

describe("rate limits and quotas through the gateway", () => {
  const stack = twoTenantStack(KEY_A, KEY_B, { GATEWAY_TENANT_LIMITS: JSON.stringify({ "tenant-b": { documents: 2 } }), GATEWAY_QUOTA_CACHE_SECONDS: "0" });
  const { a, b } = stack;

  it("1,000 failed authentications from one client end in 429s with Retry-After, while another client's valid key is served", async () => {
    const statuses = new Map<number, number>();
    let retryAfter: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const r = await fromAddress(stack.engram.url, "127.0.0.2", `sk_engram_wrong_${i}_0123456789`);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 429) retryAfter = r.retryAfter;
      if (i % 100 === 0) expect((await fromAddress(stack.engram.url, "127.0.0.1", KEY_B)).status).toBe(200);
    }
    expect(statuses.get(401)).toBe(20);
    expect(statuses.get(429)).toBe(980);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // The blocked client is refused even with a valid key (the limit must not tell keys apart); others are not.
    expect((await fromAddress(stack.engram.url, "127.0.0.2", KEY_A)).status).toBe(429);
    expect((await a("GET", "/v3/documents/processing")).status).toBe(200);
  });

  it("a tenant over its document quota gets 402 Quota exceeded; another tenant is not held to it", async () => {
    expect((await b("POST", "/v3/documents", { content: "first", containerTag: "q" })).status).toBe(200);
    expect((await b("POST", "/v3/documents", { content: "second", containerTag: "q" })).status).toBe(200);
    const over = await b("POST", "/v3/documents", { content: "third", containerTag: "q" });
    expect(over.status).toBe(402);
    expectErrorBody(over.body);
    expect(over.body.error).toBe("Quota exceeded");
    const batch = await b("POST", "/v3/documents/batch", { documents: [{ content: "x" }], containerTag: "q" });
    expect(batch.status).toBe(402);
    expect((await a("POST", "/v3/documents", { content: "tenant a is fine", containerTag: "q" })).status).toBe(200);
  });
});
