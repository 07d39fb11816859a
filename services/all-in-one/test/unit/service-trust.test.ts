/**
 * Service-to-service trust on a real service (docs/api-decisions.md §19): the ingestion module served by the process
 * runtime, as in every Engram process, with the security the all-in-one composition root builds. A call needs a valid
 * assertion for ingestion, from a caller allowed for the method, for the tenant the request names; with gRPC TLS
 * configured, only a client with a certificate from the configured CA gets through.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { EmbeddedEventBus } from "@engram/bus";
import {
  AssertionSigner,
  channelCredentials,
  clientSecurity,
  connect,
  ContainerTagService,
  generateTrustKeyPair,
  generateTrustMaterial,
  IngestionService,
  parsePrivateKey,
  type ProcessSecurity,
  SERVICE_IDENTITIES,
  signerFor,
} from "@engram/grpc";
import { createIngestionModule, embeddedIngestionStorage, loadIngestionConfig } from "@engram/ingestion";
import { rootLogger } from "@engram/observability";
import { ProcessRuntime } from "@engram/runtime";
import { processSecurity, securityProblems, trustKeyVariable } from "../../src/security";

const logger = rootLogger({ level: "silent" });
const ALL = new Set(SERVICE_IDENTITIES);

async function startIngestion(security: ProcessSecurity): Promise<{ address: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-trust-"));
  const bus = new EmbeddedEventBus({ dataDir: dir, logger });
  const config = loadIngestionConfig({ ENGRAM_DATA_DIR: dir });
  const runtime = new ProcessRuntime(logger, { shutdownDeadlineMs: 1000, security });
  runtime.onStopped(() => bus.close());
  const port = await runtime.add(createIngestionModule({ config, bus, logger, storage: embeddedIngestionStorage(config) }), "127.0.0.1:0");
  return {
    address: `127.0.0.1:${port}`,
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => grpc.status.OK,
    (e: grpc.ServiceError) => e.code,
  );

describe("a service refuses RPCs without a valid assertion (ingestion on the process runtime)", () => {
  // As an all-in-one process without configured keys builds it: fresh keys in memory.
  const security = processSecurity({}, ALL);
  let ingestion: Awaited<ReturnType<typeof startIngestion>>;
  let address = "";
  const add = (tenantId: string, content: string) => ({ context: { tenantId }, namespace: "notes", document: { content } });

  beforeAll(async () => {
    ingestion = await startIngestion(security);
    address = ingestion.address;
  });
  afterAll(() => ingestion.stop());

  it("answers the gateway's calls for the tenant it asserts", async () => {
    const gw = connect(IngestionService, address, { security: clientSecurity(security, "gateway") });
    const out = await gw.AddDocument(add("t1", "signed"), { principal: { tenantId: "t1", rights: { scopes: ["write"] } } });
    const got = await gw.GetDocument({ context: { tenantId: "t1" }, namespace: "notes", id: out.id });
    expect(got.document?.id).toBe(out.id);
    gw.close();
  });

  it("refuses a call without an assertion (UNAUTHENTICATED)", async () => {
    const plain = connect(IngestionService, address);
    expect(await codeOf(plain.AddDocument(add("t1", "unsigned")))).toBe(grpc.status.UNAUTHENTICATED);
    expect(await codeOf(plain.GetDocument({ context: { tenantId: "t1" }, namespace: "notes", id: "x" }))).toBe(grpc.status.UNAUTHENTICATED);
    plain.close();
  });

  it("refuses a forged assertion (a gateway key it does not know) and an expired one", async () => {
    const forged = connect(IngestionService, address, { security: { signer: signerFor(generateTrustMaterial(), "gateway") } });
    expect(await codeOf(forged.AddDocument(add("t1", "forged")))).toBe(grpc.status.UNAUTHENTICATED);
    forged.close();
    const stale = new AssertionSigner("gateway", parsePrivateKey(security.trust.privateKeys.gateway!), () => Date.now() - 10 * 60_000);
    const expired = connect(IngestionService, address, { security: { signer: stale } });
    expect(await codeOf(expired.AddDocument(add("t1", "expired")))).toBe(grpc.status.UNAUTHENTICATED);
    expired.close();
  });

  it("refuses a request whose tenant field is not the asserted tenant (PERMISSION_DENIED)", async () => {
    const gw = connect(IngestionService, address, { security: clientSecurity(security, "gateway") });
    const theirs = await gw.AddDocument(add("t2", "t2's document"));
    // The assertion says t1 (the API key's tenant); the request's context says t2.
    const err = await gw
      .GetDocument({ context: { tenantId: "t2" }, namespace: "notes", id: theirs.id }, { principal: { tenantId: "t1" } })
      .catch((e: grpc.ServiceError) => e);
    expect((err as grpc.ServiceError).code).toBe(grpc.status.PERMISSION_DENIED);
    expect(await codeOf(gw.AddDocument(add("t2", "smuggled"), { principal: { tenantId: "t1" } }))).toBe(grpc.status.PERMISSION_DENIED);
    gw.close();
  });

  it("lets the pipeline-worker read sources but not write, delete, list or reset", async () => {
    const gw = connect(IngestionService, address, { security: clientSecurity(security, "gateway") });
    const doc = await gw.AddDocument(add("t1", "to extract"));
    gw.close();
    const worker = connect(IngestionService, address, { security: clientSecurity(security, "pipeline-worker") });
    expect(await codeOf(worker.GetDocument({ context: { tenantId: "t1" }, namespace: "notes", id: doc.id }))).toBe(grpc.status.PERMISSION_DENIED);
    const parts: unknown[] = [];
    for await (const p of worker.GetDocumentSource({ context: { tenantId: "t1" }, namespace: "notes", id: doc.id, generation: 1 })) parts.push(p);
    expect(parts.length).toBeGreaterThan(0);
    expect(await codeOf(worker.AddDocument(add("t1", "injected")))).toBe(grpc.status.PERMISSION_DENIED);
    expect(await codeOf(worker.DeleteDocuments({ context: { tenantId: "t1" }, ids: [doc.id] }))).toBe(grpc.status.PERMISSION_DENIED);
    expect(await codeOf(worker.ListDocuments({ context: { tenantId: "t1" } }))).toBe(grpc.status.PERMISSION_DENIED);
    worker.close();
    const tags = connect(ContainerTagService, address, { security: clientSecurity(security, "pipeline-worker") });
    expect(await codeOf(tags.ResetTenantContent({ context: { tenantId: "t1" } }))).toBe(grpc.status.PERMISSION_DENIED);
    tags.close();
  });
});

describe("gRPC mutual TLS (GRPC_TLS_CERT, GRPC_TLS_KEY, GRPC_TLS_CA)", () => {
  let dir: string;
  let ingestion: Awaited<ReturnType<typeof startIngestion>>;
  let security: ProcessSecurity;

  /** A CA and a certificate it issued for 127.0.0.1 (openssl CLI), as cert-manager writes them. */
  function issue(d: string, name: string, ca?: { cert: string; key: string }): { cert: string; key: string } {
    const cert = path.join(d, `${name}.crt`);
    const key = path.join(d, `${name}.key`);
    const run = (args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
    if (!ca) {
      run([
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "2",
        "-subj",
        `/CN=${name}`,
      ]);
    } else {
      const csr = path.join(d, `${name}.csr`);
      const ext = path.join(d, `${name}.ext`);
      fs.writeFileSync(ext, "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
      run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", csr, "-subj", `/CN=${name}`]);
      run(["x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext]);
    }
    return { cert, key };
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-tls-"));
    const ca = issue(dir, "ca");
    const pod = issue(dir, "pod", ca);
    const env = { GRPC_TLS_CERT: pod.cert, GRPC_TLS_KEY: pod.key, GRPC_TLS_CA: ca.cert };
    expect(securityProblems(env, ALL)).toEqual([]);
    security = processSecurity(env, ALL);
    ingestion = await startIngestion(security);
  });
  afterAll(async () => {
    await ingestion.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (client: ReturnType<typeof connect<typeof IngestionService>>) =>
    codeOf(client.GetDocument({ context: { tenantId: "t1" }, namespace: "notes", id: "missing" }, { deadlineMs: 5000 }));

  it("answers a client with a certificate from the CA", async () => {
    const client = connect(IngestionService, ingestion.address, { security: clientSecurity(security, "gateway") });
    expect(await get(client)).toBe(grpc.status.NOT_FOUND);
    client.close();
  });

  it("refuses a plaintext client, a client that trusts another CA, and one without a client certificate", async () => {
    const signer = signerFor(security.trust, "gateway");
    const plaintext = connect(IngestionService, ingestion.address, { security: { signer } });
    expect(await get(plaintext)).toBe(grpc.status.UNAVAILABLE);
    plaintext.close();
    const other = issue(dir, "other-ca");
    const wrongCa = connect(IngestionService, ingestion.address, {
      security: { signer, credentials: channelCredentials({ ...security.tls!, ca: fs.readFileSync(other.cert) }) },
    });
    expect(await get(wrongCa)).toBe(grpc.status.UNAVAILABLE);
    wrongCa.close();
    const anonymous = connect(IngestionService, ingestion.address, { security: { signer, credentials: grpc.credentials.createSsl(security.tls!.ca) } });
    expect(await get(anonymous)).toBe(grpc.status.UNAVAILABLE);
    anonymous.close();
  });
});

describe("trust and TLS configuration", () => {
  const keys = Object.fromEntries(SERVICE_IDENTITIES.map((s) => [s, generateTrustKeyPair()]));
  const publicKeys = SERVICE_IDENTITIES.map((s) => `${s}:${keys[s]!.publicKey}`).join(",");

  it("generates keys in memory for one process, and requires them for services in separate processes", () => {
    expect(securityProblems({}, ALL)).toEqual([]);
    expect(Object.keys(processSecurity({}, ALL).trust.privateKeys).sort()).toEqual([...SERVICE_IDENTITIES].sort());
    expect(securityProblems({}, new Set(["pipeline-worker"] as const))).toEqual([
      expect.stringMatching(/^ENGRAM_TRUST_PUBLIC_KEYS: is required when services run in separate processes/),
    ]);
    expect(securityProblems({ ENGRAM_TRUST_PUBLIC_KEYS: publicKeys }, new Set(["pipeline-worker"] as const))).toEqual([
      "PIPELINE_WORKER_TRUST_KEY: is required: pipeline-worker runs in this process and signs its calls with it",
    ]);
  });

  it("keeps only the private keys of the services the process runs", () => {
    const env = {
      ENGRAM_TRUST_PUBLIC_KEYS: publicKeys,
      [trustKeyVariable("pipeline-worker")]: keys["pipeline-worker"]!.privateKey,
      GATEWAY_TRUST_KEY: keys.gateway!.privateKey,
    };
    const targets = new Set(["pipeline-worker"] as const);
    expect(securityProblems(env, targets)).toEqual([]);
    const s = processSecurity(env, targets);
    expect(Object.keys(s.trust.privateKeys)).toEqual(["pipeline-worker"]);
    expect(Object.keys(s.trust.publicKeys).sort()).toEqual([...SERVICE_IDENTITIES].sort());
  });

  it("names a key that does not match its public key, a missing public key, and partial TLS", () => {
    const problems = securityProblems(
      {
        ENGRAM_TRUST_PUBLIC_KEYS: SERVICE_IDENTITIES.filter((s) => s !== "recall")
          .map((s) => `${s}:${keys[s]!.publicKey}`)
          .join(","),
        GATEWAY_TRUST_KEY: keys.memories!.privateKey,
        GRPC_TLS_CERT: "/nowhere/cert.pem",
      },
      new Set(["gateway"] as const),
    );
    expect(problems).toEqual([
      "ENGRAM_TRUST_PUBLIC_KEYS: has no key for recall (every service's public key is needed)",
      "GATEWAY_TRUST_KEY: does not match the gateway key in ENGRAM_TRUST_PUBLIC_KEYS",
      "GRPC_TLS_CERT, GRPC_TLS_KEY and GRPC_TLS_CA: set all three (mutual TLS) or none",
    ]);
  });
});
