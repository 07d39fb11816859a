import { InvalidArgumentError } from "@engram/kernel";
import { FakeGitHub } from "@engram/testing";
import { GitHubConnector, githubSignature, isDocFile } from "../../src/adapters/connectors/github/github-connector";
import type { ConnectorChange, WebhookNotification } from "../../src/app/sync-ports";
import { type Connection, type ConnectionItem, newConnection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { collectChanges } from "./sync-helpers";

/** The GitHub connector against a local fake of GitHub's REST API (tokens issued directly: the OAuth flow has its own tests). */
describe("GitHub connector", () => {
  const fake = new FakeGitHub();
  let connector: GitHubConnector;
  let token = "";
  beforeAll(async () => {
    const base = await fake.start();
    connector = new GitHubConnector({ baseUrl: base, authOf: () => ({ token: async () => token, refreshed: async () => token }) });
  });
  beforeEach(() => {
    token = fake.issueTokens().access_token;
  });
  afterAll(() => fake.stop());

  const conn = (config?: Connection["config"], cursor?: string): Connection => ({
    ...newConnection({ tenantId: "acme", provider: "github", namespace: "code", config }, "2026-05-01T00:00:00.000Z"),
    ...(cursor ? { cursor } : {}),
  });
  const collect = (c: Connection, known?: Map<string, ConnectionItem>) => collectChanges(connector, c, known);

  it("imports documentation files only", () => {
    const f = (p: string, size = 10) => isDocFile({ path: p, type: "blob", size });
    expect(["README.md", "docs/a.mdx", "guide.RST", "notes.txt", "x/y.adoc", "todo.org", "a.markdown"].every((p) => f(p))).toBe(true);
    expect(f("src/index.ts")).toBe(false);
    expect(f("node_modules/pkg/README.md")).toBe(false);
    expect(f("a/vendor/b.md")).toBe(false);
    expect(f("dist/README.md")).toBe(false);
    expect(f("big.md", 1024 * 1024 + 1)).toBe(false);
    expect(isDocFile({ path: "docs", type: "tree" })).toBe(false);
  });

  it("lists repositories in pages and says the total on the last page", async () => {
    fake.addRepo("octo/one");
    fake.addRepo("octo/two");
    fake.addRepo("octo/three");
    const p1 = await connector.selection.resources(conn(), { page: 1, perPage: 2 });
    expect(p1.resources).toHaveLength(2);
    expect(p1.totalCount).toBeUndefined();
    const p2 = await connector.selection.resources(conn(), { page: 2, perPage: 2 });
    expect(p2.totalCount).toBe(3);
    expect(Object.keys(p2.resources[0]!).sort()).toEqual(["default_branch", "description", "full_name", "id", "name", "private", "updated_at"]);
  });

  it("configures readable repositories only, registers one webhook each, and drops those of repositories removed", async () => {
    const a = fake.addRepo("octo/alpha", { files: { "README.md": "# A" } });
    const b = fake.addRepo("octo/beta");
    const hook = { url: "https://engram.example.com/v3/connections/webhooks/github?connection=n_1&tenant=acme", secret: "s3cret" };
    await expect(connector.selection.configure(conn(), [{ id: 4242, name: "octo/alpha" }], hook)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(connector.selection.configure(conn(), [{ id: a.id, name: "not a name" }], hook)).rejects.toBeInstanceOf(InvalidArgumentError);
    const first = await connector.selection.configure(
      conn(),
      [
        { id: a.id, name: "octo/alpha", defaultBranch: "main" },
        { id: b.id, name: "octo/beta" },
      ],
      hook,
    );
    expect(first.webhooksRegistered).toBe(2);
    expect(fake.hooks.filter((h) => h.repo === "octo/alpha" || h.repo === "octo/beta").map((h) => h.secret)).toEqual(["s3cret", "s3cret"]);
    const second = await connector.selection.configure(conn(first.config), [{ id: a.id, name: "octo/alpha" }], hook);
    expect(second.webhooksRegistered).toBe(1);
    expect(fake.hooks.filter((h) => h.repo === "octo/beta")).toHaveLength(0);
    expect(fake.hooks.filter((h) => h.repo === "octo/alpha")).toHaveLength(1);
  });

  it("skips an unchanged branch head with one call, diffs a changed tree, and deletes files of repositories no longer selected", async () => {
    const r = fake.addRepo("octo/gamma", { files: { "README.md": "# Gamma", "docs/a.md": "# A" } });
    const config = { repositories: [{ id: r.id, name: "octo/gamma", defaultBranch: "main" }] };
    const initial = await collect(conn(config));
    expect(initial.filter((c) => c.kind === "upsert").map((c) => (c as { itemKey: string }).itemKey)).toEqual([`${r.id}/README.md`, `${r.id}/docs/a.md`]);
    const cursor = initial.at(-1)!;
    expect(cursor.kind).toBe("cursor");
    const known = new Map<string, ConnectionItem>(
      initial
        .filter((c): c is Extract<ConnectorChange, { kind: "upsert" }> => c.kind === "upsert")
        .map((c) => [c.itemKey, { connectionId: "n", itemKey: c.itemKey, documentId: "d", version: c.version, updatedAt: "2026-05-01T00:00:00.000Z" }]),
    );
    const calls = fake.requests.length;
    expect(await collect(conn(config, (cursor as { cursor: string }).cursor), known)).toEqual([]);
    expect(fake.requests.length - calls).toBe(1);

    fake.putFile("octo/gamma", "docs/a.md", "# A, edited");
    fake.deleteFile("octo/gamma", "README.md");
    const diff = await collect(conn(config, (cursor as { cursor: string }).cursor), known);
    expect(diff.map((c) => `${c.kind}:${"itemKey" in c ? c.itemKey : ""}`)).toEqual([`upsert:${r.id}/docs/a.md`, `delete:${r.id}/README.md`, "cursor:"]);

    const dropped = await collect(conn({ repositories: [] }, (cursor as { cursor: string }).cursor), known);
    expect(dropped.filter((c) => c.kind === "delete")).toHaveLength(2);
  });

  it("registers again a webhook deleted at GitHub when it renews", async () => {
    const r = fake.addRepo("octo/zeta", { files: { "README.md": "# Z" } });
    const hook = { url: "https://engram.example.com/v3/connections/webhooks/github?connection=n_2&tenant=acme", secret: "s" };
    const { config } = await connector.selection.configure(conn(), [{ id: r.id, name: "octo/zeta" }], hook);
    expect(await connector.renew(conn(config), { now: new Date(), webhook: hook })).toEqual(config);
    fake.hooks.splice(
      fake.hooks.findIndex((h) => h.repo === "octo/zeta"),
      1,
    );
    const renewed = await connector.renew(conn(config), { now: new Date(), webhook: hook });
    expect(fake.hooks.filter((h) => h.repo === "octo/zeta")).toHaveLength(1);
    expect((renewed!.repositories as { hookId: number }[])[0]!.hookId).toBe(fake.hooks.find((h) => h.repo === "octo/zeta")!.id);
  });

  it("reports GitHub's refusal as auth_expired", async () => {
    const r = fake.addRepo("octo/delta", { files: { "README.md": "# D" } });
    token = "gho_not_a_token";
    const err = await collect(conn({ repositories: [{ id: r.id, name: "octo/delta", defaultBranch: "main" }] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).code).toBe("auth_expired");
  });

  describe("webhooks", () => {
    const secret = "webhook-secret";
    const c = conn({ repositories: [{ id: 7, name: "octo/eps", defaultBranch: "main" }] });
    const note = (payload: unknown, headers: Record<string, string> = {}, sign = secret): WebhookNotification => {
      const body = Buffer.from(JSON.stringify(payload));
      return {
        body,
        query: {},
        headers: { "x-github-event": "push", "x-github-delivery": "d-1", "x-hub-signature-256": githubSignature(sign, body), ...headers },
      };
    };
    const read = (n: WebhookNotification) => connector.webhooks.read(c, n, secret);

    it("asks for a sync on a signed push to a selected repository's default branch", () => {
      expect(read(note({ ref: "refs/heads/main", repository: { id: 7 } }))).toEqual({ kind: "sync", deliveryId: "d-1" });
    });
    it("refuses a wrong, missing or differently sized signature before reading the body", () => {
      expect(read(note({ ref: "refs/heads/main", repository: { id: 7 } }, {}, "other")).kind).toBe("reject");
      expect(read(note({ ref: "refs/heads/main", repository: { id: 7 } }, { "x-hub-signature-256": "" })).kind).toBe("reject");
      expect(read(note({ ref: "refs/heads/main", repository: { id: 7 } }, { "x-hub-signature-256": "sha256=ab" })).kind).toBe("reject");
      const n = note({ ref: "refs/heads/main", repository: { id: 7 } });
      n.body = Buffer.from(n.body.toString().replace("main", "mainx"));
      expect(read(n)).toMatchObject({ kind: "reject", status: 401 });
    });
    it("acknowledges pings, other branches, other repositories and other events without syncing", () => {
      expect(read(note({ zen: "hi" }, { "x-github-event": "ping" })).kind).toBe("acknowledge");
      expect(read(note({ ref: "refs/heads/feature", repository: { id: 7 } })).kind).toBe("acknowledge");
      expect(read(note({ ref: "refs/heads/main", repository: { id: 8 } })).kind).toBe("acknowledge");
      expect(read(note({ action: "opened" }, { "x-github-event": "issues" })).kind).toBe("acknowledge");
    });
  });
});
