import { type Clock, InvalidArgumentError, type JsonObject, NotFoundError, UnimplementedError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import {
  applyConnectionEvent,
  type Connection,
  type ConnectionMetadata,
  type ConnectionProvider,
  isConnectionProvider,
  newConnection,
  newConnectionId,
  type NewConnectionInput,
  type SyncRun,
  type SyncTrigger,
} from "../domain/connection";
import { type ConnectionRepository, connectionCredentialsContext } from "./connection-ports";
import type { SecretSealer } from "./ports";
import type { OAuthFlow } from "./oauth-flow";
import { isOAuthConnector, type OAuthConnector } from "../domain/oauth";
import { type SyncEngine, type SyncOutcome, SYNC_RUNS_KEPT } from "./sync-engine";
import type { DocumentSink, ImportedDocument } from "./sync-ports";

/** What a create call gives: the new connection's fields, and where the user goes after consent. */
export type CreateConnectionInput = Pick<NewConnectionInput, "tenantId" | "provider" | "namespace" | "containerTags" | "documentLimit" | "metadata"> & {
  redirectUrl?: string;
};

export interface CreatedConnection {
  connection: Connection;
  /** Where the user goes next: the provider's consent page, or (nothing to authorize) the redirect URL. */
  authLink: string;
  expiresIn: string;
  redirectsTo?: string;
}

/** A connection with its most recent sync run, as the API shows it. */
export interface ConnectionWithRun {
  connection: Connection;
  lastRun?: SyncRun;
}

/** The web crawler's start URL: an absolute http(s) URL given at creation as metadata.startUrl. */
function startUrlOf(metadata: Record<string, unknown> | undefined): string {
  const v = metadata?.startUrl;
  if (typeof v !== "string" || v.length === 0)
    throw new InvalidArgumentError("a web-crawler connection needs metadata.startUrl", "the address crawling starts from, e.g. https://docs.example.com/");
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new InvalidArgumentError(`metadata.startUrl ${JSON.stringify(v.slice(0, 200))} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError("metadata.startUrl must be an http or https URL");
  if (url.username || url.password) throw new InvalidArgumentError("metadata.startUrl must not carry credentials");
  return url.toString();
}

/**
 * Checks a direct connection's credentials with the provider before the
 * connection exists (a refused key is a 400). Providers whose connection
 * needs more than a key (S3: bucket, prefix, region, endpoint in
 * `metadata`) get the metadata too, and answer the config the connection
 * keeps and the metadata it shows.
 */
export type CredentialCheck = (
  provider: ConnectionProvider,
  credentials: string,
  metadata?: ConnectionMetadata,
) => Promise<void | { config?: JsonObject; metadata?: ConnectionMetadata }>;

/** Providers whose connection takes an API key, given at creation as `metadata.apiKey` (never stored in the metadata). */
const API_KEY_PROVIDERS: ReadonlySet<ConnectionProvider> = new Set(["granola"]);

/** The access keys of an S3 connection, given at creation as metadata (sealed as its credentials, never stored in the metadata). */
const S3_KEY_FIELDS = ["accessKeyId", "secretAccessKey"] as const;

/** The S3 access keys taken out of the creation metadata, as the credentials to seal (JSON), and the metadata left. */
function s3KeysOf(metadata: Record<string, unknown> | undefined): { credentials: string; rest: Record<string, unknown> } {
  const { accessKeyId, secretAccessKey, ...rest } = metadata ?? {};
  for (const [name, v] of [
    ["accessKeyId", accessKeyId],
    ["secretAccessKey", secretAccessKey],
  ] as const)
    if (typeof v !== "string" || v.length === 0 || v.length > 1024)
      throw new InvalidArgumentError(
        `an s3 connection needs metadata.${name}`,
        `metadata: bucket, prefix, region, endpoint, and the access keys ${S3_KEY_FIELDS.join(" and ")}; the keys are checked with the provider, sealed at rest and never returned`,
      );
  return { credentials: JSON.stringify({ accessKeyId, secretAccessKey }), rest };
}

/**
 * The connection lifecycle: create, read, list, delete (with or without the
 * documents it imported) and manual imports. Syncs run in the background
 * (`SyncEngine`); `whenIdle` waits for them (shutdown, tests).
 */
export class ConnectionsUseCases {
  private readonly running = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: {
      repo: ConnectionRepository;
      sink: DocumentSink;
      sync: SyncEngine;
      clock: Clock;
      logger: Logger;
      /** Seals direct credentials (API keys) at rest, bound to tenant and connection. */
      sealer: SecretSealer;
      checkCredentials: CredentialCheck;
      oauth: OAuthFlow;
    },
  ) {}

  async create(input: CreateConnectionInput): Promise<CreatedConnection> {
    if (!isConnectionProvider(input.provider)) throw new InvalidArgumentError(`unknown provider ${JSON.stringify(input.provider)}`);
    if (!this.deps.sync.supports(input.provider))
      throw new UnimplementedError(`connecting ${input.provider}`, "this replica was started without that connector");
    // OAuth: the redirect is checked once the provider can be connected at all (OAuthFlow.begin).
    if (isOAuthConnector(input.provider)) return this.createOAuth(input, input.provider);
    // The caller's redirect: an allowed origin only (a direct connection answers it as its authLink).
    const redirectUrl = input.redirectUrl === undefined ? undefined : await this.deps.oauth.checkRedirect(input.tenantId, input.redirectUrl);
    let config: JsonObject | undefined = input.provider === "web-crawler" ? { startUrl: startUrlOf(input.metadata) } : undefined;
    let metadata = input.metadata;
    const id = newConnectionId();
    let sealedCredentials: Uint8Array | undefined;
    if (API_KEY_PROVIDERS.has(input.provider)) {
      const { apiKey, ...rest } = input.metadata ?? {};
      if (typeof apiKey !== "string" || apiKey.length === 0 || apiKey.length > 1024)
        throw new InvalidArgumentError(
          `a ${input.provider} connection needs metadata.apiKey`,
          "the provider's API key; it is checked with the provider, sealed at rest and never returned",
        );
      await this.deps.checkCredentials(input.provider, apiKey);
      metadata = rest;
      sealedCredentials = this.deps.sealer.seal(apiKey, connectionCredentialsContext(input.tenantId, id));
    }
    if (input.provider === "s3") {
      // The access keys are sealed; the bucket and its settings become the config, checked with the provider first.
      const { credentials, rest } = s3KeysOf(input.metadata);
      // The rest of the request is validated before any provider work, so that a bad request is refused as such.
      const draft = newConnection(
        { tenantId: input.tenantId, provider: input.provider, namespace: input.namespace, containerTags: input.containerTags, metadata: rest },
        this.deps.clock.now().toISOString(),
        id,
      );
      const checked = await this.deps.checkCredentials(input.provider, credentials, draft.metadata);
      config = checked?.config;
      metadata = checked?.metadata ?? draft.metadata;
      sealedCredentials = this.deps.sealer.seal(credentials, connectionCredentialsContext(input.tenantId, id));
    }
    const now = this.deps.clock.now().toISOString();
    const conn = await this.deps.repo.create(
      newConnection(
        {
          tenantId: input.tenantId,
          provider: input.provider,
          namespace: input.namespace,
          containerTags: input.containerTags,
          documentLimit: input.documentLimit,
          metadata,
          config,
          sealedCredentials,
        },
        now,
        id,
      ),
    );
    // A direct connection is established at once: its initial sync starts now.
    this.background(conn.tenantId, conn.id, "initial");
    return { connection: conn, authLink: redirectUrl ?? "", expiresIn: "", ...(redirectUrl ? { redirectsTo: redirectUrl } : {}) };
  }

  /** An OAuth connection: stored pending, with the consent link the user follows (its state and PKCE verifier sealed with it). */
  private async createOAuth(input: CreateConnectionInput, provider: OAuthConnector): Promise<CreatedConnection> {
    const id = newConnectionId();
    const base = { tenantId: input.tenantId, provider, namespace: input.namespace, containerTags: input.containerTags, documentLimit: input.documentLimit };
    const now = this.deps.clock.now().toISOString();
    // Validated before any provider work, so that a bad request is refused as such.
    newConnection({ ...base, metadata: input.metadata }, now, id);
    const link = await this.deps.oauth.begin({ id, tenantId: input.tenantId }, provider, input.redirectUrl);
    const conn = await this.deps.repo.create(newConnection({ ...base, metadata: input.metadata, sealedCredentials: link.sealedCredentials }, now, id));
    return { connection: conn, authLink: link.authLink, expiresIn: link.expiresIn, ...(input.redirectUrl ? { redirectsTo: input.redirectUrl } : {}) };
  }

  async list(tenantId: string, containerTags: string[]): Promise<ConnectionWithRun[]> {
    const conns = await this.deps.repo.list(tenantId, containerTags.length ? { containerTags } : undefined);
    const runs = await this.deps.repo.lastRuns(
      tenantId,
      conns.map((c) => c.id),
    );
    return conns.map((connection) => ({ connection, lastRun: runs.get(connection.id) }));
  }

  async get(tenantId: string, connectionId: string): Promise<ConnectionWithRun> {
    const connection = await this.deps.repo.get(tenantId, connectionId);
    if (!connection) throw new NotFoundError(`connection ${connectionId} not found`);
    return { connection, lastRun: await this.deps.repo.lastRun(tenantId, connectionId) };
  }

  /**
   * The connection's sync runs, newest first, at most `limit` (1 to
   * SYNC_RUNS_KEPT: no more are kept). NotFoundError for an unknown
   * connection or another tenant's, as `get`.
   */
  async runs(tenantId: string, connectionId: string, limit: number): Promise<SyncRun[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > SYNC_RUNS_KEPT) throw new InvalidArgumentError(`limit must be an integer from 1 to ${SYNC_RUNS_KEPT}`);
    const connection = await this.deps.repo.get(tenantId, connectionId);
    if (!connection) throw new NotFoundError(`connection ${connectionId} not found`);
    return this.deps.repo.listRuns(tenantId, connectionId, limit);
  }

  async getByTags(tenantId: string, provider: string, containerTags: string[]): Promise<ConnectionWithRun> {
    const [connection] = await this.byTags(tenantId, provider, containerTags);
    if (!connection) throw new NotFoundError(`no ${provider} connection for container tags ${containerTags.join(", ")}`);
    return { connection, lastRun: await this.deps.repo.lastRun(tenantId, connection.id) };
  }

  /** Deletes the connection; its documents too unless `deleteDocuments` is false. */
  async delete(tenantId: string, connectionId: string, deleteDocuments: boolean): Promise<{ connection: Connection; deletedDocuments: number }> {
    const { repo, sink, clock } = this.deps;
    const conn = await repo.get(tenantId, connectionId);
    if (!conn) throw new NotFoundError(`connection ${connectionId} not found`);
    // Deleting first: no new sync starts; one under way finds the connection gone at its next page.
    const deleting = conn.status === "deleting" ? conn : await repo.update(applyConnectionEvent(conn, "deletion_requested", clock.now().toISOString()));
    // The provider stops notifying (webhooks removed, channels and subscriptions stopped); best effort: a failure must not keep the connection.
    const connector = this.deps.sync.connector(conn.provider);
    for (const stop of [
      connector?.selection && (() => connector.selection!.unconfigure(deleting)),
      connector?.unsubscribe && (() => connector.unsubscribe!(deleting)),
    ])
      if (stop) await stop().catch((err: unknown) => this.deps.logger.warn({ err, connectionId }, "could not remove the connection's provider subscriptions"));
    let deletedDocuments = deleteDocuments ? await sink.removeAll(tenantId, connectionId) : 0;
    await repo.delete(tenantId, connectionId);
    // A page a running sync imported between the two steps is removed too.
    if (deleteDocuments) deletedDocuments += await sink.removeAll(tenantId, connectionId);
    return { connection: deleting, deletedDocuments };
  }

  async deleteByProvider(tenantId: string, provider: string, containerTags: string[], deleteDocuments: boolean) {
    const [conn] = await this.byTags(tenantId, provider, containerTags);
    if (!conn) throw new NotFoundError(`no ${provider} connection for container tags ${containerTags.join(", ")}`);
    return this.delete(tenantId, conn.id, deleteDocuments);
  }

  /** Starts a manual sync of the provider's connections (those with the given container tags, or all). */
  async import(tenantId: string, provider: string, containerTags: string[]): Promise<string[]> {
    const conns = await this.ofProvider(tenantId, provider, containerTags);
    for (const c of conns) this.background(tenantId, c.id, "manual");
    return conns.map((c) => c.id);
  }

  async listDocuments(tenantId: string, provider: string, containerTags: string[]): Promise<ImportedDocument[]> {
    const conns = await this.ofProvider(tenantId, provider, containerTags);
    return (await Promise.all(conns.map((c) => this.deps.sink.list(tenantId, c.id)))).flat();
  }

  /** Waits for the syncs under way (after `stop`, they end at their next item). */
  async whenIdle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Starts no sync any more and aborts the syncs under way (they end at their next item, recorded as interrupted); does not wait. */
  abort(reason: unknown = new Error("the connections service is stopping")): void {
    if (!this.stopping.signal.aborted) this.stopping.abort(reason);
  }

  async stop(): Promise<void> {
    this.abort();
    await this.whenIdle();
  }

  /**
   * Syncs the connection in the background exactly as a manual import does
   * (tracked: `stop` aborts and awaits it) and resolves when the sync ends:
   * its outcome, or undefined when it could not run (logged) or the service
   * is stopping. The sync scheduler's way in, with trigger `scheduled`.
   */
  runSync(tenantId: string, connectionId: string, trigger: SyncTrigger): Promise<SyncOutcome | undefined> {
    return this.background(tenantId, connectionId, trigger);
  }

  private background(tenantId: string, connectionId: string, trigger: SyncTrigger): Promise<SyncOutcome | undefined> {
    // Stopping: no new sync (a connection that never synced is picked up by the scheduler after the restart).
    if (this.stopping.signal.aborted) return Promise.resolve(undefined);
    const p: Promise<SyncOutcome | undefined> = this.deps.sync
      .run(tenantId, connectionId, trigger, this.stopping.signal)
      .catch((err: unknown) => {
        this.deps.logger.error({ err, connectionId }, "sync could not run");
        return undefined;
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
    return p;
  }

  private provider(provider: string): ConnectionProvider {
    if (!isConnectionProvider(provider)) throw new InvalidArgumentError(`unknown provider ${JSON.stringify(provider)}`);
    return provider;
  }

  private byTags(tenantId: string, provider: string, containerTags: string[]): Promise<Connection[]> {
    if (containerTags.length === 0) throw new InvalidArgumentError("containerTags must name at least one container tag");
    return this.deps.repo.findByProviderAndTags(tenantId, this.provider(provider), containerTags);
  }

  private async ofProvider(tenantId: string, provider: string, containerTags: string[]): Promise<Connection[]> {
    const p = this.provider(provider);
    return this.deps.repo.list(tenantId, { provider: p, ...(containerTags.length ? { containerTags } : {}) });
  }
}
