import { ID_KINDS, type IdKind, idKindOf, isServiceId, newId } from "../src/ids";

const FORMAT = /^[a-z]_[0-9A-Za-z]{20}$/;

describe("newId", () => {
  it.each(Object.keys(ID_KINDS) as IdKind[])("creates a 22-character %s id: kind letter, underscore, 20 base62 characters", (kind) => {
    const id = newId(kind);
    expect(id).toHaveLength(22);
    expect(id).toMatch(FORMAT);
    expect(id.startsWith(`${ID_KINDS[kind]}_`)).toBe(true);
  });

  it("never repeats and uses the whole base62 alphabet", () => {
    const ids = Array.from({ length: 2000 }, () => newId("document"));
    expect(new Set(ids).size).toBe(ids.length);
    const chars = new Set(ids.flatMap((id) => [...id.slice(2)]));
    // 40 000 random characters over 62 symbols: every symbol shows up.
    expect(chars.size).toBe(62);
  });
});

describe("idKindOf", () => {
  it("distinguishes document, memory and chunk ids", () => {
    expect(idKindOf(newId("document"))).toBe("document");
    expect(idKindOf(newId("memory"))).toBe("memory");
    expect(idKindOf(newId("chunk"))).toBe("chunk");
    expect(idKindOf(newId("key"))).toBe("key");
  });

  it.each([
    ["empty string", ""],
    ["caller id", "user_123"],
    ["too short body", "d_0123456789ABCDEFGHI"],
    ["too long body", "d_0123456789ABCDEFGHIJK"],
    ["upper-case kind letter", "D_0123456789ABCDEFGHIJ"],
    ["unknown kind letter", "x_0123456789ABCDEFGHIJ"],
    ["non-base62 character", "d_0123456789ABCDEFGH-J"],
    ["missing underscore", "d0123456789ABCDEFGHIJK"],
    ["surrounding whitespace", " d_0123456789ABCDEFGHIJ"],
    ["trailing newline", "d_0123456789ABCDEFGHIJ\n"],
  ])("rejects %s", (_label, id) => {
    expect(idKindOf(id)).toBeUndefined();
  });

  it("isServiceId checks the kind", () => {
    const m = newId("memory");
    expect(isServiceId(m, "memory")).toBe(true);
    expect(isServiceId(m, "document")).toBe(false);
    expect(isServiceId("m_short", "memory")).toBe(false);
  });
});
