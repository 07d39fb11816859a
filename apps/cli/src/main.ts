/**
 * The `engram` command-line client. Run from the repository with
 * `pnpm engram …` (node --import tsx apps/cli/src/main.ts), or through
 * apps/cli/bin/engram.mjs.
 */
import { runCli } from "./program";

// `pnpm engram …` / `npm run engram -- …` run from the repository root: paths are the caller's, in INIT_CWD.
const cwd = process.env.npm_lifecycle_event === "engram" && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 5;
  },
);
