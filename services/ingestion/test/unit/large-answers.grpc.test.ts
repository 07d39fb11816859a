import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { collect, connect, GrpcServer, IngestionService, MAX_MESSAGE_BYTES, readDocument, type ServiceClient } from "@engram/grpc";
import { rootLogger } from "@engram/observability";
import { SqliteDocumentRepository } from "../../src/adapters/embedded/document.sqlite";
import { GetDocumentUseCase } from "../../src/app/get-document.usecase";
import { ListDocumentsUseCase } from "../../src/app/list-documents.usecase";
import { ingestionGrpc, type IngestionUseCases } from "../../src/grpc/ingestion.grpc";
import { at, record } from "../contract/document-repository.contract";

/**
 * IngestionService over a real loopback gRPC connection (the 64 MiB message
 * limit in force) on the embedded store: no answer whose size grows with
 * stored content fails on the limit (issue #33).
 */
describe("ingestion answers larger than one gRPC message", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-large-"));
  const repo = new SqliteDocumentRepository(dir);
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  let client: ServiceClient<typeof IngestionService>;
  // 'a' then two-byte characters: every 1 MiB part boundary cuts a character in two. 68 MiB + 1 byte of UTF-8.
  const huge = `a${"é".repeat(34 * 1024 * 1024)}`;
  const big = record({ id: "d_huge000000000000000", customId: "huge", namespace: "big", content: huge, createdAt: at(1) });
  const small = [2, 3, 4].map((i) => record({ namespace: "big", customId: `small-${i}`, content: `small ${i} ✓`, createdAt: at(i) }));

  beforeAll(async () => {
    // Only the use cases these RPCs run; the others are never called here.
    const uc = {
      getDocument: new GetDocumentUseCase(repo),
      listDocuments: new ListDocumentsUseCase(repo, { maxContentBytes: 32 * 1024 * 1024 }),
    } as Partial<IngestionUseCases> as IngestionUseCases;
    server.add(ingestionGrpc(uc));
    const port = await server.bind("127.0.0.1:0");
    server.setServing(true);
    client = connect(IngestionService, `127.0.0.1:${port}`, { deadlineMs: 60_000 });
    for (const d of [big, ...small]) await repo.insert(d, []);
  });

  afterAll(async () => {
    client?.close();
    await server.shutdown(1000);
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const context = { tenantId: "acme" };

  it("ReadDocument streams a content larger than the message limit, whole, with its characters intact across parts", async () => {
    expect(Buffer.byteLength(huge, "utf8")).toBeGreaterThan(MAX_MESSAGE_BYTES);
    const parts: number[] = [];
    for await (const m of client.ReadDocument({ context, namespace: "big", id: "huge" })) {
      if (m.content) parts.push(m.content.byteLength);
      else expect(m.document).toMatchObject({ id: big.id, customId: "huge", content: "" });
    }
    expect(Math.max(...parts)).toBeLessThanOrEqual(1024 * 1024);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(Buffer.byteLength(huge, "utf8"));
    const d = await readDocument(client, { context, namespace: "big", id: "huge" });
    expect(d.id).toBe(big.id);
    expect(d.content.length).toBe(huge.length);
    expect(d.content === huge).toBe(true);
    const tiny = await readDocument(client, { context, namespace: "big", id: "small-2" });
    expect(tiny.content).toBe("small 2 ✓");
  });

  it("GetDocument refuses such a content with FAILED_PRECONDITION naming ReadDocument, and serves the record without it on request", async () => {
    await expect(client.GetDocument({ context, namespace: "big", id: "huge" })).rejects.toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      details: expect.stringMatching(/too large for one message/),
    });
    const { document } = await client.GetDocument({ context, namespace: "big", id: "huge", omitContent: true });
    expect(document).toMatchObject({ id: big.id, content: "" });
    expect((await client.GetDocument({ context, namespace: "big", id: "small-3" })).document?.content).toBe("small 3 ✓");
    await expect(readDocument(client, { context, namespace: "big", id: "nope" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("GetDocumentSource sends a large text once, in parts of at most 1 MiB, and a small one inline", async () => {
    const parts: Buffer[] = [];
    let info: { text: string; textInData: boolean; document?: { content: string } | null } | undefined;
    for await (const m of client.GetDocumentSource({ context, namespace: "big", id: "huge" })) {
      if (m.info) info = m.info;
      else if (m.data) parts.push(m.data);
    }
    expect(info).toMatchObject({ text: "", textInData: true, document: { content: "" } });
    expect(Math.max(...parts.map((p) => p.byteLength))).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.concat(parts).toString("utf8") === huge).toBe(true);
    const small = await collect(client.GetDocumentSource({ context, namespace: "big", id: "small-4" }));
    expect(small).toHaveLength(1);
    expect(small[0]!.info).toMatchObject({ text: "small 4 ✓", textInData: false, document: { content: "" } });
  });

  it("a listing with content answers under its budget: the huge document listed without content and marked, the others whole", async () => {
    const res = await client.ListDocuments({ context, namespace: "big", includeContent: true, page: { page: 1, limit: 10, order: "SORT_ORDER_ASC" } });
    expect(res.documents.map((d) => [d.customId, d.contentOmitted, d.content])).toEqual([
      ["huge", true, ""],
      ["small-2", false, "small 2 ✓"],
      ["small-3", false, "small 3 ✓"],
      ["small-4", false, "small 4 ✓"],
    ]);
    expect(res).toMatchObject({ maxContentBytes: 32 * 1024 * 1024, contentOmitted: 1, pagination: { totalItems: 4, totalPages: 1 } });
    // The caller's lower budget.
    const low = await client.ListDocuments({
      context,
      namespace: "big",
      includeContent: true,
      maxContentBytes: 12,
      page: { limit: 10, order: "SORT_ORDER_ASC" },
    });
    expect(low.documents.map((d) => d.contentOmitted)).toEqual([true, false, true, true]);
    expect(low.maxContentBytes).toBe(12);
    // Without content: no budget, nothing marked, and nothing of the content read.
    const plain = await client.ListDocuments({ context, namespace: "big", page: { limit: 10 } });
    expect(plain.documents.every((d) => d.content === "" && !d.contentOmitted)).toBe(true);
    expect(plain).toMatchObject({ maxContentBytes: 0, contentOmitted: 0 });
    await expect(client.ListDocuments({ context, namespace: "big", includeContent: true, maxContentBytes: -1 })).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
    });
  });
});
