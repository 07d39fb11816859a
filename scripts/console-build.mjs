#!/usr/bin/env node
// Builds the web console (apps/console, served by the gateway at /console) when
// apps/console/dist/index.html is missing or older than any of its sources
// (src/, index.html, vite.config.ts). `node scripts/console-build.mjs [--force]`;
// scripts/run.mjs and the console's browser test call it too.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const app = path.join(root, "apps", "console");

function newestMtime(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

/** True when the built console is missing or older than a source file. */
export function consoleStale() {
  const built = fs.statSync(path.join(app, "dist", "index.html"), { throwIfNoEntry: false });
  if (!built) return true;
  const sources = Math.max(...["src", "index.html", "vite.config.ts"].map((p) => newestMtime(path.join(app, p))));
  return sources > built.mtimeMs;
}

/** Builds the console when stale (always with `force`); returns the exit code (0 when nothing was to do). */
export function buildConsole({ force = false } = {}) {
  if (!force && !consoleStale()) return 0;
  console.log("building the web console (apps/console)…");
  const vite = path.join(app, "node_modules", "vite", "bin", "vite.js");
  if (!fs.existsSync(vite)) {
    console.error(`cannot build the console: ${path.relative(root, vite)} is missing (run pnpm install)`);
    return 1;
  }
  // NODE_ENV=production whatever the caller's (jest sets "test", which would make vite bundle React's development build).
  const env = { ...process.env, NODE_ENV: "production" };
  const r = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], { cwd: app, stdio: "inherit", env });
  return r.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(buildConsole({ force: process.argv.includes("--force") }));
}
