import type { DocumentStatus, JsonObject } from "@engram/kernel";
import type { Connection, ConnectionItem } from "../domain/connection";
import type { TokenSet } from "../domain/oauth";

/**
 * What a connector reports while it syncs one connection, item by item; the
 * sync engine applies each change durably (document first, then the ledger)
 * before asking for the next.
 */
export type ConnectorChange =
  /** New or changed content: (re-)import it as the item's document. */
  | {
      kind: "upsert";
      itemKey: string;
      url?: string;
      title?: string;
      /** Where the item lives at the provider (a repository file's owner/repo/path): the document's filepath. */
      filepath?: string;
      /** Provider facts kept as the document's filterable metadata (a Notion row's properties, a message's participants); flat. */
      metadata?: ItemMetadata;
      /** The bytes as the provider serves them; the pipeline extracts them like an uploaded file. */
      content: { bytes: Uint8Array; mimeType: string; fileName: string };
      /** ETag, revision or content hash: equal versions are not imported again. */
      version: string;
      /** Opaque per-item state handed back on the next sync (validators, links). */
      state?: string;
    }
  /** Checked and unchanged; its state may have moved (new validators, links). */
  | { kind: "unchanged"; itemKey: string; state?: string }
  /** The provider no longer has the item (deleted, unshared, 404/410): its document goes. */
  | { kind: "delete"; itemKey: string; reason: string }
  /** This item could not be read; the sync goes on and the run records it. */
  | { kind: "failure"; itemKey: string; reason: string }
  /** Everything reported before is applied: the provider position to resume from next time. */
  | { kind: "cursor"; cursor: string };

/**
 * A connection's OAuth access token (OAuthFlow): the stored one, refreshed
 * before it expires; `refreshed(failed)` after the provider answered 401 to
 * `failed` (refreshes once, persisting a rotated refresh token; throws
 * ConnectorError auth_expired when the provider refuses).
 */
export interface ProviderAuth {
  token(): Promise<string>;
  refreshed(failed: string): Promise<string>;
}

/** Who a fresh authorization belongs to, read with its first access token. */
export interface AccountIdentity {
  /** Shown on the connection. */
  email?: string;
  /** The provider-side account (Connection.account): how notifications that name no connection find it. */
  account?: string;
  /** Provider facts kept in the connection's config (a Notion workspace's name, a OneDrive drive id). */
  config?: JsonObject;
}

/**
 * Flat metadata of an imported item (string, finite number or boolean
 * values). `source` and `url` are the sink's own and win over the same keys here.
 */
export type ItemMetadata = Record<string, string | number | boolean>;

/** An item a connector is about to import, as the import policy judges it. */
export interface ImportItem {
  itemKey: string;
  version: string;
  title?: string;
  filepath?: string;
  url?: string;
  content: { bytes: Uint8Array; mimeType: string };
}

/**
 * Whether a new or changed item is imported: the organisation's import
 * filter (includeItems / excludeItems) and, when asked for and a model is
 * configured, its filter prompt. An item it refuses is not imported, and
 * its document goes when an earlier version was imported.
 */
export interface ImportPolicy {
  admits(item: ImportItem): Promise<{ admit: true } | { admit: false; reason: string }>;
}

/** A provider's sync: the changes since the known items, in an order it chooses. */
export interface Connector {
  /**
   * OAuth connectors: the account behind the tokens of a completed consent
   * (`tokens.extra` holds what the token answer carried besides the tokens:
   * Notion's owner and workspace).
   */
  identify?(tokens: TokenSet): Promise<AccountIdentity>;
  /** Stops the connection's provider subscriptions (watch channels, Graph subscriptions); best effort, the connection is going. */
  unsubscribe?(conn: Connection): Promise<void>;
  changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange>;
  /** Whether the connection has anything to sync yet (GitHub: not before repositories are configured). Absent = always. */
  ready?(conn: Connection): boolean;
  /** Connectors whose content is chosen after authorization (GitHub's repositories). */
  selection?: ResourceSelection;
  /** Connectors with real-time notifications. */
  webhooks?: WebhookReader;
  /**
   * Keeps the connection's provider subscriptions (webhooks, watch channels)
   * alive: registers again those that are gone and renews those that expire
   * soon. Returns the connection's new config when it changed. The sync
   * engine calls it at the start of a run once RENEWAL_INTERVAL_MS has passed
   * since the last renewal (config.renewedAt), so with the 4-hour schedule a
   * subscription is checked at least daily.
   */
  renew?(conn: Connection, ctx: { now: Date; webhook: WebhookTarget }): Promise<JsonObject | undefined>;
}

/** Where a connection's notifications go and the secret they are signed with. */
export interface WebhookTarget {
  url: string;
  /** The secret new registrations carry (derived from the newest secret key). */
  secret: string;
  /** Secrets derived from the ring's older keys: notifications signed with them still verify until the key leaves the ring. */
  previousSecrets?: string[];
}

/** How often a connection's subscriptions are checked and renewed. */
export const RENEWAL_INTERVAL_MS = 24 * 3_600_000;

/** What a connection's user picks from after authorization, and registering the pick (webhooks included). */
export interface ResourceSelection {
  /** One page of what the account can select, in the provider's shape. */
  resources(conn: Connection, p: { page: number; perPage: number }): Promise<{ resources: JsonObject[]; totalCount?: number }>;
  /**
   * Checks the selection with the provider and registers a webhook per
   * resource at `webhook.url`, signed with `webhook.secret`, replacing those
   * of an earlier selection; returns the connection's new config.
   * InvalidArgumentError for a selection the account cannot use.
   */
  configure(conn: Connection, selection: JsonObject[], webhook: WebhookTarget): Promise<{ config: JsonObject; webhooksRegistered: number; message: string }>;
  /** Removes the webhooks the connection registered (best effort; the connection is going). */
  unconfigure(conn: Connection): Promise<void>;
}

/** A provider's notification as the gateway received it. */
export interface WebhookNotification {
  /** Header names lower-cased. */
  headers: Record<string, string>;
  query: Record<string, string>;
  body: Buffer;
}

/**
 * What to do with a notification: sync (once per delivery id), acknowledge
 * and do nothing, answer a handshake (Graph's validationToken echoed as
 * text/plain), or refuse it (503: the deployment lacks what verifies it, so
 * it is never accepted unverified).
 */
export type WebhookVerdict =
  | { kind: "sync"; deliveryId?: string }
  | { kind: "acknowledge"; reason: string }
  | { kind: "respond"; body: string; contentType: string }
  | { kind: "reject"; status: 400 | 401 | 403 | 503; reason: string };

/**
 * Which connections a notification is about, for providers that send every
 * account's notifications to one URL (Gmail's Pub/Sub push, Notion's
 * integration webhook): verified first, then the provider-side account
 * (Connection.account) it names; or a verdict for the delivery as a whole
 * (a handshake, a refusal).
 */
export type WebhookRoute = { kind: "accounts"; accounts: string[]; deliveryId?: string } | Exclude<WebhookVerdict, { kind: "sync" }>;

export interface WebhookReader {
  /**
   * Verifies (`secret`: the connection's webhook secret, as registered with
   * the provider) and reads a notification for `conn`, named in the webhook
   * URL (`?tenant=&connection=`).
   */
  read(conn: Connection, n: WebhookNotification, secret: string): WebhookVerdict | Promise<WebhookVerdict>;
  /**
   * Providers whose notifications do not name the connection in the URL:
   * verifies the delivery and names the accounts it concerns; the endpoint
   * then requests a sync of each active connection of those accounts.
   */
  route?(n: WebhookNotification): Promise<WebhookRoute>;
}

/** A document a connection imported, as the connection endpoints list it. */
export interface ImportedDocument {
  id: string;
  status: DocumentStatus;
  title?: string;
  summary?: string;
  contentType?: string;
  createdAt: string;
  updatedAt: string;
}

/** An imported item as it becomes a document. */
export interface SinkItem {
  customId: string;
  title?: string;
  url?: string;
  filepath?: string;
  metadata?: ItemMetadata;
  content: { bytes: Uint8Array; mimeType: string; fileName: string };
}

/** Where imported items become documents: ingestion, through its gRPC API like any other client. */
export interface DocumentSink {
  /** Adds or replaces the item's document (same caller id → same document); returns the document id. */
  put(conn: Connection, item: SinkItem): Promise<string>;
  /** Deletes documents by id within the connection's namespace; unknown ids are not an error. */
  remove(conn: Connection, documentIds: string[]): Promise<void>;
  /** Deletes every document the connection imported; returns how many. */
  removeAll(tenantId: string, connectionId: string): Promise<number>;
  /** The documents the connection imported, newest first. */
  list(tenantId: string, connectionId: string): Promise<ImportedDocument[]>;
}
