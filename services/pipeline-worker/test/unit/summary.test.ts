import { splitSentences, summarize } from "../../src/domain/summary";

describe("summarize (extractive, offline)", () => {
  const article = [
    "# Solar power in Portugal",
    "",
    "Portugal is expanding its solar power capacity faster than any other country in southern Europe.",
    "The government expects solar power to supply a third of the country's electricity by 2030.",
    "",
    "Large solar parks are being built in the Alentejo, where land is cheap and sunshine is plentiful.",
    "Critics worry that the solar parks replace cork oak forests.",
    "Farmers in the region say the rents from solar parks keep their farms alive.",
    "",
    "The weather was mild on the day of the announcement.",
  ].join("\n");

  it("keeps the sentences that stand for the text, in their order, without the heading", () => {
    const s = summarize(article)!;
    expect(s).toContain("Portugal is expanding its solar power capacity");
    expect(s).not.toContain("# Solar");
    expect(s).not.toContain("The weather was mild");
    const kept = splitSentences(s);
    expect(kept.length).toBeLessThanOrEqual(3);
    // in document order
    const positions = kept.map((k) => article.indexOf(k));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("stays within the length asked for, cutting one long sentence at a word with an ellipsis", () => {
    expect(summarize(article, { maxChars: 200 })!.length).toBeLessThanOrEqual(200);
    expect(summarize(article, { maxSentences: 1 })).toBe("Portugal is expanding its solar power capacity faster than any other country in southern Europe.");
    const long = `${"The committee discussed the budget for the coming year in great detail ".repeat(20).trim()}.`;
    const cut = summarize(long, { maxChars: 120 })!;
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
  });

  it("does not repeat itself: a sentence that restates a kept one is skipped", () => {
    const text = Array.from({ length: 30 }, (_, i) => `Report ${i}: the team reviewed the storage costs for the archive.`).join("\n\n");
    const s = summarize(text)!;
    expect(splitSentences(s)).toHaveLength(1);
  });

  it("reads markdown as prose: code, tables and rules are left out, list markers and emphasis dropped, identifiers kept", () => {
    const md = [
      "---",
      "```python",
      "import httpx  # a long line of code that is not a sentence at all",
      "```",
      "| Item | Price |",
      "|---|---|",
      "| Apples | 1.99 |",
      "- The **pagination style** may be set globally with the `DEFAULT_PAGINATION_CLASS` setting.",
      "> Quoted text is still part of the story being told here.",
    ].join("\n");
    expect(splitSentences(md)).toEqual([
      "The pagination style may be set globally with the DEFAULT_PAGINATION_CLASS setting.",
      "Quoted text is still part of the story being told here.",
    ]);
  });

  it("joins hard-wrapped lines and keeps each speaker's turn apart", () => {
    expect(splitSentences("It was in July, 1805, and the speaker was the well-known Anna\nPavlovna Scherer, maid of honor.")).toEqual([
      "It was in July, 1805, and the speaker was the well-known Anna Pavlovna Scherer, maid of honor.",
    ]);
    expect(splitSentences("user: I moved to Lisbon last spring\nassistant: How do you like living there")).toEqual([
      "user: I moved to Lisbon last spring",
      "assistant: How do you like living there",
    ]);
  });

  it("has nothing to say of a text without a sentence of four words", () => {
    expect(summarize("")).toBeUndefined();
    expect(summarize("Item | Price\nApples | 1.99")).toBeUndefined();
    expect(summarize("```\nconst x = 1;\n```")).toBeUndefined();
    expect(summarize("z".repeat(1_000_000))).toBeUndefined();
  });

  it("ranks only the opening sentences of a very long text (its cost stops growing)", () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `Sentence number ${i} talks about topic ${i % 7} in some detail.`).join(" ");
    const kept = splitSentences(summarize(text)!);
    for (const k of kept) expect(Number(/number (\d+)/.exec(k)![1])).toBeLessThan(300);
  });
});
