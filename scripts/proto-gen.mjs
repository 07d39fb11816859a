#!/usr/bin/env node
// Generates TypeScript types for every .proto under protos/ into
// libs/grpc/src/gen (committed). With --check, generates into a temporary
// folder and fails when the committed types differ (stale contracts).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const protoDir = path.join(root, "protos");
const outDir = path.join(root, "libs/grpc/src/gen");
const check = process.argv.includes("--check");
const require = createRequire(path.join(root, "libs/grpc/package.json"));
const genBin = path.join(path.dirname(require.resolve("@grpc/proto-loader/package.json")), "build/bin/proto-loader-gen-types.js");

function listProtos(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listProtos(p);
    return e.name.endsWith(".proto") ? [path.relative(protoDir, p)] : [];
  });
}

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p).map((f) => path.join(e.name, f)) : [e.name];
  });
}

function generate(target) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  // Must match the loader options in libs/grpc/src/protos.ts.
  execFileSync(
    process.execPath,
    [
      genBin,
      "--keepCase=false",
      "--longs=Number",
      "--enums=String",
      "--defaults",
      "--oneofs",
      "--grpcLib=@grpc/grpc-js",
      "--includeComments",
      "-I",
      protoDir,
      "-O",
      target,
      ...listProtos(protoDir).sort(),
    ],
    { stdio: "inherit" },
  );
  // The generator writes the absolute proto path into each header comment;
  // make it repository-relative so the output does not depend on the clone.
  for (const f of listFiles(target)) {
    const file = path.join(target, f);
    const text = fs.readFileSync(file, "utf8");
    const fixed = text.split(protoDir + path.sep).join("protos/");
    if (fixed !== text) fs.writeFileSync(file, fixed);
  }
}

if (!check) {
  generate(outDir);
  console.log(`proto types written to ${path.relative(root, outDir)}`);
} else {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "engram-proto-"));
  generate(tmp);
  const a = listFiles(outDir).sort();
  const b = listFiles(tmp).sort();
  const stale = [];
  for (const f of new Set([...a, ...b])) {
    const x = a.includes(f) ? fs.readFileSync(path.join(outDir, f), "utf8") : null;
    const y = b.includes(f) ? fs.readFileSync(path.join(tmp, f), "utf8") : null;
    if (x !== y) stale.push(f);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  if (stale.length) {
    console.error(`generated proto types are stale (${stale.length} files differ), run: pnpm proto:gen\n  ${stale.slice(0, 20).join("\n  ")}`);
    process.exit(1);
  }
  console.log(`proto types up to date (${a.length} files)`);
}
