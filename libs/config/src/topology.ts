import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The distributed topology (deploy/topology.yaml): service names, TARGETS
 * values, ports, peers, backing engines and the environment each service gets.
 * docker-compose.yml and the Kubernetes manifests restate it; the consistency
 * tests compare them with it. `expectedEnv` is the one derivation of a
 * service's variables from it.
 */

const name = z.string().regex(/^[a-z][a-z0-9-]*$/, "lower-case letters, digits and '-'");
const envName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "an environment variable name (A-Z, 0-9, _)");
const port = z.number().int().min(1).max(65535);
const secretRef = z.object({ name: envName, optional: z.boolean().default(false) }).strict();

const engineSchema = z
  .object({
    host: name,
    ports: z.record(z.string(), port),
    selector: z.record(envName, z.string()),
    replicaSet: z.string().optional(),
    config: z.array(envName).default([]),
    perService: z.array(envName).default([]),
    secrets: z.array(secretRef).default([]),
  })
  .strict();

const featureSchema = z
  .object({
    config: z.array(envName).default([]),
    optional: z.array(envName).default([]),
    secrets: z.array(secretRef).default([]),
  })
  .strict();

const ENGINES = ["kafka", "mongo", "qdrant"] as const;
const FEATURES = ["embedder", "nlp"] as const;

const serviceSchema = z
  .object({
    target: name,
    grpc: z.object({ port, bindVariable: envName, addressVariable: envName.optional() }).strict().optional(),
    http: z
      .object({
        port,
        portVariable: envName,
        hostVariable: envName,
        readiness: z.string().startsWith("/"),
        liveness: z.string().startsWith("/"),
        metrics: z.string().startsWith("/"),
      })
      .strict()
      .optional(),
    peers: z.array(name).default([]),
    engines: z.array(z.enum(ENGINES)).default([]),
    features: z.array(z.enum(FEATURES)).default([]),
    /** Variables with the values deploy/ and docker-compose.yml set (overlays may change them). */
    settings: z.record(envName, z.string()).default({}),
    /** Variables deployments may set (the service reads them; not set by default). */
    optional: z.array(envName).default([]),
    secrets: z.array(secretRef).default([]),
    hpa: z.boolean(),
    pdb: z.boolean(),
    /** Ports this service may reach outside the cluster (NetworkPolicy egress to any address). */
    egress: z.array(port).default([]),
  })
  .strict();

export const topologySchema = z
  .object({
    version: z.literal(1),
    image: z
      .object({
        uid: z.number().int().min(1),
        gid: z.number().int().min(1),
        dataDir: z.string().startsWith("/"),
        tmpDir: z.string().startsWith("/"),
        entrypoint: z.array(z.string()).min(1),
        healthcheck: z.array(z.string()).min(1),
      })
      .strict(),
    grpcHost: z.string(),
    metricsPort: port,
    kubernetes: z.object({ partOf: name, configMap: name, secret: name, monitoringNamespace: name }).strict(),
    config: z.record(envName, z.string()),
    engines: z.object({ kafka: engineSchema, mongo: engineSchema, qdrant: engineSchema }).strict(),
    features: z.object({ embedder: featureSchema, nlp: featureSchema }).strict(),
    services: z.record(name, serviceSchema),
  })
  .strict()
  .superRefine((t, ctx) => {
    const problem = (p: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path: p, message });
    const grpcPorts = new Map<number, string>();
    for (const [svc, s] of Object.entries(t.services)) {
      if (!s.grpc === !s.http) problem(["services", svc], "needs exactly one of grpc (a gRPC service) or http (the gateway)");
      if (s.grpc) {
        const other = grpcPorts.get(s.grpc.port);
        if (other) problem(["services", svc, "grpc", "port"], `port ${s.grpc.port} is also ${other}'s`);
        grpcPorts.set(s.grpc.port, svc);
        if (s.grpc.port === t.metricsPort) problem(["services", svc, "grpc", "port"], "is the metrics port");
      }
      for (const peer of s.peers) {
        const p = t.services[peer];
        if (!p) problem(["services", svc, "peers"], `unknown peer ${peer}`);
        else if (!p.grpc?.addressVariable) problem(["services", svc, "peers"], `${peer} has no grpc.addressVariable to be dialled through`);
        if (peer === svc) problem(["services", svc, "peers"], "a service does not dial itself");
      }
      for (const f of [...s.features.flatMap((x) => t.features[x].config), ...s.engines.flatMap((e) => t.engines[e].config)]) {
        if (!(f in t.config)) problem(["config"], `${f} (used by ${svc}) has no value`);
      }
    }
    const targets = Object.values(t.services).map((s) => s.target);
    if (new Set(targets).size !== targets.length) problem(["services"], "two services share a TARGETS value");
  });

export type Topology = z.infer<typeof topologySchema>;
export type TopologyService = Topology["services"][string];
export type EngineName = (typeof ENGINES)[number];

/** Where a deployment takes a variable's value from. */
export type ExpectedVar =
  /** A fixed value, set on the service itself (compose `environment`, Deployment `env[].value`). */
  | { source: "literal"; value: string }
  /** A shared value: Kubernetes ConfigMap `engram-config` (`configMapKeyRef`), compose `x-*-env` blocks. */
  | { source: "config"; value: string }
  /** A secret: Kubernetes Secret `engram-secrets` (`secretKeyRef`); compose `${VAR}` from the environment or `.env`. */
  | { source: "secret"; optional: boolean };

/** Validates a parsed topology document (throws a readable error listing every problem). */
export function parseTopology(doc: unknown): Topology {
  const result = topologySchema.safeParse(doc);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new Error(`invalid topology:\n  - ${problems.join("\n  - ")}`);
}

/** deploy/topology.yaml of the repository this code runs from (found by walking up; ENGRAM_TOPOLOGY overrides it). */
export function findTopologyFile(from: string = __dirname): string {
  if (process.env.ENGRAM_TOPOLOGY) return process.env.ENGRAM_TOPOLOGY;
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "deploy", "topology.yaml");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no deploy/topology.yaml found above ${from}; set ENGRAM_TOPOLOGY`);
  }
}

/** Reads and validates the topology file. (`yaml` is loaded on first use: nothing else in a process pays for it.) */
export async function loadTopology(file: string = findTopologyFile()): Promise<Topology> {
  const { parse } = await import("yaml");
  return parseTopology(parse(fs.readFileSync(file, "utf8")));
}

/** The service names, in the topology's (start) order. */
export function serviceNames(t: Topology): string[] {
  return Object.keys(t.services);
}

export function serviceOf(t: Topology, svc: string): TopologyService {
  const s = t.services[svc];
  if (!s) throw new Error(`no service ${svc} in the topology`);
  return s;
}

/** The services that dial `svc` (its gRPC clients). */
export function callersOf(t: Topology, svc: string): string[] {
  return serviceNames(t).filter((n) => serviceOf(t, n).peers.includes(svc));
}

/** `<peer>:<port>`: how a peer is dialled (compose service and Kubernetes Service carry its name). */
export function peerAddress(t: Topology, peer: string): string {
  const p = serviceOf(t, peer);
  if (!p.grpc) throw new Error(`${peer} serves no gRPC`);
  return `${peer}:${p.grpc.port}`;
}

/** The container ports a service listens on, by name (`grpc`, `metrics`, `http`). */
export function containerPorts(t: Topology, svc: string): Record<string, number> {
  const s = serviceOf(t, svc);
  if (s.http) return { http: s.http.port };
  return { grpc: s.grpc!.port, metrics: t.metricsPort };
}

/**
 * Every variable a deployment of `svc` must set, with where its value comes
 * from. This is the one derivation used by the tests of docker-compose.yml and
 * of every manifest.
 */
export function expectedEnv(t: Topology, svc: string): Map<string, ExpectedVar> {
  const s = serviceOf(t, svc);
  const out = new Map<string, ExpectedVar>();
  const literal = (k: string, value: string) => out.set(k, { source: "literal", value });
  const config = (k: string) => out.set(k, { source: "config", value: t.config[k]! });
  const secret = (r: { name: string; optional: boolean }) => out.set(r.name, { source: "secret", optional: r.optional });

  literal("TARGETS", s.target);
  literal("ENGRAM_DATA_DIR", t.image.dataDir);
  config("LOG_LEVEL");
  if (s.grpc) {
    literal("GRPC_HOST", t.grpcHost);
    literal(s.grpc.bindVariable, `${t.grpcHost}:${s.grpc.port}`);
    literal("METRICS_ADDRESS", `${t.grpcHost}:${t.metricsPort}`);
  }
  if (s.http) {
    literal(s.http.portVariable, String(s.http.port));
    literal(s.http.hostVariable, t.grpcHost);
  }
  for (const peer of s.peers) literal(serviceOf(t, peer).grpc!.addressVariable!, peerAddress(t, peer));
  for (const e of s.engines) {
    const engine = t.engines[e];
    for (const [k, v] of Object.entries(engine.selector)) literal(k, v);
    for (const k of engine.config) config(k);
    for (const k of engine.perService) literal(k, `${t.kubernetes.partOf}-${svc}`);
    for (const r of engine.secrets) secret(r);
  }
  for (const f of s.features) {
    for (const k of t.features[f].config) config(k);
    for (const r of t.features[f].secrets) secret(r);
  }
  for (const [k, v] of Object.entries(s.settings)) literal(k, v);
  for (const r of s.secrets) secret(r);
  return out;
}

/** Variables a deployment of `svc` may set beyond `expectedEnv` (the service reads them; defaults apply otherwise). */
export function optionalEnv(t: Topology, svc: string): Set<string> {
  const s = serviceOf(t, svc);
  return new Set([...s.optional, ...s.features.flatMap((f) => t.features[f].optional)]);
}

/** Every variable the topology names for `svc`: expected and optional. */
export function allowedEnv(t: Topology, svc: string): Set<string> {
  return new Set([...expectedEnv(t, svc).keys(), ...optionalEnv(t, svc)]);
}

/** The environment-variable form of a service name: `pipeline-worker` → `PIPELINE_WORKER`. */
export function envPrefix(svc: string): string {
  return svc.toUpperCase().replace(/-/g, "_");
}
