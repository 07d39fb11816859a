import { OfflineBucketSuggester } from "../src";

describe("OfflineBucketSuggester", () => {
  const suggester = new OfflineBucketSuggester();
  const keys = async (input: Parameters<OfflineBucketSuggester["suggest"]>[0]) => (await suggester.suggest(input)).map((s) => s.key);

  it("offers the themes the workspace prompt talks about, most named first, 3 to 6 of them", async () => {
    const support = await keys({
      prompt:
        "We run the support desk of a SaaS product. Agents must recall each customer's plan and subscription, their open tickets and past issues, and which features they use.",
      memories: [],
      existing: [],
    });
    expect(support.length).toBeGreaterThanOrEqual(3);
    expect(support.length).toBeLessThanOrEqual(6);
    expect(support.slice(0, 3).sort()).toEqual(["customers", "products", "support"]);

    const coach = await keys({ prompt: "A health coach app: track each user's diet, workouts, sleep and fitness goals.", memories: [], existing: [] });
    expect(coach[0]).toBe("health");
    expect(coach).toContain("goals");
  });

  it("lets the organisation's memories speak when the prompt says little, and never offers a bucket it has", async () => {
    const out = await suggester.suggest({
      prompt: "Personal assistant.",
      memories: [
        "Maya's daughter Lina starts school in September",
        "Maya's husband Tom is a nurse",
        "Maya is allergic to peanuts",
        "Maya's son plays the piano",
      ],
      existing: [{ key: "health", description: "" }],
    });
    const k = out.map((s) => s.key);
    expect(k[0]).toBe("family");
    expect(k).not.toContain("health");
    for (const s of out) {
      expect(s.key).toMatch(/^[a-z0-9][a-z0-9_-]{0,63}$/);
      expect(s.description.length).toBeGreaterThan(10);
    }
  });

  it("completes to three general buckets when the context names no theme", async () => {
    expect(await keys({ prompt: "Zorblax quuxification.", memories: [], existing: [] })).toEqual(["preferences", "goals", "work"]);
    expect(await keys({ prompt: "", memories: [], existing: [{ key: "preferences", description: "" }] })).toEqual(["goals", "work", "schedule"]);
  });
});
