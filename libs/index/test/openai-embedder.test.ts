import http from "node:http";
import type { AddressInfo } from "node:net";
import { type FakeJsonApi, type FakeReply, type RecordedRequest, startFakeJsonApi } from "@engram/testing";
import { normalize } from "../src/embedder";
import { EmbeddingProviderError, OpenAICompatibleEmbedder, type OpenAICompatibleEmbedderOptions, parseRetryAfter } from "../src/openai-embedder";

/** A request as seen by the HTTP double. */
type Recorded = RecordedRequest<{ model: string; input: string[]; dimensions?: number; encoding_format?: string }>;
type Responder = (req: Recorded, n: number) => FakeReply;

/** Deterministic, deliberately unnormalised fake embedding of a text. */
function fake(text: string, dims: number): number[] {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 1_000_003;
  return Array.from({ length: dims }, (_, j) => 1 + ((h * (j + 7)) % 997));
}
const expected = (text: string, dims = 8) => normalize(Float32Array.from(fake(text, dims)));

/** The happy-path embeddings API; `reorder` lets a test scramble `data`. */
function ok(opts: { dims?: number; reorder?: <T>(items: T[]) => T[] } = {}): Responder {
  return (req) => {
    const dims = req.body.dimensions ?? opts.dims ?? 8;
    const data = req.body.input.map((t, index) => ({ object: "embedding", index, embedding: fake(t, dims) }));
    return { json: { object: "list", model: req.body.model, data: opts.reorder ? opts.reorder(data) : data, usage: { prompt_tokens: 1, total_tokens: 1 } } };
  };
}

let api: FakeJsonApi<Recorded["body"]>;
let requests: Recorded[];
let respond: Responder;
let baseUrl: string;

beforeEach(async () => {
  respond = ok();
  api = await startFakeJsonApi((req: Recorded, n) => respond(req, n));
  requests = api.requests;
  baseUrl = `${api.url}/v1`;
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

const make = (opts: Partial<OpenAICompatibleEmbedderOptions> = {}) =>
  new OpenAICompatibleEmbedder({ baseUrl, model: "test-model", initialBackoffMs: 1, maxBackoffMs: 50, ...opts });

async function failure(p: Promise<unknown>): Promise<EmbeddingProviderError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EmbeddingProviderError);
  return e as EmbeddingProviderError;
}

describe("OpenAICompatibleEmbedder request shape", () => {
  it("POSTs {model, input, encoding_format} to /embeddings without auth or dimensions by default, and learns the size", async () => {
    const emb = make();
    expect(emb.id).toBe("openai:test-model:native");
    expect(emb.dimensions).toBe(0);

    const out = await emb.embed(["alpha", "beta"], "document");

    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/v1/embeddings");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({ model: "test-model", input: ["alpha", "beta"], encoding_format: "float" });
    expect("dimensions" in req!.body).toBe(false);
    expect(out).toHaveLength(2);
    expect(out[0]).toBeInstanceOf(Float32Array);
    expect(Array.from(out[0]!)).toEqual(Array.from(expected("alpha")));
    expect(emb.dimensions).toBe(8);
  });

  it("sends the bearer token and the configured dimensions, which fix id and size up front", async () => {
    const emb = make({ apiKey: "sk-test", dimensions: 16, baseUrl: `${baseUrl}/` });
    expect(emb.id).toBe("openai:test-model:16");
    expect(emb.dimensions).toBe(16);

    const out = await emb.embed(["gamma"], "query");

    expect(requests[0]!.url).toBe("/v1/embeddings");
    expect(requests[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(requests[0]!.body.dimensions).toBe(16);
    expect(out[0]).toHaveLength(16);
  });

  it("returns [] for no input without a request", async () => {
    expect(await make().embed([], "document")).toEqual([]);
    expect(requests).toHaveLength(0);
  });

  it('sends empty strings as " " and applies query/document prefixes by kind', async () => {
    await make().embed(["", "x"], "document");
    const prefixed = make({ queryPrefix: "query: ", documentPrefix: "passage: " });
    await prefixed.embed(["", "what"], "query");
    await prefixed.embed(["doc"], "document");

    expect(requests.map((r) => r.body.input)).toEqual([[" ", "x"], ["query: ", "query: what"], ["passage: doc"]]);
  });

  it("uses the injected fetch", async () => {
    const calls: string[] = [];
    const emb = make({ fetch: (url, init) => (calls.push(String(url)), fetch(url, init)) });
    await emb.embed(["a"], "document");
    expect(calls).toEqual([`${baseUrl}/embeddings`]);
  });
});

describe("OpenAICompatibleEmbedder results", () => {
  it("splits 150 inputs into batches of 64 (default) and keeps input order even when data comes back out of index order", async () => {
    respond = ok({ reorder: (items) => [...items].reverse() });
    const texts = Array.from({ length: 150 }, (_, i) => `text number ${i}`);

    const out = await make().embed(texts, "document");

    expect(requests.map((r) => r.body.input.length)).toEqual([64, 64, 22]);
    expect(requests.flatMap((r) => r.body.input)).toEqual(texts);
    expect(out).toHaveLength(150);
    out.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(expected(texts[i]!))));
  });

  it("honours a smaller batchSize", async () => {
    await make({ batchSize: 2 }).embed(["a", "b", "c", "d", "e"], "document");
    expect(requests.map((r) => r.body.input)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("L2-normalises vectors the server returns unnormalised", async () => {
    respond = () => ({ json: { data: [{ index: 0, embedding: [3, 4] }] } });
    const [v] = await make().embed(["x"], "document");
    expect(v![0]).toBeCloseTo(0.6, 6);
    expect(v![1]).toBeCloseTo(0.8, 6);
  });

  it("rejects a wrong number of vectors without retrying", async () => {
    respond = (req) => ({ json: { data: req.body.input.slice(1).map((t, index) => ({ index, embedding: fake(t, 8) })) } });
    const err = await failure(make().embed(["a", "b", "c"], "document"));
    expect(err.message).toMatch(/expected 3 embeddings, got 2/);
    expect(err.retryable).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it("rejects vectors whose length differs from the configured dimensions", async () => {
    respond = () => ({ json: { data: [{ index: 0, embedding: fake("a", 7) }] } });
    const err = await failure(make({ dimensions: 8 }).embed(["a"], "document"));
    expect(err.message).toMatch(/7 dimensions, expected 8/);
    expect(err.retryable).toBe(false);
  });

  it("rejects a later response whose size differs from the learned one", async () => {
    const emb = make();
    await emb.embed(["a"], "document");
    respond = ok({ dims: 6 });
    const err = await failure(emb.embed(["b"], "document"));
    expect(err.message).toMatch(/6 dimensions, expected 8/);
    expect(emb.dimensions).toBe(8);
  });

  it("rejects duplicate or out-of-range indices", async () => {
    respond = () => ({ json: { data: [0, 0].map((index) => ({ index, embedding: [1, 2] })) } });
    expect((await failure(make().embed(["a", "b"], "document"))).message).toMatch(/duplicate index 0/);
    respond = () => ({ json: { data: [{ index: 5, embedding: [1, 2] }] } });
    expect((await failure(make().embed(["a"], "document"))).message).toMatch(/invalid index 5/);
  });
});

describe("OpenAICompatibleEmbedder retries", () => {
  it("honours Retry-After on 429 instead of its own backoff, then succeeds", async () => {
    jest.spyOn(Math, "random").mockReturnValue(1); // own backoff would be the full 60 s cap
    respond = (req, n) => (n === 0 ? { status: 429, headers: { "retry-after": "0" }, json: { error: { message: "slow down" } } } : ok()(req, n));
    const out = await make({ initialBackoffMs: 60_000, maxBackoffMs: 60_000 }).embed(["a"], "document");
    expect(out).toHaveLength(1);
    expect(requests).toHaveLength(2);
  });

  it("honours retry-after-ms and caps server hints at maxBackoffMs", async () => {
    jest.spyOn(Math, "random").mockReturnValue(1);
    respond = (req, n) =>
      n === 0 ? { status: 429, headers: { "retry-after-ms": "120" } } : n === 1 ? { status: 429, headers: { "retry-after": "3600" } } : ok()(req, n);
    const started = Date.now();
    await make({ initialBackoffMs: 1, maxBackoffMs: 150 }).embed(["a"], "document");
    const elapsed = Date.now() - started;
    expect(requests).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(120 + 150 - 10);
    expect(elapsed).toBeLessThan(2000);
  });

  it("retries 503 twice with exponential backoff, then succeeds", async () => {
    jest.spyOn(Math, "random").mockReturnValue(1);
    respond = (req, n) => (n < 2 ? { status: 503, raw: "upstream unavailable" } : ok()(req, n));
    const started = Date.now();
    const out = await make({ initialBackoffMs: 40, maxBackoffMs: 1000 }).embed(["a", "b"], "document");
    expect(Date.now() - started).toBeGreaterThanOrEqual(40 + 80 - 10);
    expect(requests).toHaveLength(3);
    expect(Array.from(out[1]!)).toEqual(Array.from(expected("b")));
  });

  it.each([
    [400, { error: { message: "input is too long for this model", type: "invalid_request_error" } }, "input is too long for this model"],
    [404, { error: 'model "nope" not found, try pulling it first' }, 'model "nope" not found'],
    [401, { detail: "bad key" }, "bad key"],
  ])("does not retry HTTP %i and reports the server's message", async (status, json, message) => {
    respond = () => ({ status, json });
    const err = await failure(make().embed(["a"], "document"));
    expect(requests).toHaveLength(1);
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(status);
    expect(err.message).toContain(String(status));
    expect(err.message).toContain(message);
  });

  it("gives up on a persistent 500 after maxRetries with retryable=true and the last cause", async () => {
    respond = () => ({ status: 500, json: { error: { message: "boom" } } });
    const err = await failure(make({ maxRetries: 3 }).embed(["a"], "document"));
    expect(requests).toHaveLength(4);
    expect(err.retryable).toBe(true);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/after 4 attempts.*HTTP 500: boom/);
    expect(err.cause).toBeInstanceOf(EmbeddingProviderError);
  });

  // Timeouts long enough that a request always reaches the test server first, even on a loaded machine.
  it("times out a server that never answers and retries", async () => {
    respond = (req, n) => (n === 0 ? "hang" : ok()(req, n));
    const out = await make({ timeoutMs: 750 }).embed(["a"], "document");
    expect(out).toHaveLength(1);
    expect(requests).toHaveLength(2);
  });

  it("gives up after persistent timeouts with a retryable error", async () => {
    respond = () => "hang";
    const err = await failure(make({ timeoutMs: 750, maxRetries: 1 }).embed(["a"], "document"));
    expect(requests).toHaveLength(2);
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/timed out after 750 ms/);
  });

  it("retries network errors (connection refused) and then gives up", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    let calls = 0;
    const emb = make({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 2, fetch: (url, init) => (calls++, fetch(url, init)) });
    const err = await failure(emb.embed(["a"], "document"));
    expect(calls).toBe(3);
    expect(err.retryable).toBe(true);
    expect(err.status).toBeUndefined();
  });
});

describe("parseRetryAfter", () => {
  const h = (o: Record<string, string>) => ({ get: (n: string) => o[n] ?? null });
  const now = Date.parse("2024-01-01T00:00:00Z");

  it("reads retry-after-ms, delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter(h({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(parseRetryAfter(h({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(h({ "retry-after": "Mon, 01 Jan 2024 00:00:03 GMT" }), now)).toBe(3000);
    expect(parseRetryAfter(h({ "retry-after": "Sun, 31 Dec 2023 23:59:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(h({ "retry-after-ms": "10", "retry-after": "5" }), now)).toBe(10);
  });

  it("ignores missing or garbage values", () => {
    expect(parseRetryAfter(h({}), now)).toBeUndefined();
    expect(parseRetryAfter(h({ "retry-after": "soon" }), now)).toBeUndefined();
  });
});

describe("OpenAICompatibleEmbedder options", () => {
  it("rejects invalid configuration", () => {
    expect(() => make({ batchSize: 0 })).toThrow(RangeError);
    expect(() => make({ dimensions: 1.5 })).toThrow(RangeError);
    expect(() => make({ model: "" })).toThrow(RangeError);
  });
});
