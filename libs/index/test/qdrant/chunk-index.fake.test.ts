import { QdrantChunkIndex } from "../../src/qdrant/chunk-index.qdrant";
import { chunkIndexContract } from "../contract/chunk-index.contract";
import { FakeQdrant } from "./fake-qdrant";

/**
 * The ChunkIndex contract over QdrantChunkIndex's requests, answered by the in-process `FakeQdrant` (filters by the
 * reference model, ranking by a plain dot product), so the adapter's write and read paths run on every commit; the
 * run against a real server is chunk-index.qdrant.test.ts (where a container runtime exists).
 */
describe("ChunkIndex contract: QdrantChunkIndex over FakeQdrant", () => {
  let fake = new FakeQdrant();
  chunkIndexContract({
    dimensions: 128,
    fresh: async () => {
      fake = new FakeQdrant();
    },
    open: () => QdrantChunkIndex.open(fake.client(), { prefix: "fake", dimensions: 128 }),
    dispose: async () => {},
    // Points of an earlier release carry none of the filepath fields.
    forgetFilepaths: async () => {
      for (const p of fake.points("fake_chunks"))
        if (typeof p.payload.tenantId === "string") for (const k of ["filepath", "filepathPrefixes", "filepathKnown"]) delete p.payload[k];
    },
  });
});
