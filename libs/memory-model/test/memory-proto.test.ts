import { isActiveMemory, type MemoryRecord, memoryToProto } from "../src";

const record = (over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id: "m_1",
  tenantId: "t1",
  namespace: "ns",
  content: "Sarah moved to Berlin.",
  isStatic: false,
  isForgotten: false,
  version: 1,
  isLatest: true,
  relations: {},
  sources: [{ documentId: "d_1", chunkPositions: [0, 2] }],
  bucketKeys: [],
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-02T00:00:00.000Z",
  ...over,
});

describe("memoryToProto", () => {
  it("maps the relation and the relations to the proto enum names, unspecified when absent", () => {
    expect(memoryToProto(record()).relation).toBe("MEMORY_RELATION_UNSPECIFIED");
    const p = memoryToProto(
      record({ version: 2, relation: "updates", parentMemoryId: "m_0", rootMemoryId: "m_0", relations: { m_9: "extends", m_8: "derives" } }),
    );
    expect(p.relation).toBe("MEMORY_RELATION_UPDATES");
    expect(p.memoryRelations).toEqual({ m_9: "MEMORY_RELATION_EXTENDS", m_8: "MEMORY_RELATION_DERIVES" });
    expect(p).toMatchObject({ parentMemoryId: "m_0", rootMemoryId: "m_0", version: 2 });
  });

  it("names the namespace as the container tag and the sources as document ids", () => {
    const p = memoryToProto(record());
    expect(p).toMatchObject({ namespace: "ns", containerTags: ["ns"], spaceId: "ns", documentIds: ["d_1"], forgetBatchId: "", filepath: "" });
    expect(p.sources).toEqual([{ documentId: "d_1", chunkPositions: [0, 2], chunkIds: [] }]);
    expect(p).not.toHaveProperty("isInference");
    expect(memoryToProto(record({ isInference: false })).isInference).toBe(false);
  });
});

describe("isActiveMemory", () => {
  it("is the latest version, not forgotten, not expired at now", () => {
    const now = "2025-06-01T00:00:00.000Z";
    expect(isActiveMemory(record(), now)).toBe(true);
    expect(isActiveMemory(record({ isLatest: false }), now)).toBe(false);
    expect(isActiveMemory(record({ isForgotten: true }), now)).toBe(false);
    expect(isActiveMemory(record({ forgetAfter: now }), now)).toBe(false);
    expect(isActiveMemory(record({ forgetAfter: "2025-06-02T00:00:00.000Z" }), now)).toBe(true);
  });
});
