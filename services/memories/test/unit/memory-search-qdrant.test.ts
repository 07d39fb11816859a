import { epochMs, HashingEmbedder, pointId, toQdrantFilter } from "@engram/index";
import { evalQdrantFilter } from "@engram/index/test/qdrant/qdrant-filter-model";
import { memoryPoint } from "../../src/adapters/production/memory-search.qdrant";

/** The points the production memory store's search writes to Qdrant (no Qdrant needed: payloads and filters are checked in process). */
const embedder = new HashingEmbedder(16);

describe("memory points", () => {
  const memory = {
    id: "m_1",
    tenantId: "t1",
    namespace: "ns",
    content: "Sarah moved to Berlin.",
    metadata: { source: "chat" },
    isStatic: false,
    isForgotten: false,
    isLatest: true,
    forgetAfter: "2030-01-01T00:00:00.000Z",
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-02T00:00:00.000Z",
  };

  it("carry the fields searches filter on, the expiry as epoch ms, the stems and the filter copies", () => {
    const p = memoryPoint({ ...memory, vector: embedder.embedOne(memory.content), model: "hashing-v1-16" }, 16);
    expect(p.id).toBe(pointId("t1", "m_1"));
    expect(p.payload).toMatchObject({
      id: "m_1",
      tenantId: "t1",
      namespace: "ns",
      isStatic: false,
      isForgotten: false,
      isLatest: true,
      forgetAfterMs: Date.UTC(2030, 0, 1),
      model: "hashing-v1-16",
      terms: ["sarah", "move", "berlin"],
    });
    expect(Object.keys(p.vector as object).sort()).toEqual(["dense", "text"]);
    const noExpiry = memoryPoint({ ...memory, forgetAfter: undefined }, 16);
    expect(noExpiry.payload).not.toHaveProperty("forgetAfterMs");
    expect(noExpiry.vector).not.toHaveProperty("dense");
  });

  it("the expiry condition keeps memories without an expiry or expiring after now", () => {
    const active = (forgetAfter: string | undefined, now: string) =>
      evalQdrantFilter(
        toQdrantFilter({ tenantId: "t1" }, undefined, [
          { should: [{ is_empty: { key: "forgetAfterMs" } }, { key: "forgetAfterMs", range: { gt: epochMs(now) } }] },
        ]),
        JSON.parse(JSON.stringify(memoryPoint({ ...memory, forgetAfter }, 16).payload)),
      );
    expect(active(undefined, "2040-01-01T00:00:00.000Z")).toBe(true);
    expect(active("2030-01-01T00:00:00.000Z", "2029-12-31T23:59:59.999Z")).toBe(true);
    expect(active("2030-01-01T00:00:00.000Z", "2030-01-01T00:00:00.000Z")).toBe(false);
    expect(active("2030-01-01T00:00:00.000Z", "2031-01-01T00:00:00.000Z")).toBe(false);
  });
});
