import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CliIo } from "../src/io";

/** A temporary directory removed after the enclosing describe's tests. */
export function tempDir(prefix = "engram-cli-"): () => string {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** An io whose output is captured. */
export function captureIo(env: NodeJS.ProcessEnv, cwd: string): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}
