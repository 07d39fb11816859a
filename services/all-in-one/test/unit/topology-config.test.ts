/**
 * deploy/topology.yaml against the code: every variable the topology gives a
 * service (and so every variable docker-compose.yml and the manifests set,
 * which libs/config/test/topology.test.ts holds to the topology) is one that
 * service's configuration reads, ports and peers match the config defaults and
 * the `*_ADDRESS` variables the services dial, and a service's whole deployed
 * environment passes its configuration's validation.
 */
import { type Topology, allowedEnv, expectedEnv, loadTopology, serviceNames, serviceOf } from "@engram/config";
import type { z } from "@engram/config";
import { embedderConfigShape } from "@engram/index";
import { nlpConfigShape } from "@engram/nlp";
import { connectionsConfigSchema } from "@engram/connections";
import { gatewayConfigSchema } from "@engram/gateway";
import { ingestionConfigSchema } from "@engram/ingestion";
import { memoriesConfigSchema } from "@engram/memories";
import { workerConfigSchema } from "@engram/pipeline-worker";
import { recallConfigSchema } from "@engram/recall";
import { SERVICES, loadAllInOneConfig, processSchema } from "../../src/config";
import { DEFAULT_GRPC_PORTS, HEALTH_SERVICES } from "../../src/healthcheck";
import { trustKeyLines } from "../../src/trust-keys.main";

const TRUST_KEYS = Object.fromEntries(trustKeyLines().map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));

/**
 * Distributed-mode variables (docs/deployment.md) that no configuration schema
 * reads yet: the integrator is adding them (BUS/STORE/INDEX selection, the
 * Kafka/MongoDB/Qdrant adapters, the metrics listener). The test below fails
 * once a schema reads one of them, so remove each name here as it lands.
 */
const PENDING_DISTRIBUTED = new Set<string>();

const SCHEMAS: Record<string, z.ZodType> = {
  ingestion: ingestionConfigSchema,
  "pipeline-worker": workerConfigSchema,
  memories: memoriesConfigSchema,
  recall: recallConfigSchema,
  connections: connectionsConfigSchema,
  gateway: gatewayConfigSchema,
};

/** The environment variables a zod schema reads (objects, intersections, pipes). */
function schemaKeys(schema: z.ZodType): Set<string> {
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: object; left?: z.ZodType; right?: z.ZodType; in?: z.ZodType } } })._zod.def;
  if (def.type === "object") return new Set(Object.keys(def.shape ?? {}));
  if (def.type === "intersection") return new Set([...schemaKeys(def.left!), ...schemaKeys(def.right!)]);
  if (def.type === "pipe") return schemaKeys(def.in!);
  throw new Error(`cannot list the keys of a zod ${def.type}`);
}

const processKeys = schemaKeys(processSchema);
const readBy = (svc: string) => new Set([...schemaKeys(SCHEMAS[svc]!), ...processKeys]);
const portOf = (address: unknown) => Number(String(address).split(":").pop());

/** Plausible values for a service's deployed environment: literals and shared config as in deploy/, secrets made up. */
function deployedEnv(t: Topology, svc: string): Record<string, string> {
  const secrets: Record<string, string> = {
    MONGO_URL: "mongodb://mongo:27017/?replicaSet=rs0",
    ENGRAM_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    ENGRAM_FILE_URL_SECRET: "f".repeat(64),
    // A real set of trust keys (each service's and every public key), as `pnpm trust-keys` prints them.
    ...TRUST_KEYS,
  };
  const env: Record<string, string> = {};
  for (const [k, v] of expectedEnv(t, svc)) {
    if (v.source !== "secret") env[k] = v.value;
    else if (!v.optional) env[k] = secrets[k] ?? `${k.toLowerCase()}-value-0123456789`;
  }
  return env;
}

let t: Topology;
beforeAll(async () => {
  t = await loadTopology();
});

describe("deploy/topology.yaml against the services' configuration", () => {
  it("names exactly the services TARGETS knows, and the health check knows", () => {
    expect([...serviceNames(t)].sort()).toEqual([...SERVICES].sort());
    expect([...HEALTH_SERVICES].sort()).toEqual([...SERVICES].sort());
  });

  it("gives each service only variables its configuration (or the process's) reads, or ones still pending", () => {
    const unknown: string[] = [];
    const landed: string[] = [];
    for (const svc of serviceNames(t)) {
      const keys = readBy(svc);
      for (const k of allowedEnv(t, svc)) {
        if (keys.has(k) && PENDING_DISTRIBUTED.has(k)) landed.push(`${svc}: ${k}`);
        if (!keys.has(k) && !PENDING_DISTRIBUTED.has(k)) unknown.push(`${svc}: ${k}`);
      }
    }
    expect(unknown).toEqual([]);
    // A pending variable a schema now reads: remove it from PENDING_DISTRIBUTED.
    expect(landed).toEqual([]);
  });

  it("binds each gRPC service where its configuration defaults to, and where the health check looks", () => {
    for (const svc of serviceNames(t)) {
      const s = serviceOf(t, svc);
      if (!s.grpc) continue;
      const defaults = SCHEMAS[svc]!.parse({}) as Record<string, unknown>;
      expect({ svc, port: portOf(defaults[s.grpc.bindVariable]) }).toEqual({ svc, port: s.grpc.port });
      expect({ svc, port: DEFAULT_GRPC_PORTS[svc as keyof typeof DEFAULT_GRPC_PORTS] }).toEqual({ svc, port: s.grpc.port });
    }
    const gw = serviceOf(t, "gateway").http!;
    expect(schemaKeys(gatewayConfigSchema)).toEqual(expect.any(Set));
    expect([gw.portVariable, gw.hostVariable].filter((k) => !schemaKeys(gatewayConfigSchema).has(k))).toEqual([]);
  });

  it("lists as peers exactly the services each one dials (its *_ADDRESS variables), at their ports", () => {
    const addressOf = new Map(
      serviceNames(t)
        .map((n) => [serviceOf(t, n).grpc?.addressVariable, n] as const)
        .filter((e): e is [string, string] => e[0] !== undefined),
    );
    for (const svc of serviceNames(t)) {
      const s = serviceOf(t, svc);
      const dials = [...schemaKeys(SCHEMAS[svc]!)].filter((k) => addressOf.has(k)).map((k) => addressOf.get(k)!);
      expect({ svc, peers: [...s.peers].sort() }).toEqual({ svc, peers: dials.sort() });
      const defaults = SCHEMAS[svc]!.parse({}) as Record<string, unknown>;
      for (const peer of s.peers) {
        const v = serviceOf(t, peer).grpc!.addressVariable!;
        expect({ svc, peer, port: portOf(defaults[v]) }).toEqual({ svc, peer, port: serviceOf(t, peer).grpc!.port });
      }
    }
  });

  it("keeps the embedder and language-model features to the shared schemas", () => {
    const embedder = t.features.embedder;
    for (const k of [...embedder.config, ...embedder.optional, ...embedder.secrets.map((s) => s.name)]) expect(Object.keys(embedderConfigShape)).toContain(k);
    const nlp = t.features.nlp;
    for (const k of [...nlp.config, ...nlp.optional, ...nlp.secrets.map((s) => s.name)]) expect(Object.keys(nlpConfigShape)).toContain(k);
  });

  it("deploys environments the process accepts, service by service", () => {
    for (const svc of serviceNames(t)) {
      const env = deployedEnv(t, svc);
      expect(() => loadAllInOneConfig(env)).not.toThrow();
      const c = loadAllInOneConfig(env);
      expect([...c.process.TARGETS]).toEqual([svc]);
      expect(c.process.GRPC_HOST).toBe(serviceOf(t, svc).grpc ? t.grpcHost : "127.0.0.1");
    }
    // And the check can fail: a setting the process refuses.
    const env = { ...deployedEnv(t, "gateway"), SHUTDOWN_DELAY_MS: "7500" };
    expect(() => loadAllInOneConfig(env)).toThrow("SHUTDOWN_DELAY_MS (7500) must leave at least 1000 ms of SHUTDOWN_GRACE_MS (8000) for stopping");
    expect(() => loadAllInOneConfig({ ...env, SHUTDOWN_GRACE_MS: "9000" })).not.toThrow();
    expect(() => loadAllInOneConfig({ ...env, SHUTDOWN_GRACE_MS: "500" })).toThrow("SHUTDOWN_GRACE_MS: must be at least 1000");
  });
});
