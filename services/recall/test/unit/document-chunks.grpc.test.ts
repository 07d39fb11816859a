import * as grpc from "@grpc/grpc-js";
import { connect, GrpcServer, RecallService, type ServiceClient } from "@engram/grpc";
import type { ChunkIndex, IndexedChunk } from "@engram/index";
import { rootLogger } from "@engram/observability";
import { recallGrpc, type RecallUseCases } from "../../src/grpc/recall.grpc";

const NOW = "2026-11-20T10:00:00.000Z";

/**
 * ReadDocumentChunks over real loopback gRPC (the 64 MiB limit in force): a
 * document's chunks of any total size arrive whole, in position order, in
 * messages of about 1 MiB of content (issue #33).
 */
describe("RecallService.ReadDocumentChunks", () => {
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  let client: ServiceClient<typeof RecallService>;
  // 280 chunks of 256 KiB: 70 MiB, more than one message may hold.
  const big = Array.from({ length: 280 }, (_, i) => chunk("d_big", i, String.fromCharCode(65 + (i % 26)).repeat(256 * 1024)));
  const small = [chunk("d_small", 0, "first ✓"), chunk("d_small", 1, "second")];
  const asked: string[] = [];

  function chunk(documentId: string, position: number, content: string): Omit<IndexedChunk, "vector"> {
    return {
      id: `${documentId}_${position}`,
      tenantId: "t1",
      namespace: "ns",
      documentId,
      position,
      content,
      startOffset: position,
      endOffset: position + 1,
      tokenCount: 1,
      document: { createdAt: NOW, updatedAt: NOW },
      createdAt: NOW,
    };
  }

  beforeAll(async () => {
    const index = {
      async listDocumentChunks(tenantId: string, namespace: string, documentId: string) {
        asked.push(`${tenantId}/${namespace}/${documentId}`);
        return documentId === "d_big" ? big : documentId === "d_small" ? small : [];
      },
    } as unknown as ChunkIndex;
    // Only the chunk index is used by this RPC.
    server.add(recallGrpc({ index } as Partial<RecallUseCases> as RecallUseCases));
    const port = await server.bind("127.0.0.1:0");
    server.setServing(true);
    client = connect(RecallService, `127.0.0.1:${port}`, { deadlineMs: 60_000 });
  });

  afterAll(async () => {
    client?.close();
    await server.shutdown(1000);
  });

  const context = { tenantId: "t1" };

  it("streams 70 MiB of chunks in messages of about 1 MiB, every chunk once, in order", async () => {
    const sizes: number[] = [];
    const positions: number[] = [];
    let same = true;
    for await (const m of client.ReadDocumentChunks({ context, namespace: "ns", documentId: "d_big" })) {
      expect(m).toMatchObject({ total: 280, documentId: "d_big" });
      sizes.push(m.chunks.reduce((n, c) => n + c.chunk!.content.length, 0));
      for (const c of m.chunks) {
        positions.push(c.chunk!.position);
        same &&= c.chunk!.content === big[c.chunk!.position]!.content && c.type === "CHUNK_TYPE_TEXT";
      }
    }
    expect(positions).toEqual(big.map((c) => c.position));
    expect(same).toBe(true);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024);
    expect(asked).toContain("t1/ns/d_big");
  });

  it("a small document comes in one message; one without chunks in one empty message", async () => {
    const parts: { chunks: { chunk: { content: string } | null }[]; total: number }[] = [];
    for await (const m of client.ReadDocumentChunks({ context, namespace: "ns", documentId: "d_small" })) parts.push(m);
    expect(parts.map((m) => [m.chunks.map((c) => c.chunk!.content), m.total])).toEqual([[["first ✓", "second"], 2]]);
    const none: unknown[] = [];
    for await (const m of client.ReadDocumentChunks({ context, namespace: "ns", documentId: "d_none" })) none.push(m);
    expect(none).toEqual([expect.objectContaining({ chunks: [], total: 0, documentId: "d_none" })]);
  });

  it("refuses a request without document or namespace", async () => {
    const drain = async (req: { namespace: string; documentId: string }) => {
      for await (const _ of client.ReadDocumentChunks({ context, ...req })) void _;
    };
    await expect(drain({ namespace: "ns", documentId: "" })).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    await expect(drain({ namespace: "", documentId: "d_small" })).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
  });
});
