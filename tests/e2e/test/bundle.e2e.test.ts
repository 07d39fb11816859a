import { spawnSync } from "node:child_process";
import { apiClient, type EngramProcess, REPO_ROOT, startEngram } from "@engram/testing";
import { stopQuietly } from "./helpers";

/**
 * The deployed bundle (`pnpm build`: what the container image runs) starts
 * and serves: every module of the stack shares one `module` inside it, so a
 * tool's "run when main" check in an exported module once made the server
 * exit with the key tool's usage. The keys tool's own bundle still works.
 */
describe("the built bundle", () => {
  let engram: EngramProcess | undefined;
  beforeAll(() => {
    const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO_ROOT, encoding: "utf8", timeout: 180_000 });
    if (built.status !== 0) throw new Error(`pnpm build failed:\n${built.stdout}\n${built.stderr}`);
  }, 200_000);
  afterAll(() => stopQuietly(engram));

  it("starts dist/all-in-one.js and answers the API, and dist/keys-cli.js lists keys", async () => {
    const before = process.env.ENGRAM_ENTRY;
    process.env.ENGRAM_ENTRY = "dist/all-in-one.js";
    try {
      engram = await startEngram({ apiKey: "bundle-key-0123456789abcdef0123" });
    } finally {
      if (before === undefined) delete process.env.ENGRAM_ENTRY;
      else process.env.ENGRAM_ENTRY = before;
    }
    expect((await fetch(`${engram.url}/readyz`)).status).toBe(200);
    const api = apiClient(engram.url, "bundle-key-0123456789abcdef0123");
    expect((await api("POST", "/v3/documents", { content: "The bundle serves documents." })).status).toBe(200);
    expect((await fetch(`${engram.url}/docs`)).status).toBe(200);
    const keys = spawnSync(process.execPath, ["dist/keys-cli.js", "list"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, ENGRAM_DATA_DIR: engram.dataDir },
    });
    expect(keys.status).toBe(0);
  });
});
