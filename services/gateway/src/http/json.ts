import express, { type RequestHandler, type Response } from "express";
import { HttpProblem } from "./errors";

/** `application/json`, optionally with a UTF-8 charset: the type nearly every client sends. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

/** Deepest nesting of objects and arrays accepted in JSON from a client (the body itself is level 1). */
export const MAX_JSON_DEPTH = 32;

/**
 * Body-parser's error kinds (`type`), so the one error mapping treats both
 * readers alike; `entity.too.deep` is the gateway's own.
 */
class BodyError extends Error {
  constructor(
    readonly type: "entity.parse.failed" | "entity.too.large" | "entity.too.deep" | "request.aborted" | "charset.unsupported",
    message: string,
    readonly limit?: number,
  ) {
    super(message);
  }
}

/**
 * Whether JSON nests objects and arrays more than `max` levels deep, found
 * without parsing and without recursion: one pass over the UTF-8 bytes
 * counting brackets, which jumps over each string with a native search for
 * its closing quote, and stops at the first bracket past `max`. It runs
 * before JSON.parse, which would otherwise build the whole structure first (a
 * 16 MiB body of `[` takes seconds and half a gigabyte) and hand it to code
 * that walks it recursively. On bytes it costs well under a JSON.parse of the
 * same text (a 16 MiB string field: under a millisecond; 15 MB of numbers in
 * one array: about half a parse). Text that is not JSON gets some answer;
 * JSON.parse then refuses it.
 */
export function exceedsJsonDepth(json: string | Buffer, max = MAX_JSON_DEPTH): boolean {
  const b = typeof json === "string" ? Buffer.from(json, "utf8") : json;
  const n = b.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i];
    if (c === 0x22) {
      // '"': the string ends at the next quote preceded by an even number of backslashes.
      let j = i;
      for (;;) {
        j = b.indexOf(0x22, j + 1);
        if (j < 0) return false;
        let k = j - 1;
        while (b[k] === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * body-parser's `verify` hook: the depth check on the decoded bytes, before
 * body-parser parses them. `encoding` is the declared charset (body-parser
 * accepts only `utf-*` ones); one TextDecoder cannot read is refused here.
 */
function verifyDepth(_req: unknown, _res: unknown, buf: Buffer, encoding: string | null): void {
  let utf8 = buf;
  if (encoding !== null && encoding !== "utf-8" && encoding !== "utf8") {
    try {
      utf8 = Buffer.from(new TextDecoder(encoding).decode(buf), "utf8");
    } catch {
      throw new BodyError("charset.unsupported", `unsupported charset "${encoding.toUpperCase()}"`);
    }
  }
  if (exceedsJsonDepth(utf8)) throw new BodyError("entity.too.deep", "JSON nested too deeply", MAX_JSON_DEPTH);
}

/** First character that is not JSON whitespace. */
function firstChar(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") return c;
  }
  return undefined;
}

/**
 * JSON request bodies into `req.body`.
 *
 * A body declared as something other than JSON on a JSON route gets 415
 * (files go as multipart/form-data to their own routes, mounted earlier).
 * The common case, `application/json` in UTF-8 without a content encoding, is
 * read here directly: the body is collected up to `limit` bytes (a larger one
 * gets 413 once the rest of it has been read off, so the connection stays
 * usable), must be an object or array (strict JSON, as body-parser's strict
 * mode), and an empty body is `{}`. Anything else declared as JSON (another
 * charset, gzip or deflate, `application/*+json`) goes through body-parser
 * (express.json), which has the decoders. Both produce the same errors, and
 * both refuse JSON nested more than MAX_JSON_DEPTH levels deep (400) before
 * parsing it.
 */
export function jsonBody(limit: number): RequestHandler {
  const fallback = express.json({ limit, strict: true, type: ["application/json", "application/*+json"], verify: verifyDepth });
  return (req, res, next) => {
    const contentType = req.headers["content-type"];
    const encoding = req.headers["content-encoding"];
    if (contentType === undefined || !PLAIN_JSON.test(contentType) || (encoding !== undefined && encoding.toLowerCase() !== "identity")) {
      if (
        contentType !== undefined &&
        ["POST", "PATCH", "PUT", "DELETE"].includes(req.method) &&
        req.headers["content-length"] !== "0" &&
        !req.is("multipart/form-data") &&
        !req.is("application/json") &&
        !req.is("application/*+json")
      ) {
        return next(new HttpProblem(415, "Unsupported media type", "send the body as application/json (files as multipart/form-data)"));
      }
      return fallback(req, res, next);
    }
    const hasBody = req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");
    if (!hasBody) return next();
    const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
    let failure: BodyError | undefined =
      declared !== undefined && declared > limit ? new BodyError("entity.too.large", "request entity too large", limit) : undefined;
    const parts: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      if (failure) return;
      received += chunk.length;
      if (received > limit) {
        failure = new BodyError("entity.too.large", "request entity too large", limit);
        parts.length = 0;
        return;
      }
      parts.push(chunk);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onError);
    };
    const onEnd = () => {
      cleanup();
      if (failure) return next(failure);
      const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      if (exceedsJsonDepth(bytes)) return next(new BodyError("entity.too.deep", "JSON nested too deeply", MAX_JSON_DEPTH));
      const text = bytes.toString("utf8");
      if (text.length === 0) {
        req.body = {};
        return next();
      }
      const first = firstChar(text);
      if (first !== "{" && first !== "[") return next(new BodyError("entity.parse.failed", "the body must be a JSON object or array"));
      try {
        req.body = JSON.parse(text);
      } catch (err) {
        return next(new BodyError("entity.parse.failed", (err as Error).message));
      }
      next();
    };
    const onClose = () => {
      // Closed before its end: the client went away mid-body.
      if (req.complete) return;
      cleanup();
      next(new BodyError("request.aborted", "request aborted"));
    };
    const onError = (err: Error) => {
      cleanup();
      next(err);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onError);
  };
}

/**
 * `res.json` without express's generic `send` (content-type sniffing, ETag,
 * freshness: ETags are off here and the body is always JSON text): the same
 * headers and body, less work per response. HEAD gets the headers only; 204
 * and 304 carry no body.
 */
export function sendJson(this: Response, body: unknown): Response {
  if (this.statusCode === 204 || this.statusCode === 304) {
    this.removeHeader("content-type");
    this.removeHeader("content-length");
    this.end();
    return this;
  }
  const text = JSON.stringify(body) ?? "";
  if (!this.hasHeader("content-type")) this.setHeader("content-type", "application/json; charset=utf-8");
  this.setHeader("content-length", Buffer.byteLength(text));
  if (this.req.method === "HEAD") this.end();
  else this.end(text);
  return this;
}
