import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Topology, allowedEnv, callersOf, expectedEnv, findTopologyFile, loadTopology, parseTopology, serviceNames, serviceOf } from "../src/topology";
import {
  type K8sObject,
  checkCompose,
  checkDockerfile,
  checkManifests,
  composeEnvironment,
  interpolate,
  parseCompose,
  readYamlDocs,
  renderKustomization,
  strategicMerge,
} from "./deploy-check";

const root = path.resolve(__dirname, "../../..");
const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");

const OVERLAYS = {
  base: { dir: "deploy/base", configValuesFromTopology: true, secretGenerated: false, enginesIncluded: false },
  dev: { dir: "deploy/overlays/dev", configValuesFromTopology: false, secretGenerated: true, enginesIncluded: true },
  prod: { dir: "deploy/overlays/prod", configValuesFromTopology: false, secretGenerated: false, enginesIncluded: false },
} as const;

function renderOverlay(name: keyof typeof OVERLAYS): K8sObject[] {
  const r = renderKustomization(path.join(root, OVERLAYS[name].dir));
  return r.objects;
}

function check(name: keyof typeof OVERLAYS, objects: K8sObject[], t: Topology): string[] {
  return checkManifests(t, objects, { name: OVERLAYS[name].dir, ...OVERLAYS[name] });
}

const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
const container = (objects: K8sObject[], svc: string) => find(objects, "Deployment", svc).spec.template.spec.containers[0];

let t: Topology;
beforeAll(async () => {
  t = await loadTopology();
});

describe("deploy/topology.yaml", () => {
  it("is found from here and valid", () => {
    expect(findTopologyFile(__dirname)).toBe(path.join(root, "deploy", "topology.yaml"));
    expect(serviceNames(t)).toEqual(["ingestion", "connections", "recall", "memories", "pipeline-worker", "gateway"]);
  });

  it("names a TARGETS value equal to each service's name", () => {
    for (const svc of serviceNames(t)) expect(serviceOf(t, svc).target).toBe(svc);
  });

  it("gives the dev engines' addresses to the shared config", () => {
    expect(t.config.KAFKA_BROKERS).toBe(`${t.engines.kafka.host}:${t.engines.kafka.ports.client}`);
    expect(t.config.QDRANT_URL).toBe(`http://${t.engines.qdrant.host}:${t.engines.qdrant.ports.http}`);
  });

  it("lists services in start order: each after the peers it dials", () => {
    const names = serviceNames(t);
    for (const svc of names) for (const peer of serviceOf(t, svc).peers) expect(names.indexOf(peer)).toBeLessThan(names.indexOf(svc));
    expect(callersOf(t, "ingestion").sort()).toEqual(["connections", "gateway", "memories", "pipeline-worker", "recall"]);
    expect(callersOf(t, "pipeline-worker")).toEqual([]);
  });

  it("derives the gateway's peers and the worker's engines into its variables", () => {
    const gw = expectedEnv(t, "gateway");
    expect(gw.get("RECALL_ADDRESS")).toEqual({ source: "literal", value: "recall:50054" });
    expect(gw.get("PORT")).toEqual({ source: "literal", value: "8080" });
    expect(gw.has("GRPC_HOST")).toBe(false);
    const wk = expectedEnv(t, "pipeline-worker");
    expect(wk.get("BUS")).toEqual({ source: "literal", value: "kafka" });
    expect(wk.get("PIPELINE_WORKER_GRPC_ADDRESS")).toEqual({ source: "literal", value: "0.0.0.0:50052" });
    expect(wk.get("METRICS_ADDRESS")).toEqual({ source: "literal", value: "0.0.0.0:9464" });
    expect(wk.get("QDRANT_API_KEY")).toEqual({ source: "secret", optional: true });
    expect(wk.has("MONGO_URL")).toBe(false);
    expect(allowedEnv(t, "pipeline-worker").has("EXTRACT_TIMEOUT_MS")).toBe(true);
  });

  it("rejects a duplicated port, an unknown peer and a missing shared value, all at once", () => {
    const doc = structuredClone(t) as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    doc.services.recall.grpc.port = 50051;
    doc.services.gateway.peers.push("search");
    delete doc.config.MONGO_DB;
    expect(() => parseTopology(doc)).toThrow(/port 50051 is also ingestion's[\s\S]*unknown peer search[\s\S]*MONGO_DB \(used by/);
  });
});

describe("docs/deployment.md", () => {
  it("states each service's ports, peers and scaling as the topology does", () => {
    const doc = read("docs/deployment.md");
    for (const svc of serviceNames(t)) {
      const s = serviceOf(t, svc);
      const row = doc.split("\n").find((l) => l.startsWith(`| \`${svc}\``));
      expect({ svc, row: row !== undefined }).toEqual({ svc, row: true });
      const cells = row!.split("|").map((c) => c.trim());
      expect(cells[2]).toBe(`\`${s.target}\``);
      expect(cells[3]).toContain(s.grpc ? `gRPC ${s.grpc.port}` : `HTTP ${s.http!.port}`);
      if (s.grpc) expect(cells[3]).toContain(`metrics ${t.metricsPort}`);
      expect(cells[4]).toBe(s.peers.length ? s.peers.join(", ") : "—");
      expect(cells[6]!.startsWith(s.hpa ? "HPA" : "replicas")).toBe(true);
    }
  });
});

describe("Dockerfile", () => {
  it("runs the topology's entrypoint and health check as its non-root user, exposing every port", () => {
    expect(checkDockerfile(t, read("Dockerfile"))).toEqual([]);
  });

  it("reports a root user, a wrong health check and a missing port", () => {
    const text = read("Dockerfile")
      .replace(/^USER .*$/m, "USER root")
      .replace('CMD ["node", "dist/healthcheck.js"]', 'CMD ["curl", "-f", "localhost:8080"]')
      .replace(/ 50054/, "");
    const problems = checkDockerfile(t, text);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/USER 10001:10001 \(got root\)/),
        expect.stringMatching(/HEALTHCHECK must run/),
        expect.stringMatching(/EXPOSE .* must be 8080 9464 50051 50052 50053 50054 50055/),
      ]),
    );
  });

  it("bundles the health check it runs, and keeps the build context small", () => {
    expect(read("scripts/build.mjs")).toMatch(/healthcheck: "services\/all-in-one\/src\/healthcheck\.ts"/);
    const ignore = read(".dockerignore").split("\n");
    expect(ignore).toEqual(expect.arrayContaining(["**/node_modules", "dist", ".git", ".data"]));
  });
});

describe("docker-compose.yml", () => {
  const compose = () => parseCompose(read("docker-compose.yml"));

  it("agrees with the topology", () => {
    expect(checkCompose(t, compose())).toEqual([]);
  });

  it("interpolates like compose", () => {
    expect(interpolate("${A:-x}/${B-y}/${C}/$$D/$E", { B: "", E: "e" })).toBe("x//" + "/$D/e");
    expect(interpolate("${A:-http://h:80/v1}", {})).toBe("http://h:80/v1");
    expect(() => interpolate("${A:?set A}")).toThrow(/set A/);
    expect(composeEnvironment({ environment: ["A=1", "B"] })).toEqual({ A: "1", B: "" });
  });

  it("reports a wrong port, TARGETS, peer address, a stray variable and a missing health gate", () => {
    const doc = compose();
    doc.services.recall.environment.RECALL_GRPC_ADDRESS = "0.0.0.0:50099";
    doc.services.memories.environment.TARGETS = "memories,recall";
    doc.services.gateway.environment.INGESTION_ADDRESS = "ingestion:50052";
    doc.services.ingestion.environment.EXTRACT_THREADS = "4";
    doc.services["pipeline-worker"].depends_on.ingestion = { condition: "service_started" };
    delete doc.services.connections.environment.ENGRAM_SECRET_KEY;
    expect(checkCompose(t, doc).sort()).toEqual(
      [
        'docker-compose.yml: service recall: RECALL_GRPC_ADDRESS is "0.0.0.0:50099", topology says "0.0.0.0:50054"',
        'docker-compose.yml: service memories: TARGETS is "memories,recall", topology says "memories"',
        'docker-compose.yml: service gateway: INGESTION_ADDRESS is "ingestion:50052", topology says "ingestion:50051"',
        "docker-compose.yml: service ingestion: EXTRACT_THREADS is not a variable of ingestion in deploy/topology.yaml",
        "docker-compose.yml: service pipeline-worker: depends_on ingestion must use condition: service_healthy",
        "docker-compose.yml: service connections: secret variable ENGRAM_SECRET_KEY is not passed (e.g. ENGRAM_SECRET_KEY: ${ENGRAM_SECRET_KEY:-})",
      ].sort(),
    );
  });

  it("reports embedders that would not embed alike and engines that disagree with the services", () => {
    const doc = compose();
    doc.services.recall.environment.EMBEDDING_MODEL = "${EMBEDDING_MODEL:-nomic-embed-text}";
    doc.services.kafka.environment.KAFKA_NUM_PARTITIONS = 6;
    doc.services.mongo.command = ["mongod", "--bind_ip_all"];
    doc.services.ingestion.depends_on.qdrant = { condition: "service_healthy" };
    const problems = checkCompose(t, doc);
    expect(problems).toEqual(
      expect.arrayContaining([
        "docker-compose.yml: recall, memories, pipeline-worker must share one embedder block (they embed into one vector space)",
        'docker-compose.yml: service recall: EMBEDDING_MODEL "nomic-embed-text" is not the model the embeddings server loads ("BAAI/bge-small-en-v1.5")',
        "docker-compose.yml: kafka: KAFKA_NUM_PARTITIONS is 6, KAFKA_TOPIC_PARTITIONS is 12",
        "docker-compose.yml: mongo: must run with --replSet rs0",
        "docker-compose.yml: service ingestion: depends_on qdrant (ingestion does not use qdrant)",
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it("reports a service the topology lacks, and one it has that compose lacks", () => {
    const doc = compose();
    doc.services.search = structuredClone(doc.services.recall);
    delete doc.services.connections;
    const problems = checkCompose(t, doc);
    expect(problems).toContain("docker-compose.yml: service connections is missing");
    expect(problems).toContain("docker-compose.yml: service search builds the Engram image but is not in deploy/topology.yaml");
  });
});

describe("Kubernetes manifests (deploy/)", () => {
  it.each(Object.keys(OVERLAYS) as (keyof typeof OVERLAYS)[])("%s renders and agrees with the topology", (name) => {
    const r = renderKustomization(path.join(root, OVERLAYS[name].dir));
    expect(r.unused).toEqual([]);
    expect(check(name, r.objects, t)).toEqual([]);
  });

  it("applies the overlays' patches (a minimal kustomize)", () => {
    const prod = renderOverlay("prod");
    expect(find(prod, "HorizontalPodAutoscaler", "pipeline-worker").spec).toMatchObject({ minReplicas: 2, maxReplicas: 12 });
    expect(find(prod, "Deployment", "recall").spec.replicas).toBe(2);
    expect(container(prod, "pipeline-worker").resources.requests.cpu).toBe("2");
    expect(container(prod, "pipeline-worker").image).toBe("registry.example.com/engram:0.1.0");
    // The patch merged one env entry (moved first, as kustomize does) and kept the others.
    const names = (objects: K8sObject[]) => container(objects, "pipeline-worker").env.map((e: { name: string }) => e.name);
    expect(names(prod)[0]).toBe("EXTRACT_THREADS");
    expect([...names(prod)].sort()).toEqual([...names(renderOverlay("base"))].sort());
    expect(find(prod, "ConfigMap", "engram-config").data.KAFKA_REPLICATION_FACTOR).toBe("3");
    expect(find(prod, "Deployment", "gateway").metadata.namespace).toBe("engram");
    const dev = renderOverlay("dev");
    expect(find(dev, "Secret", "engram-secrets").stringData.MONGO_URL).toBe("mongodb://mongo:27017/?replicaSet=rs0");
    expect(strategicMerge({ a: [{ name: "x", v: 1 }, { name: "y" }], b: 1, c: [1, 2] }, { a: [{ name: "x", w: 2 }, { name: "z" }], b: null, c: [3] })).toEqual({
      a: [{ name: "x", v: 1, w: 2 }, { name: "z" }, { name: "y" }],
      c: [3],
    });
  });

  it("reports a wrong probe port, a peer address, a variable from the wrong place and a stray variable", () => {
    const objects = renderOverlay("base");
    container(objects, "recall").readinessProbe.grpc.port = 50053;
    container(objects, "gateway").livenessProbe.httpGet.path = "/readyz";
    container(objects, "memories").env.find((e: { name: string }) => e.name === "INGESTION_ADDRESS").value = "ingestion:50052";
    const worker = container(objects, "pipeline-worker");
    worker.env.find((e: { name: string }) => e.name === "EMBEDDER").valueFrom.configMapKeyRef.name = "worker-config";
    worker.env.push({ name: "PROFILE_STATIC_MAX", value: "10" });
    container(objects, "connections").env.find((e: { name: string }) => e.name === "ENGRAM_SECRET_KEY").valueFrom.secretKeyRef.optional = true;
    // A pod killed before the process's shutdown budget runs out.
    find(objects, "Deployment", "ingestion").spec.template.spec.terminationGracePeriodSeconds = 9;
    expect(check("base", objects, t).sort()).toEqual(
      [
        "deploy/base: Deployment ingestion: terminationGracePeriodSeconds (9) must exceed SHUTDOWN_GRACE_MS (8000 ms) by at least 2 s",
        "deploy/base: Deployment recall: readinessProbe must be a gRPC probe on port 50054",
        "deploy/base: Deployment gateway: livenessProbe must GET /healthz on port 8080",
        'deploy/base: Deployment memories: INGESTION_ADDRESS is "ingestion:50052", topology says "ingestion:50051"',
        "deploy/base: Deployment pipeline-worker: EMBEDDER must come from ConfigMap engram-config key EMBEDDER",
        "deploy/base: Deployment pipeline-worker: PROFILE_STATIC_MAX is not a variable of pipeline-worker in deploy/topology.yaml",
        "deploy/base: Deployment connections: ENGRAM_SECRET_KEY must be required (not optional)",
      ].sort(),
    );
  });

  it("reports ports, security and scaling that disagree with the topology", () => {
    const objects = renderOverlay("prod");
    find(objects, "Service", "ingestion").spec.ports[0].port = 50099;
    container(objects, "connections").ports[0].containerPort = 50056;
    container(objects, "recall").securityContext.readOnlyRootFilesystem = false;
    find(objects, "Deployment", "memories").spec.template.spec.securityContext.runAsUser = 0;
    container(objects, "memories").securityContext.runAsUser = 0;
    find(objects, "HorizontalPodAutoscaler", "pipeline-worker").spec.maxReplicas = 24;
    find(objects, "Deployment", "gateway").spec.replicas = 3;
    expect(check("prod", objects, t).sort()).toEqual(
      [
        "deploy/overlays/prod: Service ingestion: port grpc is 50099, topology says 50051",
        "deploy/overlays/prod: Service ingestion: callers dial ingestion:50051",
        'deploy/overlays/prod: Deployment connections: container ports {"grpc":50056,"metrics":9464} must be {"grpc":50055,"metrics":9464}',
        "deploy/overlays/prod: Deployment recall: readOnlyRootFilesystem must be true",
        "deploy/overlays/prod: Deployment memories: runAsUser must be 10001 (the image's user)",
        "deploy/overlays/prod: HorizontalPodAutoscaler pipeline-worker: maxReplicas 24 exceeds KAFKA_TOPIC_PARTITIONS 12: replicas beyond the partitions idle in the consumer group",
        "deploy/overlays/prod: Deployment gateway: sets replicas although its HorizontalPodAutoscaler owns them",
      ].sort(),
    );
  });

  it("reports network policies that admit the wrong callers or reach the wrong peers", () => {
    const objects = renderOverlay("base");
    const recall = find(objects, "NetworkPolicy", "recall").spec;
    recall.ingress[0].from.push({ podSelector: { matchLabels: { "app.kubernetes.io/name": "pipeline-worker" } } });
    const gateway = find(objects, "NetworkPolicy", "gateway").spec;
    gateway.egress = gateway.egress.filter((r: { to?: unknown[] }) => !JSON.stringify(r.to ?? "").includes('"connections"'));
    const worker = find(objects, "NetworkPolicy", "pipeline-worker").spec;
    worker.egress.push({ to: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "recall" } } }], ports: [{ protocol: "TCP", port: 50054 }] });
    expect(check("base", objects, t).sort()).toEqual(
      [
        "deploy/base: NetworkPolicy recall: gRPC port 50054 admits [gateway, pipeline-worker]; its callers are [gateway]",
        "deploy/base: NetworkPolicy gateway: must allow connections on port 50055 out",
        "deploy/base: NetworkPolicy pipeline-worker: allows recall out, which pipeline-worker does not dial",
        "deploy/base: NetworkPolicy pipeline-worker: allows port 50054 out, which topology.yaml does not list for pipeline-worker",
      ].sort(),
    );
  });

  it("reports a ConfigMap key no topology value backs, a missing secret, and dev engines on other ports", () => {
    const objects = renderOverlay("dev");
    find(objects, "ConfigMap", "engram-config").data.KAFKA_BROKERS = "kafka:9094";
    find(objects, "ConfigMap", "engram-config").data.REDIS_URL = "redis://redis";
    delete find(objects, "Secret", "engram-secrets").stringData.ENGRAM_FILE_URL_SECRET;
    find(objects, "Service", "qdrant").spec.ports[0].port = 6335;
    expect(check("dev", objects, t).sort()).toEqual(
      [
        "deploy/overlays/dev: ConfigMap engram-config has REDIS_URL, which is not in topology.yaml config",
        "deploy/overlays/dev: Secret engram-secrets lacks the required ENGRAM_FILE_URL_SECRET",
        "deploy/overlays/dev: Service qdrant lacks the http port 6333",
        'deploy/overlays/dev: KAFKA_BROKERS is "kafka:9094", expected "kafka:9092" (the Kafka of this overlay)',
      ].sort(),
    );
  });

  it("refuses kustomization fields the minimal renderer does not implement, and reports unused files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-kustomize-"));
    try {
      fs.writeFileSync(path.join(dir, "kustomization.yaml"), "resources: [a.yaml]\ncommonLabels: {x: y}\n");
      fs.writeFileSync(path.join(dir, "a.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
      expect(() => renderKustomization(dir)).toThrow(/commonLabels is not supported/);
      fs.writeFileSync(path.join(dir, "kustomization.yaml"), "resources: [a.yaml]\n");
      fs.writeFileSync(path.join(dir, "forgotten.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n");
      expect(renderKustomization(dir).unused).toEqual([path.join(dir, "forgotten.yaml")]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * With kubectl installed (its built-in kustomize), every overlay is rendered
 * by the real thing too: the same checks must pass on its output, and the
 * minimal renderer must have produced the same objects.
 */
function kubectl(): string | undefined {
  try {
    execFileSync("kubectl", ["version", "--client"], { stdio: "ignore", timeout: 20_000 });
    return "kubectl";
  } catch {
    return undefined;
  }
}

const kubectlBin = kubectl();
const describeKustomize = kubectlBin ? describe : describe.skip;
if (!kubectlBin) console.log("skipped: kubectl kustomize comparison: kubectl is not installed (the minimal renderer's checks above still ran)");

describeKustomize("Kubernetes manifests rendered by kubectl kustomize", () => {
  const normalise = (objects: K8sObject[]) =>
    objects
      .map((o) => {
        const c = structuredClone(o);
        c.metadata.name = c.metadata.name.replace(/-[a-z0-9]{10}$/, "");
        if (c.kind === "Secret" && c.data) {
          c.stringData = Object.fromEntries(Object.entries(c.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
          delete c.data;
        }
        if (c.kind === "Secret" && c.type === "Opaque") delete c.type;
        const strip = (x: unknown): unknown => {
          if (Array.isArray(x)) return x.map(strip);
          if (x && typeof x === "object") {
            const out: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(x)) {
              if (k === "name" && typeof v === "string") out[k] = v.replace(/^(engram-(config|secrets))-[a-z0-9]{10}$/, "$1");
              else out[k] = strip(v);
            }
            return out;
          }
          return x;
        };
        return strip(c) as K8sObject;
      })
      .sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));

  it.each(Object.keys(OVERLAYS) as (keyof typeof OVERLAYS)[])("%s: the same objects, and the checks pass", (name) => {
    const out = execFileSync(kubectlBin!, ["kustomize", path.join(root, OVERLAYS[name].dir)], { encoding: "utf8", timeout: 60_000 });
    const tmp = path.join(os.tmpdir(), `engram-kustomize-${name}-${process.pid}.yaml`);
    fs.writeFileSync(tmp, out);
    try {
      const real = readYamlDocs(tmp);
      expect(check(name, real, t)).toEqual([]);
      expect(normalise(real)).toEqual(normalise(renderOverlay(name)));
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  });
});
