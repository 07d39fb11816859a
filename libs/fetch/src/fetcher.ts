import { lookup as dnsLookup } from "node:dns/promises";
import { STATUS_CODES } from "node:http";
import { isIP, type LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import { Agent, fetch, type Response } from "undici";
import { isPrivateAddress } from "./address";
import { UrlFetchError, UrlRefusedError } from "./errors";
import { checkRequestHeaders } from "./headers";
import { resolveFetchPolicy, type FetchPolicy } from "./policy";

/** Resolves a host name to every address it has (IPv4 and IPv6). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface FetcherDeps {
  /** DNS resolution; defaults to the system resolver (`dns.lookup` with `all: true`, so /etc/hosts counts). */
  resolve?: Resolver;
  /** Address classification; defaults to {@link isPrivateAddress}. Tests replace it to treat their loopback server as public. */
  isPrivate?: (ip: string) => boolean;
  /** Extra trusted CA certificates (PEM), added to the public roots: an on-prem private CA, or a test certificate. */
  extraCa?: string[];
}

export interface FetchInit {
  /** The Accept header; default any type. */
  accept?: string;
  /**
   * Request headers, names case-insensitive. A User-Agent here replaces the
   * policy's. Guard and framing headers (`host`, `connection`,
   * `transfer-encoding`, `content-length`, `upgrade`, `proxy-*`, …), invalid
   * names and values with control characters are refused with a TypeError
   * before anything is fetched. On redirects, only `user-agent` and `accept`
   * follow the chain to another origin; the rest (credentials, conditional
   * headers) are sent only on hops of the origin asked for. See headers.ts.
   */
  headers?: Readonly<Record<string, string>>;
  /** Cancels the fetch; it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface FetchedResource {
  /** The URL of the body, after redirects (without fragment). */
  url: string;
  /**
   * A 2xx, or 304 Not Modified when the request that got it carried
   * If-None-Match or If-Modified-Since (then the body is empty). A 304 to an
   * unconditional request is still refused (`http_status`), as every other
   * non-2xx answer.
   */
  status: number;
  contentType?: string;
  /** The body, content-decoded (gzip, deflate, br). */
  bytes: Uint8Array;
  /** Response headers, names lower-case, repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The URLs that answered with a redirect, in order: the first is the URL asked for. Empty without redirects. */
  redirects: string[];
}

/** One hop that passed every check, and the addresses the connection may use. */
export interface VettedTarget {
  url: URL;
  /** The host as the socket layer sees it: the URL's host name, or the IP without brackets. */
  host: string;
  /** Every address of the host; all of them passed the address check. */
  addresses: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Client errors that say "try again later" rather than "never". */
const RETRYABLE_4XX = new Set([408, 425, 429]);
/** TLS verification failures: permanent, the site's certificate is wrong for us. */
const TLS_ERROR_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * The one way Engram fetches a user-supplied URL (URL documents, crawler,
 * connectors). Checks the scheme, refuses credentials in the URL, resolves
 * the host and refuses private/reserved addresses unless the policy allows
 * them, follows redirects by hand re-checking every hop, bounds the body by
 * `maxBytes` and the whole operation by `timeoutMs`. Caller headers are
 * checked before anything is asked, and credentials and conditional headers
 * never follow a redirect to another origin (see headers.ts).
 *
 * DNS rebinding: the check and the connection must see the same addresses,
 * or a host could answer a public address to the check and 127.0.0.1 to the
 * connect. So each fetch gets its own undici Agent whose socket `lookup`
 * (passed through to `net.connect` / `tls.connect`) does no DNS at all: it
 * answers from the table of addresses this fetch vetted, host by host, and
 * fails for a host that was not vetted. The URL, the Host header and the TLS
 * SNI / certificate check keep the host name; only the address the socket
 * dials comes from the table. IP-literal hosts are never looked up by the
 * socket layer, and they are checked as they are. The Agent is destroyed at
 * the end of the fetch, so no pooled connection outlives its check (no
 * keep-alive across fetches: the price of the guarantee). The Agent ignores
 * HTTP(S)_PROXY, so nothing goes through a proxy that would resolve again.
 */
export class GuardedFetcher {
  readonly policy: FetchPolicy;
  private readonly resolveHost: Resolver;
  private readonly isPrivate: (ip: string) => boolean;
  private readonly ca: string[] | undefined;

  constructor(policy: Partial<FetchPolicy> = {}, deps: FetcherDeps = {}) {
    this.policy = resolveFetchPolicy(policy);
    this.resolveHost = deps.resolve ?? systemResolve;
    this.isPrivate = deps.isPrivate ?? isPrivateAddress;
    this.ca = deps.extraCa?.length ? [...rootCertificates, ...deps.extraCa] : undefined;
  }

  /**
   * Checks one URL without fetching it: it parses, its scheme is allowed, it
   * carries no credentials, and its host is, or resolves only to, addresses
   * the policy allows. Throws {@link UrlRefusedError} (or {@link UrlFetchError}
   * when DNS fails). Every hop of {@link fetch} goes through here.
   */
  async vet(input: string | URL, signal?: AbortSignal): Promise<VettedTarget> {
    const url = this.parseUrl(input);
    const hostname = url.hostname;
    const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : isIP(hostname) ? hostname : undefined;
    if (literal !== undefined) {
      if (!this.policy.allowPrivate && this.isPrivate(literal))
        throw new UrlRefusedError("private_address", `the URL's address ${literal} is private or reserved`, { url: url.href });
      return { url, host: literal, addresses: [literal] };
    }
    const addresses = await this.lookup(hostname, url, signal);
    // The resolved addresses are not named in the message: a document's
    // failure reason is shown to the API client, and naming them would let
    // it map internal DNS.
    if (!this.policy.allowPrivate && addresses.some((a) => this.isPrivate(a)))
      throw new UrlRefusedError("private_address", `the URL's host ${hostname} resolves to a private or reserved address`, { url: url.href });
    return { url, host: hostname, addresses };
  }

  /** Fetches `input` under the policy; see the class comment, and {@link FetchInit.headers} for request headers. */
  async fetch(input: string | URL, init: FetchInit = {}): Promise<FetchedResource> {
    const callerHeaders = checkRequestHeaders(init.headers, init.accept);
    init.signal?.throwIfAborted();
    const controller = new AbortController();
    let current = typeof input === "string" ? input : input.href;
    const timer = setTimeout(
      () => controller.abort(new UrlFetchError(`the URL did not answer within ${this.policy.timeoutMs} ms`, { retryable: true, url: current })),
      this.policy.timeoutMs,
    );
    const onCallerAbort = () => controller.abort(init.signal?.reason);
    init.signal?.addEventListener("abort", onCallerAbort, { once: true });

    const pins = new Map<string, string[]>();
    const agent = new Agent({
      connect: { lookup: pinnedLookup(pins), timeout: this.policy.timeoutMs, ...(this.ca ? { ca: this.ca } : {}) },
      headersTimeout: this.policy.timeoutMs,
      bodyTimeout: this.policy.timeoutMs,
    });
    const signal = controller.signal;
    try {
      const redirects: string[] = [];
      let origin: string | undefined;
      let onOrigin = true; // every hop so far was on the origin asked for
      for (;;) {
        const target = await this.vet(current, signal);
        pins.set(target.host.toLowerCase(), target.addresses);
        const href = target.url.href;
        current = href;
        origin ??= target.url.origin;
        onOrigin &&= target.url.origin === origin && origin !== "null"; // an opaque origin matches nothing
        const headers: Record<string, string> = {
          "user-agent": this.policy.userAgent,
          accept: init.accept ?? "*/*",
          ...callerHeaders.everyHop,
          ...(onOrigin ? callerHeaders.sameOrigin : {}),
        };
        const res = await this.send(target.url, agent, headers, signal);

        if (REDIRECT_STATUSES.has(res.status)) {
          const location = res.headers.get("location");
          await discard(res);
          if (!location)
            throw new UrlRefusedError("bad_redirect", `the URL answered ${statusLabel(res)} without a Location`, { url: href, status: res.status });
          if (redirects.length >= this.policy.maxRedirects)
            throw new UrlRefusedError("too_many_redirects", `the URL redirected more than ${this.policy.maxRedirects} times`, {
              url: href,
              status: res.status,
            });
          let next: URL;
          try {
            next = new URL(location, target.url); // a relative Location is relative to this hop
          } catch {
            throw new UrlRefusedError("bad_redirect", "the URL redirected to an invalid URL", { url: href, status: res.status });
          }
          redirects.push(href);
          current = next.href;
          continue;
        }
        // A 304 answers the conditional headers this hop sent: the caller's copy is current.
        const notModified = res.status === 304 && (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined);
        if (res.status < 200 || (res.status > 299 && !notModified)) {
          await discard(res);
          throw statusError(res, href);
        }
        let bytes: Uint8Array;
        if (notModified) {
          await discard(res); // a 304 has no body (RFC 9110 §15.4.5)
          bytes = new Uint8Array(0);
        } else bytes = await this.readBody(res, href);
        return { url: href, status: res.status, contentType: res.headers.get("content-type") ?? undefined, bytes, headers: headerRecord(res), redirects };
      }
    } catch (err) {
      // Whatever failed after the deadline or a cancellation failed because of it.
      if (signal.aborted) throw signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener("abort", onCallerAbort);
      await agent.destroy().catch(() => undefined);
    }
  }

  private parseUrl(input: string | URL): URL {
    let url: URL;
    try {
      // WHATWG parsing normalises the host: IDN to punycode, lower case,
      // percent-decoding, and every IPv4 spelling (2130706433, 0x7f.1) to a.b.c.d.
      url = new URL(typeof input === "string" ? input.trim() : input.href);
    } catch {
      throw new UrlRefusedError("invalid_url", "the URL is not valid", { url: String(input) });
    }
    url.hash = "";
    if (!this.policy.allowedSchemes.includes(url.protocol))
      throw new UrlRefusedError("scheme", `the URL scheme ${url.protocol} is not allowed (allowed: ${this.policy.allowedSchemes.join(", ")})`, {
        url: url.href,
      });
    if (url.username || url.password) {
      url.username = "";
      url.password = "";
      throw new UrlRefusedError("credentials", "the URL contains credentials (user:password@), which are not allowed", { url: url.href });
    }
    if (!url.hostname) throw new UrlRefusedError("invalid_url", "the URL has no host", { url: url.href });
    return url;
  }

  private async lookup(hostname: string, url: URL, signal?: AbortSignal): Promise<string[]> {
    let addresses: string[];
    try {
      addresses = await raceAbort(this.resolveHost(hostname), signal);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const code = errorCode(err);
      if (code === "ENOTFOUND" || code === "ENODATA")
        throw new UrlFetchError(`the URL's host ${hostname} was not found`, { retryable: false, url: url.href, cause: err });
      throw new UrlFetchError(`the DNS lookup of ${hostname} failed${code ? ` (${code})` : ""}`, { retryable: true, url: url.href, cause: err });
    }
    if (addresses.length === 0) throw new UrlFetchError(`the URL's host ${hostname} has no address`, { retryable: false, url: url.href });
    if (addresses.some((a) => isIP(a) === 0))
      throw new UrlFetchError(`the DNS lookup of ${hostname} returned an invalid address`, { retryable: false, url: url.href });
    return addresses;
  }

  private async send(url: URL, agent: Agent, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    try {
      return await fetch(url, { dispatcher: agent, redirect: "manual", signal, headers });
    } catch (err) {
      throw networkError(err, url);
    }
  }

  private async readBody(res: Response, href: string): Promise<Uint8Array> {
    const max = this.policy.maxBytes;
    const tooLarge = () => new UrlRefusedError("too_large", `the URL's content is larger than the limit of ${max} bytes`, { url: href, status: res.status });
    const declared = res.headers.get("content-length");
    if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) {
      await discard(res);
      throw tooLarge();
    }
    if (!res.body) return new Uint8Array(0);
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw networkError(err, new URL(href));
      }
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const c of chunks) {
      bytes.set(c, offset);
      offset += c.byteLength;
    }
    return bytes;
  }
}

async function systemResolve(hostname: string): Promise<string[]> {
  const found = await dnsLookup(hostname, { all: true });
  return found.map((a) => a.address);
}

/**
 * A `lookup` for net/tls.connect that answers only from `pins` (host → the
 * addresses vetted for it) and never asks DNS. Honours `family` and `all`
 * (net asks for all addresses when it races IPv4 and IPv6).
 */
export function pinnedLookup(pins: ReadonlyMap<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const vetted = pins.get(hostname.toLowerCase());
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    const candidates = (vetted ?? []).map((address) => ({ address, family: isIP(address) })).filter((a) => !family || a.family === family);
    const first = candidates[0];
    if (!first) {
      const reason = vetted ? `no vetted IPv${family} address for ${hostname}` : `${hostname} was not vetted for this fetch`;
      callback(Object.assign(new Error(`refusing to connect: ${reason}`), { code: "ENOTFOUND", hostname }), "", 0);
      return;
    }
    if (options.all) callback(null, candidates);
    else callback(null, first.address, first.family);
  };
}

function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Response headers, names lower-case, repeated ones joined with ", ". */
function headerRecord(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  });
  return headers;
}

async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

function statusLabel(res: Response): string {
  // The standard reason phrase, not the server's: the label ends up in API answers.
  const text = STATUS_CODES[res.status];
  return text ? `${res.status} ${text}` : String(res.status);
}

function statusError(res: Response, href: string): Error {
  const message = `the URL answered ${statusLabel(res)}`;
  if (res.status >= 500 || RETRYABLE_4XX.has(res.status)) {
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
    return new UrlFetchError(message, { retryable: true, url: href, status: res.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }
  return new UrlRefusedError("http_status", message, { url: href, status: res.status });
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function networkError(err: unknown, url: URL): Error {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UrlRefusedError || e instanceof UrlFetchError) return e;
  }
  const code = errorCode(err);
  if (code && TLS_ERROR_CODES.has(code))
    return new UrlRefusedError("tls", `the TLS certificate of ${url.hostname} was rejected (${code})`, { url: url.href, cause: err });
  return new UrlFetchError(`the connection to ${url.host} failed${code ? ` (${code})` : ""}`, { retryable: true, url: url.href, cause: err });
}

/** The first `code` in an error's cause chain (undici wraps socket errors in "fetch failed"). */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
