/**
 * Request headers a caller hands to {@link GuardedFetcher.fetch}: which are
 * refused, and which hops of a redirect chain they are sent on.
 *
 * Refused (a TypeError, before any DNS lookup or connection: a bad header is
 * the caller's bug, not the URL's fault, so it is not a UrlRefusedError):
 * - `host`: the fetcher dials the vetted address of the URL's host; another
 *   Host would make that server (a shared proxy, a CDN, virtual hosts) answer
 *   for a host that was never vetted.
 * - `connection`, `keep-alive`, `transfer-encoding`, `te`, `trailer`,
 *   `upgrade`, `content-length`, `expect`: they frame the message or manage
 *   the connection (hop-by-hop, RFC 9110 §7.6.1); set by a caller they can
 *   desynchronise the framing (request smuggling) or switch protocols.
 * - `proxy-*`: the fetcher never uses a proxy; such headers only leak
 *   credentials or steer a proxy on the far side.
 * - a name that is not an RFC 9110 token (§5.1), a value with a control
 *   character other than HTAB (CR, LF and NUL included: header injection) or
 *   a character above U+00FF (§5.5), a value that is not a string, and the
 *   same name twice (names are case-insensitive).
 * - `accept` together with the `accept` option: say it once.
 *
 * Redirects (the fetcher rebuilds the request for every hop):
 * - `user-agent` and `accept` are sent on every hop; without them the
 *   fetcher's own (the policy's User-Agent, an Accept of any type) are.
 * - every other caller header (credentials such as `authorization` and
 *   `cookie`, API keys under any name, the conditional `if-none-match` and
 *   `if-modified-since`, which describe the resource asked for) is sent only
 *   while the chain stays on the origin (scheme, host, port) of the URL asked
 *   for. Once a redirect leaves that origin they are dropped for the rest of
 *   the chain, even if it comes back: the other origin chose where it leads.
 */

/** Names a caller may not set, lower case; see the module comment. Any `proxy-*` name is refused too. */
export const FORBIDDEN_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
  "expect",
]);

/** Caller headers sent on every hop of a redirect chain; the others stay on the origin asked for. */
export const EVERY_HOP_REQUEST_HEADERS: ReadonlySet<string> = new Set(["user-agent", "accept"]);

/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §5.5 field-value characters: HTAB, SP, visible ASCII, obs-text. */
const FIELD_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

/** Caller headers checked and split by the hops they go to; names lower case. */
export interface RequestHeaders {
  everyHop: Record<string, string>;
  /** Sent only while the chain is on the origin of the URL asked for. */
  sameOrigin: Record<string, string>;
}

/** Checks a caller's headers (throws a TypeError for any refused one, see the module comment) and splits them by hop. */
export function checkRequestHeaders(headers: Readonly<Record<string, string>> | undefined, accept?: string): RequestHeaders {
  const out: RequestHeaders = { everyHop: {}, sameOrigin: {} };
  if (headers === undefined) return out;
  if (typeof headers !== "object" || headers === null) throw new TypeError("fetch headers: must be an object of header names to values");
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    // JSON.stringify escapes control characters: the name is quoted as it is, never injected into a log line.
    // The value is never quoted: it may be a credential.
    const quoted = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    if (!TOKEN.test(name)) throw new TypeError(`fetch headers: ${quoted} is not a valid header name`);
    const lower = name.toLowerCase();
    if (FORBIDDEN_REQUEST_HEADERS.has(lower) || lower.startsWith("proxy-"))
      throw new TypeError(`fetch headers: the ${lower} header may not be set by the caller`);
    if (typeof value !== "string") throw new TypeError(`fetch headers: the value of ${quoted} is not a string`);
    if (!FIELD_VALUE.test(value)) throw new TypeError(`fetch headers: the value of ${quoted} contains a control or non-Latin-1 character`);
    if (seen.has(lower)) throw new TypeError(`fetch headers: ${lower} is given twice`);
    seen.add(lower);
    if (lower === "accept" && accept !== undefined) throw new TypeError("fetch headers: accept is given both as a header and as the accept option");
    (EVERY_HOP_REQUEST_HEADERS.has(lower) ? out.everyHop : out.sameOrigin)[lower] = value;
  }
  return out;
}
