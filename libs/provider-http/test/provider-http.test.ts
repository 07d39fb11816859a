import http from "node:http";
import type { AddressInfo } from "node:net";
import { ProviderError, backoffDelay, displayUrl, postJson, scrub, withRetries } from "../src";

class TestError extends ProviderError {
  override name = "TestError";
}

describe("backoffDelay", () => {
  const policy = { maxRetries: 5, initialBackoffMs: 100, maxBackoffMs: 1000 };
  it("draws full jitter under an exponential cap", () => {
    expect(backoffDelay(0, policy, undefined, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, undefined, () => 1)).toBe(400);
    expect(backoffDelay(2, policy, undefined, () => 0.5)).toBe(200);
    expect(backoffDelay(10, policy, undefined, () => 1)).toBe(1000);
  });
  it("prefers the server's hint, capped", () => {
    expect(backoffDelay(0, policy, 250)).toBe(250);
    expect(backoffDelay(0, policy, 60_000)).toBe(1000);
  });
});

describe("displayUrl and scrub", () => {
  it("drops user info and query from URLs", () => {
    expect(displayUrl("https://user:pw@api.example.com/v1/chat/completions?key=s3cret#x")).toBe("https://api.example.com/v1/chat/completions");
    expect(displayUrl("not a url")).toBe("(invalid URL)");
  });
  it("replaces secrets", () => {
    expect(scrub("Incorrect API key provided: sk-abcdef", ["sk-abcdef"])).toBe("Incorrect API key provided: [redacted]");
    expect(scrub("nothing here", [undefined, ""])).toBe("nothing here");
  });
});

describe("withRetries", () => {
  const policy = { maxRetries: 2, initialBackoffMs: 1, maxBackoffMs: 5 };
  it("passes non-retryable errors through at once", async () => {
    let calls = 0;
    const err = new TestError("bad request", { retryable: false, status: 400 });
    await expect(
      withRetries(
        async () => {
          calls++;
          throw err;
        },
        policy,
        { errorClass: TestError, what: "x" },
      ),
    ).rejects.toBe(err);
    expect(calls).toBe(1);
  });
  it("retries retryable errors and wraps the last one", async () => {
    let calls = 0;
    const p = withRetries(
      async () => {
        calls++;
        throw new TestError("HTTP 503", { retryable: true, status: 503 });
      },
      policy,
      { errorClass: TestError, what: "Test call" },
    );
    await expect(p).rejects.toThrow(/^Test call failed after 3 attempts: HTTP 503$/);
    await expect(p).rejects.toBeInstanceOf(TestError);
    expect(calls).toBe(3);
  });
  it("returns the first success", async () => {
    let calls = 0;
    const out = await withRetries(
      async (n) => {
        calls++;
        if (n === 0) throw new TestError("timeout", { retryable: true });
        return "ok";
      },
      policy,
      { errorClass: TestError, what: "x" },
    );
    expect(out).toBe("ok");
    expect(calls).toBe(2);
  });
});

describe("postJson", () => {
  let server: http.Server;
  let url: string;
  let reply: { status: number; body: string };
  let seenAuth: string | undefined;
  beforeEach(async () => {
    server = http.createServer((req, res) => {
      seenAuth = req.headers.authorization;
      req.resume();
      req.on("end", () => {
        res.writeHead(reply.status, { "content-type": "application/json", "retry-after-ms": "7" });
        res.end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const call = () => postJson({ url, body: { a: 1 }, apiKey: "sk-secret-123", timeoutMs: 2000, fetch, what: "Test call", errorClass: TestError });

  it("returns 2xx bodies and sends the bearer token", async () => {
    reply = { status: 200, body: '{"ok":true}' };
    await expect(call()).resolves.toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(seenAuth).toBe("Bearer sk-secret-123");
  });
  it("classifies statuses, keeps Retry-After hints and never echoes the key", async () => {
    reply = { status: 429, body: '{"error":{"message":"slow down"}}' };
    const e1 = (await call().catch((e: unknown) => e)) as TestError;
    expect(e1).toBeInstanceOf(TestError);
    expect(e1.retryable).toBe(true);
    expect(e1.retryAfterMs).toBe(7);
    reply = { status: 401, body: '{"error":{"message":"Incorrect API key provided: sk-secret-123"}}' };
    const e2 = (await call().catch((e: unknown) => e)) as TestError;
    expect(e2.retryable).toBe(false);
    expect(e2.status).toBe(401);
    expect(e2.message).not.toContain("sk-secret-123");
    expect(e2.message).toContain("[redacted]");
  });
});
