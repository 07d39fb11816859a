import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { apiClient, type EngramProcess, REPO_ROOT, startEngram } from "@engram/testing";
import { type Api, MIRELA_MEMORIES, MIRELA_QUESTIONS, stopQuietly } from "./helpers";

/**
 * Issue #30, item 3: with an OpenAI-compatible embeddings endpoint configured (EMBEDDER=openai), the
 * one-person questions answer first too. The endpoint is bench/tools/model-embeddings-server.ts
 * serving the shipped model, a separate process on loopback, as an operator's Ollama or TEI would be.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;
const KEY = "configured-embedder-key-0123456789abcdef";

function startModelServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "bench/tools/model-embeddings-server.ts"), "--port", "0", "--threads", "1"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the embeddings server did not start:\n${out}`)), 30_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", (code) => reject(new Error(`the embeddings server exited (${code}):\n${out}`)));
  });
}

describe("recall by meaning with a configured embedder (EMBEDDER=openai)", () => {
  let server: { child: ChildProcess; url: string } | undefined;
  let engram: EngramProcess | undefined;
  let api: Api;

  beforeAll(async () => {
    server = await startModelServer();
    engram = await startEngram({ apiKey: KEY, env: { EMBEDDER: "openai", EMBEDDING_BASE_URL: server.url, EMBEDDING_MODEL: "minilm" } });
    api = apiClient(engram.url, KEY);
    const res = await api("POST", "/v4/memories", {
      containerTag: "mirela",
      memories: MIRELA_MEMORIES,
    });
    expect(res.status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await stopQuietly(engram);
    server?.child.kill("SIGTERM");
  });

  it.each(MIRELA_QUESTIONS)("%p answers first with the memory about %p", async (q, word) => {
    const res = await api("POST", "/v4/search", { q, containerTag: "mirela" });
    expect(res.status).toBe(200);
    const results = res.body.results as Body[];
    expect(results[0]?.memory).toContain(word);
    for (const r of results) expect(r.similarity).toBeGreaterThanOrEqual(0.6);
  });

  it("a question about someone the container never mentions finds nothing", async () => {
    const res = await api("POST", "/v4/search", { q: "where does Caroline live", containerTag: "mirela" });
    expect(res.body.results).toEqual([]);
  });
});
