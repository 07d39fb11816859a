import { GrpcServer, implement, IngestionService } from "@engram/grpc";
import { rootLogger } from "@engram/observability";
import { GrpcDocumentSourceReader } from "../../src/adapters/ingestion/document-source.grpc";

/**
 * The worker's source read over real loopback gRPC against a stand-in
 * ingestion: a large text arrives in data parts (issue #33) and is decoded
 * whole, also when a part boundary cuts a character in two.
 */
describe("GrpcDocumentSourceReader", () => {
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  let reader: GrpcDocumentSourceReader;
  // 'a' then two-byte characters: the 3-byte parts below cut every other character.
  const text = `a${"é".repeat(10)}`;
  const document = { id: "d_1", namespace: "ns", generation: 2, customId: "x" };

  beforeAll(async () => {
    server.add(
      implement(IngestionService, {
        async GetDocumentSource(req, call) {
          if (req.id === "parts") {
            call.write({ info: { document, sourceKind: "SOURCE_KIND_TEXT", text: "", textInData: true, current: true } });
            const bytes = Buffer.from(text, "utf8");
            for (let i = 0; i < bytes.byteLength; i += 3) call.write({ data: bytes.subarray(i, i + 3) });
            return;
          }
          call.write({ info: { document, sourceKind: "SOURCE_KIND_TEXT", text: "inline text", current: true } });
        },
      }),
    );
    const port = await server.bind("127.0.0.1:0");
    server.setServing(true);
    reader = new GrpcDocumentSourceReader(`127.0.0.1:${port}`);
  });

  afterAll(async () => {
    reader?.close();
    await server.shutdown(1000);
  });

  it("joins a text sent in data parts before decoding it", async () => {
    const source = await reader.read("t1", "ns", "parts", 2);
    expect(source).toMatchObject({ kind: "text", text, documentId: "d_1", generation: 2, current: true });
    expect(source?.bytes).toBeUndefined();
  });

  it("takes an inline text as it is", async () => {
    expect(await reader.read("t1", "ns", "inline", 2)).toMatchObject({ kind: "text", text: "inline text" });
  });
});
