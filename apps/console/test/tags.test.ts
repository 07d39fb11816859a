import { byActivity, DEFAULT_TAG, filterTags, openingTag } from "../src/tags";

const tag = (containerTag: string, lastActivityAt: string | null, name = containerTag) => ({
  id: `s_${containerTag}`,
  name,
  containerTag,
  description: null,
  createdAt: lastActivityAt,
  updatedAt: lastActivityAt,
  documentCount: 1,
  memoryCount: 0,
  lastActivityAt,
});

const alice = tag("alice", "2026-01-02T10:00:00.000Z");
const bob = tag("bob", "2026-01-03T10:00:00.000Z", "Bob's notes");
const settingsOnly = tag("empty", null);
const zed = tag("zed", "2026-01-01T10:00:00.000Z");

describe("the console's container tags", () => {
  it("orders the most recently active first, tags without activity last (then by tag)", () => {
    expect(byActivity([settingsOnly, zed, alice, bob, tag("again", null)]).map((t) => t.containerTag)).toEqual(["bob", "alice", "zed", "again", "empty"]);
  });

  it("opens on this tab's tag, else the remembered choice while it exists, else the most recently active, else the default", () => {
    const tags = [alice, bob, zed];
    expect(openingTag(tags, null, null)).toBe("bob");
    expect(openingTag(tags, null, "alice")).toBe("alice");
    // A remembered tag the tenant no longer has (deleted, or another tenant's) is not opened on.
    expect(openingTag(tags, null, "gone")).toBe("bob");
    // This tab's tag wins even when it holds nothing yet (a reload stays where it was).
    expect(openingTag(tags, "brand_new", "alice")).toBe("brand_new");
    expect(openingTag([], null, "alice")).toBe(DEFAULT_TAG);
    expect(openingTag([settingsOnly], null, null)).toBe("empty");
  });

  it("filters on the tag and its display name, any case, keeping the activity order", () => {
    const tags = [zed, alice, bob];
    expect(filterTags(tags, "").map((t) => t.containerTag)).toEqual(["bob", "alice", "zed"]);
    expect(filterTags(tags, "  AL ").map((t) => t.containerTag)).toEqual(["alice"]);
    expect(filterTags(tags, "notes").map((t) => t.containerTag)).toEqual(["bob"]);
    expect(filterTags(tags, "<img")).toEqual([]);
    const many = Array.from({ length: 1000 }, (_, i) => tag(`t_${String(i).padStart(4, "0")}`, `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`));
    expect(filterTags(many, "t_09")).toHaveLength(100);
  });
});
