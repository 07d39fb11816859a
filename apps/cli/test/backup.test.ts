import fs from "node:fs";
import path from "node:path";
import { ExitCode } from "../src/exit-codes";
import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

/**
 * `engram backup` / `engram restore` (operator tools on the host, no server): the data directory from --data-dir or
 * ENGRAM_DATA_DIR, relative paths from the working directory, JSON with --json, and every refusal exit code 2.
 */
describe("engram backup / restore (command line)", () => {
  const dir = tempDir("engram-cli-backup-");
  const io = (env: NodeJS.ProcessEnv = {}) => captureIo({ ENGRAM_CONFIG: path.join(dir(), "config.json"), ...env }, dir());

  function dataDir(): string {
    const d = path.join(dir(), "data");
    fs.mkdirSync(d);
    // An empty file is an empty SQLite database (the stores' own files are tested in services/all-in-one).
    fs.writeFileSync(path.join(d, "ingestion.db"), "");
    fs.writeFileSync(path.join(d, "secret.key"), "k".repeat(64));
    return d;
  }

  it("backs up the directory of ENGRAM_DATA_DIR and restores it with the secret key given apart", async () => {
    const data = dataDir();
    const b = io({ ENGRAM_DATA_DIR: data });
    expect(await runCli(["backup", "bk", "--json"], b)).toBe(ExitCode.Ok);
    expect(JSON.parse(b.out())).toMatchObject({ backup: path.join(dir(), "bk"), dataDir: data, databases: 1, files: 0, secretsIncluded: false });
    expect(fs.existsSync(path.join(dir(), "bk", "secret.key"))).toBe(false);

    const r = io();
    expect(await runCli(["restore", "bk", "--data-dir", "restored", "--secret-key-file", path.join(data, "secret.key"), "--json"], r)).toBe(ExitCode.Ok);
    expect(JSON.parse(r.out())).toMatchObject({ dataDir: path.join(dir(), "restored"), files: 1, secretKeyRestored: true, warnings: [] });
    expect(fs.readFileSync(path.join(dir(), "restored", "secret.key"), "utf8")).toBe("k".repeat(64));
    expect(fs.readFileSync(path.join(dir(), "restored", "ingestion.db"))).toEqual(fs.readFileSync(path.join(dir(), "bk", "ingestion.db")));
  });

  it("warns on stderr when the restore has no secret key, and prints for people without --json", async () => {
    const data = dataDir();
    expect(await runCli(["backup", "bk", "--data-dir", data], io())).toBe(ExitCode.Ok);
    const r = io();
    expect(await runCli(["restore", "bk", "--data-dir", "restored"], r)).toBe(ExitCode.Ok);
    expect(r.out()).toMatch(/^restored .*bk \(snapshot of .*\) into .*restored: 1 files/);
    expect(r.err()).toMatch(/warning: secret\.key is not in the backup/);
  });

  it("answers every refusal with exit code 2 and the reason", async () => {
    const data = dataDir();
    const cases: [string[], RegExp][] = [
      [["backup", "bk", "--data-dir", path.join(dir(), "nowhere")], /does not exist/],
      [["restore", "bk", "--data-dir", path.join(dir(), "r")], /backup directory .* does not exist/],
    ];
    for (const [argv, reason] of cases) {
      const c = io();
      expect([argv[0], await runCli(argv, c)]).toEqual([argv[0], ExitCode.Usage]);
      expect(c.err()).toMatch(reason);
    }
    expect(await runCli(["backup", "bk", "--data-dir", data], io())).toBe(ExitCode.Ok);
    const again = io();
    expect(await runCli(["backup", "bk", "--data-dir", data], again)).toBe(ExitCode.Usage);
    expect(again.err()).toMatch(/is not empty/);
    fs.appendFileSync(path.join(dir(), "bk", "ingestion.db"), "x");
    const tampered = io();
    expect(await runCli(["restore", "bk", "--data-dir", "r"], tampered)).toBe(ExitCode.Usage);
    expect(tampered.err()).toMatch(/ingestion\.db: \d+ bytes, the manifest says \d+/);
    expect(fs.existsSync(path.join(dir(), "r"))).toBe(false);
  });
});
