import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Duplex } from "node:stream";
import { isPrivateAddress, pinnedLookup, UrlRefusedError } from "@engram/fetch";

/**
 * Engram's address policy for the AWS SDK's HTTP. An S3 connection's
 * endpoint is a URL the user supplied, so the SDK must not be a way to reach
 * the host's network (cloud metadata at 169.254.169.254, services on
 * loopback, the private LAN). `@engram/fetch`'s GuardedFetcher cannot carry
 * the SDK's requests (it fetches GET only and buffers bodies), so the same
 * policy is applied where the SDK's NodeHttpHandler opens sockets: http and
 * https agents whose `lookup` resolves the host, refuses it when any of its
 * addresses is private or reserved (`isPrivateAddress`), and hands the
 * socket exactly the addresses it checked (`pinnedLookup`: no second DNS
 * answer to rebind to). Hosts that are IP literals are never looked up by
 * the socket layer, so the agents check those when they open the
 * connection. `ENGRAM_ALLOW_PRIVATE_URLS` (allowPrivate) lifts the address
 * check for on-premises stores and tests. The SDK follows no redirects
 * (S3 redirects come back as errors), so every host it talks to passes here.
 */

/** Why an address was refused: carried through the SDK as the request's error. */
export class PrivateAddressError extends UrlRefusedError {
  constructor(host: string) {
    super("private_address", `the S3 endpoint's host ${host} is or resolves to a private or reserved address`);
  }
}

/**
 * Checks an S3-compatible endpoint URL before it is used: http or https, no
 * credentials, no query or fragment, plain http and private IP literals only
 * when allowPrivate (host names are checked when they are resolved).
 * Returns the URL normalised (no trailing slash). Throws UrlRefusedError.
 */
export function vetEndpoint(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UrlRefusedError("invalid_url", "metadata.endpoint is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UrlRefusedError("scheme", `metadata.endpoint must be an https URL, not ${url.protocol}`);
  if (url.protocol === "http:" && !allowPrivate)
    throw new UrlRefusedError("scheme", "metadata.endpoint must be an https URL (plain http only with ENGRAM_ALLOW_PRIVATE_URLS)");
  if (url.username || url.password) throw new UrlRefusedError("credentials", "metadata.endpoint must not carry credentials (user:password@)");
  if (url.search || url.hash) throw new UrlRefusedError("invalid_url", "metadata.endpoint must not have a query or fragment");
  if (!url.hostname) throw new UrlRefusedError("invalid_url", "metadata.endpoint has no host");
  const literal = literalAddress(url.hostname);
  if (literal !== undefined && !allowPrivate && isPrivateAddress(literal)) throw new PrivateAddressError(literal);
  return url.href.replace(/\/+$/, "");
}

function literalAddress(hostname: string): string | undefined {
  const h = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(h) ? h : undefined;
}

type Resolve = (hostname: string, cb: (err: NodeJS.ErrnoException | null, addresses: string[]) => void) => void;

const systemResolve: Resolve = (hostname, cb) =>
  dns.lookup(hostname, { all: true }, (err, found) =>
    cb(
      err,
      (found ?? []).map((a) => a.address),
    ),
  );

/** A socket `lookup` that resolves, refuses private addresses unless allowed, and connects only to what it checked. */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND", hostname }), "", 0);
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a))) return callback(new PrivateAddressError(hostname), "", 0);
      pinnedLookup(new Map([[hostname.toLowerCase(), addresses]]))(hostname, options, callback);
    });
  };
}

type ConnectOptions = Parameters<http.Agent["createConnection"]>[0];
type ConnectCallback = Parameters<http.Agent["createConnection"]>[1];

/** Refuses connections to private IP literals (which `lookup` never sees) unless allowed. */
function checkLiteral(options: ConnectOptions, allowPrivate: boolean): void {
  const host = String(options.host ?? options.hostname ?? "");
  const literal = literalAddress(host);
  if (literal !== undefined && !allowPrivate && isPrivateAddress(literal)) throw new PrivateAddressError(literal);
}

class GuardedHttpAgent extends http.Agent {
  constructor(
    private readonly allowPrivate: boolean,
    opts: http.AgentOptions,
  ) {
    super(opts);
  }
  override createConnection(options: ConnectOptions, callback?: ConnectCallback): Duplex | null | undefined {
    checkLiteral(options, this.allowPrivate);
    return super.createConnection(options, callback);
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(
    private readonly allowPrivate: boolean,
    opts: https.AgentOptions,
  ) {
    super(opts);
  }
  override createConnection(options: ConnectOptions, callback?: ConnectCallback): Duplex | null | undefined {
    checkLiteral(options, this.allowPrivate);
    return super.createConnection(options, callback);
  }
}

/** The agents the SDK's NodeHttpHandler is given (one pair per client: destroyed with it). */
export function guardedAgents(allowPrivate: boolean): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const lookup = guardedLookup(allowPrivate);
  return {
    httpAgent: new GuardedHttpAgent(allowPrivate, { keepAlive: true, maxSockets: 8, lookup }),
    httpsAgent: new GuardedHttpsAgent(allowPrivate, { keepAlive: true, maxSockets: 8, lookup }),
  };
}
