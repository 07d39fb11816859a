/** What a {@link GuardedFetcher} may fetch, and how much. */
export interface FetchPolicy {
  /** Allow private, loopback, link-local and reserved addresses (ENGRAM_ALLOW_PRIVATE_URLS=true): on-prem sources and tests. */
  allowPrivate: boolean;
  /** URL schemes that may be fetched, with the colon as `URL.protocol` has it. */
  allowedSchemes: string[];
  /** Largest response body, in bytes (after content decoding). */
  maxBytes: number;
  /** Bound on the whole fetch: every DNS lookup, connection, redirect and the body. */
  timeoutMs: number;
  /** Redirects followed before the URL is refused. */
  maxRedirects: number;
  userAgent: string;
}

export const DEFAULT_USER_AGENT = "EngramBot/0.1 (self-hosted Engram memory service)";

export const DEFAULT_FETCH_POLICY: Readonly<FetchPolicy> = Object.freeze({
  allowPrivate: false,
  allowedSchemes: ["http:", "https:"],
  maxBytes: 50 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
  userAgent: DEFAULT_USER_AGENT,
});

/** The defaults completed with `partial`; throws a RangeError on values that make no sense (a configuration error). */
export function resolveFetchPolicy(partial: Partial<FetchPolicy> = {}): FetchPolicy {
  const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<FetchPolicy>;
  const p: FetchPolicy = { ...DEFAULT_FETCH_POLICY, ...defined };
  const schemes = p.allowedSchemes.map((s) => (s.endsWith(":") ? s : `${s}:`).toLowerCase());
  if (schemes.length === 0) throw new RangeError("fetch policy: allowedSchemes is empty");
  if (!Number.isSafeInteger(p.maxBytes) || p.maxBytes < 0) throw new RangeError(`fetch policy: maxBytes must be a non-negative integer, not ${p.maxBytes}`);
  if (!Number.isFinite(p.timeoutMs) || p.timeoutMs <= 0) throw new RangeError(`fetch policy: timeoutMs must be positive, not ${p.timeoutMs}`);
  if (!Number.isSafeInteger(p.maxRedirects) || p.maxRedirects < 0)
    throw new RangeError(`fetch policy: maxRedirects must be a non-negative integer, not ${p.maxRedirects}`);
  if (!p.userAgent) throw new RangeError("fetch policy: userAgent is empty");
  return { ...p, allowedSchemes: schemes };
}
