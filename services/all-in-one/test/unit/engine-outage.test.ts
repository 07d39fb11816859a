import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EventBus } from "@engram/bus";
import { createGatewayModule, type GatewayModule, loadGatewayConfig, openGatewayKeyStore } from "@engram/gateway";
import { GrpcServer } from "@engram/grpc";
import { createIngestionModule, embeddedIngestionStorage, loadIngestionConfig } from "@engram/ingestion";
import { MongoDocumentRepository } from "@engram/ingestion/mongo";
import { raiseUnavailable } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { MongoClient } from "@engram/storage/mongo";

/**
 * An engine outage seen from the API: the real ingestion service (its gRPC
 * handlers and use cases) on the production MongoDB document store, whose
 * client cannot reach any server, behind the real gateway. The store's
 * connection error must reach the client as 503 with Retry-After and the
 * API's error body, not as a 500.
 */
const API_KEY = "sk_engram_outage_test_key_0001";
const logger = rootLogger({ level: process.env.OUTAGE_LOG ? "debug" : "silent" });

describe("engine outage → 503 with Retry-After through the gateway", () => {
  let dir: string;
  let mongo: MongoClient;
  let grpc: GrpcServer;
  let gateway: GatewayModule;
  let keysDown = false;
  let base = "";

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-outage-"));
    // Nothing listens on port 1: every operation fails server selection (a connection error), quickly.
    mongo = new MongoClient("mongodb://127.0.0.1:1/?directConnection=true", { serverSelectionTimeoutMS: 300, connectTimeoutMS: 300 });
    // As createMongoDocumentRepository builds it (without the start-up index creation, which needs a server).
    const repo = raiseUnavailable(new MongoDocumentRepository(mongo.db("engram_outage")), "MongoDB");
    const config = loadIngestionConfig({ ENGRAM_DATA_DIR: dir });
    const embedded = embeddedIngestionStorage(config);
    await embedded.repo.close();
    const ingestion = createIngestionModule({
      config,
      bus: {} as EventBus,
      logger,
      storage: { repo, files: embedded.files, relay: () => ({ start() {}, stop: async () => {}, notify() {} }) },
    });
    grpc = new GrpcServer(logger);
    for (const s of ingestion.grpcServices ?? []) grpc.add(s);
    const port = await grpc.bind("127.0.0.1:0");
    grpc.setServing(true);

    const sqliteKeys = await openGatewayKeyStore({ ENGRAM_DATA_DIR: dir });
    // The gateway's own key store, failing like an unreachable database when `keysDown`.
    const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:27017"), { code: "ECONNREFUSED" });
    const keyStore: typeof sqliteKeys = {
      findByHash: async (hash) => {
        if (keysDown) throw refused();
        return sqliteKeys.findByHash(hash);
      },
      insert: (rec) => sqliteKeys.insert(rec),
      list: (tenantId) => sqliteKeys.list(tenantId),
      revoke: (id, at, tenantId) => sqliteKeys.revoke(id, at, tenantId),
      countActive: () => sqliteKeys.countActive(),
      close: () => sqliteKeys.close(),
    };
    gateway = createGatewayModule({
      config: loadGatewayConfig({
        ENGRAM_DATA_DIR: dir,
        PORT: "0",
        HOST: "127.0.0.1",
        ENGRAM_API_KEY: API_KEY,
        GATEWAY_KEY_CACHE_SECONDS: "0",
        INGESTION_ADDRESS: `127.0.0.1:${port}`,
      }),
      logger,
      keyStore,
      print: () => {},
    });
    await gateway.start?.({});
    base = `http://127.0.0.1:${gateway.port()}`;
  });

  afterAll(async () => {
    await gateway?.stop?.();
    await grpc?.shutdown(1000);
    await mongo?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (p: string) => fetch(base + p, { headers: { authorization: `Bearer ${API_KEY}` } });

  it("a document read while MongoDB is unreachable answers 503, Retry-After and the API's error body", async () => {
    const res = await get("/v3/documents/d_00000000000000000001");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body = (await res.json()) as Record<string, string>;
    expect(body).toEqual({ error: "Service temporarily unavailable", details: expect.stringMatching(/retry shortly \(error id e_\w+\)$/) });
    // Nothing of the driver's message (hosts, ports) reaches the client.
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|Mongo|ECONNREFUSED/);
  });

  it("a write (a document add) while MongoDB is unreachable answers 503 too", async () => {
    const res = await fetch(`${base}/v3/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "hello outage" }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
  });

  it("the gateway's own key store unreachable answers 503 with Retry-After, not 500", async () => {
    keysDown = true;
    try {
      const res = await get("/v3/documents/d_00000000000000000001");
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(((await res.json()) as { error: string }).error).toBe("Service temporarily unavailable");
    } finally {
      keysDown = false;
    }
  });

  it("a client error still answers 4xx (an invalid body is not an outage)", async () => {
    const res = await fetch(`${base}/v3/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ content: 42 }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
