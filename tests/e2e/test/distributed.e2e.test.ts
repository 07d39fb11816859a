import crypto from "node:crypto";
import { runKeysCli } from "@engram/gateway";
import { apiClient, describeWithEngines, type EngramProcess, startEngram, tempDataDir, uniqueMongoDbName } from "@engram/testing";
import { type Api, freePort, stopQuietly, waitDone } from "./helpers";

/**
 * A fresh set of service-to-service trust keys, as `pnpm trust-keys` prints them: every process gets every public
 * key and only its own private key.
 */
const TRUST_SERVICES = ["gateway", "ingestion", "connections", "memories", "recall", "pipeline-worker"];
const trustPairs = TRUST_SERVICES.map((s) => ({ s, ...crypto.generateKeyPairSync("ed25519") }));
const TRUST_PUBLIC_KEYS = trustPairs.map(({ s, publicKey }) => `${s}:${publicKey.export({ format: "der", type: "spki" }).toString("base64")}`).join(",");
const ownKey = (target: string) => {
  const pair = trustPairs.find((p) => p.s === target)!;
  return { [`${target.toUpperCase().replace(/-/g, "_")}_TRUST_KEY`]: pair.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64") };
};

/**
 * The distributed topology: every service in its own process, on Kafka,
 * MongoDB and Qdrant, reaching its peers over gRPC at configured addresses —
 * the same wiring as docker-compose.yml and deploy/. Runs where the jest
 * globalSetup started the engines (testcontainers); skipped with the reason
 * printed otherwise.
 */
describeWithEngines(["mongo", "qdrant", "kafka"], "distributed topology: one process per service on Kafka, MongoDB and Qdrant", (engines) => {
  const processes: EngramProcess[] = [];
  let api: Api;
  let shared: Record<string, string>;
  const KEY = `dist-key-${Date.now()}-abcdefghijklmnop`;

  beforeAll(async () => {
    const ports = {
      ingestion: await freePort(),
      worker: await freePort(),
      memories: await freePort(),
      recall: await freePort(),
      connections: await freePort(),
    };
    const address = (p: number) => `127.0.0.1:${p}`;
    shared = {
      BUS: "kafka",
      STORE: "mongo",
      INDEX: "qdrant",
      KAFKA_BROKERS: engines.kafkaBrokers.join(","),
      KAFKA_TOPIC_PARTITIONS: "3",
      MONGO_URL: engines.mongoUrl,
      MONGO_DB: uniqueMongoDbName("distributed"),
      QDRANT_URL: engines.qdrantUrl,
      QDRANT_COLLECTION_PREFIX: `dist_${process.pid}_${Date.now()}`,
      INGESTION_ADDRESS: address(ports.ingestion),
      MEMORIES_ADDRESS: address(ports.memories),
      RECALL_ADDRESS: address(ports.recall),
      CONNECTIONS_ADDRESS: address(ports.connections),
      INGESTION_GRPC_ADDRESS: address(ports.ingestion),
      PIPELINE_WORKER_GRPC_ADDRESS: address(ports.worker),
      MEMORIES_GRPC_ADDRESS: address(ports.memories),
      RECALL_GRPC_ADDRESS: address(ports.recall),
      CONNECTIONS_GRPC_ADDRESS: address(ports.connections),
      ENGRAM_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
      ENGRAM_FILE_URL_SECRET: "a-file-url-secret-of-at-least-32-characters",
      ENGRAM_TRUST_PUBLIC_KEYS: TRUST_PUBLIC_KEYS,
    };
    // Callees before callers, as compose's health-gated depends_on orders them.
    for (const target of ["ingestion", "connections", "recall", "memories", "pipeline-worker", "gateway"]) {
      processes.push(await startEngram({ apiKey: KEY, timeoutMs: 120_000, env: { ...shared, ...ownKey(target), TARGETS: target } }));
    }
    api = apiClient(processes.at(-1)!.url, KEY);
  }, 600_000);

  afterAll(async () => {
    for (const p of processes.reverse()) await stopQuietly(p);
  }, 60_000);

  it("takes a document through the pipeline to done and finds it by search", async () => {
    const add = await api("POST", "/ns/notes/document", { content: "The lighthouse keeper paints the tower red every spring.", id: "lighthouse" });
    expect(add.status).toBe(200);
    const doc = await waitDone(api, "notes", "lighthouse", 120_000);
    expect(doc.system.status).toBe("done");
    const found = await api("POST", "/v4/search", { q: "who paints the lighthouse tower", containerTag: "notes", searchMode: "documents" });
    expect(found.status).toBe(200);
    expect(found.body.results[0].chunk).toContain("lighthouse keeper paints the tower red");
  }, 180_000);

  it("writes memories in one process and recalls them from another", async () => {
    const res = await api("POST", "/v4/memories", { containerTag: "user_1", memories: [{ content: "Ada prefers green tea", isStatic: true }] });
    expect(res.status).toBe(201);
    const hits = await api("POST", "/v4/search", { q: "what tea does Ada prefer", containerTag: "user_1", threshold: 0 });
    expect(hits.body.results[0]).toMatchObject({ memory: "Ada prefers green tea" });
    const profile = await api("POST", "/v4/profile", { containerTag: "user_1" });
    expect(profile.body.profile.static).toContain("Ada prefers green tea");
  }, 60_000);

  it("keeps settings and API keys in MongoDB: a key made by the CLI works on a fresh gateway", async () => {
    const patch = await api("PATCH", "/v3/settings", { filterPrompt: "only work notes" });
    expect(patch.status).toBe(200);
    const lines: string[] = [];
    const code = await runKeysCli(["create", "--tenant", "default", "--name", "dist"], (l) => lines.push(l), tempDataDir(), {
      url: shared.MONGO_URL!,
      dbName: shared.MONGO_DB!,
    });
    expect(code).toBe(0);
    const key = lines.join("\n").split("\n").at(-1)!;
    // A second gateway with an empty data directory and no key of its own: the key and the settings come from MongoDB.
    const gateway = await startEngram({
      apiKey: "unused",
      timeoutMs: 120_000,
      env: { ...shared, ...ownKey("gateway"), TARGETS: "gateway", ENGRAM_API_KEY: "" },
    });
    processes.push(gateway);
    const settings = await apiClient(gateway.url, key)("GET", "/v3/settings");
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ filterPrompt: "only work notes" });
    expect((await apiClient(gateway.url, "sk_engram_not_a_key_at_all_0000")("GET", "/v3/settings")).status).toBe(401);
  }, 180_000);
});
