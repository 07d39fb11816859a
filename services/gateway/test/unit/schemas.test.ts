import { v3Search, v4Search } from "../../src/routes/schemas";

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.error?.issues ?? []).map((i) => i.message);

describe("request schemas name the real problem", () => {
  it("a required string: absent is 'required', another type is 'must be a string', too long says so", () => {
    expect(messages(v4Search.safeParse({}))).toContain("q is required");
    expect(messages(v4Search.safeParse({ q: 1 }))).toEqual(["q must be a string"]);
    const long = messages(v4Search.safeParse({ q: "x".repeat(10_001) }));
    expect(long).toHaveLength(1);
    expect(long[0]).not.toMatch(/required|must be a string/);
    expect(messages(v3Search.safeParse({ q: ["a"] }))).toEqual(["q must be a string"]);
  });
});
