/**
 * Consistency checks of docker-compose.yml, the Dockerfile and the Kubernetes
 * manifests under deploy/ against deploy/topology.yaml. Each check returns a
 * list of problems (empty: consistent), so tests can both assert a clean
 * repository and prove a mutated document is caught.
 *
 * `renderKustomization` is a minimal kustomize: resources (files and
 * directories), namespace, images, replicas, strategic-merge `patches` (lists
 * merged by `name`), config/secret generators (create and merge). It refuses
 * any other kustomization field, so an overlay using one fails loudly here
 * rather than being checked wrongly. When `kubectl` is installed, the tests
 * also compare it with `kubectl kustomize`.
 */
import fs from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { type Topology, allowedEnv, callersOf, containerPorts, expectedEnv, peerAddress, serviceNames, serviceOf } from "../src/topology";
import { DEFAULT_SHUTDOWN_GRACE_MS } from "../src";

/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML is untyped by nature */
export type Doc = any;
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [k: string]: any };

const NAME_LABEL = "app.kubernetes.io/name";
const PART_OF_LABEL = "app.kubernetes.io/part-of";

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/* ------------------------------------------------------------------------ */
/* docker compose                                                            */
/* ------------------------------------------------------------------------ */

export function parseCompose(text: string): Doc {
  return parse(text, { merge: true });
}

/**
 * Compose variable interpolation: `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?message}`, `$VAR` and `$$` (a literal `$`), resolved against `env`.
 */
export function interpolate(value: string, env: Record<string, string> = {}): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, name, colon, op, arg, bare) => {
    if (m === "$$") return "$";
    if (bare) return env[bare] ?? "";
    const v = env[name];
    const unset = v === undefined || (colon === ":" && v === "");
    if (op === "-") return unset ? interpolate(arg ?? "", env) : v!;
    if (op === "?") {
      if (unset) throw new Error(`required variable ${name} is missing: ${arg}`);
      return v!;
    }
    return v ?? "";
  });
}

/** A compose service's environment as a map (map and `KEY=VALUE` list forms), values not yet interpolated. */
export function composeEnvironment(service: Doc): Record<string, string> {
  const e = service?.environment;
  const out: Record<string, string> = {};
  if (Array.isArray(e)) {
    for (const item of e) {
      const s = String(item);
      const i = s.indexOf("=");
      out[i < 0 ? s : s.slice(0, i)] = i < 0 ? "" : s.slice(i + 1);
    }
  } else if (isObject(e)) {
    for (const [k, v] of Object.entries(e)) out[k] = v === null || v === undefined ? "" : String(v);
  }
  return out;
}

function dependsOn(service: Doc): Record<string, { condition?: string; required?: boolean }> {
  const d = service?.depends_on;
  if (Array.isArray(d)) return Object.fromEntries(d.map((n) => [String(n), { condition: "service_started" }]));
  return isObject(d) ? d : {};
}

function composeHealthTest(service: Doc): string[] | undefined {
  const t = service?.healthcheck?.test;
  if (service?.healthcheck?.disable) return undefined;
  if (typeof t === "string") return ["CMD-SHELL", t];
  return Array.isArray(t) ? t.map(String) : undefined;
}

/** Mount targets of a compose service: named volumes (`name:/path`), binds, and tmpfs. */
function composeMounts(service: Doc): { named: Map<string, string>; writable: Set<string> } {
  const named = new Map<string, string>();
  const writable = new Set<string>();
  for (const v of service?.volumes ?? []) {
    if (typeof v === "string") {
      const [source, target, mode] = v.split(":");
      if (target === undefined) continue;
      if (!source!.startsWith(".") && !source!.startsWith("/")) named.set(target, source!);
      if (mode !== "ro") writable.add(target);
    } else if (isObject(v)) {
      if (v.type === "volume" && v.source) named.set(v.target, v.source);
      if (!v.read_only) writable.add(v.target);
    }
  }
  const tmpfs = service?.tmpfs;
  for (const t of Array.isArray(tmpfs) ? tmpfs : tmpfs ? [tmpfs] : []) writable.add(String(t).split(":")[0]!);
  return { named, writable };
}

function containerPortsPublished(service: Doc): number[] {
  return (service?.ports ?? []).map((p: unknown) => {
    if (isObject(p)) return Number(p.target);
    const s = String(p).split("/")[0]!;
    return Number(s.slice(s.lastIndexOf(":") + 1));
  });
}

/** The MongoDB connection string of the dev topologies (compose, dev overlay). */
export function devMongoUrl(t: Topology): string {
  const m = t.engines.mongo;
  return `mongodb://${m.host}:${m.ports.client}/?replicaSet=${m.replicaSet}`;
}

export function checkCompose(t: Topology, doc: Doc): string[] {
  const problems: string[] = [];
  const p = (msg: string) => problems.push(`docker-compose.yml: ${msg}`);
  const services: Record<string, Doc> = isObject(doc?.services) ? doc.services : {};
  const declaredVolumes = new Set(Object.keys(isObject(doc?.volumes) ? doc.volumes : {}));
  const engramImages = new Set<string>();
  const engineHosts = new Map(Object.entries(t.engines).map(([e, engine]) => [engine.host, e]));

  for (const svc of serviceNames(t)) {
    const s = serviceOf(t, svc);
    const c = services[svc];
    if (!c) {
      p(`service ${svc} is missing`);
      continue;
    }
    const where = `service ${svc}`;
    engramImages.add(JSON.stringify({ image: c.image, build: c.build }));
    const context = typeof c.build === "string" ? c.build : c.build?.context;
    const dockerfile = isObject(c.build) ? (c.build.dockerfile ?? "Dockerfile") : "Dockerfile";
    if (context !== "." || dockerfile !== "Dockerfile") p(`${where}: must build the repository's Dockerfile (build: {context: ., dockerfile: Dockerfile})`);
    if (c.command !== undefined || c.entrypoint !== undefined)
      p(`${where}: must not override the image's entrypoint or command (the target comes from TARGETS)`);
    if (c.user !== undefined && /^(root|0)(:|$)/.test(String(c.user))) p(`${where}: runs as root`);

    // Environment.
    const raw = composeEnvironment(c);
    const env = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, interpolate(v)]));
    const allowed = allowedEnv(t, svc);
    for (const [k, want] of expectedEnv(t, svc)) {
      if (want.source === "secret") {
        if (!want.optional && !(k in raw)) p(`${where}: secret variable ${k} is not passed (e.g. ${k}: \${${k}:-})`);
        continue;
      }
      if (!(k in raw)) p(`${where}: ${k} is missing (expected "${want.value}")`);
      else if (env[k] !== want.value) p(`${where}: ${k} is "${env[k]}", topology says "${want.value}"`);
    }
    for (const k of Object.keys(raw)) if (!allowed.has(k)) p(`${where}: ${k} is not a variable of ${svc} in deploy/topology.yaml`);
    if (s.engines.includes("mongo") && "MONGO_URL" in raw && env.MONGO_URL !== devMongoUrl(t))
      p(`${where}: MONGO_URL is "${env.MONGO_URL}", expected "${devMongoUrl(t)}" (the compose MongoDB)`);

    // Health check: the image's, for any target.
    const test = composeHealthTest(c);
    if (!test || JSON.stringify(test) !== JSON.stringify(["CMD", ...t.image.healthcheck]))
      p(`${where}: healthcheck.test must be ${JSON.stringify(["CMD", ...t.image.healthcheck])}`);

    // Start order: engines and peers healthy first.
    const deps = dependsOn(c);
    const needed = [...s.engines.map((e) => t.engines[e].host), ...s.peers];
    for (const n of needed) {
      if (!deps[n]) p(`${where}: depends_on lacks ${n}`);
      else if (deps[n].condition !== "service_healthy") p(`${where}: depends_on ${n} must use condition: service_healthy`);
    }
    for (const [n, d] of Object.entries(deps)) {
      if (needed.includes(n)) continue;
      if (n === "embeddings" && s.features.includes("embedder")) {
        if (d.required !== false || d.condition !== "service_healthy")
          p(`${where}: depends_on embeddings must be {condition: service_healthy, required: false}`);
        continue;
      }
      const why = serviceNames(t).includes(n) ? `${svc} does not dial ${n}` : engineHosts.has(n) ? `${svc} does not use ${engineHosts.get(n)}` : "unknown";
      p(`${where}: depends_on ${n} (${why})`);
    }
    if (!services[svc]?.depends_on && needed.length) p(`${where}: has no depends_on`);

    // Ports: only the gateway is published.
    const published = containerPortsPublished(c);
    if (s.http) {
      if (!published.includes(s.http.port)) p(`${where}: must publish container port ${s.http.port}`);
    } else if (published.length) p(`${where}: publishes ${published.join(", ")}; only the gateway is reached from outside`);

    // Filesystem: read-only root, writable /tmp and data dir, named volumes declared.
    const mounts = composeMounts(c);
    if (c.read_only !== true) p(`${where}: read_only must be true`);
    for (const dir of [t.image.tmpDir, t.image.dataDir]) if (!mounts.writable.has(dir)) p(`${where}: ${dir} must be writable (a volume or tmpfs)`);
    for (const [target, name] of mounts.named) if (!declaredVolumes.has(name)) p(`${where}: volume ${name} (at ${target}) is not declared under volumes:`);
  }
  if (engramImages.size > 1) p("the Engram services must share one image and build");

  // Unknown Engram-looking services (built from the Dockerfile but not in the topology).
  for (const [name, c] of Object.entries(services)) {
    if (serviceNames(t).includes(name)) continue;
    if (c?.build !== undefined) p(`service ${name} builds the Engram image but is not in deploy/topology.yaml`);
    for (const [target, vol] of composeMounts(c).named)
      if (!declaredVolumes.has(vol)) p(`service ${name}: volume ${vol} (at ${target}) is not declared under volumes:`);
  }

  // Engines.
  const kafka = services[t.engines.kafka.host];
  if (!kafka) p(`service ${t.engines.kafka.host} (Kafka) is missing`);
  else {
    const env = Object.fromEntries(Object.entries(composeEnvironment(kafka)).map(([k, v]) => [k, interpolate(v)]));
    const advertised = `PLAINTEXT://${t.engines.kafka.host}:${t.engines.kafka.ports.client}`;
    if (!String(env.KAFKA_ADVERTISED_LISTENERS ?? "").includes(advertised)) p(`kafka: KAFKA_ADVERTISED_LISTENERS must include ${advertised}`);
    if (!String(env.KAFKA_PROCESS_ROLES ?? "").includes("controller")) p("kafka: must run in KRaft mode (KAFKA_PROCESS_ROLES with controller)");
    if (env.KAFKA_NUM_PARTITIONS !== t.config.KAFKA_TOPIC_PARTITIONS)
      p(`kafka: KAFKA_NUM_PARTITIONS is ${env.KAFKA_NUM_PARTITIONS}, KAFKA_TOPIC_PARTITIONS is ${t.config.KAFKA_TOPIC_PARTITIONS}`);
    if (!composeHealthTest(kafka)) p("kafka: has no healthcheck");
    if (composeMounts(kafka).named.size === 0) p("kafka: keeps its log in no named volume");
  }
  const mongo = services[t.engines.mongo.host];
  if (!mongo) p(`service ${t.engines.mongo.host} (MongoDB) is missing`);
  else {
    const cmd = (Array.isArray(mongo.command) ? mongo.command : String(mongo.command ?? "").split(/\s+/)).map(String);
    const rs = t.engines.mongo.replicaSet;
    if (cmd[cmd.indexOf("--replSet") + 1] !== rs || !cmd.includes("--replSet")) p(`mongo: must run with --replSet ${rs}`);
    const test = (composeHealthTest(mongo) ?? []).join(" ");
    if (!test.includes("rs.initiate") || !test.includes(`'${rs}'`) || !test.includes(`${t.engines.mongo.host}:${t.engines.mongo.ports.client}`))
      p(`mongo: healthcheck must initiate replica set ${rs} with member ${t.engines.mongo.host}:${t.engines.mongo.ports.client}`);
    if (composeMounts(mongo).named.size === 0) p("mongo: keeps its data in no named volume");
  }
  const qdrant = services[t.engines.qdrant.host];
  if (!qdrant) p(`service ${t.engines.qdrant.host} (Qdrant) is missing`);
  else {
    if (!(composeHealthTest(qdrant) ?? []).join(" ").includes(String(t.engines.qdrant.ports.http)))
      p(`qdrant: healthcheck must probe port ${t.engines.qdrant.ports.http}`);
    if (composeMounts(qdrant).named.size === 0) p("qdrant: keeps its data in no named volume");
  }

  // The optional embeddings server, wired to every service that embeds.
  const embedders = serviceNames(t).filter((n) => serviceOf(t, n).features.includes("embedder"));
  const emb = services.embeddings;
  if (!emb) p("service embeddings (profile embeddings) is missing");
  else {
    if (JSON.stringify(emb.profiles) !== JSON.stringify(["embeddings"])) p("embeddings: must be in profile embeddings only");
    if (!composeHealthTest(emb)) p("embeddings: has no healthcheck");
    const cmd = (emb.command ?? []).map((x: unknown) => interpolate(String(x)));
    const port = cmd.includes("--port") ? Number(cmd[cmd.indexOf("--port") + 1]) : 80;
    const model = cmd[cmd.indexOf("--model-id") + 1];
    const openai = { EMBEDDER: "openai" };
    const rawBlocks = new Set(
      embedders.map((n) => {
        const raw = composeEnvironment(services[n]);
        return JSON.stringify(Object.fromEntries(Object.entries(raw).filter(([k]) => k.startsWith("EMBED"))));
      }),
    );
    if (rawBlocks.size > 1) p(`${embedders.join(", ")} must share one embedder block (they embed into one vector space)`);
    for (const n of embedders) {
      const raw = composeEnvironment(services[n]);
      const env = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, interpolate(v, openai)]));
      if (env.EMBEDDER !== "openai") p(`service ${n}: EMBEDDER=openai in the environment must switch it to the embeddings server`);
      let url: URL | undefined;
      try {
        url = new URL(env.EMBEDDING_BASE_URL ?? "");
      } catch {
        p(`service ${n}: EMBEDDING_BASE_URL "${env.EMBEDDING_BASE_URL}" is not a URL`);
      }
      if (url && (url.hostname !== "embeddings" || Number(url.port || 80) !== port))
        p(`service ${n}: EMBEDDING_BASE_URL ${url.href} does not reach the embeddings service on port ${port}`);
      if (env.EMBEDDING_MODEL !== model) p(`service ${n}: EMBEDDING_MODEL "${env.EMBEDDING_MODEL}" is not the model the embeddings server loads ("${model}")`);
      if (!dependsOn(services[n]).embeddings) p(`service ${n}: must wait for embeddings when its profile is active (depends_on, required: false)`);
    }
  }
  return problems;
}

/* ------------------------------------------------------------------------ */
/* minimal kustomize                                                         */
/* ------------------------------------------------------------------------ */

export interface Rendered {
  objects: K8sObject[];
  /** Files of the kustomization directories that no kustomization uses. */
  unused: string[];
}

const KUSTOMIZATION_FIELDS = new Set([
  "apiVersion",
  "kind",
  "namespace",
  "resources",
  "images",
  "replicas",
  "patches",
  "configMapGenerator",
  "secretGenerator",
  "generatorOptions",
]);

export function readYamlDocs(file: string): K8sObject[] {
  return parseAllDocuments(fs.readFileSync(file, "utf8"))
    .map((d) => {
      if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
      return d.toJS() as K8sObject;
    })
    .filter((d) => d !== null && d !== undefined);
}

/** Strategic merge of `patch` into `base` (objects merged, null deletes, lists of named items merged by name, other lists replaced). */
export function strategicMerge(base: any, patch: any): any {
  if (Array.isArray(base) && Array.isArray(patch)) {
    const key = patch.every((x) => isObject(x) && "name" in x) && base.every((x) => isObject(x) && "name" in x) ? "name" : undefined;
    if (!key) return structuredClone(patch);
    // As kustomize orders them: the patch's items (merged with their originals), then the untouched originals.
    const merged = patch.map((item) => {
      const original = base.find((x) => x[key] === item[key]);
      return original ? strategicMerge(original, item) : structuredClone(item);
    });
    const untouched = base.filter((x) => !patch.some((item) => item[key] === x[key])).map((x) => structuredClone(x));
    return [...merged, ...untouched];
  }
  if (isObject(base) && isObject(patch)) {
    const out: Record<string, any> = structuredClone(base);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k];
      else out[k] = k in out ? strategicMerge(out[k], v) : structuredClone(v);
    }
    return out;
  }
  return structuredClone(patch);
}

function parseEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const s = line.trim();
    if (!s || s.startsWith("#")) continue;
    const i = s.indexOf("=");
    out[s.slice(0, i)] = s.slice(i + 1);
  }
  return out;
}

function generatorData(dir: string, g: any): Record<string, string> {
  const data: Record<string, string> = {};
  for (const l of g.literals ?? []) {
    const i = String(l).indexOf("=");
    data[String(l).slice(0, i)] = String(l).slice(i + 1);
  }
  for (const f of g.envs ?? []) Object.assign(data, parseEnvFile(path.join(dir, f)));
  if (g.files) throw new Error(`${dir}: generator ${g.name}: files are not supported by the minimal renderer`);
  return data;
}

const CLUSTER_SCOPED = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "PersistentVolume", "StorageClass"]);

/** Renders a kustomization directory like `kustomize build` (minus hash suffixes; Secret data stays plain in `stringData`). */
export function renderKustomization(dir: string): Rendered {
  const used = new Set<string>();
  const objects = render(dir, used);
  const unused: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (!used.has(path.resolve(f))) unused.push(f);
    }
  };
  walk(dir);
  return { objects, unused };
}

function render(dir: string, used: Set<string>): K8sObject[] {
  const kfile = path.join(dir, "kustomization.yaml");
  used.add(path.resolve(kfile));
  const k = parse(fs.readFileSync(kfile, "utf8")) ?? {};
  for (const field of Object.keys(k))
    if (!KUSTOMIZATION_FIELDS.has(field)) throw new Error(`${kfile}: field ${field} is not supported by the minimal renderer`);
  let objects: K8sObject[] = [];
  for (const r of k.resources ?? []) {
    const target = path.join(dir, r);
    if (fs.statSync(target).isDirectory()) objects.push(...render(target, used));
    else {
      used.add(path.resolve(target));
      objects.push(...readYamlDocs(target));
    }
  }
  for (const g of k.configMapGenerator ?? []) objects = generate(objects, "ConfigMap", "data", dir, g, kfile);
  for (const g of k.secretGenerator ?? []) {
    for (const f of g.envs ?? []) used.add(path.resolve(path.join(dir, f)));
    objects = generate(objects, "Secret", "stringData", dir, g, kfile);
  }
  for (const g of k.configMapGenerator ?? []) for (const f of g.envs ?? []) used.add(path.resolve(path.join(dir, f)));
  for (const patchRef of k.patches ?? []) {
    if (!patchRef.path || patchRef.target || patchRef.patch) throw new Error(`${kfile}: only file patches without target (strategic merge) are supported`);
    const file = path.join(dir, patchRef.path);
    used.add(path.resolve(file));
    for (const patch of readYamlDocs(file)) {
      const i = objects.findIndex((o) => o.kind === patch.kind && o.metadata?.name === patch.metadata?.name);
      if (i < 0) throw new Error(`${file}: patches ${patch.kind} ${patch.metadata?.name}, which is not in the resources`);
      objects[i] = strategicMerge(objects[i], patch);
    }
  }
  for (const r of k.replicas ?? []) {
    const o = objects.find((x) => x.metadata?.name === r.name && ["Deployment", "StatefulSet"].includes(x.kind));
    if (!o) throw new Error(`${kfile}: replicas for ${r.name}, which is not a Deployment or StatefulSet here`);
    o.spec.replicas = r.count;
  }
  for (const img of k.images ?? []) {
    for (const o of objects) {
      for (const c of [...(o.spec?.template?.spec?.containers ?? []), ...(o.spec?.template?.spec?.initContainers ?? [])]) {
        const [name, tag] = splitImage(c.image);
        if (name !== img.name) continue;
        c.image = `${img.newName ?? name}${img.newTag ? `:${img.newTag}` : tag ? `:${tag}` : ""}`;
      }
    }
  }
  if (k.namespace) for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

function generate(objects: K8sObject[], kind: string, field: string, dir: string, g: any, kfile: string): K8sObject[] {
  const data = generatorData(dir, g);
  const behavior = g.behavior ?? "create";
  const existing = objects.find((o) => o.kind === kind && o.metadata.name === g.name);
  if (behavior === "create") {
    if (existing) throw new Error(`${kfile}: ${kind} ${g.name} already exists (use behavior: merge)`);
    return [...objects, { apiVersion: "v1", kind, metadata: { name: g.name }, [field]: data }];
  }
  if (!existing) throw new Error(`${kfile}: ${kind} ${g.name} to ${behavior} does not exist`);
  existing[field] = behavior === "merge" ? { ...existing[field], ...data } : data;
  return objects;
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.split("@")[0]!;
  const i = at.lastIndexOf(":");
  return i > at.lastIndexOf("/") ? [at.slice(0, i), at.slice(i + 1)] : [at, undefined];
}

/* ------------------------------------------------------------------------ */
/* Kubernetes manifests                                                      */
/* ------------------------------------------------------------------------ */

export interface ManifestContext {
  /** Name for messages: base, overlays/dev, ... */
  name: string;
  /** Whether the ConfigMap values must equal the topology's (base and overlays without own engines may differ). */
  configValuesFromTopology: boolean;
  /** Whether this rendering includes the Secret (dev) or expects it to exist (prod, base). */
  secretGenerated: boolean;
  /** Whether the engines run in this rendering (dev): then their Services must match the topology. */
  enginesIncluded: boolean;
}

/** A generated object's name without kustomize's hash suffix. */
function baseName(n: string | undefined): string {
  return String(n ?? "").replace(/-[a-z0-9]{10}$/, "");
}

/** A Secret's values: `stringData` as is, `data` decoded from base64 (as kustomize writes generated Secrets). */
function secretValues(secret: K8sObject | undefined): Record<string, string> {
  const data = Object.fromEntries(
    Object.entries((secret?.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
  );
  return { ...data, ...(secret?.stringData ?? {}) };
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function portNumbers(rules: any[] | undefined): number[] {
  return (rules ?? []).flatMap((r: any) => (r.ports ?? []).map((p: any) => Number(p.port)));
}

export function checkManifests(t: Topology, objects: K8sObject[], ctx: ManifestContext): string[] {
  const problems: string[] = [];
  const find = (kind: string, name: string) => objects.filter((o) => o.kind === kind && baseName(o.metadata?.name) === name);
  const configMaps = find("ConfigMap", t.kubernetes.configMap);
  const secrets = find("Secret", t.kubernetes.secret);
  const config: Record<string, string> = configMaps[0]?.data ?? {};

  // Shared ConfigMap: exactly the topology's keys.
  if (configMaps.length !== 1) problems.push(`${ctx.name}: expected one ConfigMap ${t.kubernetes.configMap}, found ${configMaps.length}`);
  for (const k of Object.keys(t.config)) if (!(k in config)) problems.push(`${ctx.name}: ConfigMap ${t.kubernetes.configMap} lacks ${k}`);
  for (const k of Object.keys(config))
    if (!(k in t.config)) problems.push(`${ctx.name}: ConfigMap ${t.kubernetes.configMap} has ${k}, which is not in topology.yaml config`);
  if (ctx.configValuesFromTopology)
    for (const [k, v] of Object.entries(t.config))
      if (k in config && String(config[k]) !== v) problems.push(`${ctx.name}: ConfigMap ${t.kubernetes.configMap} ${k}="${config[k]}", topology says "${v}"`);

  // The Secret: generated with every required key (dev), or left to exist outside (prod, base).
  const allSecrets = new Map<string, boolean>();
  for (const svc of serviceNames(t))
    for (const [k, v] of expectedEnv(t, svc)) if (v.source === "secret") allSecrets.set(k, (allSecrets.get(k) ?? true) && v.optional);
  if (ctx.secretGenerated) {
    if (secrets.length !== 1) problems.push(`${ctx.name}: expected a generated Secret ${t.kubernetes.secret}`);
    const data = secretValues(secrets[0]);
    for (const [k, optional] of allSecrets) if (!optional && !(k in data)) problems.push(`${ctx.name}: Secret ${t.kubernetes.secret} lacks the required ${k}`);
    for (const k of Object.keys(data)) if (!allSecrets.has(k)) problems.push(`${ctx.name}: Secret ${t.kubernetes.secret} has ${k}, which no service reads`);
  } else if (secrets.length) problems.push(`${ctx.name}: must not generate Secret ${t.kubernetes.secret} (it is created outside kustomize)`);

  // No Engram workload outside the topology.
  for (const d of objects.filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet")) {
    const n = d.metadata?.name;
    if (d.metadata?.labels?.[PART_OF_LABEL] === t.kubernetes.partOf && !serviceNames(t).includes(n))
      problems.push(`${ctx.name}: ${d.kind} ${n} is not a service in topology.yaml`);
  }

  for (const svc of serviceNames(t)) problems.push(...checkService(t, svc, objects, config, ctx));

  if (ctx.enginesIncluded) {
    for (const [e, engine] of Object.entries(t.engines)) {
      const services = find("Service", engine.host);
      const service = services[0];
      if (services.length !== 1 || !service) {
        problems.push(`${ctx.name}: engine ${e} needs a Service named ${engine.host}`);
        continue;
      }
      const ports = (service.spec?.ports ?? []).map((x: any) => Number(x.port));
      for (const [pn, port] of Object.entries(engine.ports))
        if (!ports.includes(port)) problems.push(`${ctx.name}: Service ${engine.host} lacks the ${pn} port ${port}`);
      const workload = objects.find(
        (o) => (o.kind === "StatefulSet" || o.kind === "Deployment") && selects(service.spec?.selector, o.spec?.template?.metadata?.labels),
      );
      if (!workload) problems.push(`${ctx.name}: Service ${engine.host} selects no workload`);
    }
    const secretData = secretValues(secrets[0]);
    if (secretData.MONGO_URL !== undefined && secretData.MONGO_URL !== devMongoUrl(t))
      problems.push(`${ctx.name}: MONGO_URL is "${secretData.MONGO_URL}", expected "${devMongoUrl(t)}" (the MongoDB of this overlay)`);
    const kafkaAddr = `${t.engines.kafka.host}:${t.engines.kafka.ports.client}`;
    if (config.KAFKA_BROKERS !== kafkaAddr)
      problems.push(`${ctx.name}: KAFKA_BROKERS is "${config.KAFKA_BROKERS}", expected "${kafkaAddr}" (the Kafka of this overlay)`);
    const qdrantUrl = `http://${t.engines.qdrant.host}:${t.engines.qdrant.ports.http}`;
    if (config.QDRANT_URL !== qdrantUrl)
      problems.push(`${ctx.name}: QDRANT_URL is "${config.QDRANT_URL}", expected "${qdrantUrl}" (the Qdrant of this overlay)`);
  }
  return problems;
}

function checkService(t: Topology, svc: string, objects: K8sObject[], config: Record<string, string>, ctx: ManifestContext): string[] {
  const problems: string[] = [];
  const s = serviceOf(t, svc);
  const p = (kind: string, msg: string) => problems.push(`${ctx.name}: ${kind} ${svc}: ${msg}`);
  const one = (kind: string): K8sObject | undefined => {
    const found = objects.filter((o) => o.kind === kind && o.metadata?.name === svc);
    if (found.length !== 1) {
      problems.push(`${ctx.name}: expected one ${kind} ${svc}, found ${found.length}`);
      return undefined;
    }
    return found[0];
  };
  const podLabels = { [NAME_LABEL]: svc, [PART_OF_LABEL]: t.kubernetes.partOf };
  const ports = containerPorts(t, svc);

  // ServiceAccount.
  const sa = one("ServiceAccount");
  if (sa && sa.automountServiceAccountToken !== false) p("ServiceAccount", "automountServiceAccountToken must be false (no service talks to the API server)");

  // Deployment.
  const d = one("Deployment");
  let templateLabels: Record<string, string> = {};
  if (d) {
    const pod = d.spec?.template?.spec ?? {};
    templateLabels = d.spec?.template?.metadata?.labels ?? {};
    for (const [k, v] of Object.entries(podLabels)) if (templateLabels[k] !== v) p("Deployment", `pod label ${k} must be ${v}`);
    if (!selects(d.spec?.selector?.matchLabels, templateLabels)) p("Deployment", "selector does not match its pod labels");
    if (pod.serviceAccountName !== svc) p("Deployment", `serviceAccountName must be ${svc}`);
    if (pod.enableServiceLinks !== false)
      p("Deployment", "enableServiceLinks must be false (Service links would add INGESTION_PORT=tcp://… and the like to the environment)");
    if (s.hpa && d.spec?.replicas !== undefined) p("Deployment", "sets replicas although its HorizontalPodAutoscaler owns them");
    const containers: any[] = pod.containers ?? [];
    if (containers.length !== 1 || containers[0]?.name !== svc) p("Deployment", `must have one container named ${svc}`);
    const c = containers.find((x) => x.name === svc) ?? containers[0] ?? {};
    const [image] = splitImage(String(c.image ?? ""));
    if (image.split("/").pop() !== "engram") p("Deployment", `image ${c.image} is not the engram image`);
    if (c.command || c.args) p("Deployment", "must not override the image's entrypoint or arguments (the target comes from TARGETS)");

    // Ports.
    const declared = Object.fromEntries((c.ports ?? []).map((x: any) => [x.name, Number(x.containerPort)]));
    if (JSON.stringify(Object.entries(declared).sort()) !== JSON.stringify(Object.entries(ports).sort()))
      p("Deployment", `container ports ${JSON.stringify(declared)} must be ${JSON.stringify(ports)}`);

    // Environment.
    if (c.envFrom) p("Deployment", "must list its variables in env (envFrom hides which ones it gets)");
    const env = new Map<string, any>();
    for (const e of c.env ?? []) {
      if (env.has(e.name)) p("Deployment", `sets ${e.name} twice`);
      env.set(e.name, e);
    }
    const allowed = allowedEnv(t, svc);
    for (const [k, want] of expectedEnv(t, svc)) {
      const e = env.get(k);
      if (!e) {
        p("Deployment", `${k} is missing`);
        continue;
      }
      if (want.source === "literal") {
        if (k in s.settings && e.value !== undefined) continue; // a setting: overlays may tune its value
        if (e.value !== want.value) p("Deployment", `${k} is ${JSON.stringify(e.value ?? e.valueFrom)}, topology says "${want.value}"`);
      } else if (want.source === "config") {
        const ref = e.valueFrom?.configMapKeyRef;
        if (!ref || baseName(ref.name) !== t.kubernetes.configMap || ref.key !== k)
          p("Deployment", `${k} must come from ConfigMap ${t.kubernetes.configMap} key ${k}`);
        else if (!(k in config)) p("Deployment", `${k} refers to a key the ConfigMap does not have`);
      } else {
        const ref = e.valueFrom?.secretKeyRef;
        if (!ref || baseName(ref.name) !== t.kubernetes.secret || ref.key !== k) p("Deployment", `${k} must come from Secret ${t.kubernetes.secret} key ${k}`);
        else if (Boolean(ref.optional) !== want.optional) p("Deployment", `${k} must be ${want.optional ? "optional" : "required (not optional)"}`);
      }
    }
    for (const k of env.keys()) if (!allowed.has(k)) p("Deployment", `${k} is not a variable of ${svc} in deploy/topology.yaml`);

    // Shutdown: Kubernetes kills the pod terminationGracePeriodSeconds (default 30) after SIGTERM; the process exits
    // within SHUTDOWN_GRACE_MS. The pod's grace must outlast it, with room for the SIGTERM to arrive.
    const shutdownGraceMs = Number(env.get("SHUTDOWN_GRACE_MS")?.value ?? DEFAULT_SHUTDOWN_GRACE_MS);
    const podGraceS = Number(pod.terminationGracePeriodSeconds ?? 30);
    if (podGraceS * 1000 < shutdownGraceMs + 2000)
      p("Deployment", `terminationGracePeriodSeconds (${podGraceS}) must exceed SHUTDOWN_GRACE_MS (${shutdownGraceMs} ms) by at least 2 s`);

    // Probes.
    const probes = { readinessProbe: c.readinessProbe, livenessProbe: c.livenessProbe, startupProbe: c.startupProbe };
    for (const [name, probe] of Object.entries(probes)) {
      if (!probe) {
        p("Deployment", `has no ${name}`);
        continue;
      }
      if (s.grpc) {
        if (Number(probe.grpc?.port) !== s.grpc.port) p("Deployment", `${name} must be a gRPC probe on port ${s.grpc.port}`);
      } else if (s.http) {
        const path = name === "readinessProbe" ? s.http.readiness : s.http.liveness;
        const port = typeof probe.httpGet?.port === "string" ? declared[probe.httpGet.port] : Number(probe.httpGet?.port);
        if (probe.httpGet?.path !== path || port !== s.http.port) p("Deployment", `${name} must GET ${path} on port ${s.http.port}`);
      }
    }

    // Security.
    const podSc = pod.securityContext ?? {};
    const sc = c.securityContext ?? {};
    const eff = (k: string) => sc[k] ?? podSc[k];
    if (eff("runAsNonRoot") !== true) p("Deployment", "runAsNonRoot must be true");
    if (eff("runAsUser") !== t.image.uid) p("Deployment", `runAsUser must be ${t.image.uid} (the image's user)`);
    if (sc.readOnlyRootFilesystem !== true) p("Deployment", "readOnlyRootFilesystem must be true");
    if (sc.allowPrivilegeEscalation !== false) p("Deployment", "allowPrivilegeEscalation must be false");
    if (!(sc.capabilities?.drop ?? []).includes("ALL")) p("Deployment", "must drop ALL capabilities");
    if (sc.privileged) p("Deployment", "must not be privileged");
    if ((sc.seccompProfile ?? podSc.seccompProfile)?.type !== "RuntimeDefault") p("Deployment", "seccompProfile must be RuntimeDefault");
    const volumes = new Map<string, any>((pod.volumes ?? []).map((v: any) => [v.name, v]));
    for (const dir of [t.image.tmpDir, t.image.dataDir]) {
      const m = (c.volumeMounts ?? []).find((x: any) => x.mountPath === dir);
      if (!m || !volumes.get(m.name)?.emptyDir) p("Deployment", `${dir} must be an emptyDir mount (the root filesystem is read-only)`);
    }

    // Resources.
    const r = c.resources ?? {};
    if (!r.requests?.cpu || !r.requests?.memory || !r.limits?.memory) p("Deployment", "needs requests.cpu, requests.memory and limits.memory");
  }

  // Service.
  const service = one("Service");
  if (service) {
    if (!selects(service.spec?.selector, templateLabels)) p("Service", "selector does not select the Deployment's pods");
    const sp = Object.fromEntries((service.spec?.ports ?? []).map((x: any) => [x.name, x]));
    if (JSON.stringify(Object.keys(sp).sort()) !== JSON.stringify(Object.keys(ports).sort()))
      p("Service", `ports must be named ${Object.keys(ports).join(", ")}`);
    for (const [name, port] of Object.entries(ports)) {
      const x = sp[name];
      if (!x) continue;
      if (Number(x.port) !== port) p("Service", `port ${name} is ${x.port}, topology says ${port}`);
      if (x.targetPort !== name && Number(x.targetPort) !== port) p("Service", `port ${name} targets ${x.targetPort}`);
    }
    if (s.grpc && peerAddress(t, svc) !== `${service.metadata.name}:${sp.grpc?.port}`) p("Service", `callers dial ${peerAddress(t, svc)}`);
  }

  // PodDisruptionBudget.
  const pdbs = objects.filter((o) => o.kind === "PodDisruptionBudget" && o.metadata?.name === svc);
  if (s.pdb) {
    const pdb = one("PodDisruptionBudget");
    if (pdb) {
      if (!selects(pdb.spec?.selector?.matchLabels, templateLabels)) p("PodDisruptionBudget", "selector does not select the Deployment's pods");
      if (pdb.spec?.maxUnavailable === undefined && pdb.spec?.minAvailable === undefined) p("PodDisruptionBudget", "needs maxUnavailable or minAvailable");
      const replicas = s.hpa ? undefined : (d?.spec?.replicas ?? 1);
      if (replicas !== undefined && typeof pdb.spec?.minAvailable === "number" && pdb.spec.minAvailable >= replicas)
        p("PodDisruptionBudget", `minAvailable ${pdb.spec.minAvailable} with ${replicas} replica(s) blocks every drain`);
    }
  } else if (pdbs.length) p("PodDisruptionBudget", "exists but topology.yaml says pdb: false");

  // HorizontalPodAutoscaler.
  const hpas = objects.filter((o) => o.kind === "HorizontalPodAutoscaler" && o.metadata?.name === svc);
  if (s.hpa) {
    const hpa = one("HorizontalPodAutoscaler");
    if (hpa) {
      const ref = hpa.spec?.scaleTargetRef ?? {};
      if (ref.kind !== "Deployment" || ref.name !== svc) p("HorizontalPodAutoscaler", `must scale Deployment ${svc}`);
      const min = hpa.spec?.minReplicas ?? 1;
      const max = hpa.spec?.maxReplicas;
      if (!(Number.isInteger(max) && min >= 1 && min <= max)) p("HorizontalPodAutoscaler", `needs 1 <= minReplicas (${min}) <= maxReplicas (${max})`);
      if (!(hpa.spec?.metrics ?? []).some((m: any) => m.resource?.name === "cpu")) p("HorizontalPodAutoscaler", "needs a CPU utilisation target");
      const partitions = Number(config.KAFKA_TOPIC_PARTITIONS);
      if (s.engines.includes("kafka") && Number.isInteger(partitions) && max > partitions)
        p(
          "HorizontalPodAutoscaler",
          `maxReplicas ${max} exceeds KAFKA_TOPIC_PARTITIONS ${partitions}: replicas beyond the partitions idle in the consumer group`,
        );
    }
  } else if (hpas.length) p("HorizontalPodAutoscaler", "exists but topology.yaml says hpa: false");

  // NetworkPolicy.
  const np = one("NetworkPolicy");
  if (np) {
    const spec = np.spec ?? {};
    if (!selects(spec.podSelector?.matchLabels, templateLabels)) p("NetworkPolicy", "podSelector does not select the Deployment's pods");
    if (!(spec.policyTypes ?? []).includes("Ingress") || !(spec.policyTypes ?? []).includes("Egress"))
      p("NetworkPolicy", "must restrict both Ingress and Egress");
    const ingress: any[] = spec.ingress ?? [];
    const podNames = (peers: any[] | undefined) => (peers ?? []).map((x: any) => x.podSelector?.matchLabels?.[NAME_LABEL]).filter(Boolean);
    if (s.http) {
      if (!ingress.some((r) => !r.from && portNumbers([r]).includes(s.http!.port)))
        p("NetworkPolicy", `must accept port ${s.http.port} from anywhere (the gateway is the way in)`);
      const other = portNumbers(ingress).filter((x) => x !== s.http!.port);
      if (other.length) p("NetworkPolicy", `opens ports ${other.join(", ")} besides ${s.http.port}`);
    } else {
      const grpcPort = s.grpc!.port;
      const grpcRules = ingress.filter((r) => portNumbers([r]).includes(grpcPort));
      if (grpcRules.some((r) => !r.from)) p("NetworkPolicy", `opens gRPC port ${grpcPort} to everyone`);
      const allowed = grpcRules.flatMap((r) => podNames(r.from)).sort();
      const callers = callersOf(t, svc).sort();
      if (JSON.stringify(allowed) !== JSON.stringify(callers))
        p("NetworkPolicy", `gRPC port ${grpcPort} admits [${allowed.join(", ")}]; its callers are [${callers.join(", ")}]`);
      const metricsRules = ingress.filter((r) => portNumbers([r]).includes(t.metricsPort));
      const monitoring = metricsRules.some((r) =>
        (r.from ?? []).some((f: any) => f.namespaceSelector?.matchLabels?.["kubernetes.io/metadata.name"] === t.kubernetes.monitoringNamespace),
      );
      if (!monitoring) p("NetworkPolicy", `must admit the ${t.kubernetes.monitoringNamespace} namespace on the metrics port ${t.metricsPort}`);
      const other = portNumbers(ingress).filter((x) => x !== grpcPort && x !== t.metricsPort);
      if (other.length) p("NetworkPolicy", `opens ports ${other.join(", ")}`);
    }
    const egress: any[] = spec.egress ?? [];
    if (!egress.some((r) => portNumbers([r]).includes(53))) p("NetworkPolicy", "must allow DNS (port 53) out");
    for (const peer of s.peers) {
      const port = serviceOf(t, peer).grpc!.port;
      if (!egress.some((r) => podNames(r.to).includes(peer) && portNumbers([r]).includes(port))) p("NetworkPolicy", `must allow ${peer} on port ${port} out`);
    }
    const peersAllowed = egress.flatMap((r) => podNames(r.to));
    for (const n of peersAllowed) if (!s.peers.includes(n)) p("NetworkPolicy", `allows ${n} out, which ${svc} does not dial`);
    const enginePorts = s.engines.map((e) => Object.values(t.engines[e].ports)[0]!);
    const outPorts = portNumbers(egress);
    for (const port of enginePorts) if (!outPorts.includes(port)) p("NetworkPolicy", `must allow its engine port ${port} out`);
    const peerPorts = s.peers.map((x) => serviceOf(t, x).grpc!.port);
    const known = new Set([53, ...enginePorts, ...peerPorts, ...s.egress]);
    for (const port of outPorts) if (!known.has(port)) p("NetworkPolicy", `allows port ${port} out, which topology.yaml does not list for ${svc}`);
  }
  return problems;
}

/* ------------------------------------------------------------------------ */
/* Dockerfile                                                                */
/* ------------------------------------------------------------------------ */

/** The runtime stage's instructions (the last FROM), continuation lines joined. */
export function dockerfileRuntime(text: string): { instruction: string; args: string }[] {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const out: { instruction: string; args: string }[] = [];
  for (const line of lines) {
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m || line.trim().startsWith("#")) continue;
    const instruction = m[1]!.toUpperCase();
    if (instruction === "FROM") out.length = 0;
    out.push({ instruction, args: m[2]!.trim() });
  }
  return out;
}

export function checkDockerfile(t: Topology, text: string): string[] {
  const problems: string[] = [];
  const p = (msg: string) => problems.push(`Dockerfile: ${msg}`);
  const runtime = dockerfileRuntime(text);
  const last = (i: string) => runtime.filter((x) => x.instruction === i).pop()?.args;
  const json = (s: string | undefined) => {
    try {
      return JSON.parse(s ?? "");
    } catch {
      return undefined;
    }
  };
  if (!runtime.length) p("has no stages");
  if (last("USER") !== `${t.image.uid}:${t.image.gid}`) p(`the runtime stage must run as USER ${t.image.uid}:${t.image.gid} (got ${last("USER")})`);
  if (JSON.stringify(json(last("ENTRYPOINT"))) !== JSON.stringify(t.image.entrypoint)) p(`ENTRYPOINT must be ${JSON.stringify(t.image.entrypoint)}`);
  const hc = last("HEALTHCHECK") ?? "";
  const cmd = json(hc.slice(hc.indexOf("CMD") + 3).trim());
  if (JSON.stringify(cmd) !== JSON.stringify(t.image.healthcheck)) p(`HEALTHCHECK must run ${JSON.stringify(t.image.healthcheck)}`);
  const expose = runtime
    .filter((x) => x.instruction === "EXPOSE")
    .flatMap((x) => x.args.split(/\s+/))
    .map((x) => Number(x.split("/")[0]))
    .sort((a, b) => a - b);
  const ports = [...new Set(serviceNames(t).flatMap((n) => Object.values(containerPorts(t, n))))].sort((a, b) => a - b);
  if (JSON.stringify(expose) !== JSON.stringify(ports)) p(`EXPOSE ${expose.join(" ")} must be ${ports.join(" ")}`);
  const env = runtime
    .filter((x) => x.instruction === "ENV")
    .map((x) => x.args)
    .join(" ");
  const gateway = serviceNames(t)
    .map((n) => serviceOf(t, n))
    .find((s) => s.http);
  const wanted: [string, string][] = [
    ["TARGETS", "all"],
    ["ENGRAM_DATA_DIR", t.image.dataDir],
    ...(gateway?.http ? [[gateway.http.portVariable, String(gateway.http.port)] as [string, string]] : []),
  ];
  for (const [k, v] of wanted) if (!new RegExp(`(^|\\s)${k}=${v.replace(/[/.]/g, "\\$&")}(\\s|$)`).test(env)) p(`the runtime stage must set ENV ${k}=${v}`);
  return problems;
}
