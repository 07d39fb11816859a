import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

describe("engram keys (the server's key tool, from the repository)", () => {
  const dir = tempDir();

  it("creates and lists keys in the key store of ENGRAM_DATA_DIR, passing its options through", async () => {
    const env = { ENGRAM_DATA_DIR: dir(), ENGRAM_CONFIG: `${dir()}/config.json` };
    const created = captureIo(env, dir());
    expect(await runCli(["keys", "create", "--tenant", "acme", "--name", "ci"], created)).toBe(0);
    expect(created.out()).toMatch(/created key k_\S+ for tenant acme \(shown once\):\n\S+/);
    expect(created.err()).toContain("not over the API");

    const listed = captureIo(env, dir());
    expect(await runCli(["keys", "list"], listed)).toBe(0);
    expect(listed.out()).toMatch(/tenant=acme {2}name=ci/);

    expect(await runCli(["keys", "create"], captureIo(env, dir()))).toBe(2);
  });
});
