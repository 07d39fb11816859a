import type { gmail_v1 } from "@googleapis/gmail";
import type { JsonObject } from "@engram/kernel";
import type { Connection, ConnectionItem } from "../../../domain/connection";
import { ConnectorError } from "../../../domain/errors";
import type { TokenSet } from "../../../domain/oauth";
import type { AccountIdentity, Connector, ConnectorChange, ProviderAuth, WebhookNotification, WebhookReader, WebhookTarget } from "../../../app/sync-ports";
import { GmailApi, toConnectorError } from "./gmail-api";
import { GmailPushVerifier } from "./gmail-push";
import { attachmentsOf, isVisible, renderThread } from "./gmail-thread";

/**
 * The Gmail connector: a mailbox's threads, one document each, and the files
 * attached to their messages, one document each.
 *
 * - Identity: `users.getProfile`; the connection's account is the address
 *   lower-cased (Pub/Sub notifications name the mailbox, not the connection).
 * - Full sync (first run, or Gmail no longer has the cursor's history): the
 *   mailbox's history id first (`getProfile`), then every thread
 *   (`threads.list`, spam and trash left out) read with `threads.get`,
 *   skipping threads whose history id is the one imported; threads known but
 *   no longer listed are deleted. The cursor is the history id read before
 *   the listing: a change made while listing is replayed from history next
 *   time (applying it twice is harmless), where the highest history id of
 *   the threads listed could skip a change to a thread listed earlier.
 * - Incremental sync: `history.list` from the cursor (messages added and
 *   deleted, labels added and removed) names the threads touched; each is
 *   read again: gone (404) or with no message left outside trash, spam and
 *   drafts → its documents are deleted; else re-rendered (imported again only
 *   when its text, participants or labels changed). The new cursor is the
 *   history id Gmail answered, yielded after every thread it covers. A 404 of
 *   history.list (expired) → a full sync.
 * - Attachments: parts with a filename (inline images of HTML bodies left
 *   out) are items `<threadId>/att/<messageId>/<partId>/<filename>`: Gmail's
 *   attachment ids change on every read, so they cannot name an item, while a
 *   message's parts never change (so neither does an imported attachment).
 *   Over 50 MB: a failure item, not downloaded. They go with their thread.
 * - Real time: with a Pub/Sub topic, `renew` calls `users.watch` (all mail)
 *   when no watch is known or it ends within 48 hours (a watch lasts 7 days);
 *   pushes reach `webhooks.route` (GmailPushVerifier). Without a topic, the
 *   schedule only. `unsubscribe` calls `users.stop`.
 */

export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
/** A watch is renewed when it ends sooner than this. */
export const WATCH_RENEW_BEFORE_MS = 48 * 3_600_000;

export interface GmailConnectorOptions {
  /** The Gmail API's root URL (the client's rootUrl). */
  apiUrl: string;
  authOf: (c: Connection) => ProviderAuth;
  push: {
    /** projects/<project>/topics/<topic>: users.watch publishes there. Unset: no real-time notifications. */
    topic?: string;
    /** The audience of the push subscription's OIDC tokens. */
    audience?: string;
    /** Only tokens of this service account are accepted, when set. */
    serviceAccountEmail?: string;
    /** Google's token-signing certificates (PEM). */
    certsUrl: string;
  };
}

export const threadUrl = (threadId: string) => `https://mail.google.com/mail/u/0/#all/${encodeURIComponent(threadId)}`;
const attachmentKey = (threadId: string, messageId: string, partId: string, filename: string) =>
  `${threadId}/att/${messageId}/${partId}/${encodeURIComponent(filename)}`;
const threadOfKey = (key: string) => {
  const i = key.indexOf("/");
  return i < 0 ? key : key.slice(0, i);
};

/** What one run reads with: the API, the known items by thread, label names read once. */
interface RunContext {
  api: GmailApi;
  known: ReadonlyMap<string, ConnectionItem>;
  byThread: Map<string, string[]>;
  labels?: Map<string, string>;
  signal: AbortSignal;
}

export class GmailConnector implements Connector {
  private readonly push: GmailPushVerifier;

  constructor(readonly o: GmailConnectorOptions) {
    this.push = new GmailPushVerifier(o.push);
  }

  /** The mailbox behind a fresh token. */
  async identify(tokens: Pick<TokenSet, "accessToken">): Promise<AccountIdentity> {
    const { accessToken } = tokens;
    const api = new GmailApi(
      {
        token: async () => accessToken,
        refreshed: async () => {
          throw new ConnectorError("auth_expired", "Google refused the new access token");
        },
      },
      { rootUrl: this.o.apiUrl },
    );
    try {
      const { emailAddress } = await api.profile();
      return { email: emailAddress, account: emailAddress.trim().toLowerCase() };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const byThread = new Map<string, string[]>();
    for (const key of known.keys()) {
      const t = threadOfKey(key);
      byThread.set(t, [...(byThread.get(t) ?? []), key]);
    }
    const ctx: RunContext = { api: this.api(conn, signal), known, byThread, signal };
    try {
      if (conn.cursor && (yield* this.incremental(ctx, conn.cursor))) return;
      yield* this.full(ctx);
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  /** The changes since `start`; false when Gmail no longer has that history. */
  private async *incremental(ctx: RunContext, start: string): AsyncGenerator<ConnectorChange, boolean> {
    const touched = new Set<string>();
    let latest = start;
    let pageToken: string | undefined;
    do {
      ctx.signal.throwIfAborted();
      const page = await ctx.api.history(start, pageToken);
      if (page.expired) return false;
      for (const h of page.history) {
        const refs = [
          ...(h.messages ?? []),
          ...(h.messagesAdded ?? []).map((x) => x.message),
          ...(h.messagesDeleted ?? []).map((x) => x.message),
          ...(h.labelsAdded ?? []).map((x) => x.message),
          ...(h.labelsRemoved ?? []).map((x) => x.message),
        ];
        for (const m of refs) if (m?.threadId) touched.add(m.threadId);
      }
      if (page.historyId) latest = page.historyId;
      pageToken = page.nextPageToken;
    } while (pageToken);
    for (const threadId of touched) yield* this.thread(ctx, threadId);
    if (touched.size > 0 || latest !== start) yield { kind: "cursor", cursor: latest };
    return true;
  }

  /** Every thread of the mailbox; known threads no longer there are deleted. */
  private async *full(ctx: RunContext): AsyncGenerator<ConnectorChange> {
    const { historyId: start } = await ctx.api.profile();
    const listed = new Set<string>();
    let pageToken: string | undefined;
    do {
      ctx.signal.throwIfAborted();
      const page = await ctx.api.threads(pageToken);
      for (const t of page.threads) {
        listed.add(t.id);
        // Unchanged since it was imported (the state is the thread's history id then).
        if (t.historyId !== undefined && ctx.known.get(t.id)?.state === t.historyId) continue;
        yield* this.thread(ctx, t.id);
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    for (const [threadId, keys] of ctx.byThread)
      if (!listed.has(threadId)) for (const itemKey of keys) yield { kind: "delete", itemKey, reason: "the thread is no longer in the mailbox" };
    yield { kind: "cursor", cursor: start };
  }

  /** One thread read again: its document and attachments, or their deletion. */
  private async *thread(ctx: RunContext, threadId: string): AsyncGenerator<ConnectorChange> {
    ctx.signal.throwIfAborted();
    const keys = ctx.byThread.get(threadId) ?? [];
    const thread = await ctx.api.thread(threadId);
    const messages = (thread?.messages ?? []).filter(isVisible);
    if (!thread || messages.length === 0) {
      const reason = thread ? "every message of the thread is in the trash or spam" : "the thread was deleted";
      for (const itemKey of keys) yield { kind: "delete", itemKey, reason };
      return;
    }
    ctx.labels ??= await ctx.api.labels();
    const doc = renderThread(messages, ctx.labels);
    // The files first: the thread's state (its history id) is recorded last, so a full sync that skips
    // threads by state never skips one whose files a crash left unimported.
    const seen = new Set([threadId]);
    for await (const change of this.attachments(ctx, threadId, messages, doc.title)) {
      if (change.kind !== "cursor") seen.add(change.itemKey);
      yield change;
    }
    for (const itemKey of keys) if (!seen.has(itemKey)) yield { kind: "delete", itemKey, reason: "the message carrying the file is gone" };
    yield {
      kind: "upsert",
      itemKey: threadId,
      title: doc.title,
      url: threadUrl(threadId),
      metadata: doc.metadata,
      content: { bytes: Buffer.from(doc.markdown, "utf8"), mimeType: "text/markdown", fileName: `${threadId}.md` },
      version: doc.version,
      ...(thread.historyId ? { state: thread.historyId } : {}),
    };
  }

  /** The thread's files, downloaded one at a time. */
  private async *attachments(ctx: RunContext, threadId: string, messages: gmail_v1.Schema$Message[], subject: string): AsyncGenerator<ConnectorChange> {
    for (const a of attachmentsOf(messages)) {
      const itemKey = attachmentKey(threadId, a.messageId, a.partId, a.filename);
      // A message's parts never change: an attachment imported once stays as it is.
      const version = `${a.messageId}.${a.partId}.${a.size}`;
      if (ctx.known.get(itemKey)?.version === version) {
        yield { kind: "unchanged", itemKey };
        continue;
      }
      if (a.size > MAX_ATTACHMENT_BYTES) {
        yield { kind: "failure", itemKey, reason: `${a.filename} is ${Math.ceil(a.size / 1048576)} MB, over the 50 MB limit: not imported` };
        continue;
      }
      ctx.signal.throwIfAborted();
      const bytes = a.data !== undefined ? Buffer.from(a.data, "base64url") : await ctx.api.attachment(a.messageId, a.attachmentId!);
      if (!bytes) {
        yield { kind: "failure", itemKey, reason: `${a.filename}: the message carrying it is gone` };
        continue;
      }
      yield {
        kind: "upsert",
        itemKey,
        title: `${a.filename} (${subject})`,
        url: threadUrl(threadId),
        metadata: {
          subject: subject.slice(0, 2000),
          filename: a.filename.slice(0, 2000),
          ...(a.from ? { from: a.from.slice(0, 2000) } : {}),
          ...(a.date ? { date: a.date } : {}),
        },
        content: { bytes, mimeType: a.mimeType, fileName: a.filename },
        version,
      };
    }
  }

  /** Keeps the mailbox's Pub/Sub watch alive: a new one when none is known, the topic changed, or it ends within 48 hours. */
  async renew(conn: Connection, ctx: { now: Date; webhook: WebhookTarget }): Promise<JsonObject | undefined> {
    const topic = this.o.push.topic;
    if (!topic) return undefined;
    const config = conn.config ?? {};
    const ends = typeof config.watchExpiration === "string" ? Date.parse(config.watchExpiration) : NaN;
    if (config.watchTopic === topic && Number.isFinite(ends) && ends - ctx.now.getTime() > WATCH_RENEW_BEFORE_MS) return undefined;
    try {
      const w = await this.api(conn).watch(topic);
      return { ...config, watchTopic: topic, watchExpiration: new Date(w.expiration).toISOString(), watchHistoryId: w.historyId };
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  /** Stops the mailbox's notifications (the connection is going). */
  async unsubscribe(conn: Connection): Promise<void> {
    if (typeof conn.config?.watchExpiration !== "string") return;
    try {
      await this.api(conn).stop();
    } catch (e) {
      throw toConnectorError(e);
    }
  }

  readonly webhooks: WebhookReader = {
    read: () => ({ kind: "reject", status: 400, reason: "Gmail notifications arrive through the Pub/Sub push URL" }),
    route: (n: WebhookNotification) => this.push.route(n),
  };

  private api(conn: Connection, signal?: AbortSignal): GmailApi {
    return new GmailApi(this.o.authOf(conn), { rootUrl: this.o.apiUrl, ...(signal ? { signal } : {}) });
  }
}
