import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { apiClient, type EngramProcess, REPO_ROOT, startEngram } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

const SITE = path.resolve(REPO_ROOT, "tests/fixtures/sites/httpx/site");

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

/** Outside services Engram talks to, played by local doubles: a web server and an OpenAI-compatible embeddings API. */
describe("URL documents and the OpenAI-compatible embedder", () => {
  let engram: EngramProcess | undefined;
  const servers: http.Server[] = [];
  afterEach(async () => {
    await stopQuietly(engram);
    engram = undefined;
    for (const s of servers.splice(0)) s.close();
  });

  it("fetches a URL document as a web page when private addresses are allowed by configuration", async () => {
    const site = await listen((req, res) => {
      const file = path.join(SITE, decodeURIComponent(new URL(req.url!, "http://x").pathname), "index.html");
      if (!file.startsWith(SITE) || !fs.existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fs.readFileSync(file));
    });
    servers.push(site.server);
    engram = await startEngram({ env: { ENGRAM_ALLOW_PRIVATE_URLS: "true" } });
    const api = apiClient(engram.url, engram.apiKey);
    await api("POST", "/ns/web/document", { content: `${site.url}/quickstart/`, id: "qs" });
    const done = await waitDone(api, "web", "qs", 60_000);
    expect(done.system.status).toBe("done");
    const v3 = await api("GET", "/v3/documents/qs");
    expect(v3.body).toEqual(expect.objectContaining({ type: "webpage", url: `${site.url}/quickstart/`, title: expect.stringContaining("QuickStart") }));
    const search = await api("POST", "/v4/search", { q: "start by importing HTTPX", containerTag: "web", searchMode: "documents" });
    expect(search.body.results[0].chunk).toMatch(/import/i);

    await api("POST", "/ns/web/document", { content: `${site.url}/no-such-page/`, id: "gone" });
    const gone = await waitDone(api, "web", "gone", 60_000);
    expect(gone.system.status).toBe("failed");
    expect(gone.system.failureReason).toMatch(/404/);
  });

  it("embeds chunks and queries through an OpenAI-compatible embeddings API", async () => {
    const requests: { model: string; input: string[] }[] = [];
    // Deterministic 16-dimension bag-of-letters vectors: similar texts get similar vectors.
    const embed = (t: string) => {
      const v = new Array(16).fill(0);
      for (const ch of t.toLowerCase()) if (ch >= "a" && ch <= "z") v[ch.charCodeAt(0) % 16] += 1;
      return v;
    };
    const api$ = await listen((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        if (req.url !== "/v1/embeddings" || req.headers.authorization !== "Bearer sk-test") return res.writeHead(401).end("{}");
        const parsed = JSON.parse(body) as { model: string; input: string[] };
        requests.push(parsed);
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ data: parsed.input.map((t, index) => ({ index, embedding: embed(t) })) }));
      });
    });
    servers.push(api$.server);
    engram = await startEngram({
      env: { EMBEDDER: "openai", EMBEDDING_BASE_URL: `${api$.url}/v1`, EMBEDDING_MODEL: "test-embed", EMBEDDING_API_KEY: "sk-test" },
    });
    const api = apiClient(engram.url, engram.apiKey);
    await api("POST", "/ns/emb/document", { content: "Otters hold hands while they sleep.", id: "otters" });
    expect((await waitDone(api, "emb", "otters")).system.status).toBe("done");
    const search = await api("POST", "/v4/search", { q: "sleeping otters", containerTag: "emb", searchMode: "documents", threshold: 0 });
    expect(search.body.results[0].chunk).toContain("Otters");
    expect(requests.some((r) => r.model === "test-embed" && r.input.some((t) => t.includes("Otters hold hands")))).toBe(true);
    expect(requests.some((r) => r.input.includes("sleeping otters"))).toBe(true);
  });

  it("forms memories with an OpenAI-compatible chat model (structured output) and rewrites queries with it", async () => {
    const seen: { name: string; model: string; user: string }[] = [];
    const chat = await listen((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        if (req.url !== "/v1/chat/completions" || req.headers.authorization !== "Bearer sk-chat") return res.writeHead(401).end("{}");
        const parsed = JSON.parse(body) as {
          model: string;
          messages: { role: string; content: string }[];
          response_format: { json_schema?: { name: string } };
        };
        const name = parsed.response_format.json_schema?.name ?? "";
        seen.push({ name, model: parsed.model, user: parsed.messages.at(-1)?.content ?? "" });
        const answer =
          name === "extracted_facts"
            ? {
                facts: [
                  {
                    content: "Sam speaks Portuguese fluently",
                    isStatic: true,
                    eventDates: [],
                    isInference: false,
                    chunkPositions: [0],
                    subject: "sam",
                    bucketKeys: [],
                  },
                ],
              }
            : name === "memory_relation"
              ? { kind: "unrelated", targetId: null }
              : name === "search_query"
                ? { query: "Sam languages Portuguese" }
                : {};
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(answer) }, finish_reason: "stop" }] }));
      });
    });
    servers.push(chat.server);
    engram = await startEngram({
      env: {
        EXTRACTOR: "openai",
        MEMORY_RELATOR: "openai",
        QUERY_REWRITER: "openai",
        LLM_BASE_URL: `${chat.url}/v1`,
        LLM_MODEL: "test-chat",
        LLM_API_KEY: "sk-chat",
      },
    });
    const api = apiClient(engram.url, engram.apiKey);
    await api("POST", "/ns/llm/document", { content: "user: eu falo português! I grew up in Porto.", id: "chat" });
    expect((await waitDone(api, "llm", "chat")).system.status).toBe("done");
    const doc = await api("GET", "/ns/llm/document/chat?include=memories");
    expect(doc.body.memories.map((m: { memory: string }) => m.memory)).toEqual(["Sam speaks Portuguese fluently"]);
    expect(doc.body.memories[0]).toMatchObject({ isStatic: true });
    expect(seen.some((r) => r.name === "extracted_facts" && r.model === "test-chat" && r.user.includes("eu falo português"))).toBe(true);
    const search = await api("POST", "/v4/search", { q: "what does Sam speak?", containerTag: "llm", rewriteQuery: true, threshold: 0 });
    expect(search.body.results[0].memory).toBe("Sam speaks Portuguese fluently");
    expect(seen.some((r) => r.name === "search_query" && r.user.includes("what does Sam speak?"))).toBe(true);
  });
});
