import { GuardedFetcher, UrlRefusedError, isPrivateAddress } from "../src";
import { TEST_CERT, fakeResolver, rejection, startServer, type TestServer } from "./helpers";

/**
 * The address guard against real servers. Every server listens on loopback,
 * and every host name other than localhost goes through a fake resolver: no
 * traffic leaves the machine and no public DNS is asked.
 */
describe("allowPrivate=false refuses loopback servers before any request", () => {
  let v4: TestServer;
  let v6: TestServer;
  beforeAll(async () => {
    v4 = await startServer((_req, res) => res.end("secret"));
    v6 = await startServer((_req, res) => res.end("secret"), { host: "::1" });
  });
  afterAll(async () => {
    await v4.close();
    await v6.close();
  });
  afterEach(() => {
    expect(v4.seen).toEqual([]);
    expect(v6.seen).toEqual([]);
  });

  const cases: [string, (s4: TestServer, s6: TestServer) => string][] = [
    ["127.0.0.1", (s) => s.url("/")],
    ["localhost (system resolver)", (s) => s.url("/", "localhost")],
    ["[::1]", (_s, s6) => s6.url("/")],
    ["[::ffff:127.0.0.1]", (s) => s.url("/", "[::ffff:127.0.0.1]")],
    ["2130706433 (decimal 127.0.0.1)", (s) => s.url("/", "2130706433")],
    ["0x7f.1 (hex short form)", (s) => s.url("/", "0x7f.1")],
  ];
  it.each(cases)("%s", async (_name, url) => {
    const f = new GuardedFetcher({ allowPrivate: false });
    const err = await rejection(f.fetch(url(v4, v6)));
    expect(err).toBeInstanceOf(UrlRefusedError);
    expect(err).toMatchObject({ code: "private_address" });
  });

  it("a host name that resolves to 127.0.0.1", async () => {
    const { resolve } = fakeResolver({ "public.test": ["127.0.0.1"], "dual.test": ["93.184.216.34", "::1"] });
    const f = new GuardedFetcher({}, { resolve });
    expect(await rejection(f.fetch(v4.url("/", "public.test")))).toMatchObject({
      code: "private_address",
      message: "the URL's host public.test resolves to a private or reserved address",
    });
    expect(await rejection(f.fetch(v6.url("/", "dual.test")))).toMatchObject({ code: "private_address" });
  });
});

describe("every redirect hop is re-validated", () => {
  // To get past the first hop with allowPrivate=false, these tests pretend
  // 127.0.0.1 (and only it) is a public address: the fake resolver maps
  // public.test to it. Everything else is classified for real, so the
  // redirect targets below are refused, and never connected to.
  const treat127AsPublic = (ip: string) => ip !== "127.0.0.1" && isPrivateAddress(ip);
  let server: TestServer;
  let dns: ReturnType<typeof fakeResolver>;
  let fetcher: GuardedFetcher;
  const redirectTo = new Map<string, string>();

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const location = redirectTo.get(req.url ?? "");
      if (location) {
        res.writeHead(302, { location }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${req.headers.host}`);
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    dns = fakeResolver({ "public.test": ["127.0.0.1"], "internal.test": ["10.0.0.7"], "sneaky.test": ["127.0.0.1", "169.254.169.254"] });
    fetcher = new GuardedFetcher({ allowPrivate: false }, { resolve: dns.resolve, isPrivate: treat127AsPublic });
  });

  it("the first hop is allowed (sanity check of the test setup)", async () => {
    const r = await fetcher.fetch(server.url("/ok", "public.test"));
    expect(new TextDecoder().decode(r.bytes)).toBe(`hello from public.test:${server.port}`);
  });

  it.each([
    ["a host name resolving to a private address", () => `http://internal.test:${server.port}/secret`, "private_address"],
    ["a host name with one private address among others", () => `http://sneaky.test:${server.port}/secret`, "private_address"],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/", "private_address"],
    ["IPv6 loopback", () => `http://[::1]:${server.port}/secret`, "private_address"],
    ["IPv4-mapped IPv6 of a private address", () => `http://[::ffff:10.0.0.1]:${server.port}/secret`, "private_address"],
    ["a file: URL", () => "file:///etc/passwd", "scheme"],
    ["a URL with credentials", () => `http://admin:pw@public.test:${server.port}/secret`, "credentials"],
  ])("a redirect to %s is refused after the first hop was allowed", async (_name, target, code) => {
    redirectTo.set("/hop", target());
    const err = await rejection(fetcher.fetch(server.url("/hop", "public.test")));
    expect(err).toBeInstanceOf(UrlRefusedError);
    expect(err).toMatchObject({ code });
    // The first hop was fetched; the redirect target never was.
    expect(server.seen.map((s) => s.path)).toEqual(["/hop"]);
  });

  it("connects to the address that was vetted, without a second lookup (DNS rebinding)", async () => {
    // A rebinding resolver: the first answer passes the check, later ones
    // would point elsewhere (127.0.0.2: nothing listens there, so a second
    // resolution at connect time would fail the fetch).
    let calls = 0;
    const rebinding = fakeResolver({ "rebind.test": () => (++calls === 1 ? ["127.0.0.1"] : ["127.0.0.2"]) });
    const f = new GuardedFetcher({}, { resolve: rebinding.resolve, isPrivate: treat127AsPublic });
    const r = await f.fetch(server.url("/ok", "rebind.test"));
    expect(r.status).toBe(200);
    expect(rebinding.asked).toEqual(["rebind.test"]);
    expect(server.seen[0]?.headers.host).toBe(`rebind.test:${server.port}`);
  });

  it("a redirect to the same host is resolved and checked again", async () => {
    redirectTo.set("/again", "/ok");
    const r = await fetcher.fetch(server.url("/again", "public.test"));
    expect(r.url).toBe(server.url("/ok", "public.test"));
    expect(dns.asked).toEqual(["public.test", "public.test"]);
  });
});

describe("HTTPS keeps the host name for SNI and certificate checks while dialling the vetted address", () => {
  let server: TestServer;
  const { resolve } = fakeResolver({ "public.test": ["127.0.0.1"] });
  const treat127AsPublic = (ip: string) => ip !== "127.0.0.1" && isPrivateAddress(ip);
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end("tls ok"), { tls: true });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
  });

  it("verifies the certificate for public.test and sends SNI and Host public.test", async () => {
    const f = new GuardedFetcher({}, { resolve, isPrivate: treat127AsPublic, extraCa: [TEST_CERT] });
    const r = await f.fetch(server.url("/", "public.test"));
    expect(new TextDecoder().decode(r.bytes)).toBe("tls ok");
    expect(server.seen[0]).toMatchObject({ servername: "public.test", headers: { host: `public.test:${server.port}` } });
  });

  it("refuses a certificate that is not trusted", async () => {
    const f = new GuardedFetcher({}, { resolve, isPrivate: treat127AsPublic });
    const err = await rejection(f.fetch(server.url("/", "public.test")));
    expect(err).toBeInstanceOf(UrlRefusedError);
    expect(err).toMatchObject({ code: "tls" });
    expect(server.seen).toEqual([]);
  });

  it("refuses a certificate for another name (checked against the URL's host, not the address)", async () => {
    const f = new GuardedFetcher({ allowPrivate: true }, { extraCa: [TEST_CERT] });
    const err = await rejection(f.fetch(server.url("/", "127.0.0.1")));
    expect(err).toMatchObject({ code: "tls", message: "the TLS certificate of 127.0.0.1 was rejected (ERR_TLS_CERT_ALTNAME_INVALID)" });
  });
});
