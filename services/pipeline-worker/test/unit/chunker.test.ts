import { chunkingFor, chunkText, countTokens, type TextChunk } from "../../src/domain/chunker";

const SENTENCES = [
  "The committee met on Tuesday to review the budget for the coming year",
  "Several members raised concerns about the rising cost of cloud storage",
  "After a long discussion the group agreed to postpone the final vote",
  "A smaller working group will prepare three alternative proposals",
  "Each proposal must include a migration plan and a rollback strategy",
  "The chair thanked everyone for their patience and closed the session",
  "Minutes will be circulated to all departments by the end of the week",
  "Questions about the process can be sent to the secretariat at any time",
];

/** Deterministic prose: `n` sentences of about 12-14 tokens each. */
function prose(n: number, offset = 0): string {
  return Array.from({ length: n }, (_, i) => `${SENTENCES[(i + offset) % SENTENCES.length]} (item ${i + offset}).`).join(" ");
}

/** No chunk but the last ends with a heading (its last non-blank line is not one). */
function expectNoHeadingAtTheEnd(chunks: TextChunk[]): void {
  for (const c of chunks.slice(0, -1)) {
    const lastLine = c.content
      .split("\n")
      .filter((l) => l.trim())
      .pop()!;
    expect(lastLine).not.toMatch(/^#{1,6}\s/);
  }
}

/** The invariants every chunking must satisfy. */
function expectWellFormed(text: string, chunks: TextChunk[], maxTokens: number): void {
  expect(chunks.length).toBeGreaterThan(0);
  chunks.forEach((c, i) => {
    expect(c.position).toBe(i);
    expect(c.startOffset).toBeGreaterThanOrEqual(0);
    expect(c.endOffset).toBeLessThanOrEqual(text.length);
    expect(c.startOffset).toBeLessThan(c.endOffset);
    // The offsets are the chunk's exact span: no whitespace around it.
    expect(text.slice(c.startOffset, c.endOffset)).toBe(c.content);
    expect(c.content.trim()).toBe(c.content);
    expect(c.content.length).toBeGreaterThan(0);
    const words = c.content.match(/\S+/g) ?? [];
    if (words.length > 1) expect(countTokens(c.content)).toBeLessThanOrEqual(maxTokens);
  });
  // No text is lost or cut: every word of the input lies whole inside some chunk; a word larger
  // than a chunk is cut, and then every character of it lies inside some chunk.
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (m[0].length > maxTokens * 6) {
      for (let at = start; at < end; at++)
        if (!chunks.some((c) => c.startOffset <= at && at < c.endOffset)) throw new Error(`character ${at} of an oversized word is in no chunk`);
      continue;
    }
    const inside = chunks.some((c) => c.startOffset <= start && end <= c.endOffset);
    if (!inside) throw new Error(`word ${JSON.stringify(m[0])} at ${start} is not inside any chunk`);
  }
  // Every chunk brings new text: no chunk is made of overlap only.
  for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.endOffset).toBeGreaterThan(chunks[i - 1]!.endOffset);
}

describe("countTokens", () => {
  it("counts words, long words as several tokens", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("one two  three\nfour")).toBe(4);
    expect(countTokens("abcdef")).toBe(1);
    expect(countTokens("abcdefg")).toBe(2);
    expect(countTokens("x".repeat(60))).toBe(10);
  });
});

describe("chunkText", () => {
  it("keeps a short text in one chunk", () => {
    const text = "  Hello world.\n\nSecond paragraph here.  \n";
    const chunks = chunkText(text, { maxTokens: 64, overlapTokens: 8 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ position: 0, content: "Hello world.\n\nSecond paragraph here.", tokenCount: 6 });
    expect(chunks[0]).toMatchObject({ startOffset: 2, endOffset: 38 });
    expect(text.slice(chunks[0]!.startOffset, chunks[0]!.endOffset)).toBe(chunks[0]!.content);
  });

  it("returns no chunks for blank text", () => {
    expect(chunkText(" \n\n \t", { maxTokens: 64, overlapTokens: 8 })).toEqual([]);
  });

  it("splits long prose into sequential, bounded chunks whose offsets point into the text", () => {
    const text = [prose(12), prose(9, 3), prose(15, 5), prose(4, 2)].join("\n\n");
    const chunks = chunkText(text, { maxTokens: 64, overlapTokens: 16 });
    expect(chunks.length).toBeGreaterThan(5);
    expectWellFormed(text, chunks, 64);
  });

  it("overlaps consecutive chunks of long prose by about overlapTokens", () => {
    const text = prose(40);
    const maxTokens = 60;
    const overlapTokens = 20;
    const chunks = chunkText(text, { maxTokens, overlapTokens });
    expect(chunks.length).toBeGreaterThan(5);
    expectWellFormed(text, chunks, maxTokens);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const next = chunks[i]!;
      expect(next.startOffset).toBeLessThan(prev.endOffset);
      expect(next.startOffset).toBeGreaterThan(prev.startOffset);
      const shared = text.slice(next.startOffset, prev.endOffset);
      expect(countTokens(shared)).toBeGreaterThan(0);
      expect(countTokens(shared)).toBeLessThanOrEqual(overlapTokens);
      // The shared text really is at the end of one and the start of the other.
      expect(prev.content.endsWith(shared.trim())).toBe(true);
      expect(next.content.startsWith(shared.trim())).toBe(true);
    }
  });

  it("without overlap, chunks tile the text", () => {
    const text = prose(30);
    const chunks = chunkText(text, { maxTokens: 50, overlapTokens: 0 });
    expectWellFormed(text, chunks, 50);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startOffset).toBeGreaterThanOrEqual(chunks[i - 1]!.endOffset);
  });

  it("cuts a word larger than a chunk into chunk-sized pieces and keeps the rest within bounds", () => {
    const huge = "x".repeat(600); // 100 tokens, more than a 32-token chunk
    const text = `${prose(3)} ${huge} ${prose(3, 4)}`;
    const chunks = chunkText(text, { maxTokens: 32, overlapTokens: 4 });
    expectWellFormed(text, chunks, 32);
    for (const c of chunks) expect(countTokens(c.content)).toBeLessThanOrEqual(32);
    const pieces = chunks.filter((c) => /^x+$/.test(c.content));
    expect(pieces.map((c) => c.content.length)).toEqual([192, 192, 192]);
  });

  it("cuts a megabyte of one word into bounded chunks", () => {
    const text = "q".repeat(1_000_000);
    const chunks = chunkText(text, { maxTokens: 512, overlapTokens: 64 });
    expect(chunks.length).toBe(Math.ceil(1_000_000 / (512 * 6)));
    expect(chunks.every((c) => c.content.length <= 512 * 6)).toBe(true);
    expect(chunks.map((c) => c.content).join("")).toBe(text);
  });

  it("never cuts a surrogate pair when cutting an oversized word", () => {
    const text = "😀".repeat(400); // 800 code units, no spaces
    const chunks = chunkText(text, { maxTokens: 10, overlapTokens: 0 });
    for (const c of chunks) expect(Buffer.from(c.content, "utf8").toString("utf8")).toBe(c.content); // no lone surrogate
    expect(chunks.map((c) => c.content).join("")).toBe(text);
  });

  it("never leaves a heading alone at the end of a chunk", () => {
    // Sections of one-sentence paragraphs: a heading always fits with its first paragraph.
    const section = (i: number) => `## Section ${i}\n\n${Array.from({ length: 1 + (i % 3) }, (_, k) => prose(1, i + k)).join("\n\n")}`;
    const text = `# Handbook\n\n${Array.from({ length: 10 }, (_, i) => section(i)).join("\n\n")}`;
    for (const maxTokens of [32, 40, 48, 56, 64, 80]) {
      const chunks = chunkText(text, { maxTokens, overlapTokens: 8 });
      expectWellFormed(text, chunks, maxTokens);
      expectNoHeadingAtTheEnd(chunks);
    }
  });

  it("never ends a chunk with consecutive headings either", () => {
    const text = `${prose(3)}\n\n# Part two\n\n## Chapter one\n\n${prose(2, 2)}`;
    // The first paragraph and both headings fit in one chunk; the next paragraph does not.
    expect(countTokens(`${prose(3)} # Part two ## Chapter one`)).toBeLessThanOrEqual(60);
    expect(countTokens(`${prose(3)} # Part two ## Chapter one ${prose(2, 2)}`)).toBeGreaterThan(60);
    const chunks = chunkText(text, { maxTokens: 60, overlapTokens: 0 });
    expectWellFormed(text, chunks, 60);
    expectNoHeadingAtTheEnd(chunks);
    expect(chunks.some((c) => c.content.startsWith("# Part two\n\n## Chapter one"))).toBe(true);
  });

  it("does not split a fenced code block that fits in a chunk, even with blank lines inside", () => {
    const code = [
      "```ts",
      "function add(a: number, b: number) {",
      "  return a + b;",
      "}",
      "",
      "",
      "// usage",
      "const total = add(1, 2);",
      "console.log(total);",
      "```",
    ].join("\n");
    const text = `${prose(3)}\n\n${code}\n\n${prose(3, 3)}`;
    expect(countTokens(code)).toBeLessThanOrEqual(40);
    for (const maxTokens of [40, 50, 64]) {
      const chunks = chunkText(text, { maxTokens, overlapTokens: 8 });
      expectWellFormed(text, chunks, maxTokens);
      const withFence = chunks.filter((c) => c.content.includes("```"));
      expect(withFence.length).toBeGreaterThan(0);
      for (const c of withFence) expect(c.content).toContain(code);
    }
  });

  it("splits an oversized code block without losing or cutting text", () => {
    const code = "```js\n" + Array.from({ length: 30 }, (_, i) => `promise${i}\n  .then((x) => x + ${i})\n  .catch(() => null);`).join("\n") + "\n```";
    const chunks = chunkText(code, { maxTokens: 40, overlapTokens: 8 });
    expect(chunks.length).toBeGreaterThan(3);
    expectWellFormed(code, chunks, 40);
    expect(chunks.at(-1)!.content.endsWith("```")).toBe(true);
  });

  it("splits an oversized paragraph with punctuation at line starts without drifting", () => {
    const lines = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 0 ? `...and then step ${i} happened` : i % 4 === 1 ? `!important note ${i}` : `?maybe line ${i} is fine`,
    );
    const text = lines.join("\n");
    const chunks = chunkText(text, { maxTokens: 30, overlapTokens: 6 });
    expectWellFormed(text, chunks, 30);
  });

  it("keeps small units before a large one without emitting an overlap-only chunk", () => {
    // 3 + 3 + 98 tokens: the second small paragraph cannot join the big one, so it must not be repeated alone.
    const big = Array.from({ length: 98 }, (_, i) => `w${i}`).join(" ");
    const text = `Small one here.\n\nSmall two here.\n\n${big}`;
    const chunks = chunkText(text, { maxTokens: 100, overlapTokens: 10 });
    expectWellFormed(text, chunks, 100);
  });

  it("treats list runs and tables as blocks", () => {
    const text = `Intro line.\n\n- one\n- two\n- three\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nOutro.`;
    const chunks = chunkText(text, { maxTokens: 6, overlapTokens: 0 });
    expectWellFormed(text, chunks, 6);
    expect(chunks.some((c) => c.content === "- one\n- two\n- three")).toBe(true);
  });
});

describe("chunkingFor (the organisation's chunkSize)", () => {
  const base = { maxTokens: 512, overlapTokens: 64 };
  it("keeps the deployment's chunking when the setting is unset, zero or negative", () => {
    for (const v of [undefined, 0, -5, Number.NaN]) expect(chunkingFor(base, v)).toEqual(base);
  });
  it("uses the setting, clamped to 32-8192 tokens, with the overlap at most a quarter of the chunk", () => {
    expect(chunkingFor(base, 1024)).toEqual({ maxTokens: 1024, overlapTokens: 64 });
    expect(chunkingFor(base, 64)).toEqual({ maxTokens: 64, overlapTokens: 16 });
    expect(chunkingFor(base, 5)).toEqual({ maxTokens: 32, overlapTokens: 8 });
    expect(chunkingFor(base, 2_000_000_000)).toEqual({ maxTokens: 8192, overlapTokens: 64 });
  });
});
