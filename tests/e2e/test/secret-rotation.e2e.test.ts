import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { FakeGitHub, startEngram } from "@engram/testing";
import { fakeProviderStack, finishedRun, gitHubEnv } from "./helpers";

const KEY_A = "tenant-a-key-rotation-0123456789abcd";
const KEY_B = "tenant-b-key-rotation-0123456789abcd";
const ROOT = path.resolve(__dirname, "../../..");
const run = promisify(execFile);

/**
 * Issue #32: a connection's OAuth token, sealed at rest, survives a rotation
 * of the secret key. The stack starts with ENGRAM_SECRET_KEY, authorizes a
 * GitHub connection against the local fake (redirecting to an allowed
 * origin), restarts with a new key prepended to ENGRAM_SECRET_KEYS (the
 * connection still syncs), refuses to start without the old key until
 * `pnpm secrets reseal` ran, and after it starts and syncs with the new key
 * alone.
 */
describe("secret key rotation end to end", () => {
  const fake = new FakeGitHub();
  const oldKey = randomBytes(32).toString("base64");
  const newKey = randomBytes(32).toString("base64");
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, (url) => ({ ...gitHubEnv(fake)(url), ENGRAM_SECRET_KEY: oldKey }));
  const { a, env } = stack;

  it("keeps a connection's token usable through a key rotation and a reseal", async () => {
    const repo = fake.addRepo("octo/rotation", { files: { "README.md": "# Rotation\n\nThe keys turn every quarter." } });
    expect((await a("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com"] })).status).toBe(200);
    const created = await a("POST", "/v3/connections/github", { containerTag: "code", redirectUrl: "https://app.example.com/connected" });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const consent = await fetch(new URL(created.body.authLink as string), { redirect: "manual" });
    const back = await fetch(consent.headers.get("location")!, { redirect: "manual" });
    expect(back.status).toBe(302);
    expect(new URL(back.headers.get("location")!).origin).toBe("https://app.example.com");
    const configured = await a("POST", `/v3/connections/${id}/configure`, { resources: [{ id: repo.id, name: "octo/rotation", defaultBranch: "main" }] });
    expect(configured.status).toBe(200);
    const first = await finishedRun(a, id);
    expect(first.status).toBe("succeeded");

    // A new key prepended to the ring: the stack starts, and the token sealed with the old key still opens.
    const dataDir = stack.engram.dataDir;
    await stack.engram.stop();
    delete env.ENGRAM_SECRET_KEY;
    env.ENGRAM_SECRET_KEYS = `k2:${newKey},default:${oldKey}`;
    await stack.restart(dataDir);
    expect((await a("POST", "/v3/connections/github/import", { containerTags: ["code"] })).status).toBe(202);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second).toMatchObject({ status: "succeeded", errorCode: null });
    await stack.engram.stop();

    // The old key removed before a reseal: refused at start, naming the way out.
    await expect(startEngram({ dataDir, apiKey: KEY_A, env: { ...env, ENGRAM_SECRET_KEYS: `k2:${newKey}` } })).rejects.toThrow(/secrets reseal/);

    // The reseal, then the new key alone.
    const resealed = await run(process.execPath, ["--import", "tsx", "services/connections/src/cli/secrets.main.ts", "reseal"], {
      cwd: ROOT,
      env: { ...process.env, ENGRAM_DATA_DIR: dataDir, ENGRAM_SECRET_KEYS: env.ENGRAM_SECRET_KEYS, ENGRAM_SECRET_KEY: "" },
    });
    expect(resealed.stdout).toMatch(/with key k2/);
    expect(resealed.stdout + resealed.stderr).not.toMatch(/gh[uo]_/);
    env.ENGRAM_SECRET_KEYS = `k2:${newKey}`;
    await stack.restart(dataDir);
    expect((await a("POST", "/v3/connections/github/import", { containerTags: ["code"] })).status).toBe(202);
    const third = await finishedRun(a, id, second.startedAt);
    expect(third).toMatchObject({ status: "succeeded", errorCode: null });
  });
});
