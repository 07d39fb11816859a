import fs from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

/** The nearest `protos/` folder above this file (source tree or bundle); ENGRAM_PROTO_DIR overrides it. */
function findProtoDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "protos");
    if (fs.existsSync(path.join(candidate, "engram"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no protos/ folder found above ${__dirname}; set ENGRAM_PROTO_DIR`);
  }
}

export const PROTO_DIR = process.env.ENGRAM_PROTO_DIR ?? findProtoDir();

/**
 * The one proto-loader option set of the repository. scripts/proto-gen.mjs
 * generates the committed TypeScript types with the same options.
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

function listProtos(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listProtos(p);
    return e.name.endsWith(".proto") ? [path.relative(PROTO_DIR, p)] : [];
  });
}

let cached: { definition: protoLoader.PackageDefinition; grpcObject: grpc.GrpcObject } | undefined;

export function loadProtos(): { definition: protoLoader.PackageDefinition; grpcObject: grpc.GrpcObject } {
  if (!cached) {
    const definition = protoLoader.loadSync(listProtos(PROTO_DIR).sort(), LOADER_OPTIONS);
    cached = { definition, grpcObject: grpc.loadPackageDefinition(definition) };
  }
  return cached;
}

/** A service constructor by its full name, e.g. `engram.ingestion.v1.IngestionService`. */
export function serviceConstructor(fullName: string): grpc.ServiceClientConstructor {
  let node: unknown = loadProtos().grpcObject;
  for (const part of fullName.split(".")) node = (node as Record<string, unknown>)?.[part];
  if (typeof node !== "function" || !("service" in node)) throw new Error(`unknown gRPC service ${fullName}`);
  return node as grpc.ServiceClientConstructor;
}

export function serviceDefinition(fullName: string): grpc.ServiceDefinition {
  return serviceConstructor(fullName).service;
}

/**
 * The largest gRPC message sent or received (64 MiB). Answers whose size grows
 * with stored content never rely on it: files and document contents travel as
 * streams of small parts, content listings fill a page under a content budget
 * well below it (docs/api-decisions.md, section 22).
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  // Per-call bookkeeping Engram does not use (channelz tracing, transparent retries): measurable on hot paths.
  "grpc.enable_channelz": 0,
  "grpc.enable_retries": 0,
};
