import * as grpc from "@grpc/grpc-js";
import { NotFoundError } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { loadProtos } from "../src/protos";
import { GrpcServer } from "../src/server";
import { connect, implement, IngestionService, MemoriesService, SERVICES, type ServiceClient } from "../src/services";
import { collect } from "../src/client";

const log = rootLogger({ level: "silent" });

describe("typed service boundary", () => {
  const server = new GrpcServer(log);
  let client: ServiceClient<typeof IngestionService>;
  const uploaded: string[] = [];
  const streamed = { written: 0, cancelled: false };

  beforeAll(async () => {
    server.add(
      implement(IngestionService, {
        async GetDocument(req) {
          if (req.id === "missing") throw new NotFoundError(`document ${req.id} not found`);
          return { document: { id: req.id, namespace: req.namespace, status: "DOCUMENT_STATUS_DONE", sourceKind: "SOURCE_KIND_TEXT" } };
        },
        async ReadDocumentFile(req, call) {
          if (req.token === "many") {
            // 4096 frames of 16 KiB (64 MiB), written as ingestion writes them: waiting for room.
            streamed.written = 0;
            call.on("cancelled", () => (streamed.cancelled = true));
            for (let i = 0; i < 4096 && !call.cancelled; i++) {
              if (!call.write({ data: Buffer.alloc(16 * 1024, i % 256) })) await new Promise((r) => call.once("drain", r));
              streamed.written++;
            }
            return;
          }
          call.write({ info: { fileName: `${req.token}.txt`, mimeType: "text/plain" } });
          call.write({ data: Buffer.from("hello ") });
          call.write({ data: Buffer.from("world") });
        },
        async UploadDocumentFile(call) {
          for await (const m of call) if (m.data) uploaded.push(m.data.toString());
          return { id: "d_1", status: "DOCUMENT_STATUS_QUEUED", namespace: "ns" };
        },
      }),
    );
    const port = await server.bind("127.0.0.1:0");
    server.setServing(true);
    client = connect(IngestionService, `127.0.0.1:${port}`, { deadlineMs: 5000 });
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
  });

  it("calls a unary RPC by its method, with enums by name on the way back", async () => {
    const { document } = await client.GetDocument({ context: { tenantId: "t1" }, namespace: "ns", id: "d_9" });
    expect(document).toMatchObject({ id: "d_9", namespace: "ns", status: "DOCUMENT_STATUS_DONE", sourceKind: "SOURCE_KIND_TEXT" });
  });

  it("pulls a server stream as it is read: a consumer that stops reading stops the server; leaving the loop cancels the call", async () => {
    let read = 0;
    for await (const m of client.ReadDocumentFile({ token: "many" })) {
      expect(m.data![0]).toBe(read % 256);
      if (++read === 1) {
        await new Promise((r) => setTimeout(r, 300));
        // Only what HTTP/2 flow control and the socket buffers let through was written, not the 4096 frames.
        expect(streamed.written).toBeLessThan(1024);
      }
      if (read === 2000) break;
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(streamed.cancelled).toBe(true);
    expect(streamed.written).toBeLessThan(4096);
  });

  it("maps a handler's domain error to its gRPC status", async () => {
    await expect(client.GetDocument({ context: { tenantId: "t1" }, namespace: "ns", id: "missing" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("collects a server stream and sends a client stream", async () => {
    const parts = await collect(client.ReadDocumentFile({ token: "abc" }));
    expect(parts[0]!.info).toMatchObject({ fileName: "abc.txt", mimeType: "text/plain" });
    expect(Buffer.concat(parts.flatMap((p) => (p.data ? [p.data] : []))).toString()).toBe("hello world");
    const out = await client.UploadDocumentFile([{ data: Buffer.from("a") }, { data: Buffer.from("b") }]);
    expect(out).toMatchObject({ id: "d_1", status: "DOCUMENT_STATUS_QUEUED" });
    expect(uploaded).toEqual(["a", "b"]);
  });

  it("answers UNIMPLEMENTED for an RPC the server leaves out", async () => {
    await expect(client.ListDocuments({ context: { tenantId: "t1" }, namespace: "ns" })).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("refuses handlers for RPCs the service does not have", () => {
    const handlers = { GetDocument: async () => ({}), Nope: async () => ({}) };
    // The type of `implement` already refuses this; the server checks again for untyped callers.
    expect(() => new GrpcServer(log).add({ service: IngestionService, handlers })).toThrow(/has no RPC Nope/);
  });

  it("lists every service of the protos", () => {
    const { definition } = loadProtos();
    const services = Object.entries(definition)
      .filter(([, v]) => typeof v === "object" && v !== null && !("format" in v) && !("type" in v))
      .map(([name]) => name)
      .sort();
    expect(SERVICES.map((s) => s.fullName).sort()).toEqual(services);
    expect(MemoriesService.fullName).toBe("engram.memories.v1.MemoriesService");
  });
});
