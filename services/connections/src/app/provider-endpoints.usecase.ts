import { type Clock, InvalidArgumentError, type JsonObject, NotFoundError, UnimplementedError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { type Connection, type ConnectionProvider, isConnectionProvider, type SyncTrigger } from "../domain/connection";
import { isOAuthConnector } from "../domain/oauth";
import { type ConnectionRepository, patchStored } from "./connection-ports";
import type { CallbackOutcome, OAuthFlow } from "./oauth-flow";
import type { SyncEngine, SyncOutcome } from "./sync-engine";
import type { ResourceSelection, WebhookNotification, WebhookTarget, WebhookVerdict } from "./sync-ports";

/** What the gateway answers a provider's notification with. */
export interface WebhookAnswer {
  httpStatus: number;
  body: string;
  /** text/plain unless the provider expects another (absent = text/plain). */
  contentType?: string;
  syncsTriggered: number;
}

const answer = (httpStatus: number, body: string, syncsTriggered = 0): WebhookAnswer => ({ httpStatus, body, syncsTriggered });

/** Longest a delivery id may be (GitHub's are UUIDs). */
const DELIVERY_ID_MAX = 200;

/**
 * What the provider side of a connection calls or needs: choosing what to
 * sync (resources and configure: GitHub's repositories), the OAuth callback,
 * and webhooks. A notification is verified by the provider's connector with
 * the connection's webhook secret, de-duplicated by delivery id, and turned
 * into a durable, debounced sync request (the scheduler runs it, trigger
 * `webhook`), so a burst of pushes costs one sync and a restart loses none.
 */
export class ProviderEndpoints {
  constructor(
    private readonly deps: {
      repo: ConnectionRepository;
      sync: SyncEngine;
      oauth: OAuthFlow;
      /** Starts a tracked background sync (ConnectionsUseCases.runSync). */
      runSync: (tenantId: string, connectionId: string, trigger: SyncTrigger) => Promise<SyncOutcome | undefined>;
      /** Where a connection's webhooks go and their secret (derived, never stored). */
      webhookTarget: (conn: Connection) => WebhookTarget;
      /** Wait after a notification before its sync, so that a burst folds into one. */
      webhookDebounceMs: number;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async resources(tenantId: string, connectionId: string, page: number, perPage: number) {
    const { conn, selection } = await this.selectable(tenantId, connectionId, "resource fetching");
    if (!Number.isInteger(page) || page < 1 || page > 10_000) throw new InvalidArgumentError("page: an integer from 1");
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) throw new InvalidArgumentError("per_page: an integer from 1 to 100");
    return selection.resources(conn, { page, perPage });
  }

  /** Stores the selection (webhooks registered with the provider) and starts the initial sync. */
  async configure(tenantId: string, connectionId: string, resources: JsonObject[]) {
    const { conn, selection } = await this.selectable(tenantId, connectionId, "resource configuration");
    const webhook = this.deps.webhookTarget(conn);
    const out = await selection.configure(conn, resources, webhook);
    await patchStored(this.deps.repo, conn, { config: { ...out.config, renewedAt: this.deps.clock.now().toISOString() } }, () =>
      this.deps.clock.now().toISOString(),
    );
    void this.deps.runSync(tenantId, connectionId, "initial");
    return { success: true, message: out.message, webhooksRegistered: out.webhooksRegistered };
  }

  /** The OAuth callback; a connection with nothing left to choose starts its initial sync. */
  async callback(provider: string, p: { code: string; state: string; error?: string; errorDescription?: string }): Promise<CallbackOutcome> {
    if (!isOAuthConnector(provider)) throw new InvalidArgumentError(`${provider} does not authorize through OAuth`);
    const out = await this.deps.oauth.complete(provider, p);
    const conn = out.connection;
    if (conn && !this.deps.sync.connector(conn.provider)?.selection) void this.deps.runSync(conn.tenantId, conn.id, "initial");
    return out;
  }

  /** A provider's notification: verified, de-duplicated, then a debounced sync request. */
  async webhook(provider: string, n: WebhookNotification): Promise<WebhookAnswer> {
    const tenantId = n.query.tenant;
    const connectionId = n.query.connection;
    if (!tenantId || !connectionId) return this.routedWebhook(provider, n);
    const conn = await this.deps.repo.get(tenantId, connectionId);
    const reader = conn?.provider === provider ? this.deps.sync.connector(conn.provider)?.webhooks : undefined;
    if (!conn || !reader) return answer(404, "no such connection");
    const target = this.deps.webhookTarget(conn);
    // The newest key's secret first; a hook registered before a key rotation carries an older one.
    let verdict = await reader.read(conn, n, target.secret);
    for (const previous of target.previousSecrets ?? []) {
      if (verdict.kind !== "reject" || verdict.status === 400) break;
      const again = await reader.read(conn, n, previous);
      if (again.kind !== "reject") verdict = again;
    }
    if (verdict.kind !== "sync") return this.settled(provider, verdict, connectionId);
    if (conn.status !== "active") return answer(200, `the connection is ${conn.status}: nothing synced`);
    return (await this.requestSync(conn, verdict.deliveryId)) ?? answer(202, "sync scheduled", 1);
  }

  /** A notification for every account at one URL (Gmail, Notion): verified by the connector, then each connection of the named accounts. */
  private async routedWebhook(provider: string, n: WebhookNotification): Promise<WebhookAnswer> {
    const route = isConnectionProvider(provider) ? await this.deps.sync.connector(provider)?.webhooks?.route?.(n) : undefined;
    if (!route) return answer(400, "the webhook URL names no connection");
    if (route.kind !== "accounts") return this.settled(provider, route);
    let triggered = 0;
    for (const account of new Set(route.accounts)) {
      for (const conn of await this.deps.repo.findByAccount(provider as ConnectionProvider, account)) {
        if (conn.status !== "active") continue;
        const refused = await this.requestSync(conn, route.deliveryId);
        if (!refused) triggered++;
      }
    }
    // Acknowledged either way: a provider retries a failing push (Pub/Sub for days), and an unknown account is not its fault.
    return triggered ? answer(202, "sync scheduled", triggered) : answer(200, "no active connection for this account");
  }

  private settled(provider: string, verdict: Exclude<WebhookVerdict, { kind: "sync" }>, connectionId?: string): WebhookAnswer {
    if (verdict.kind === "reject") {
      this.deps.logger.warn({ connectionId, provider, reason: verdict.reason }, "refused a webhook");
      return answer(verdict.status, verdict.reason);
    }
    if (verdict.kind === "respond") return { httpStatus: 200, body: verdict.body, contentType: verdict.contentType, syncsTriggered: 0 };
    return answer(200, verdict.reason);
  }

  /** De-duplicates the delivery for the connection and stores a debounced sync request; an answer when it stops here. */
  private async requestSync(conn: Connection, deliveryId: string | undefined): Promise<WebhookAnswer | undefined> {
    const now = this.deps.clock.now();
    if (deliveryId !== undefined) {
      if (deliveryId.length === 0 || deliveryId.length > DELIVERY_ID_MAX) return answer(400, "the delivery id is not one a provider sends");
      if (!(await this.deps.repo.recordDelivery(conn.tenantId, conn.id, deliveryId, now))) return answer(200, "already received");
    }
    await this.deps.repo.requestSync(conn.tenantId, conn.id, now, new Date(now.getTime() + this.deps.webhookDebounceMs));
    return undefined;
  }

  private async selectable(tenantId: string, connectionId: string, what: string): Promise<{ conn: Connection; selection: ResourceSelection }> {
    const conn = await this.deps.repo.get(tenantId, connectionId);
    if (!conn) throw new NotFoundError(`connection ${connectionId} not found`);
    const selection = this.deps.sync.connector(conn.provider)?.selection;
    if (!selection) throw new UnimplementedError(`${what} for ${conn.provider}`, "only GitHub connections choose resources");
    if (!this.deps.oauth.hasTokens(conn))
      throw new InvalidArgumentError("the connection is missing a refresh token", "complete the authorization at the connection's authLink first");
    return { conn, selection };
  }
}
