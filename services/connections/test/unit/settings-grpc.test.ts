import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import { connect, fromProtoValue, GrpcServer, type ServiceClient, SettingsService, toProtoValue } from "@engram/grpc";
import { rootLogger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { loadConnectionsConfig } from "../../src/config";
import { createConnectionsModule, embeddedConnectionRepository, embeddedSettingsRepository } from "../../src/module";

const log = rootLogger({ level: "silent" });
const ctx = (tenantId: string) => ({ tenantId, requestId: "req-1" });

async function rejectionOf(p: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await p;
  } catch (err) {
    return err as grpc.ServiceError;
  }
  throw new Error("expected the call to fail");
}

describe("SettingsService over gRPC (connections module)", () => {
  let dir: string;
  let module: ServiceModule;
  const server = new GrpcServer(log);
  let client: ServiceClient<typeof SettingsService>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-grpc-"));
    module = createConnectionsModule({
      config: loadConnectionsConfig({ ENGRAM_DATA_DIR: dir }),
      logger: log,
      settings: embeddedSettingsRepository({ ENGRAM_DATA_DIR: dir }),
      connections: embeddedConnectionRepository({ ENGRAM_DATA_DIR: dir }),
    });
    for (const impl of module.grpcServices!) server.add(impl);
    const port = await server.bind("127.0.0.1:0");
    await module.start!({ grpcPort: port });
    server.setServing(true);
    client = connect(SettingsService, `127.0.0.1:${port}`, { deadlineMs: 5000 });
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
    await module.stop!();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("generated the secret key in the data directory", () => {
    expect(fs.statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("answers every provider unset and no buckets for a new tenant", async () => {
    const res = await client.GetSettings({ context: ctx("fresh") });
    const s = res.settings!;
    expect(s.filterPrompt).toBeUndefined();
    expect(s.workspacePrompt).toBeUndefined();
    expect(s.chunkSize).toBeUndefined();
    expect(s.excludeItems).toBeNull();
    expect(s.profileBuckets).toEqual([]);
    expect(s.oauthApps.map((a) => [a.provider, a.clientSecretSet, a.clientId])).toEqual([
      ["PROVIDER_GOOGLE_DRIVE", false, undefined],
      ["PROVIDER_NOTION", false, undefined],
      ["PROVIDER_ONEDRIVE", false, undefined],
      ["PROVIDER_GITHUB", false, undefined],
    ]);
  });

  it("updates masked fields, clears masked-but-unset ones and keeps unmasked ones", async () => {
    const first = await client.UpdateSettings({
      context: ctx("acme"),
      filterPrompt: "engineering",
      chunkSize: 0,
      excludeItems: toProtoValue({ folders: ["a", "b"] }),
      workspacePrompt: "ignored: not in the mask",
      profileBuckets: [{ key: "work", description: "" }],
      oauthApps: [{ provider: "PROVIDER_GITHUB", clientId: "gh-id", clientSecret: "gh-secret-value", updateMask: ["client_id", "client_secret"] }],
      updateMask: ["filter_prompt", "chunk_size", "exclude_items", "profile_buckets"],
    });
    expect(first.tenantId).toBe("acme");
    expect(first.orgSlug).toBe("acme");
    expect(first.updatedFields).toEqual([
      "exclude_items",
      "filter_prompt",
      "chunk_size",
      "profile_buckets",
      "oauth_apps.github.client_id",
      "oauth_apps.github.client_secret",
    ]);
    expect(first.updated!.filterPrompt).toBe("engineering");
    expect(first.updated!.chunkSize).toBe(0);
    expect(first.updated!.workspacePrompt).toBeUndefined();
    expect(fromProtoValue(first.updated!.excludeItems)).toEqual({ folders: ["a", "b"] });
    expect(first.updated!.oauthApps).toEqual([expect.objectContaining({ provider: "PROVIDER_GITHUB", clientId: "gh-id", clientSecretSet: true })]);
    expect(JSON.stringify(first)).not.toContain("gh-secret-value");

    const second = await client.UpdateSettings({
      context: ctx("acme"),
      oauthApps: [{ provider: "PROVIDER_GITHUB", updateMask: ["client_id"] }],
      updateMask: ["filter_prompt"],
    });
    expect(second.updatedFields).toEqual(["filter_prompt", "oauth_apps.github.client_id"]);
    const s = (await client.GetSettings({ context: ctx("acme") })).settings!;
    expect(s.filterPrompt).toBeUndefined();
    expect(s.chunkSize).toBe(0);
    expect(s.workspacePrompt).toBeUndefined();
    expect(s.profileBuckets).toEqual([{ key: "work", description: "" }]);
    expect(s.oauthApps.find((a) => a.provider === "PROVIDER_GITHUB")).toEqual(expect.objectContaining({ clientSecretSet: true }));
    expect(s.oauthApps.find((a) => a.provider === "PROVIDER_GITHUB")!.clientId).toBeUndefined();
    expect(JSON.stringify(s)).not.toContain("gh-secret-value");
  });

  it("refuses bad input with INVALID_ARGUMENT and the problems as details", async () => {
    const bad = await rejectionOf(
      client.UpdateSettings({ context: ctx("acme"), profileBuckets: [{ key: "Bad Key" }, { key: "ok" }, { key: "ok" }], updateMask: ["profile_buckets"] }),
    );
    expect(bad.code).toBe(status.INVALID_ARGUMENT);
    expect(bad.details).toBe("invalid settings");
    expect(decodeURIComponent(bad.metadata.get("engram-error-details")[0]!.toString())).toMatch(
      /profileBuckets\[0\]\.key: .*; profileBuckets\[2\]\.key: duplicate/,
    );

    expect((await rejectionOf(client.UpdateSettings({ context: ctx("acme"), updateMask: ["nope"] }))).code).toBe(status.INVALID_ARGUMENT);
    const gmail = await rejectionOf(client.UpdateSettings({ context: ctx("acme"), oauthApps: [{ provider: "PROVIDER_GMAIL", updateMask: ["client_id"] }] }));
    expect(gmail.code).toBe(status.INVALID_ARGUMENT);
    const twice = await rejectionOf(
      client.UpdateSettings({
        context: ctx("acme"),
        oauthApps: [
          { provider: "PROVIDER_NOTION", updateMask: ["client_id"] },
          { provider: "PROVIDER_NOTION", updateMask: ["client_secret"] },
        ],
      }),
    );
    expect(twice.details).toMatch(/more than once/);
    expect((await rejectionOf(client.GetSettings({}))).code).toBe(status.INVALID_ARGUMENT);
  });

  it("resets the organisation's settings only when confirmed with its slug, and suggests buckets from the prompt and the sampled memories", async () => {
    await client.UpdateSettings({ context: ctx("acme"), chunkSize: 300, updateMask: ["chunk_size"] });
    await client.UpdateSettings({ context: ctx("other"), chunkSize: 400, updateMask: ["chunk_size"] });
    expect((await rejectionOf(client.ResetOrganization({ context: ctx("acme"), confirmation: "other" }))).code).toBe(status.INVALID_ARGUMENT);
    expect((await client.GetSettings({ context: ctx("acme") })).settings?.chunkSize).toBe(300);
    expect(await client.ResetOrganization({ context: ctx("acme"), confirmation: "acme" })).toMatchObject({
      success: true,
      deletedConnections: 0,
      settingsReset: true,
    });
    expect((await client.GetSettings({ context: ctx("acme") })).settings?.chunkSize ?? null).toBeNull();
    expect((await client.GetSettings({ context: ctx("other") })).settings?.chunkSize).toBe(400);
    expect((await rejectionOf(client.SuggestProfileBuckets({ context: ctx("acme") }))).code).toBe(status.FAILED_PRECONDITION);
    const fromMemories = await client.SuggestProfileBuckets({
      context: ctx("acme"),
      sampleMemories: ["Ana's dog Rex needs his vaccine", "Ana walks the dog daily"],
    });
    expect(fromMemories.suggestions[0]).toMatchObject({ key: "pets" });
    expect(fromMemories.suggestions.length).toBeGreaterThanOrEqual(3);
  });
});

describe("connections config", () => {
  it("accepts ENGRAM_SECRET_KEY as base64 or hex of 32 bytes and refuses anything else without echoing it", () => {
    expect(loadConnectionsConfig({ ENGRAM_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }).ENGRAM_SECRET_KEY).toBeDefined();
    expect(loadConnectionsConfig({ ENGRAM_SECRET_KEY: "ab".repeat(32) }).ENGRAM_SECRET_KEY).toBe("ab".repeat(32));
    expect(loadConnectionsConfig({}).ENGRAM_SECRET_KEY).toBeUndefined();
    expect(() => loadConnectionsConfig({ ENGRAM_SECRET_KEY: "too-short-secret-value" })).toThrow(/ENGRAM_SECRET_KEY: must be 32 bytes/);
    try {
      loadConnectionsConfig({ ENGRAM_SECRET_KEY: "too-short-secret-value" });
    } catch (err) {
      expect(String(err)).not.toContain("too-short-secret-value");
    }
  });

  it("a configured key is used instead of a key file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-connections-cfg-"));
    const m = createConnectionsModule({
      config: loadConnectionsConfig({ ENGRAM_DATA_DIR: dir, ENGRAM_SECRET_KEY: "cd".repeat(32) }),
      logger: log,
      settings: embeddedSettingsRepository({ ENGRAM_DATA_DIR: dir }),
      connections: embeddedConnectionRepository({ ENGRAM_DATA_DIR: dir }),
    });
    expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);
    return m.stop!().then(() => fs.rmSync(dir, { recursive: true, force: true }));
  });
});
