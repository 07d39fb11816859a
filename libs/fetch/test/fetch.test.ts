import type http from "node:http";
import { gzipSync } from "node:zlib";
import { GuardedFetcher, UrlFetchError, UrlRefusedError } from "../src";
import { closedPort, fakeResolver, rejection, startServer, type TestServer } from "./helpers";

/** Fetching with allowPrivate=true (how tests and on-prem users reach local servers); every server is on 127.0.0.1. */
describe("GuardedFetcher.fetch", () => {
  let server: TestServer;
  /** Responses still open (streams, hangs), ended when the server closes. */
  const open = new Set<http.ServerResponse>();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const p = url.pathname;
      const redirect = /^\/r\/(\d+)$/.exec(p);
      if (redirect) {
        const n = Number(redirect[1]);
        if (n === 0) return void res.writeHead(200, { "content-type": "text/plain" }).end("arrived");
        // Alternate status codes and relative/absolute Locations along the chain.
        const status = [301, 302, 303, 307, 308][n % 5] ?? 302;
        const location = n % 2 ? `/r/${n - 1}` : `http://127.0.0.1:${server.port}/r/${n - 1}`;
        return void res.writeHead(status, { location }).end();
      }
      switch (p) {
        case "/hello":
          res.writeHead(200, { "content-type": "text/html; charset=utf-8", "x-test": "1" });
          return void res.end("<h1>hello</h1>");
        case "/echo":
          return void res.end(JSON.stringify({ ua: req.headers["user-agent"], accept: req.headers.accept }));
        case "/empty":
          return void res.writeHead(204).end();
        case "/sized": {
          const n = Number(url.searchParams.get("n"));
          res.writeHead(200, { "content-length": String(n) });
          return void res.end(Buffer.alloc(n, "x"));
        }
        case "/lying-length":
          // Declares a small body, so only the streamed count can catch it.
          res.writeHead(200, { "content-length": "10" });
          return void res.end(Buffer.alloc(10, "x"));
        case "/chunked": {
          const n = Number(url.searchParams.get("n"));
          res.writeHead(200, { "content-type": "application/octet-stream" });
          for (let i = 0; i < n; i += 1000) res.write(Buffer.alloc(Math.min(1000, n - i), "y"));
          return void res.end();
        }
        case "/endless": {
          // Chunked, no Content-Length, never ends: only the byte count stops it.
          open.add(res);
          res.writeHead(200);
          const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, "z")), 5);
          res.on("close", () => clearInterval(timer));
          return;
        }
        case "/gzip": {
          res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
          return void res.end(gzipSync(Buffer.alloc(100_000, "a")));
        }
        case "/hang":
          open.add(res);
          return; // never answers
        case "/stall":
          open.add(res);
          res.writeHead(200, { "content-length": "100" });
          return void res.write("only part of it"); // headers and part of the body, then nothing
        case "/reset":
          res.writeHead(200, { "content-length": "1000" });
          res.write("partial");
          return void setTimeout(() => req.socket.destroy(), 20);
        case "/no-location":
          return void res.writeHead(302).end();
        case "/to-ftp":
          return void res.writeHead(301, { location: "ftp://127.0.0.1/file" }).end();
        case "/status": {
          const status = Number(url.searchParams.get("s"));
          const retryAfter = url.searchParams.get("retry-after");
          res.writeHead(status, "Custom <b>Reason</b>", retryAfter ? { "retry-after": retryAfter } : {});
          return void res.end("error page");
        }
        default:
          return void res.writeHead(404).end("no such page");
      }
    });
  });
  afterAll(async () => {
    for (const r of open) r.destroy();
    await server.close();
  });
  beforeEach(() => {
    server.seen.length = 0;
  });

  const fetcher = (policy: ConstructorParameters<typeof GuardedFetcher>[0] = {}) => new GuardedFetcher({ allowPrivate: true, ...policy });

  it("fetches the body, status, content type and headers", async () => {
    const r = await fetcher().fetch(server.url("/hello#section"));
    expect(r).toMatchObject({ url: server.url("/hello"), status: 200, contentType: "text/html; charset=utf-8", redirects: [] });
    expect(text(r.bytes)).toBe("<h1>hello</h1>");
    expect(r.bytes).toBeInstanceOf(Uint8Array);
    expect(r.headers["x-test"]).toBe("1");
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("sends the policy's User-Agent and the Accept asked for", async () => {
    const f = fetcher({ userAgent: "EngramBot/test" });
    expect(JSON.parse(text((await f.fetch(server.url("/echo"), { accept: "text/html" })).bytes))).toEqual({ ua: "EngramBot/test", accept: "text/html" });
    expect(JSON.parse(text((await f.fetch(server.url("/echo"))).bytes))).toEqual({ ua: "EngramBot/test", accept: "*/*" });
  });

  it("returns an empty body for 204", async () => {
    const r = await fetcher().fetch(server.url("/empty"));
    expect(r.status).toBe(204);
    expect(r.bytes.byteLength).toBe(0);
  });

  it("reaches localhost through the system resolver", async () => {
    const r = await fetcher().fetch(server.url("/hello", "localhost"));
    expect(text(r.bytes)).toBe("<h1>hello</h1>");
  });

  it("reaches a host name through the injected resolver", async () => {
    const { resolve, asked } = fakeResolver({ "docs.internal": ["127.0.0.1"] });
    const r = await new GuardedFetcher({ allowPrivate: true }, { resolve }).fetch(server.url("/hello", "docs.internal"));
    expect(text(r.bytes)).toBe("<h1>hello</h1>");
    expect(asked).toEqual(["docs.internal"]);
    expect(server.seen[0]?.headers.host).toBe(`docs.internal:${server.port}`);
  });

  describe("redirects", () => {
    it("follows up to maxRedirects (301/302/303/307/308, relative and absolute Location)", async () => {
      const r = await fetcher({ maxRedirects: 5 }).fetch(server.url("/r/5"));
      expect(text(r.bytes)).toBe("arrived");
      expect(r.url).toBe(server.url("/r/0"));
      expect(r.redirects).toEqual([5, 4, 3, 2, 1].map((n) => server.url(`/r/${n}`)));
    });

    it("refuses the 6th redirect", async () => {
      const err = await rejection(fetcher({ maxRedirects: 5 }).fetch(server.url("/r/6")));
      expect(err).toBeInstanceOf(UrlRefusedError);
      expect(err).toMatchObject({ code: "too_many_redirects", message: "the URL redirected more than 5 times", url: server.url("/r/1") });
      expect(server.seen.map((s) => s.path)).toEqual(["/r/6", "/r/5", "/r/4", "/r/3", "/r/2", "/r/1"]);
    });

    it("maxRedirects 0 refuses any redirect", async () => {
      expect(await rejection(fetcher({ maxRedirects: 0 }).fetch(server.url("/r/1")))).toMatchObject({ code: "too_many_redirects" });
    });

    it("refuses a redirect without Location, and one to a disallowed scheme", async () => {
      expect(await rejection(fetcher().fetch(server.url("/no-location")))).toMatchObject({
        code: "bad_redirect",
        message: "the URL answered 302 Found without a Location",
      });
      expect(await rejection(fetcher().fetch(server.url("/to-ftp")))).toMatchObject({ code: "scheme" });
    });
  });

  describe("maxBytes", () => {
    it("refuses early when Content-Length is too large", async () => {
      const err = await rejection(fetcher({ maxBytes: 1000 }).fetch(server.url("/sized?n=1001")));
      expect(err).toBeInstanceOf(UrlRefusedError);
      expect(err).toMatchObject({ code: "too_large", message: "the URL's content is larger than the limit of 1000 bytes" });
    });

    it("accepts a body of exactly maxBytes", async () => {
      expect((await fetcher({ maxBytes: 1000 }).fetch(server.url("/sized?n=1000"))).bytes.byteLength).toBe(1000);
      expect((await fetcher({ maxBytes: 5000 }).fetch(server.url("/chunked?n=5000"))).bytes.byteLength).toBe(5000);
    });

    it("refuses a chunked body that grows past the limit", async () => {
      expect(await rejection(fetcher({ maxBytes: 4999 }).fetch(server.url("/chunked?n=5000")))).toMatchObject({ code: "too_large" });
    });

    it("stops reading an endless stream as soon as it passes the limit", async () => {
      const started = Date.now();
      expect(await rejection(fetcher({ maxBytes: 256 * 1024, timeoutMs: 10_000 }).fetch(server.url("/endless")))).toMatchObject({ code: "too_large" });
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it("counts the decoded bytes of a compressed body", async () => {
      const small = await rejection(fetcher({ maxBytes: 50_000 }).fetch(server.url("/gzip")));
      expect(small).toMatchObject({ code: "too_large" });
      const r = await fetcher({ maxBytes: 100_000 }).fetch(server.url("/gzip"));
      expect(r.bytes.byteLength).toBe(100_000);
      expect(text(r.bytes.subarray(0, 3))).toBe("aaa");
    });
  });

  describe("timeoutMs", () => {
    it("fails a server that never answers, retryably, on time", async () => {
      const started = Date.now();
      const err = await rejection(fetcher({ timeoutMs: 300 }).fetch(server.url("/hang")));
      expect(err).toBeInstanceOf(UrlFetchError);
      expect(err).toMatchObject({ retryable: true, message: "the URL did not answer within 300 ms" });
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it("bounds the body too", async () => {
      const err = await rejection(fetcher({ timeoutMs: 300 }).fetch(server.url("/stall")));
      expect(err).toMatchObject({ retryable: true, message: "the URL did not answer within 300 ms" });
    });

    it("bounds a DNS lookup that never returns", async () => {
      const f = new GuardedFetcher({ allowPrivate: true, timeoutMs: 200 }, { resolve: () => new Promise<string[]>(() => undefined) });
      expect(await rejection(f.fetch("http://slow.test/"))).toMatchObject({ retryable: true, message: "the URL did not answer within 200 ms" });
    });
  });

  describe("status codes", () => {
    it("maps 404 to a refusal with the standard reason phrase", async () => {
      const err = await rejection(fetcher().fetch(server.url("/missing")));
      expect(err).toBeInstanceOf(UrlRefusedError);
      expect(err).toMatchObject({ code: "http_status", status: 404, reason: "the URL answered 404 Not Found", message: "the URL answered 404 Not Found" });
    });

    it.each([
      [403, "the URL answered 403 Forbidden"],
      [410, "the URL answered 410 Gone"],
      [451, "the URL answered 451 Unavailable For Legal Reasons"],
    ])("maps %i to a refusal (never the server's own reason text)", async (s, message) => {
      expect(await rejection(fetcher().fetch(server.url(`/status?s=${s}`)))).toMatchObject({ code: "http_status", message });
    });

    it("maps 503 with Retry-After to a retryable error", async () => {
      const err = await rejection(fetcher().fetch(server.url("/status?s=503&retry-after=7")));
      expect(err).toBeInstanceOf(UrlFetchError);
      expect(err).toMatchObject({ retryable: true, status: 503, retryAfterMs: 7000, message: "the URL answered 503 Service Unavailable" });
    });

    it.each([429, 500, 502, 408])("maps %i to a retryable error", async (s) => {
      const err = await rejection(fetcher().fetch(server.url(`/status?s=${s}`)));
      expect(err).toBeInstanceOf(UrlFetchError);
      expect(err).toMatchObject({ retryable: true, status: s, retryAfterMs: undefined });
    });
  });

  describe("network failures", () => {
    it("connection refused is retryable", async () => {
      const err = await rejection(fetcher().fetch(`http://127.0.0.1:${await closedPort()}/`));
      expect(err).toBeInstanceOf(UrlFetchError);
      expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/^the connection to 127\.0\.0\.1:\d+ failed \(ECONNREFUSED\)$/) });
    });

    it("a connection reset mid-body is retryable", async () => {
      const err = await rejection(fetcher().fetch(server.url("/reset")));
      expect(err).toBeInstanceOf(UrlFetchError);
      expect(err).toMatchObject({ retryable: true });
    });
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("shutting down");
    setTimeout(() => controller.abort(reason), 50);
    expect(await rejection(fetcher().fetch(server.url("/hang"), { signal: controller.signal }))).toBe(reason);
    const already = AbortSignal.abort(reason);
    expect(await rejection(fetcher().fetch(server.url("/hello"), { signal: already }))).toBe(reason);
  });
});
