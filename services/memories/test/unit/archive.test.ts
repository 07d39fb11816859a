import { InvalidArgumentError } from "@engram/kernel";
import type { MemoryRecord } from "@engram/memory-model";
import { importedMemory, parseArchiveMemory, toArchiveMemory } from "../../src/domain/archive";

const v2: MemoryRecord = {
  id: "m_BBBBBBBBBBBBBBBBBBBB",
  tenantId: "acme",
  namespace: "user_1",
  content: "Ada uses Neovim",
  isStatic: true,
  isForgotten: false,
  forgetAfter: "2099-01-01T00:00:00.000Z",
  forgetReason: "review",
  version: 2,
  isLatest: true,
  parentMemoryId: "m_AAAAAAAAAAAAAAAAAAAA",
  rootMemoryId: "m_AAAAAAAAAAAAAAAAAAAA",
  relation: "updates",
  relations: { m_AAAAAAAAAAAAAAAAAAAA: "updates", m_CCCCCCCCCCCCCCCCCCCC: "extends" },
  sources: [{ documentId: "d_DDDDDDDDDDDDDDDDDDDD", chunkPositions: [0, 2] }],
  bucketKeys: ["tools"],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};

describe("memory archive records (issue #34)", () => {
  it("round-trips a record without its tenant, and remaps its id, chain, relations and provenance", () => {
    const line = JSON.stringify(toArchiveMemory(v2));
    expect(line).not.toContain("acme");
    const parsed = parseArchiveMemory(line);
    expect(importedMemory(parsed, "acme", new Map(), new Map())).toEqual(v2);
    const moved = importedMemory(
      parsed,
      "globex",
      new Map([
        ["m_AAAAAAAAAAAAAAAAAAAA", "m_aaaaaaaaaaaaaaaaaaaa"],
        ["m_BBBBBBBBBBBBBBBBBBBB", "m_bbbbbbbbbbbbbbbbbbbb"],
      ]),
      new Map([["d_DDDDDDDDDDDDDDDDDDDD", "d_dddddddddddddddddddd"]]),
    );
    expect(moved).toEqual({
      ...v2,
      tenantId: "globex",
      id: "m_bbbbbbbbbbbbbbbbbbbb",
      parentMemoryId: "m_aaaaaaaaaaaaaaaaaaaa",
      rootMemoryId: "m_aaaaaaaaaaaaaaaaaaaa",
      relations: { m_aaaaaaaaaaaaaaaaaaaa: "updates", m_CCCCCCCCCCCCCCCCCCCC: "extends" },
      sources: [{ documentId: "d_dddddddddddddddddddd", chunkPositions: [0, 2] }],
    });
  });

  it("refuses a record with an unknown field, a bad relation, or a chain that does not add up", () => {
    const base = toArchiveMemory(v2);
    expect(() => parseArchiveMemory(JSON.stringify({ ...base, tenantId: "x" }))).toThrow(InvalidArgumentError);
    expect(() => parseArchiveMemory(JSON.stringify({ ...base, relation: "replaces" }))).toThrow(/relation/);
    expect(() => parseArchiveMemory(JSON.stringify({ ...base, version: 1 }))).toThrow(/version 1 has no parent/);
    expect(() => parseArchiveMemory("[")).toThrow(/not valid JSON/);
  });
});
