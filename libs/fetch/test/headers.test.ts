import { FORBIDDEN_REQUEST_HEADERS, GuardedFetcher, UrlRefusedError, checkRequestHeaders } from "../src";
import { fakeResolver, rejection, startServer, type TestServer } from "./helpers";

/**
 * Caller request headers: what reaches the server, what is refused before
 * anything is asked, what follows a redirect, and 304 answers to conditional
 * requests. Servers listen on 127.0.0.1 (allowPrivate, as on-prem and tests).
 */
const ETAG = '"v1"';
const LAST_MODIFIED = "Wed, 01 Jan 2025 00:00:00 GMT";

describe("GuardedFetcher request headers", () => {
  /** The origin a caller asks for. */
  let server: TestServer;
  /** Another origin (another port of 127.0.0.1), that `server` redirects to. */
  let other: TestServer;

  beforeAll(async () => {
    other = await startServer((req, res) => {
      const p = new URL(req.url ?? "/", "http://x").pathname;
      if (p === "/back") return void res.writeHead(302, { location: server.url("/echo") }).end();
      if (p === "/cached") return void res.writeHead(304, { etag: ETAG }).end();
      res.writeHead(200, { "content-type": "text/plain" }).end("other");
    });
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      switch (url.pathname) {
        case "/echo":
          return void res.writeHead(200, { "content-type": "text/plain" }).end("echo");
        case "/page": {
          // A page with validators, answering conditional requests with 304 (RFC 9110 §13.1.1, §13.1.3).
          const headers = { etag: ETAG, "last-modified": LAST_MODIFIED, "cache-control": "max-age=60" };
          const inm = req.headers["if-none-match"];
          const ims = req.headers["if-modified-since"];
          const fresh = inm !== undefined ? inm.split(",").some((t) => t.trim() === ETAG) : ims !== undefined && Date.parse(ims) >= Date.parse(LAST_MODIFIED);
          if (fresh) return void res.writeHead(304, headers).end();
          return void res.writeHead(200, { ...headers, "content-type": "text/html" }).end("<p>page</p>");
        }
        case "/always-304":
          return void res.writeHead(304, { etag: ETAG }).end();
        case "/to-page":
          return void res.writeHead(301, { location: "/page" }).end();
        case "/to-other":
          return void res.writeHead(302, { location: other.url(url.searchParams.get("p") ?? "/echo") }).end();
        case "/to-localhost":
          // The same server under another host name: another origin.
          return void res.writeHead(302, { location: server.url("/echo", "localhost") }).end();
        default:
          return void res.writeHead(404).end();
      }
    });
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });
  beforeEach(() => {
    server.seen.length = 0;
    other.seen.length = 0;
  });

  const fetcher = (policy: ConstructorParameters<typeof GuardedFetcher>[0] = {}) => new GuardedFetcher({ allowPrivate: true, ...policy });
  const credentials = { Authorization: "Bearer s3cret", Cookie: "session=abc", "X-Api-Key": "k", "If-None-Match": '"zzz"' };

  it("sends the caller's headers, names case-insensitive, with the policy's User-Agent and the Accept option", async () => {
    await fetcher({ userAgent: "EngramBot/test" }).fetch(server.url("/echo"), {
      accept: "text/html",
      headers: { "X-Request-Id": "42", "if-none-match": ETAG, "Accept-Language": "en, fr;q=0.5", "X-Tab": "a\tb", "X-Latin1": "caf\u00e9" },
    });
    expect(server.seen[0]?.headers).toMatchObject({
      "user-agent": "EngramBot/test",
      accept: "text/html",
      "x-request-id": "42",
      "if-none-match": ETAG,
      "accept-language": "en, fr;q=0.5",
      "x-tab": "a\tb",
    });
    // obs-text goes out as its single byte (Node's server reads it back as latin1).
    expect(server.seen[0]?.headers["x-latin1"]).toBe("caf\u00e9");
  });

  it("keeps the policy's User-Agent unless the caller sets one, and takes an Accept header when the option is absent", async () => {
    await fetcher({ userAgent: "EngramBot/test" }).fetch(server.url("/echo"), { headers: { "User-Agent": "Crawler/2", Accept: "application/xml" } });
    await fetcher({ userAgent: "EngramBot/test" }).fetch(server.url("/echo"), { headers: {} });
    expect(server.seen.map((s) => [s.headers["user-agent"], s.headers.accept])).toEqual([
      ["Crawler/2", "application/xml"],
      ["EngramBot/test", "*/*"],
    ]);
  });

  describe("refused before any DNS lookup or connection", () => {
    async function refused(headers: Record<string, string>, accept?: string): Promise<TypeError> {
      const dns = fakeResolver({ "public.test": ["127.0.0.1"] });
      const f = new GuardedFetcher({ allowPrivate: true }, { resolve: dns.resolve });
      const err = await rejection(f.fetch(server.url("/echo", "public.test"), { headers, ...(accept === undefined ? {} : { accept }) }));
      expect(err).toBeInstanceOf(TypeError);
      expect(err).not.toBeInstanceOf(UrlRefusedError); // the caller's bug, not the URL's fault
      expect(dns.asked).toEqual([]);
      expect(server.seen).toEqual([]);
      return err as TypeError;
    }

    it.each([
      ["host", "internal.admin"],
      ["Host", "169.254.169.254"],
      ["connection", "close"],
      ["Connection", "upgrade"],
      ["keep-alive", "timeout=5"],
      ["transfer-encoding", "chunked"],
      ["Transfer-Encoding", "chunked"],
      ["te", "trailers"],
      ["trailer", "x"],
      ["content-length", "0"],
      ["Content-Length", "5"],
      ["upgrade", "websocket"],
      ["expect", "100-continue"],
      ["proxy-authorization", "Basic eDp5"],
      ["Proxy-Connection", "keep-alive"],
      ["proxy-anything", "x"],
    ])("%s", async (name, value) => {
      const err = await refused({ accept: "text/html", [name]: value });
      expect(err.message).toBe(`fetch headers: the ${name.toLowerCase()} header may not be set by the caller`);
    });

    it("every name of the forbidden list", async () => {
      for (const name of FORBIDDEN_REQUEST_HEADERS) await refused({ [name]: "x" });
    });

    it.each([
      ["CR LF (a second header injected)", "x\r\nHost: internal"],
      ["LF alone", "x\nX-Other: 1"],
      ["CR alone", "x\rX-Other: 1"],
      ["NUL", "x\u0000y"],
      ["another control character", "x\u0007y"],
      ["DEL", "x\u007fy"],
      ["a character above U+00FF", "\u2028"],
    ])("a value with %s, without quoting the value", async (_name, value) => {
      const err = await refused({ "X-Token": value });
      expect(err.message).toBe('fetch headers: the value of "X-Token" contains a control or non-Latin-1 character');
      expect(err.message).not.toContain(value);
    });

    it.each([
      ["CR LF", "X-A\r\nHost"],
      ["LF", "X-A\n"],
      ["NUL", "X-A\u0000"],
      ["a space", "X A"],
      ["a colon", "X-A:"],
      ["a separator", "X(A)"],
      ["a non-ASCII letter", "X-Caf\u00e9"],
      ["nothing", ""],
    ])("a name with %s (not an RFC 9110 token), quoted with its control characters escaped", async (_name, name) => {
      const err = await refused({ [name]: "v" });
      expect(err.message).toBe(`fetch headers: ${JSON.stringify(name)} is not a valid header name`);
      expect(err.message).not.toMatch(/[\r\n\0]/);
    });

    it("a value that is not a string, a name given twice, Accept given twice", async () => {
      expect((await refused({ "X-Count": 3 as unknown as string })).message).toBe('fetch headers: the value of "X-Count" is not a string');
      expect((await refused({ "If-None-Match": '"a"', "if-none-match": '"b"' })).message).toBe("fetch headers: if-none-match is given twice");
      expect((await refused({ Accept: "text/html" }, "application/json")).message).toBe(
        "fetch headers: accept is given both as a header and as the accept option",
      );
    });

    it("even when the caller has already aborted (an argument error comes first)", async () => {
      const err = await rejection(fetcher().fetch(server.url("/echo"), { headers: { host: "x" }, signal: AbortSignal.abort(new Error("stop")) }));
      expect(err).toBeInstanceOf(TypeError);
    });
  });

  describe("redirects", () => {
    it("a same-origin redirect keeps every caller header", async () => {
      const r = await fetcher().fetch(server.url("/to-page"), { headers: { ...credentials, "If-None-Match": '"nope"' } });
      expect(r.status).toBe(200);
      expect(server.seen.map((s) => s.path)).toEqual(["/to-page", "/page"]);
      for (const s of server.seen)
        expect(s.headers).toMatchObject({ authorization: "Bearer s3cret", cookie: "session=abc", "x-api-key": "k", "if-none-match": '"nope"' });
    });

    it.each([
      ["another port", "/to-other"],
      ["another host name for the same server", "/to-localhost"],
    ])("a redirect to %s drops Authorization, Cookie and every other caller header but User-Agent and Accept", async (_name, from) => {
      const r = await fetcher({ userAgent: "EngramBot/test" }).fetch(server.url(from), {
        accept: "text/plain",
        headers: { ...credentials, "User-Agent": "Crawler/2" },
      });
      expect(r.status).toBe(200);
      const [first, second] = [...server.seen, ...other.seen];
      expect(first?.headers).toMatchObject({ authorization: "Bearer s3cret", cookie: "session=abc", "x-api-key": "k", "if-none-match": '"zzz"' });
      expect(second?.headers).toMatchObject({ "user-agent": "Crawler/2", accept: "text/plain" });
      for (const name of ["authorization", "cookie", "x-api-key", "if-none-match"]) expect(second?.headers[name]).toBeUndefined();
    });

    it("headers dropped on leaving the origin stay dropped when the chain comes back to it", async () => {
      const r = await fetcher().fetch(server.url("/to-other?p=/back"), { headers: credentials });
      expect(r.url).toBe(server.url("/echo"));
      expect(server.seen.map((s) => s.path)).toEqual(["/to-other?p=/back", "/echo"]);
      expect(server.seen[0]?.headers.authorization).toBe("Bearer s3cret");
      expect(server.seen[1]?.headers.authorization).toBeUndefined();
      expect(server.seen[1]?.headers.cookie).toBeUndefined();
    });
  });

  describe("304 Not Modified", () => {
    it("answers a matching If-None-Match: status 304, the response headers, an empty body", async () => {
      const r = await fetcher().fetch(server.url("/page"), { accept: "text/html", headers: { "If-None-Match": ETAG } });
      expect(r).toEqual({
        url: server.url("/page"),
        status: 304,
        contentType: undefined,
        bytes: new Uint8Array(0),
        headers: expect.objectContaining({ etag: ETAG, "last-modified": LAST_MODIFIED, "cache-control": "max-age=60" }),
        redirects: [],
      });
      // A stale validator gets the page.
      const full = await fetcher().fetch(server.url("/page"), { headers: { "If-None-Match": '"v0"' } });
      expect(full).toMatchObject({ status: 200, headers: { etag: ETAG } });
      expect(new TextDecoder().decode(full.bytes)).toBe("<p>page</p>");
    });

    it("answers a current If-Modified-Since, also after a same-origin redirect", async () => {
      const r = await fetcher().fetch(server.url("/to-page"), { headers: { "If-Modified-Since": LAST_MODIFIED } });
      expect(r).toMatchObject({ status: 304, url: server.url("/page"), redirects: [server.url("/to-page")], headers: { etag: ETAG } });
      expect(r.bytes.byteLength).toBe(0);
    });

    it("to an unconditional request is still refused, as the existing callers expect", async () => {
      const err = await rejection(fetcher().fetch(server.url("/always-304")));
      expect(err).toBeInstanceOf(UrlRefusedError);
      expect(err).toMatchObject({ code: "http_status", status: 304, message: "the URL answered 304 Not Modified" });
      // Other headers do not make a request conditional.
      expect(await rejection(fetcher().fetch(server.url("/always-304"), { headers: { "X-Api-Key": "k" } }))).toMatchObject({ status: 304 });
    });

    it("from another origin, whose hop had the conditional headers dropped, is refused", async () => {
      const err = await rejection(fetcher().fetch(server.url("/to-other?p=/cached"), { headers: { "If-None-Match": ETAG } }));
      expect(err).toMatchObject({ code: "http_status", status: 304, url: other.url("/cached") });
      expect(other.seen[0]?.headers["if-none-match"]).toBeUndefined();
    });
  });
});

describe("checkRequestHeaders", () => {
  it("splits the headers by the hops they go to, names lower case", () => {
    expect(checkRequestHeaders({ "User-Agent": "a", ACCEPT: "b", Cookie: "c", "If-Modified-Since": "d" })).toEqual({
      everyHop: { "user-agent": "a", accept: "b" },
      sameOrigin: { cookie: "c", "if-modified-since": "d" },
    });
    expect(checkRequestHeaders(undefined)).toEqual({ everyHop: {}, sameOrigin: {} });
  });

  it("accepts every RFC 9110 token character in a name, and HTAB, SP and obs-text in a value", () => {
    expect(() => checkRequestHeaders({ "!#$%&'*+-.^_`|~09azAZ": " a\tb \u0080\u00ff" })).not.toThrow();
  });
});
