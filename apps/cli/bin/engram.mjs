#!/usr/bin/env node
// The `engram` command. From the repository it runs the TypeScript sources
// through tsx (found by walking up from this package, so it works from any
// working directory and through a symbolic link to this file).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, "..", "src", "main.ts");
if (!existsSync(source)) {
  console.error(`engram: ${source} is missing; run the CLI from an Engram checkout (see the README, "Command-line client")`);
  process.exit(2);
}
try {
  // the same hooks as `node --import tsx`: TypeScript for both require() and import()
  await import("tsx");
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
  console.error("engram: tsx is not installed: run `npm start` or `pnpm install` in the Engram checkout first");
  process.exit(2);
}
await import(pathToFileURL(source).href);
