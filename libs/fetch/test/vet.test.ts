import { GuardedFetcher, UrlFetchError, UrlRefusedError, parseRetryAfter, pinnedLookup, resolveFetchPolicy } from "../src";
import { fakeResolver, rejection } from "./helpers";

/** The hop validator alone: no connection is made in this file. */
describe("GuardedFetcher.vet", () => {
  const dns = () =>
    fakeResolver({
      "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      "internal.test": ["10.0.0.7"],
      "mixed.test": ["93.184.216.34", "127.0.0.1"],
      "mapped.test": ["::ffff:127.0.0.1"],
      "metadata.test": ["169.254.169.254"],
      "ula.test": ["fd00::1"],
      "xn--bcher-kva.test": ["93.184.216.34"],
      "empty.test": [],
      "garbage.test": ["not-an-ip"],
    });

  async function refusal(f: GuardedFetcher, url: string): Promise<UrlRefusedError> {
    const err = await rejection(f.vet(url));
    expect(err).toBeInstanceOf(UrlRefusedError);
    return err as UrlRefusedError;
  }

  it("allows a host whose every address is public, and reports them", async () => {
    const { resolve, asked } = dns();
    const t = await new GuardedFetcher({}, { resolve }).vet("https://Public.TEST/a?b=1#frag");
    expect(t.url.href).toBe("https://public.test/a?b=1");
    expect(t.host).toBe("public.test");
    expect(t.addresses).toEqual(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
    expect(asked).toEqual(["public.test"]);
  });

  it.each(["ftp://public.test/x", "file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "gopher://public.test/", "ws://public.test/"])(
    "refuses the scheme of %s",
    async (url) => {
      const { resolve, asked } = dns();
      const err = await refusal(new GuardedFetcher({}, { resolve }), url);
      expect(err.code).toBe("scheme");
      expect(err.reason).toMatch(/^the URL scheme [a-z]+: is not allowed/);
      expect(asked).toEqual([]);
    },
  );

  it("honours a custom scheme allow-list", async () => {
    const { resolve } = dns();
    const f = new GuardedFetcher({ allowedSchemes: ["https"] }, { resolve });
    expect((await refusal(f, "http://public.test/")).code).toBe("scheme");
    await expect(f.vet("https://public.test/")).resolves.toBeDefined();
  });

  it.each(["http://user:secret@public.test/", "http://user@public.test/", "https://:secret@public.test/"])("refuses credentials in %s", async (url) => {
    const { resolve, asked } = dns();
    const err = await refusal(new GuardedFetcher({}, { resolve }), url);
    expect(err.code).toBe("credentials");
    expect(err.message).toBe("the URL contains credentials (user:password@), which are not allowed");
    expect(err.url).not.toContain("secret");
    expect(asked).toEqual([]);
  });

  it.each(["not a url", "http://", "/relative/path", "http://exa mple.com/"])("refuses the invalid URL %j", async (url) => {
    const err = await refusal(new GuardedFetcher({}, dns()), url);
    expect(err.code).toBe("invalid_url");
  });

  it.each([
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f.0.0.1/",
    "http://0177.0.0.1/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.1.1/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd00:ec2::254]/",
  ])("refuses the literal private address in %s without asking DNS", async (url) => {
    const { resolve, asked } = dns();
    const err = await refusal(new GuardedFetcher({}, { resolve }), url);
    expect(err.code).toBe("private_address");
    expect(err.reason).toMatch(/^the URL's address .* is private or reserved$/);
    expect(asked).toEqual([]);
  });

  it("allows a literal public address without asking DNS", async () => {
    const { resolve, asked } = dns();
    const t = await new GuardedFetcher({}, { resolve }).vet("http://[2606:4700:4700::1111]:8443/");
    expect(t.host).toBe("2606:4700:4700::1111");
    expect(t.addresses).toEqual(["2606:4700:4700::1111"]);
    expect(asked).toEqual([]);
  });

  it.each(["internal.test", "mixed.test", "mapped.test", "metadata.test", "ula.test"])(
    "refuses %s, which resolves to a private address (any one is enough)",
    async (host) => {
      const err = await refusal(new GuardedFetcher({}, dns()), `http://${host}/`);
      expect(err.code).toBe("private_address");
      expect(err.reason).toBe(`the URL's host ${host} resolves to a private or reserved address`);
      // The resolved address is not disclosed to the API client.
      expect(err.message).not.toMatch(/10\.0\.0\.7|127\.0\.0\.1|169\.254|fd00/);
    },
  );

  it("resolves IDN hosts by their punycode name", async () => {
    const { resolve, asked } = dns();
    const t = await new GuardedFetcher({}, { resolve }).vet("http://bücher.test/straße");
    expect(t.host).toBe("xn--bcher-kva.test");
    expect(t.url.href).toBe("http://xn--bcher-kva.test/stra%C3%9Fe");
    expect(asked).toEqual(["xn--bcher-kva.test"]);
  });

  it("allows private addresses when allowPrivate is set", async () => {
    const { resolve } = dns();
    const f = new GuardedFetcher({ allowPrivate: true }, { resolve });
    await expect(f.vet("http://127.0.0.1:1234/")).resolves.toMatchObject({ host: "127.0.0.1", addresses: ["127.0.0.1"] });
    await expect(f.vet("http://internal.test/")).resolves.toMatchObject({ addresses: ["10.0.0.7"] });
    // allowPrivate does not relax the other rules.
    expect((await refusal(f, "file:///etc/passwd")).code).toBe("scheme");
    expect((await refusal(f, "http://a:b@127.0.0.1/")).code).toBe("credentials");
  });

  it("maps DNS failures: unknown host is permanent, a lookup error is retryable", async () => {
    const f = new GuardedFetcher({}, dns());
    const missing = await rejection(f.vet("http://nowhere.test/"));
    expect(missing).toBeInstanceOf(UrlFetchError);
    expect(missing).toMatchObject({ retryable: false, message: "the URL's host nowhere.test was not found" });

    const flaky = new GuardedFetcher({}, { resolve: () => Promise.reject(Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN" })) });
    expect(await rejection(flaky.vet("http://public.test/"))).toMatchObject({ retryable: true, message: "the DNS lookup of public.test failed (EAI_AGAIN)" });

    expect(await rejection(f.vet("http://empty.test/"))).toMatchObject({ retryable: false });
    expect(await rejection(f.vet("http://garbage.test/"))).toMatchObject({ retryable: false });
  });
});

describe("pinnedLookup", () => {
  const pins = new Map([["public.test", ["127.0.0.1", "::1"]]]);
  const lookup = pinnedLookup(pins);
  const ask = (host: string, options: object) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, options, (err, address, family) => resolve({ err, address, ...(family === undefined ? {} : { family }) })),
    );

  it("answers only vetted addresses, by family and all", async () => {
    expect(await ask("public.test", {})).toMatchObject({ err: null, address: "127.0.0.1", family: 4 });
    expect(await ask("PUBLIC.test", { family: 6 })).toMatchObject({ err: null, address: "::1", family: 6 });
    expect(await ask("public.test", { all: true })).toMatchObject({
      err: null,
      address: [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ],
    });
  });

  it("refuses a host that was not vetted instead of asking DNS", async () => {
    const r = await ask("localhost", {});
    expect(r.err?.message).toBe("refusing to connect: localhost was not vetted for this fetch");
  });
});

describe("policy and Retry-After", () => {
  it("fills defaults and normalises schemes", () => {
    expect(resolveFetchPolicy({ allowedSchemes: ["HTTPS"] })).toMatchObject({
      allowPrivate: false,
      allowedSchemes: ["https:"],
      maxBytes: 50 * 1024 * 1024,
      timeoutMs: 30_000,
      maxRedirects: 5,
    });
    expect(resolveFetchPolicy({ maxBytes: undefined }).maxBytes).toBe(50 * 1024 * 1024);
    expect(() => resolveFetchPolicy({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => resolveFetchPolicy({ maxRedirects: -1 })).toThrow(RangeError);
    expect(() => resolveFetchPolicy({ allowedSchemes: [] })).toThrow(RangeError);
  });

  it("parses seconds and HTTP dates", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
