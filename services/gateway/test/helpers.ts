import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GrpcServer, type ServiceImplementation } from "@engram/grpc";
import type { Logger } from "@engram/observability";
import { SqliteApiKeyStore } from "../src/auth/api-key.sqlite";
import { KeyService } from "../src/auth/keys.service";
import { type AppOptions, createApp } from "../src/http/app";
import { type Backends, backendsAt } from "../src/http/backends";

/** A gateway listening on loopback, its backends a stand-in gRPC server (see `startGatewayAgainst`). */
export interface StandInGateway {
  /** The temporary directory of the run: the API key store lives in it; removed by `close`. */
  dir: string;
  store: SqliteApiKeyStore;
  /** An API key of tenant "acme". */
  key: string;
  backends: Backends;
  server: http.Server;
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Closes the HTTP server, the clients, the gRPC server and the store, and removes the directory. */
  close(): Promise<void>;
}

/** What a test may set of the app's options (the rest are the stand-in's); `dir` is the run's temporary directory. */
type AppSettings = (dir: string) => Partial<Omit<AppOptions, "backends" | "keys" | "logger">>;

/**
 * The gateway's HTTP app against a real loopback gRPC server serving `service`
 * (a stand-in implementation of the RPCs a test needs), with a SQLite API key
 * store in a fresh temporary directory (`tmpPrefix`) holding one key of tenant
 * "acme". The app has 1 MiB body limits and namespace "default" unless `app` says otherwise.
 */
export async function startGatewayAgainst(
  service: ServiceImplementation,
  o: { logger: Logger; tmpPrefix: string; app?: AppSettings },
): Promise<StandInGateway> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), o.tmpPrefix));
  const store = new SqliteApiKeyStore(dir);
  const keys = new KeyService(store, 0);
  const key = (await keys.create("acme", "test")).key;
  const grpcServer = new GrpcServer(o.logger);
  grpcServer.add(service);
  const grpcPort = await grpcServer.bind("127.0.0.1:0");
  grpcServer.setServing(true);
  const backends = backendsAt(`127.0.0.1:${grpcPort}`);
  const app = createApp({
    backends,
    keys,
    logger: o.logger,
    jsonLimitBytes: 1 << 20,
    uploadLimitBytes: 1 << 20,
    defaultNamespace: "default",
    ready: () => true,
    ...o.app?.(dir),
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as AddressInfo).port;
  return {
    dir,
    store,
    key,
    backends,
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise((r) => server.close(r));
      backends.close();
      await grpcServer.shutdown(1000);
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
