import * as grpc from "@grpc/grpc-js";
import { SignJWT } from "jose";
import { rootLogger } from "@engram/observability";
import { connect, implement, MemoriesService, IngestionService, ContainerTagService } from "../src/services";
import { GrpcServer } from "../src/server";
import { tenantOf } from "../src/context";
import { grpcToHttp, toGrpcError } from "../src/errors";
import {
  ASSERTION_TTL_SECONDS,
  AssertionSigner,
  AssertionVerifier,
  audienceOf,
  currentAssertion,
  generateTrustMaterial,
  mayCall,
  parsePrivateKey,
  parsePublicKeys,
  formatPublicKeys,
  signerFor,
  TrustRefusal,
  verifierFor,
} from "../src/trust";

const material = generateTrustMaterial();
const gatewayKey = parsePrivateKey(material.privateKeys.gateway!);

const refusal = async (p: Promise<unknown>): Promise<TrustRefusal> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrustRefusal);
  return err as TrustRefusal;
};

describe("assertions: sign and verify", () => {
  const verifier = verifierFor(material, "memories");

  it("verifies what a trusted service signed, with its claims", async () => {
    const token = await signerFor(material, "gateway").sign({ audience: "memories", tenant: "t1", scopes: ["read"], containerTags: ["a"] });
    await expect(verifier.verify(token)).resolves.toMatchObject({
      issuer: "gateway",
      audience: "memories",
      tenant: "t1",
      scopes: ["read"],
      containerTags: ["a"],
    });
  });

  it("refuses a missing assertion", async () => {
    expect((await refusal(verifier.verify(undefined))).code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it("refuses an expired assertion", async () => {
    let now = Date.now();
    const signer = new AssertionSigner("gateway", gatewayKey, () => now);
    const token = await signer.sign({ audience: "memories", tenant: "t1" });
    const later = new AssertionVerifier("memories", parsePublicKeys(formatPublicKeys(material.publicKeys)), () => now + (ASSERTION_TTL_SECONDS + 10) * 1000);
    expect((await refusal(later.verify(token))).message).toMatch(/expired/);
    // The signer itself renews before half the lifetime is gone.
    now += (ASSERTION_TTL_SECONDS / 2) * 1000 + 1;
    expect(await signer.sign({ audience: "memories", tenant: "t1" })).not.toBe(token);
  });

  it("refuses an assertion for another service", async () => {
    const token = await signerFor(material, "gateway").sign({ audience: "ingestion", tenant: "t1" });
    expect((await refusal(verifier.verify(token))).message).toMatch(/claim aud/);
  });

  it("refuses a tampered assertion", async () => {
    const token = await signerFor(material, "gateway").sign({ audience: "memories", tenant: "t1" });
    const [h, , s] = token.split(".");
    const payload = Buffer.from(
      JSON.stringify({ ten: "t2", iss: "gateway", aud: "memories", iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString("base64url");
    expect((await refusal(verifier.verify(`${h}.${payload}.${s}`))).message).toMatch(/bad signature/);
  });

  it("refuses an assertion signed with another key under a trusted name", async () => {
    const other = generateTrustMaterial();
    const token = await signerFor(other, "gateway").sign({ audience: "memories", tenant: "t1" });
    expect((await refusal(verifier.verify(token))).message).toMatch(/bad signature/);
  });

  it("refuses an unknown issuer, an unsigned token and a token with a long lifetime", async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ ten: "t1" })
      .setProtectedHeader({ alg: "EdDSA", typ: "engram-assertion" })
      .setIssuer("attacker")
      .setAudience("memories")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(gatewayKey);
    expect((await refusal(verifier.verify(forged))).message).toMatch(/unknown issuer/);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "gateway", aud: "memories", ten: "t1", iat: now, exp: now + 60 })).toString("base64url")}.`;
    expect((await refusal(verifier.verify(none))).code).toBe(grpc.status.UNAUTHENTICATED);
    const longLived = await new SignJWT({ ten: "t1" })
      .setProtectedHeader({ alg: "EdDSA", typ: "engram-assertion" })
      .setIssuer("gateway")
      .setAudience("memories")
      .setIssuedAt(now - 3600)
      .setExpirationTime(now + 3600)
      .sign(gatewayKey);
    expect((await refusal(verifier.verify(longLived))).code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it("reuses a signed assertion for the same claims, and signs anew for others", async () => {
    const signer = signerFor(material, "gateway");
    const a = await signer.sign({ audience: "memories", tenant: "t1", scopes: ["read"] });
    expect(await signer.sign({ audience: "memories", tenant: "t1", scopes: ["read"] })).toBe(a);
    expect(await signer.sign({ audience: "memories", tenant: "t1", scopes: ["read", "write"] })).not.toBe(a);
    expect(await signer.sign({ audience: "memories", tenant: "t2", scopes: ["read"] })).not.toBe(a);
  });

  it("parses configured keys and names what is wrong", () => {
    expect([...parsePublicKeys(formatPublicKeys(material.publicKeys)).keys()].sort()).toEqual(Object.keys(material.publicKeys).sort());
    expect(() => parsePublicKeys("nobody:abc")).toThrow(/"nobody" is not a service/);
    expect(() => parsePublicKeys("gateway:not-a-key")).toThrow(/gateway: is not a public key/);
    expect(() => parsePrivateKey("bm90IGEga2V5")).toThrow(/not a private key/);
  });

  it("maps services to their audience and lets the pipeline-worker call only what it needs", () => {
    expect(audienceOf("engram.ingestion.v1.ContainerTagService")).toBe("ingestion");
    expect(audienceOf("engram.connections.v1.SettingsService")).toBe("connections");
    expect(mayCall("gateway", "SettingsService", "UpdateSettings")).toBe(true);
    expect(mayCall("pipeline-worker", "IngestionService", "GetDocumentSource")).toBe(true);
    expect(mayCall("pipeline-worker", "SettingsService", "GetSettings")).toBe(true);
    for (const [svc, m] of [
      ["SettingsService", "UpdateSettings"],
      ["IngestionService", "AddDocument"],
      ["IngestionService", "DeleteDocuments"],
      ["IngestionService", "ListDocuments"],
      ["MemoriesService", "ListMemories"],
      ["ContainerTagService", "ResetTenantContent"],
      ["ConnectionsService", "ListConnections"],
    ])
      expect(mayCall("pipeline-worker", svc!, m!)).toBe(false);
  });
});

describe("a trust refusal through the one error mapping", () => {
  it("keeps its code without an error kind, so the gateway answers its client a generic 500", () => {
    const st = toGrpcError(new TrustRefusal(grpc.status.PERMISSION_DENIED, "pipeline-worker may not call X/Y"));
    expect(st.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(st.metadata?.get("engram-error-kind")).toEqual([]);
    const http = grpcToHttp({ ...st, metadata: st.metadata!, name: "Error", message: st.details } as grpc.ServiceError);
    expect(http).toMatchObject({ status: 500, error: "Internal server error", internal: true });
  });
});

describe("a gRPC server with trust", () => {
  const log = rootLogger({ level: "silent" });
  const server = new GrpcServer(log, { trust: { verifier: verifierFor(material, "memories") } });
  const tags = new GrpcServer(log, { trust: { verifier: verifierFor(material, "ingestion") } });
  let address = "";
  let tagsAddress = "";
  const seen: unknown[] = [];

  beforeAll(async () => {
    server.add(
      implement(MemoriesService, {
        CountNamespaceMemories: async (req) => {
          seen.push(currentAssertion());
          return { counts: [{ namespace: tenantOf(req.context), count: 1 }] };
        },
      }),
    );
    tags.add(
      implement(IngestionService, {
        UploadDocumentFile: async (call) => {
          for await (const m of call as AsyncIterable<{ header?: { context?: { tenantId: string } } }>) if (m.header) tenantOf(m.header.context as never);
          return { id: "doc" };
        },
      }),
    );
    tags.add(implement(ContainerTagService, {}));
    address = `127.0.0.1:${await server.bind("127.0.0.1:0")}`;
    tagsAddress = `127.0.0.1:${await tags.bind("127.0.0.1:0")}`;
    server.setServing(true);
    tags.setServing(true);
  });
  afterAll(async () => {
    await server.shutdown(1000);
    await tags.shutdown(1000);
  });

  const code = async (p: Promise<unknown>) =>
    p.then(
      () => grpc.status.OK,
      (e: grpc.ServiceError) => e.code,
    );

  it("refuses a call without an assertion", async () => {
    const plain = connect(MemoriesService, address);
    expect(await code(plain.CountNamespaceMemories({ context: { tenantId: "t1" }, namespaces: [] }))).toBe(grpc.status.UNAUTHENTICATED);
    plain.close();
  });

  it("answers a call the gateway signed for the request's tenant, with the key's scopes", async () => {
    const gw = connect(MemoriesService, address, { security: { signer: signerFor(material, "gateway") } });
    const out = await gw.CountNamespaceMemories(
      { context: { tenantId: "t1" }, namespaces: [] },
      { principal: { tenantId: "t1", rights: { scopes: ["read"], containerTags: ["x"] } } },
    );
    expect(out.counts[0]).toMatchObject({ namespace: "t1" });
    expect(seen.at(-1)).toMatchObject({ issuer: "gateway", tenant: "t1", scopes: ["read"], containerTags: ["x"] });
    gw.close();
  });

  it("refuses a request naming another tenant than the assertion", async () => {
    const gw = connect(MemoriesService, address, { security: { signer: signerFor(material, "gateway") } });
    const err = await gw
      .CountNamespaceMemories({ context: { tenantId: "t2" }, namespaces: [] }, { principal: { tenantId: "t1" } })
      .catch((e: grpc.ServiceError) => e);
    expect((err as grpc.ServiceError).code).toBe(grpc.status.PERMISSION_DENIED);
    expect((err as grpc.ServiceError).details).toMatch(/tenant "t2".*"t1"/);
    gw.close();
  });

  it("refuses a service that may not call the method, and an assertion from a key it does not know", async () => {
    const worker = connect(MemoriesService, address, { security: { signer: signerFor(material, "pipeline-worker") } });
    expect(await code(worker.CountNamespaceMemories({ context: { tenantId: "t1" }, namespaces: [] }))).toBe(grpc.status.PERMISSION_DENIED);
    worker.close();
    const stranger = connect(MemoriesService, address, { security: { signer: signerFor(generateTrustMaterial(), "gateway") } });
    expect(await code(stranger.CountNamespaceMemories({ context: { tenantId: "t1" }, namespaces: [] }))).toBe(grpc.status.UNAUTHENTICATED);
    stranger.close();
  });

  it("checks a streamed upload's header against the assertion (the tenant comes from the first message)", async () => {
    const conn = connect(IngestionService, tagsAddress, { security: { signer: signerFor(material, "connections") } });
    const upload = (tenant: string, principal?: string) =>
      conn.UploadDocumentFile(
        [{ header: { context: { tenantId: tenant }, fileName: "a.txt" } }, { data: Buffer.from("hello") }],
        principal ? { principal: { tenantId: principal } } : {},
      );
    await expect(upload("t1")).resolves.toMatchObject({ id: "doc" });
    expect(await code(upload("t1", "t9"))).toBe(grpc.status.PERMISSION_DENIED);
    conn.close();
    const worker = connect(IngestionService, tagsAddress, { security: { signer: signerFor(material, "pipeline-worker") } });
    expect(await code(worker.UploadDocumentFile([{ header: { context: { tenantId: "t1" } } }]))).toBe(grpc.status.PERMISSION_DENIED);
    worker.close();
  });
});
