/**
 * A local OpenAI-compatible embeddings server over a sentence-embedding model in Engram's model format
 * (by default the one Engram ships, libs/embed-model/model: all-MiniLM-L6-v2), for measuring Engram
 * with a configured embedder (`EMBEDDER=openai`) on a machine without a model hub:
 *
 *   node --import tsx bench/tools/model-embeddings-server.ts --port 8090
 *   pnpm bench:memory -- --only personas --provider-url http://127.0.0.1:8090/v1 --provider-model minilm
 *
 * Options: --port N (default 8090; 0 = any free port, the ready line names it), --host H (default
 * 127.0.0.1), --model-dir DIR (another converted model: model.json, model.int8.onnx and tokenizer
 * files, as libs/embed-model/convert writes them), --threads N (worker threads, default 2).
 *
 * API: POST /v1/embeddings (also /embeddings) with {model, input: string | string[]} -> {object:
 * "list", data: [{object: "embedding", index, embedding}], model, usage}; GET /v1/models; GET /health.
 * Errors use OpenAI's {error: {message, type}} shape. Listens on loopback by default.
 */
import http from "node:http";
import { LocalModelEmbedder } from "@engram/embed-model";

const MAX_BODY_BYTES = 8 * 2 ** 20;
const MAX_INPUTS = 2048;

function opt(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(opt("port") ?? 8090);
const host = opt("host") ?? "127.0.0.1";
const embedder = new LocalModelEmbedder({ threads: Number(opt("threads") ?? 2), ...(opt("model-dir") ? { dir: opt("model-dir") } : {}) });

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const fail = (res: http.ServerResponse, status: number, message: string) => send(res, status, { error: { message, type: "invalid_request_error" } });

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const server = http.createServer((req, res) => {
  const url = (req.url ?? "/").split("?")[0]!;
  if (req.method === "GET" && url === "/health") return send(res, 200, { status: "ok" });
  if (req.method === "GET" && url === "/v1/models") return send(res, 200, { object: "list", data: [{ id: embedder.id, object: "model" }] });
  if (req.method !== "POST" || (url !== "/v1/embeddings" && url !== "/embeddings")) return fail(res, 404, `no route ${req.method} ${url}`);
  readJson(req)
    .then(async (body) => {
      const b = body as { model?: unknown; input?: unknown };
      const input = typeof b.input === "string" ? [b.input] : b.input;
      if (!Array.isArray(input) || input.length === 0 || input.length > MAX_INPUTS || !input.every((x) => typeof x === "string")) {
        return fail(res, 400, `input must be a string or 1 to ${MAX_INPUTS} strings`);
      }
      // A document and a query are embedded alike by this model (no prefixes).
      const vectors = await embedder.embed(input as string[], "document");
      const tokens = (input as string[]).reduce((n, t) => n + t.split(/\s+/).length, 0);
      send(res, 200, {
        object: "list",
        data: vectors.map((v, index) => ({ object: "embedding", index, embedding: Array.from(v) })),
        model: typeof b.model === "string" ? b.model : embedder.id,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    })
    .catch((err: unknown) => fail(res, 400, err instanceof Error ? err.message : String(err)));
});

server.listen(port, host, () => {
  const a = server.address() as { port: number };
  console.log(`embeddings server (${embedder.id}, ${embedder.dimensions} dimensions) on http://${host}:${a.port}/v1`);
});
const stop = () => server.close(() => void embedder.close().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
