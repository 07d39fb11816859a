import fs from "node:fs";
import path from "node:path";
import { parseJsonLines } from "../src/commands/import.command";
import { ExitCode } from "../src/exit-codes";
import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

describe("engram command line (no server)", () => {
  const dir = tempDir();
  const io = (env: NodeJS.ProcessEnv = {}) => captureIo({ ENGRAM_CONFIG: path.join(dir(), "config.json"), ...env }, dir());

  it("answers usage errors with exit code 2", async () => {
    const cases: string[][] = [
      ["frobnicate"],
      ["search"],
      ["search", "x", "--mode", "everything", "--api-key", "k"],
      ["search", "x", "--bogus"],
      ["add", "--api-key", "k"],
      ["add", "x.md", "--concurrency", "0", "--api-key", "k"],
      ["add", "x.md", "--metadata", "[1]", "--api-key", "k"],
      ["search", "x", "--threshold", "2", "--api-key", "k"],
      ["config", "set", "colour", "blue"],
      ["memories", "forget"],
      ["documents", "list", "--url", "not a url", "--api-key", "k"],
    ];
    for (const argv of cases) {
      const c = io();
      expect([argv.join(" "), await runCli(argv, c)]).toEqual([argv.join(" "), ExitCode.Usage]);
    }
  });

  it("asks for an API key before calling the server", async () => {
    const c = io();
    expect(await runCli(["documents", "list"], c)).toBe(ExitCode.Usage);
    expect(c.err()).toContain("no API key");
  });

  it("prints help with exit code 0 and documents the exit codes", async () => {
    const c = io();
    expect(await runCli(["--help"], c)).toBe(0);
    expect(c.out()).toContain("Exit codes: 0 success, 1 partial failure");
  });

  it("config set / show: the file, the masked key and where each setting comes from", async () => {
    const c = io({ ENGRAM_URL: "http://env-host:1234" });
    expect(await runCli(["config", "set", "api-key", "sk_engram_abcdefghijklmnop"], c)).toBe(0);
    expect(await runCli(["config", "set", "container-tag", "team_a"], c)).toBe(0);
    expect(fs.statSync(path.join(dir(), "config.json")).mode & 0o777).toBe(0o600);
    const show = io({ ENGRAM_URL: "http://env-host:1234" });
    expect(await runCli(["config", "show", "--json"], show)).toBe(0);
    expect(JSON.parse(show.out())).toMatchObject({
      url: { value: "http://env-host:1234", from: "env" },
      apiKey: { value: "sk_engram_…mnop", from: "file" },
      containerTag: { value: "team_a", from: "file" },
    });
    expect(show.out()).not.toContain("abcdefghijklmnop");
  });

  it("parses JSON Lines, reporting bad lines by number", () => {
    const lines = parseJsonLines(
      ['{"content":"a","customId":"x1","metadata":{"k":1}}', "", "nope", '{"content":""}', '{"content":"b","extra":1}', "[1]"].join("\n"),
    );
    expect(lines.map((l) => ("error" in l ? [l.line, "error"] : [l.line, l.record.content]))).toEqual([
      [1, "a"],
      [3, "error"],
      [4, "error"],
      [5, "error"],
      [6, "error"],
    ]);
  });
});
