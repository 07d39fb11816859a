#!/usr/bin/env node
// `npm start` / `npm test` on a machine that has only Node 20+ and npm:
// makes sure pnpm and the workspace's packages are installed, then starts
// the all-in-one stack or runs every test. Signals reach the child, and the
// child's exit code is ours.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildConsole } from "./console-build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PNPM_VERSION = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).packageManager.split("@")[1];
const mode = process.argv[2];
if (mode !== "start" && mode !== "test") {
  console.error("usage: node scripts/run.mjs start|test");
  process.exit(2);
}

const env = { ...process.env };
// Native addons (better-sqlite3) compile from source when no prebuilt binary
// can be downloaded; point node-gyp at the local Node headers when present.
if (!env.npm_config_nodedir && fs.existsSync("/usr/include/node/node.h")) env.npm_config_nodedir = "/usr";

function pnpmCommand() {
  const probe = spawnSync("pnpm", ["--version"], { encoding: "utf8", env });
  if (probe.status === 0 && probe.stdout.trim() === PNPM_VERSION) return ["pnpm", []];
  return ["npx", ["--yes", `pnpm@${PNPM_VERSION}`]];
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: "inherit", ...opts });
    const forward = (sig) => child.kill(sig);
    process.on("SIGTERM", forward);
    process.on("SIGINT", forward);
    child.on("exit", (code, signal) => {
      process.off("SIGTERM", forward);
      process.off("SIGINT", forward);
      resolve(code ?? (signal ? 128 + (signal === "SIGTERM" ? 15 : 2) : 1));
    });
  });
}

const [pnpm, pre] = pnpmCommand();
const installArgs = [...pre, "install", "--frozen-lockfile"];
if (process.env.CI !== "true") installArgs.push("--prefer-offline");
const installed = await run(pnpm, installArgs);
if (installed !== 0) process.exit(installed);
// The web console the gateway serves at /console: built when missing or older than its sources.
const consoleBuilt = buildConsole();
if (consoleBuilt !== 0) process.exit(consoleBuilt);

if (mode === "start") {
  process.exit(await run(process.execPath, ["--import", "tsx", "services/all-in-one/src/main.ts"]));
} else {
  process.exit(await run(pnpm, [...pre, "run", "test:all"]));
}
