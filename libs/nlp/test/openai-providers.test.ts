import { loadConfig } from "@engram/config";
import {
  ChatClient,
  ChatProviderError,
  OfflineFactExtractor,
  OfflineReranker,
  OpenAIAggregator,
  OpenAIBucketClassifier,
  OpenAIFactExtractor,
  OpenAIImportJudge,
  OpenAIBucketSuggester,
  OpenAIMemoryRelator,
  OpenAIQueryRewriter,
  OpenAIReranker,
  createNlp,
  nlpConfigSchema,
} from "../src";
import { type FakeJsonApi, type FakeReply as Reply, type RecordedRequest, startFakeJsonApi } from "@engram/testing";

type Recorded = RecordedRequest<{
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { name: string; schema: unknown } };
  temperature: number;
}>;

let api: FakeJsonApi<Recorded["body"]>;
let requests: Recorded[];
let replies: ((req: Recorded) => Reply)[];
let fallback: (req: Recorded) => Reply;
let baseUrl: string;

/** A chat completion whose message content is `content` (an object is sent as JSON text). */
const answer = (content: unknown, extra: Record<string, unknown> = {}): Reply => ({
  json: {
    id: "c1",
    object: "chat.completion",
    choices: [
      { index: 0, finish_reason: "stop", message: { role: "assistant", content: typeof content === "string" ? content : JSON.stringify(content), ...extra } },
    ],
  },
});

beforeEach(async () => {
  replies = [];
  fallback = () => ({ status: 500, json: { error: { message: "no reply scripted" } } });
  api = await startFakeJsonApi((req: Recorded) => (replies.shift() ?? fallback)(req));
  requests = api.requests;
  baseUrl = `${api.url}/v1`;
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

const client = (opts: Partial<ConstructorParameters<typeof ChatClient>[0]> = {}) =>
  new ChatClient({ baseUrl, model: "test-model", apiKey: "sk-test-secret", initialBackoffMs: 1, maxBackoffMs: 50, timeoutMs: 2000, ...opts });

async function failure(p: Promise<unknown>): Promise<ChatProviderError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ChatProviderError);
  return e as ChatProviderError;
}

describe("ChatClient", () => {
  it("posts a json_schema chat completion with the bearer key and returns the validated answer", async () => {
    replies.push(() => answer({ query: "Sarah allergies" }));
    const out = await new OpenAIQueryRewriter(client()).rewrite("what is sarah allergic to?");
    expect(out).toBe("Sarah allergies");
    const req = requests[0]!;
    expect(req.headers.authorization).toBe("Bearer sk-test-secret");
    expect(req.body.model).toBe("test-model");
    expect(req.body.temperature).toBe(0);
    expect(req.body.response_format.type).toBe("json_schema");
    expect(req.body.response_format.json_schema?.name).toBe("search_query");
    expect(req.body.response_format.json_schema?.schema).toMatchObject({ type: "object", required: ["query"], additionalProperties: false });
    expect(req.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(req.body.messages[1]!.content).toContain("what is sarah allergic to?");
  });

  it("falls back to json_object when the server rejects json_schema, and stays there", async () => {
    replies.push(() => ({ status: 400, json: { error: { message: "response_format.type 'json_schema' is not supported by this model" } } }));
    replies.push(() => answer({ query: "one" }));
    replies.push(() => answer({ query: "two" }));
    const c = client();
    const rw = new OpenAIQueryRewriter(c);
    expect(await rw.rewrite("first")).toBe("one");
    expect(await rw.rewrite("second")).toBe("two");
    expect(requests.map((r) => r.body.response_format.type)).toEqual(["json_schema", "json_object", "json_object"]);
    expect(c.responseFormat).toBe("json_object");
    expect(requests[1]!.body.messages[0]!.content).toContain('"query"'); // the schema is in the prompt too
  });

  it("honours Retry-After on 429 and retries 500/503, then succeeds", async () => {
    jest.spyOn(Math, "random").mockReturnValue(1);
    replies.push(() => ({ status: 429, headers: { "retry-after": "0" }, json: { error: { message: "slow down" } } }));
    replies.push(() => ({ status: 500, raw: "oops" }));
    replies.push(() => ({ status: 503, raw: "unavailable" }));
    replies.push(() => answer({ query: "ok" }));
    expect(await new OpenAIQueryRewriter(client()).rewrite("q")).toBe("ok");
    expect(requests).toHaveLength(4);
  });

  it("gives up after LLM_MAX_RETRIES with a retryable error that never shows the key", async () => {
    fallback = () => ({ status: 502, json: { error: { message: "bad gateway for key sk-test-secret" } } });
    const err = await failure(new OpenAIQueryRewriter(client({ maxRetries: 2 })).rewrite("q"));
    expect(requests).toHaveLength(3);
    expect(err.retryable).toBe(true);
    expect(err.status).toBe(502);
    expect(err.message).toMatch(/failed after 3 attempts.*HTTP 502/);
    expect(err.message).not.toContain("sk-test-secret");
  });

  it("does not retry a 401 and reports it", async () => {
    fallback = () => ({ status: 401, json: { error: { message: "invalid api key" } } });
    const err = await failure(new OpenAIQueryRewriter(client()).rewrite("q"));
    expect(requests).toHaveLength(1);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("HTTP 401: invalid api key");
  });

  it("times out a slow server and retries", async () => {
    replies.push(() => ({ ...(answer({ query: "late" }) as object), delayMs: 500 }));
    replies.push(() => answer({ query: "fast" }));
    expect(await new OpenAIQueryRewriter(client({ timeoutMs: 100 })).rewrite("q")).toBe("fast");
    expect(requests).toHaveLength(2);
  });

  it("fails with a timeout message when the server never answers", async () => {
    fallback = () => "hang";
    const err = await failure(new OpenAIQueryRewriter(client({ timeoutMs: 50, maxRetries: 1 })).rewrite("q"));
    expect(err.message).toMatch(/timed out after 50 ms/);
    expect(err.retryable).toBe(true);
  });

  it("retries a malformed answer once, telling the model what was wrong, then accepts a good one", async () => {
    replies.push(() => answer("Sure! Here is your query: sarah"));
    replies.push(() => answer('```json\n{"query": "sarah"}\n```'));
    expect(await new OpenAIQueryRewriter(client()).rewrite("q")).toBe("sarah");
    expect(requests).toHaveLength(2);
    const second = requests[1]!.body.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[3]!.content).toContain("not usable");
  });

  it("fails clearly after two invalid answers (schema violations, unknown ids)", async () => {
    fallback = () => answer({ kind: "updates", targetId: "nope" });
    const err = await failure(
      new OpenAIMemoryRelator(client()).relate(
        { content: "Sarah lives in Portland.", isStatic: true, eventDates: [], isInference: false, chunkPositions: [0] },
        [{ id: "m1", content: "Sarah lives in Seattle.", similarity: 0.9, isStatic: true }],
      ),
    );
    expect(requests).toHaveLength(2);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/invalid answer twice: targetId "nope" is not one of the existing memories' ids/);
  });

  it("treats a non-JSON body, a truncated answer and a refusal as failures", async () => {
    replies.push(() => ({ raw: "<html>proxy error</html>" }));
    replies.push(() => answer('{"query": "x', { refusal: null }));
    const err = await failure(new OpenAIQueryRewriter(client()).rewrite("q"));
    expect(err.message).toMatch(/invalid answer twice/);
    replies.push(() => answer("", { refusal: "I can't help with that." }));
    const refused = await failure(new OpenAIQueryRewriter(client()).rewrite("q"));
    expect(refused.message).toMatch(/refused: I can't help with that/);
    replies.push(() => ({ json: { choices: [{ finish_reason: "length", message: { content: '{"query": "abc' } }] } }));
    replies.push(() => answer({ query: "short" }));
    expect(await new OpenAIQueryRewriter(client()).rewrite("q")).toBe("short");
  });
});

describe("OpenAI-compatible ports", () => {
  const input = {
    chunks: [
      { position: 0, content: "User: I'm a nurse." },
      { position: 1, content: "User: I moved to Denver yesterday." },
    ],
    referenceDate: "2026-11-20T10:00:00Z",
    now: "2026-11-21T08:00:00Z",
    supportingContext: "The user is Sarah",
    buckets: [{ key: "work", description: "job" }],
  };

  it("extractor: sends chunks with positions, context and buckets; validates positions and bucket keys", async () => {
    /** The model's two facts; the one about Denver with the given chunk positions and subject. */
    const facts = (denverPositions: number[], denverSubject: string | null) =>
      answer({
        facts: [
          { content: "Sarah is a nurse.", isStatic: true, eventDates: [], isInference: false, chunkPositions: [0], subject: "Sarah", bucketKeys: ["work"] },
          {
            content: "Sarah moved to Denver on 2026-11-19.",
            isStatic: false,
            eventDates: ["2026-11-19"],
            isInference: false,
            chunkPositions: denverPositions,
            subject: denverSubject,
            bucketKeys: [],
          },
        ],
      });
    replies.push(() => facts([7], "sarah"));
    replies.push(() => facts([1], null));
    const extracted = await new OpenAIFactExtractor(client()).extract(input);
    expect(extracted).toEqual([
      { content: "Sarah is a nurse.", isStatic: true, eventDates: [], isInference: false, chunkPositions: [0], subject: "sarah", bucketKeys: ["work"] },
      { content: "Sarah moved to Denver on 2026-11-19.", isStatic: false, eventDates: ["2026-11-19"], isInference: false, chunkPositions: [1], bucketKeys: [] },
    ]);
    const user = requests[0]!.body.messages[1]!.content;
    expect(user).toContain('<chunk position="1">');
    expect(user).toContain("Reference date: 2026-11-20T10:00:00Z (given with the document");
    expect(user).toContain("Ingestion time: 2026-11-21T08:00:00Z");
    expect(user).toContain("Supporting context: The user is Sarah");
    expect(user).toContain("- work: job");
    expect(requests[1]!.body.messages[3]!.content).toContain("7 is not a chunk position");
  });

  it("extractor: without a reference date, tells the model to anchor on the document's own date and never on the ingestion time", async () => {
    replies.push(() => answer({ facts: [] }));
    const { referenceDate: _given, ...undated } = input;
    expect(
      await new OpenAIFactExtractor(client()).extract({ ...undated, chunks: [{ position: 0, content: "# Standup 3 Nov\n\nDana ships on Friday." }] }),
    ).toEqual([]);
    const [system, user] = requests[0]!.body.messages.map((m) => m.content);
    expect(user).toContain("Reference date: none given (anchor relative dates on the document's own date; keep them as written if it states none)");
    expect(user).toContain("Ingestion time: 2026-11-21T08:00:00Z (only for the year of a date written without one)");
    expect(system).toMatch(/The ingestion time is never an anchor/);
  });

  it("relator: returns the model's decision; no request without candidates", async () => {
    replies.push(() => answer({ kind: "updates", targetId: "m1" }));
    const r = new OpenAIMemoryRelator(client());
    const f = { content: "Sarah lives in Portland.", isStatic: true, eventDates: [], isInference: false, chunkPositions: [0] };
    expect(await r.relate(f, [{ id: "m1", content: "Sarah lives in Seattle.", similarity: 0.9, isStatic: true }])).toEqual({ kind: "updates", targetId: "m1" });
    expect(await r.relate(f, [])).toEqual({ kind: "unrelated" });
    expect(requests).toHaveLength(1);
  });

  it("reranker: sorts by the model's scores and requires every item once", async () => {
    replies.push(() => answer({ scores: [{ id: "a", score: 0.2 }] }));
    replies.push(() =>
      answer({
        scores: [
          { id: "a", score: 0.2 },
          { id: "b", score: 0.9 },
          { id: "c", score: 0.2 },
        ],
      }),
    );
    const out = await new OpenAIReranker(client()).rerank("q", [
      { id: "a", text: "A" },
      { id: "b", text: "B" },
      { id: "c", text: "C" },
    ]);
    expect(out).toEqual([
      { id: "b", score: 0.9 },
      { id: "a", score: 0.2 },
      { id: "c", score: 0.2 },
    ]);
    expect(requests[1]!.body.messages[3]!.content).toContain('missing scores for "b", "c"');
  });

  it("aggregator and classifier: validate source ids and bucket keys", async () => {
    replies.push(() => answer({ memories: [{ content: "Sarah lives in Portland and is a nurse.", sourceIds: ["1", "2"] }] }));
    expect(
      await new OpenAIAggregator(client()).aggregate("sarah", [
        { id: "1", content: "Sarah lives in Portland." },
        { id: "2", content: "Sarah is a nurse." },
      ]),
    ).toEqual([{ content: "Sarah lives in Portland and is a nurse.", sourceIds: ["1", "2"] }]);
    replies.push(() =>
      answer({
        results: [
          { index: 1, bucketKeys: [] },
          { index: 0, bucketKeys: ["work", "work"] },
        ],
      }),
    );
    expect(await new OpenAIBucketClassifier(client()).classify(["Sarah is a nurse.", "Sarah likes tea."], [{ key: "work", description: "job" }])).toEqual([
      ["work"],
      [],
    ]);
    expect(await new OpenAIBucketClassifier(client()).classify(["x"], [])).toEqual([[]]);
  });
});

describe("OpenAIImportJudge", () => {
  it("asks with the filter prompt, the item's names and the beginning of its text, and answers the model's verdict", async () => {
    replies.push(() => answer({ include: false, reason: "a recruiting note, not engineering" }));
    const judge = new OpenAIImportJudge(client());
    const verdict = await judge.judge("Keep engineering documents only.", { title: "Hiring sync", filepath: "notes/hiring.md", text: "x".repeat(10_000) });
    expect(verdict).toEqual({ admit: false, reason: "a recruiting note, not engineering" });
    const sent = requests.at(-1)!.body;
    expect(sent.response_format.json_schema?.name).toBe("import_decision");
    const user = sent.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain("Keep engineering documents only.");
    expect(user).toContain("title: Hiring sync");
    expect(user).toContain("path: notes/hiring.md");
    expect(user.length).toBeLessThan(4_500);
    replies.push(() => answer({ include: true, reason: "engineering" }));
    expect(await judge.judge("Keep engineering documents only.", { title: "design.pdf" })).toEqual({ admit: true, reason: "engineering" });
    expect(requests.at(-1)!.body.messages.find((m) => m.role === "user")!.content).toContain("binary content");
  });
});

describe("OpenAIBucketSuggester", () => {
  it("answers the model's 3 to 6 buckets, asking again once when a key is invalid or repeats an existing bucket", async () => {
    replies.push(() =>
      answer({
        suggestions: [
          { key: "Support Tickets", description: "x" },
          { key: "customers", description: "y" },
        ],
      }),
    );
    replies.push(() =>
      answer({
        suggestions: [
          { key: "tickets", description: "Open and past support tickets" },
          { key: "plans", description: "The customer's plan and billing" },
          { key: "features", description: "Features they use or ask for" },
        ],
      }),
    );
    const out = await new OpenAIBucketSuggester(client()).suggest({
      prompt: "A SaaS support desk",
      memories: ["Acme is on the Team plan"],
      existing: [{ key: "customers", description: "Customer accounts" }],
    });
    expect(out.map((x) => x.key)).toEqual(["tickets", "plans", "features"]);
    const first = requests.at(-2)!.body.messages.find((m) => m.role === "user")!.content;
    expect(first).toContain("A SaaS support desk");
    expect(first).toContain("- customers: Customer accounts");
    expect(first).toContain("Acme is on the Team plan");
  });
});

describe("nlpConfigSchema and createNlp", () => {
  it("defaults every feature to offline", () => {
    const c = loadConfig("nlp", nlpConfigSchema, {});
    expect(c).toMatchObject({ EXTRACTOR: "offline", RERANKER: "offline", LLM_TIMEOUT_MS: 30_000, LLM_MAX_RETRIES: 3 });
    const nlp = createNlp(c);
    expect(nlp.extractor).toBeInstanceOf(OfflineFactExtractor);
    expect(nlp.reranker).toBeInstanceOf(OfflineReranker);
    expect(nlp.relator.id).toBe("offline-v1");
  });

  it("refuses openai without LLM_BASE_URL and LLM_MODEL, listing who needs them, never echoing the key", () => {
    let message = "";
    try {
      loadConfig("nlp", nlpConfigSchema, { EXTRACTOR: "openai", RERANKER: "openai", LLM_API_KEY: "sk-very-secret" });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("LLM_BASE_URL: is required when EXTRACTOR=openai, RERANKER=openai");
    expect(message).toContain("LLM_MODEL: is required when EXTRACTOR=openai, RERANKER=openai");
    expect(message).not.toContain("sk-very-secret");
    expect(() => loadConfig("nlp", nlpConfigSchema, { EXTRACTOR: "gpt" })).toThrow(/EXTRACTOR: must be offline or openai/);
  });

  it("builds openai ports on one client and uses it", async () => {
    const c = loadConfig("nlp", nlpConfigSchema, { QUERY_REWRITER: "openai", LLM_BASE_URL: baseUrl, LLM_MODEL: "m", LLM_MAX_RETRIES: "0" });
    const nlp = createNlp(c);
    expect(nlp.rewriter.id).toBe("openai:m");
    expect(nlp.extractor.id).toBe("offline-v1");
    replies.push(() => answer({ query: "rewritten" }));
    expect(await nlp.rewriter.rewrite("q")).toBe("rewritten");
    expect(() => createNlp({ ...c, LLM_MODEL: undefined })).toThrow("QUERY_REWRITER=openai requires LLM_MODEL");
  });
});
