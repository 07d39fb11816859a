import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import type { OAuthFlow } from "../../src/app/oauth-flow";
import { ProviderEndpoints } from "../../src/app/provider-endpoints.usecase";
import { SyncEngine } from "../../src/app/sync-engine";
import type { Connector, WebhookNotification, WebhookRoute, WebhookVerdict } from "../../src/app/sync-ports";
import { applyConnectionEvent, type Connection, newConnection, patchConnection } from "../../src/domain/connection";
import { MemorySink } from "./sync-helpers";

const log = rootLogger({ level: "silent" });

/** A connector whose notification verdicts the test sets. */
class Notified implements Connector {
  route: WebhookRoute = { kind: "acknowledge", reason: "nothing" };
  verdict: WebhookVerdict = { kind: "sync" };
  /** When set, only notifications read with this secret pass (the others are refused 401). */
  signedWith: string | undefined;
  readonly secretsTried: string[] = [];
  readonly webhooks = {
    read: (_c: Connection, _n: WebhookNotification, secret: string): WebhookVerdict => {
      this.secretsTried.push(secret);
      return this.signedWith === undefined || secret === this.signedWith ? this.verdict : { kind: "reject", status: 401, reason: "bad signature" };
    },
    route: async () => this.route,
  };
  // eslint-disable-next-line require-yield
  async *changes() {
    return;
  }
}

describe("ProviderEndpoints.webhook", () => {
  let dir: string;
  let repo: SqliteConnectionRepository;
  let gmail: Notified;
  let endpoints: ProviderEndpoints;
  const t0 = Date.parse("2026-03-01T00:00:00.000Z");
  let now = t0;
  const clock: Clock = { now: () => new Date(now) };
  const note = (query: Record<string, string> = {}): WebhookNotification => ({ headers: {}, query, body: Buffer.from("{}") });

  const connection = async (tenantId: string, account: string | undefined, active = true): Promise<Connection> => {
    const iso = new Date(now).toISOString();
    let c = await repo.create(newConnection({ tenantId, provider: "gmail", namespace: "mail" }, iso));
    c = await repo.update(patchConnection(c, account ? { account } : {}, iso));
    return active ? repo.update(applyConnectionEvent(c, "authorized", iso)) : c;
  };
  const requested = async () =>
    (await repo.dueForSync(new Date(now + 1), { limit: 100 })).filter((d) => d.requested).map((d) => `${d.tenantId}/${d.connectionId}`);

  beforeEach(() => {
    now = t0;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-endpoints-"));
    repo = new SqliteConnectionRepository(dir);
    gmail = new Notified();
    const sync = new SyncEngine({ repo, sink: new MemorySink(), connectors: { gmail }, clock, logger: log });
    endpoints = new ProviderEndpoints({
      repo,
      sync,
      // Not reached by webhooks.
      oauth: {} as OAuthFlow,
      runSync: async () => undefined,
      webhookTarget: () => ({ url: "https://engram.example.com/hook", secret: "s", previousSecrets: ["s-old"] }),
      webhookDebounceMs: 0,
      clock,
      logger: log,
    });
  });
  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("routes a notification that names no connection to every active connection of the accounts it names, across tenants, once per delivery", async () => {
    const a = await connection("acme", "me@example.com");
    const b = await connection("other", "me@example.com");
    await connection("acme", "me@example.com", false);
    await connection("acme", "someone@example.com");
    gmail.route = { kind: "accounts", accounts: ["me@example.com", "me@example.com"], deliveryId: "m-1" };
    const first = await endpoints.webhook("gmail", note());
    expect(first).toMatchObject({ httpStatus: 202, syncsTriggered: 2 });
    expect((await requested()).sort()).toEqual([`acme/${a.id}`, `other/${b.id}`].sort());
    // The same delivery again: acknowledged, nothing more.
    expect(await endpoints.webhook("gmail", note())).toMatchObject({ httpStatus: 200, syncsTriggered: 0 });
    // An account nobody connected: acknowledged (the provider would retry a refusal for days).
    gmail.route = { kind: "accounts", accounts: ["nobody@example.com"] };
    expect(await endpoints.webhook("gmail", note())).toMatchObject({ httpStatus: 200, syncsTriggered: 0 });
  });

  it("passes on the connector's refusals and handshake answers, and refuses a provider with no router", async () => {
    gmail.route = { kind: "reject", status: 401, reason: "bad token" };
    expect(await endpoints.webhook("gmail", note())).toMatchObject({ httpStatus: 401, body: "bad token" });
    gmail.route = { kind: "respond", body: "challenge-123", contentType: "text/plain" };
    expect(await endpoints.webhook("gmail", note())).toEqual({ httpStatus: 200, body: "challenge-123", contentType: "text/plain", syncsTriggered: 0 });
    expect(await endpoints.webhook("notion", note())).toMatchObject({ httpStatus: 400 });
    expect(await endpoints.webhook("no-such-provider", note())).toMatchObject({ httpStatus: 400 });
    expect(await requested()).toEqual([]);
  });

  it("answers a handshake for a connection named in the URL, and syncs it on a verified notification", async () => {
    const c = await connection("acme", undefined);
    gmail.verdict = { kind: "respond", body: "validation-token", contentType: "text/plain" };
    expect(await endpoints.webhook("gmail", note({ tenant: "acme", connection: c.id }))).toMatchObject({ httpStatus: 200, body: "validation-token" });
    expect(await requested()).toEqual([]);
    gmail.verdict = { kind: "sync" };
    expect(await endpoints.webhook("gmail", note({ tenant: "other", connection: c.id }))).toMatchObject({ httpStatus: 404 });
    expect(await endpoints.webhook("gmail", note({ tenant: "acme", connection: c.id }))).toMatchObject({ httpStatus: 202, syncsTriggered: 1 });
    expect(await requested()).toEqual([`acme/${c.id}`]);
  });

  it("verifies with the newest key's secret, then with the ring's older ones (hooks registered before a rotation), and refuses any other", async () => {
    const c = await connection("acme", undefined);
    gmail.signedWith = "s";
    expect(await endpoints.webhook("gmail", note({ tenant: "acme", connection: c.id }))).toMatchObject({ httpStatus: 202 });
    expect(gmail.secretsTried).toEqual(["s"]);
    gmail.signedWith = "s-old";
    gmail.secretsTried.length = 0;
    expect(await endpoints.webhook("gmail", note({ tenant: "acme", connection: c.id }))).toMatchObject({ httpStatus: 202 });
    expect(gmail.secretsTried).toEqual(["s", "s-old"]);
    gmail.signedWith = "forged";
    expect(await endpoints.webhook("gmail", note({ tenant: "acme", connection: c.id }))).toMatchObject({ httpStatus: 401, body: "bad signature" });
  });
});
