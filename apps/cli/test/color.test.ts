import path from "node:path";
import { colorEnabled, colorsFor, table } from "../src/io";
import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

const ESC = "\u001b[";

describe("colour: decided per stream from the run's own environment", () => {
  const dir = tempDir();
  it("a terminal is coloured, a pipe is not; NO_COLOR turns it off, FORCE_COLOR on, TERM=dumb off", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    // CI being set does not colour a pipe (picocolors' own default does)
    expect(colorEnabled({ isTTY: false }, { CI: "true" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: "false" })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: "dumb" })).toBe(false);
  });

  it("a table's columns line up with and without colour: codes never count towards the width", () => {
    const rows = [
      [["a", (s: string) => s] as [string, (s: string) => string], "long value", "x"],
      ["bbbbbb", "v", "y"],
    ];
    const plain = table(["H1", "H2", "H3"], rows, colorsFor({}, {}));
    expect(plain).toEqual(["H1      H2          H3", "a       long value  x", "bbbbbb  v           y"]);
    const coloured = table(["H1", "H2", "H3"], rows, colorsFor({}, { FORCE_COLOR: "1" }));
    expect(coloured[0]).toContain(ESC);
    // eslint-disable-next-line no-control-regex
    expect(coloured.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ""))).toEqual(plain);
  });

  it("the CLI's output carries colour codes only when its own environment asks for them", async () => {
    const run = async (env: NodeJS.ProcessEnv) => {
      const io = captureIo({ ENGRAM_CONFIG: path.join(dir(), "config.json"), ENGRAM_URL: "http://127.0.0.1:1", ...env }, dir());
      const code = await runCli(["config", "unset", "no-such-setting"], io);
      return { code, err: io.err() };
    };
    const piped = await run({ CI: "true" });
    expect(piped.code).not.toBe(0);
    expect(piped.err).not.toContain(ESC);
    const forced = await run({ FORCE_COLOR: "1" });
    expect(forced.err).toContain(`${ESC}31m`);
  });
});
