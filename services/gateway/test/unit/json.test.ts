import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { rootLogger } from "@engram/observability";
import { errorHandler } from "../../src/http/errors";
import { exceedsJsonDepth, jsonBody, MAX_JSON_DEPTH, sendJson } from "../../src/http/json";

const LIMIT = 1024;
/** JSON of exactly `depth` nested arrays (and an object at the bottom when `object`). */
const nested = (depth: number, object = false) => (object ? "[".repeat(depth - 1) + '{"a":1}' + "]".repeat(depth - 1) : "[".repeat(depth) + "]".repeat(depth));

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The gateway's JSON body reader and its fallback to body-parser: what reaches
 * `req.body`, and the API error body for everything it refuses.
 */
describe("JSON request bodies and responses", () => {
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    const app = express();
    app.response.json = sendJson;
    app.use(jsonBody(LIMIT));
    app.get("/empty", (_req, res) => {
      res.status(204).json({ ignored: true });
    });
    app.all("/echo", (req, res) => {
      res.json({ body: req.body === undefined ? "<undefined>" : req.body });
    });
    app.use(errorHandler(rootLogger({ level: "silent" })));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** One request; `chunks` are written one by one (chunked encoding when no content-length is given). */
  function send(method: string, headers: Record<string, string | number>, chunks: (string | Buffer)[], path = "/echo"): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }));
      });
      req.on("error", reject);
      for (const c of chunks) req.write(c);
      req.end();
    });
  }

  const json = (text: string, extra: Record<string, string | number> = {}) =>
    send("POST", { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...extra }, [text]);

  it("parses an object or an array declared as application/json, with or without a UTF-8 charset", async () => {
    expect(JSON.parse((await json('{"q":"grüße","n":[1,2]}')).body)).toEqual({ body: { q: "grüße", n: [1, 2] } });
    expect(JSON.parse((await json("  [1, 2]\n")).body)).toEqual({ body: [1, 2] });
    const withCharset = await json('{"a":1}', { "content-type": 'application/json; charset="UTF-8"' });
    expect(JSON.parse(withCharset.body)).toEqual({ body: { a: 1 } });
  });

  it("reads a chunked body split across writes, including a character split between two chunks", async () => {
    const bytes = Buffer.from('{"word":"café"}');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const r = await send("POST", { "content-type": "application/json" }, [bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ body: { word: "café" } });
  });

  it("an empty JSON body is {}; a request without a body has none", async () => {
    expect(JSON.parse((await send("POST", { "content-type": "application/json", "transfer-encoding": "chunked" }, [])).body)).toEqual({ body: {} });
    expect(JSON.parse((await send("GET", {}, [])).body)).toEqual({ body: "<undefined>" });
  });

  it("refuses malformed JSON and bare JSON values (strict) with 400 and the API error body", async () => {
    for (const text of ['{"q": ', '"just a string"', "42", "null"]) {
      const r = await json(text);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toEqual({ error: "Malformed JSON", details: "the request body is not valid JSON" });
      expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    }
  });

  it("refuses a body over the limit with 413, whether its length is declared or only counted, and keeps the connection usable", async () => {
    const big = JSON.stringify({ q: "x".repeat(LIMIT) });
    const declared = await json(big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ error: "Request body too large", details: `at most ${LIMIT} bytes` });
    const counted = await send("POST", { "content-type": "application/json" }, [big.slice(0, 600), big.slice(600)]);
    expect(counted.status).toBe(413);
    // The next request on the server is served normally.
    expect((await json('{"ok":true}')).status).toBe(200);
  });

  it("leaves gzip bodies, other JSON types and other charsets to body-parser, with the same results and errors", async () => {
    const gz = zlib.gzipSync(Buffer.from('{"zipped":true}'));
    const zipped = await send("POST", { "content-type": "application/json", "content-encoding": "gzip", "content-length": gz.length }, [gz]);
    expect(JSON.parse(zipped.body)).toEqual({ body: { zipped: true } });
    const vendor = await json('{"v":1}', { "content-type": "application/vnd.engram+json" });
    expect(JSON.parse(vendor.body)).toEqual({ body: { v: 1 } });
    const latin1 = await json('{"v":1}', { "content-type": "application/json; charset=latin1" });
    expect(latin1.status).toBe(415);
    expect(JSON.parse(latin1.body).error).toBe("Unsupported content encoding");
    const badGzip = await json('{"v":1}', { "content-encoding": "gzip" });
    // A body that is not what its content-encoding says is the client's error, not the server's.
    expect(badGzip.status).toBe(400);
    expect(JSON.parse(badGzip.body)).toEqual({
      error: "Invalid request body",
      details: "the body could not be read as its Content-Type and Content-Encoding declare",
    });
  });

  it(`accepts JSON nested ${MAX_JSON_DEPTH} levels deep and refuses ${MAX_JSON_DEPTH + 1} with 400, on every reader`, async () => {
    const deep = { error: "JSON nested too deeply", details: `objects and arrays may be nested at most ${MAX_JSON_DEPTH} levels deep` };
    expect((await json(nested(MAX_JSON_DEPTH))).status).toBe(200);
    expect((await json(nested(MAX_JSON_DEPTH, true))).status).toBe(200);
    for (const text of [nested(MAX_JSON_DEPTH + 1), nested(MAX_JSON_DEPTH + 1, true), `{"filters":${"[".repeat(400)}`]) {
      const r = await json(text);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toEqual(deep);
    }
    // The body-parser paths: gzip, a vendor JSON type, UTF-16.
    const gz = zlib.gzipSync(Buffer.from(nested(MAX_JSON_DEPTH + 1)));
    const zipped = await send("POST", { "content-type": "application/json", "content-encoding": "gzip", "content-length": gz.length }, [gz]);
    expect(zipped.status).toBe(400);
    expect(JSON.parse(zipped.body)).toEqual(deep);
    const vendor = await json(nested(MAX_JSON_DEPTH + 1), { "content-type": "application/vnd.engram+json" });
    expect(JSON.parse(vendor.body)).toEqual(deep);
    const utf16 = (text: string) => {
      const b = Buffer.from(text, "utf16le");
      return send("POST", { "content-type": "application/json; charset=utf-16le", "content-length": b.length }, [b]);
    };
    expect(JSON.parse((await utf16('{"wide":"ü"}')).body)).toEqual({ body: { wide: "ü" } });
    expect(JSON.parse((await utf16(nested(MAX_JSON_DEPTH + 1))).body)).toEqual(deep);
    const utf32 = await json("{}", { "content-type": "application/json; charset=utf-32" });
    expect(utf32.status).toBe(415);
  });

  it("exceedsJsonDepth counts brackets outside strings only, escaped quotes included", () => {
    expect(exceedsJsonDepth(nested(3), 3)).toBe(false);
    expect(exceedsJsonDepth(nested(4), 3)).toBe(true);
    // Brackets, quotes and backslashes inside strings (and keys) do not count.
    const text = (v: unknown) => JSON.stringify(v);
    expect(exceedsJsonDepth(text({ a: "[[[[[[{{{{" }), 1)).toBe(false);
    expect(exceedsJsonDepth(text({ a: "\\" }), 1)).toBe(false);
    expect(exceedsJsonDepth(text({ a: '"[[[["' }), 1)).toBe(false);
    expect(exceedsJsonDepth(text({ a: 'x\\"[[[[' }), 1)).toBe(false);
    expect(exceedsJsonDepth(text({ "[[\\": "]]" }), 1)).toBe(false);
    expect(exceedsJsonDepth(text({ "a\\": [[["x"]]] }), 3)).toBe(true);
    expect(exceedsJsonDepth(text({ "a\\": [[["x"]]] }), 4)).toBe(false);
    expect(exceedsJsonDepth('["unterminated', 1)).toBe(false);
    // A body of sixteen million brackets is refused without a parse (a recursive scan would overflow the stack);
    // what follows the 33rd level does not matter, not even text that is not JSON.
    expect(exceedsJsonDepth("[".repeat(16 << 20))).toBe(true);
    expect(exceedsJsonDepth(`${"[".repeat(33)}not json at all ${"}".repeat(10)}`)).toBe(true);
  });

  it("refuses a body declared as neither JSON nor multipart with 415", async () => {
    const r = await send("POST", { "content-type": "text/plain", "content-length": 5 }, ["hello"]);
    expect(r.status).toBe(415);
    expect(JSON.parse(r.body)).toEqual({ error: "Unsupported media type", details: "send the body as application/json (files as multipart/form-data)" });
  });

  it("responds with JSON text and its length; HEAD gets the headers only; 204 carries no body", async () => {
    const get = await send("GET", {}, []);
    expect(get.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(get.headers["content-length"])).toBe(Buffer.byteLength(get.body));
    const head = await send("HEAD", {}, []);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    const empty = await send("GET", {}, [], "/empty");
    expect(empty.status).toBe(204);
    expect(empty.body).toBe("");
    expect(empty.headers["content-type"]).toBeUndefined();
  });
});
