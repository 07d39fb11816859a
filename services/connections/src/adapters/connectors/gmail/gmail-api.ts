import { gmail, type gmail_v1, type MethodOptions } from "@googleapis/gmail";
import { ProviderError, parseRetryAfter, type RetryPolicy, withRetries } from "@engram/provider-http";
import type { ProviderAuth } from "../../../app/sync-ports";
import { orMissing, withAccessToken } from "../provider-auth";
import { ConnectorError } from "../../../domain/errors";

/**
 * The Gmail API calls the Gmail connector makes, through the official client
 * (`@googleapis/gmail`, rootUrl from configuration): the profile, labels,
 * threads, attachments, history, watch and stop.
 *
 * Around the client, by hand: the access token goes per request (the
 * connection's one token path: refreshed once after a 401, rotated tokens
 * persisted by OAuthFlow), and retries are provider-http's rather than
 * gaxios's, which are switched off: gaxios backs off on 429 and 5xx without
 * reading Retry-After, while provider-http waits as Google says and shares
 * its policy and failure codes with the other connectors. Gmail's 403
 * rateLimitExceeded/userRateLimitExceeded are rate limits too. gaxios is
 * given the platform's fetch (it would otherwise import node-fetch).
 */

const RETRIES: RetryPolicy = { maxRetries: 3, initialBackoffMs: 500, maxBackoffMs: 30_000 };
const TIMEOUT_MS = 60_000;
const USER = "me";
/** History record kinds that can change what a thread's document holds. */
const HISTORY_TYPES = ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"];
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);

export class GmailHttpError extends ProviderError {
  override name = "GmailHttpError";
  /** Google's error reason (`notFound`, `rateLimitExceeded`, `insufficientPermissions`, ...). */
  reason?: string;
}

/** A failure of the client (a GaxiosError, a network error) as a provider-http error; aborts pass through. */
function toProviderError(e: unknown, what: string): unknown {
  if (e instanceof ProviderError) return e;
  if (e instanceof Error && (e.name === "AbortError" || (e as { code?: unknown }).code === "AbortError")) return e;
  const res = (e as { response?: { status?: number; headers?: unknown; data?: unknown } }).response;
  const status = res?.status;
  if (status === undefined) {
    const message = e instanceof Error ? e.message : String(e);
    return new GmailHttpError(`${what} failed: ${message}`, { retryable: true, cause: e });
  }
  const body = (res?.data ?? {}) as { error?: { message?: string; errors?: { reason?: string }[]; status?: string } | string };
  const err = typeof body.error === "object" ? body.error : undefined;
  const reason = err?.errors?.[0]?.reason;
  const headers = res?.headers;
  const retryAfterMs =
    headers && typeof (headers as Headers).get === "function"
      ? parseRetryAfter(headers as Headers)
      : headers && typeof headers === "object"
        ? parseRetryAfter({ get: (n: string) => ((headers as Record<string, string | undefined>)[n] ?? null) as string | null })
        : undefined;
  const serverMessage = err?.message ?? (typeof body.error === "string" ? body.error : undefined);
  const rateLimited = status === 429 || (status === 403 && reason !== undefined && RATE_LIMIT_REASONS.has(reason));
  const out = new GmailHttpError(`${what} failed with HTTP ${status}: ${serverMessage ?? "(no message)"}`, {
    retryable: rateLimited || status === 408 || status >= 500,
    status,
    retryAfterMs,
    serverMessage,
    cause: e,
  });
  out.reason = reason;
  return out;
}

/** A Gmail failure as the sync run reports it. */
export function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (e instanceof ProviderError) {
    const reason = e instanceof GmailHttpError ? e.reason : (e.cause as GmailHttpError | undefined)?.reason;
    if (e.status === 401 || (e.status === 403 && reason === "insufficientPermissions"))
      return new ConnectorError("auth_expired", "Google refused the connection's token (re-authorize the connection)", { cause: e });
    if (e.status === 429 || (e.status === 403 && reason !== undefined && RATE_LIMIT_REASONS.has(reason)))
      return new ConnectorError("rate_limited", "Gmail is rate limiting", { retryAfterMs: e.retryAfterMs, cause: e });
    if (e.retryable) return new ConnectorError("provider_unavailable", e.message, { cause: e });
  }
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

/** The mailbox's history since a start, or `expired` when Gmail no longer keeps it. */
export type HistoryPage = { expired: true } | { expired: false; history: gmail_v1.Schema$History[]; historyId?: string; nextPageToken?: string };

export class GmailApi {
  private readonly client: gmail_v1.Gmail;

  constructor(
    private readonly auth: ProviderAuth,
    private readonly o: { rootUrl: string; signal?: AbortSignal; timeoutMs?: number },
  ) {
    this.client = gmail({ version: "v1", rootUrl: o.rootUrl });
  }

  async profile(): Promise<{ emailAddress: string; historyId: string }> {
    const p = await this.call("users.getProfile", (opts) => this.client.users.getProfile({ userId: USER }, opts));
    if (!p.emailAddress || !p.historyId) throw new GmailHttpError("users.getProfile answered without emailAddress or historyId", { retryable: false });
    return { emailAddress: p.emailAddress, historyId: p.historyId };
  }

  /** Label id → name (user labels have opaque ids). */
  async labels(): Promise<Map<string, string>> {
    const r = await this.call("users.labels.list", (opts) => this.client.users.labels.list({ userId: USER }, opts));
    return new Map((r.labels ?? []).filter((l) => l.id && l.name).map((l) => [l.id!, l.name!]));
  }

  /** One page of the mailbox's threads (spam and trash left out), newest first. */
  async threads(pageToken?: string): Promise<{ threads: { id: string; historyId?: string }[]; nextPageToken?: string }> {
    const r = await this.call("users.threads.list", (opts) =>
      this.client.users.threads.list({ userId: USER, maxResults: 100, includeSpamTrash: false, ...(pageToken ? { pageToken } : {}) }, opts),
    );
    return {
      threads: (r.threads ?? []).filter((t) => t.id).map((t) => ({ id: t.id!, ...(t.historyId ? { historyId: t.historyId } : {}) })),
      ...(r.nextPageToken ? { nextPageToken: r.nextPageToken } : {}),
    };
  }

  /** The thread with its messages' MIME trees, or undefined when it is gone. */
  async thread(id: string): Promise<gmail_v1.Schema$Thread | undefined> {
    return orMissing(() => this.call("users.threads.get", (opts) => this.client.users.threads.get({ userId: USER, id, format: "full" }, opts)));
  }

  /** An attachment's bytes, or undefined when its message is gone. */
  async attachment(messageId: string, attachmentId: string): Promise<Buffer | undefined> {
    const a = await orMissing(() =>
      this.call("users.messages.attachments.get", (opts) => this.client.users.messages.attachments.get({ userId: USER, messageId, id: attachmentId }, opts)),
    );
    return a?.data ? Buffer.from(a.data, "base64url") : a ? Buffer.alloc(0) : undefined;
  }

  /** One page of history records since `startHistoryId`; `expired` when Gmail answers 404 (the start is too old). */
  async history(startHistoryId: string, pageToken?: string): Promise<HistoryPage> {
    try {
      const r = await this.call("users.history.list", (opts) =>
        this.client.users.history.list(
          { userId: USER, startHistoryId, historyTypes: HISTORY_TYPES, maxResults: 500, ...(pageToken ? { pageToken } : {}) },
          opts,
        ),
      );
      return {
        expired: false,
        history: r.history ?? [],
        ...(r.historyId ? { historyId: r.historyId } : {}),
        ...(r.nextPageToken ? { nextPageToken: r.nextPageToken } : {}),
      };
    } catch (e) {
      if (e instanceof ProviderError && e.status === 404) return { expired: true };
      throw e;
    }
  }

  /** Publishes the mailbox's changes (all mail) to the Pub/Sub topic for the next 7 days. */
  async watch(topicName: string): Promise<{ historyId: string; expiration: number }> {
    const r = await this.call("users.watch", (opts) => this.client.users.watch({ userId: USER, requestBody: { topicName } }, opts));
    const expiration = Number(r.expiration);
    if (!r.historyId || !Number.isFinite(expiration)) throw new GmailHttpError("users.watch answered without historyId or expiration", { retryable: false });
    return { historyId: r.historyId, expiration };
  }

  async stop(): Promise<void> {
    await this.call("users.stop", (opts) => this.client.users.stop({ userId: USER }, opts));
  }

  /** One call with provider-http's retries; a 401 gets one fresh token and one more try. */
  private async call<T>(what: string, f: (opts: MethodOptions) => Promise<{ data: T }>): Promise<T> {
    return withAccessToken(this.auth, (token) =>
      withRetries(
        async () => {
          this.o.signal?.throwIfAborted();
          try {
            const opts: MethodOptions = {
              headers: { authorization: `Bearer ${token}` },
              retry: false,
              timeout: this.o.timeoutMs ?? TIMEOUT_MS,
              fetchImplementation: fetch,
              ...(this.o.signal ? { signal: this.o.signal } : {}),
            };
            return (await f(opts)).data;
          } catch (e) {
            throw toProviderError(e, `Gmail ${what}`);
          }
        },
        RETRIES,
        { errorClass: GmailHttpError, what: `Gmail ${what}` },
      ),
    );
  }
}
