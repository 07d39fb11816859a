import "./extract/esm-shims";
import { extractDocument } from "../../src/adapters/extract";
import { fixMojibake, tidy } from "../../src/adapters/extract/normalize";
import { type PreparedChunk, prepareChunks } from "../../src/domain/prepare";
import { spansInContent } from "../../src/domain/source-offsets";

// The first HTML document loads linkedom and Readability.
jest.setTimeout(30_000);

/** A text document's content through extraction and chunking, as the worker does it (SourceExtractor, then prepareChunks). */
async function chunksOf(content: string, maxTokens = 32, overlapTokens = 4): Promise<{ contentType: string; chunks: PreparedChunk[] }> {
  const extracted = await extractDocument({ bytes: new TextEncoder().encode(content) });
  return { contentType: extracted.contentType, chunks: prepareChunks({ text: extracted.text, content, chunking: { maxTokens, overlapTokens } }) };
}

/** What extraction does to text it only normalises: UTF-8 round trip (lone surrogates), double-encoded UTF-8 repaired, `tidy`. */
const normalise = (s: string) => tidy(fixMojibake(new TextDecoder().decode(new TextEncoder().encode(s))));

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const splitsPair = (s: string, at: number) => at > 0 && at < s.length && isHigh(s.charCodeAt(at - 1)) && isLow(s.charCodeAt(at));

/** What holds for every document: spans inside the content, ordered, never splitting a surrogate pair. */
function expectPlaced(content: string, chunks: PreparedChunk[]): void {
  expect(chunks.length).toBeGreaterThan(0);
  chunks.forEach((c, i) => {
    expect(c.startOffset).toBeGreaterThanOrEqual(0);
    expect(c.endOffset).toBeLessThanOrEqual(content.length);
    expect(c.startOffset).toBeLessThanOrEqual(c.endOffset);
    expect(splitsPair(content, c.startOffset)).toBe(false);
    expect(splitsPair(content, c.endOffset)).toBe(false);
    if (i > 0) expect(c.startOffset).toBeGreaterThanOrEqual(chunks[i - 1]!.startOffset);
  });
}

/** Plain text: every chunk's span is its exact source, which normalised is the chunk's text. */
function expectExact(content: string, chunks: PreparedChunk[]): void {
  expectPlaced(content, chunks);
  for (const c of chunks) {
    const span = content.slice(c.startOffset, c.endOffset);
    expect(normalise(span)).toBe(c.content);
    // From the chunk's first character to its last: no surrounding whitespace.
    expect(span.trim()).toBe(span);
    expect(span.length).toBeGreaterThan(0);
  }
  // Chunks start in order and every chunk brings new text.
  for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.endOffset).toBeGreaterThan(chunks[i - 1]!.endOffset);
}

const SENTENCES = [
  "The committee met on Tuesday to review the budget",
  "Several members raised concerns about storage costs",
  "After a long discussion the vote was postponed",
  "A working group will prepare three proposals",
];
const sentence = (i: number) => `${SENTENCES[i % SENTENCES.length]} (item ${i}).`;
const lines = (n: number, end: (i: number) => string) => Array.from({ length: n }, (_, i) => `${sentence(i)}${end(i)}`).join("");

describe("chunk offsets of a text document index its content", () => {
  const cases: [string, string][] = [
    ["trailing spaces (the reported case)", lines(30, () => " \n")],
    ["trailing tabs and mixed spaces and tabs", lines(30, (i) => ["\t\n", " \t \t\n", "  \n", "\n"][i % 4]!)],
    ["CRLF line endings, with and without trailing spaces", lines(30, (i) => (i % 2 ? "\r\n" : "   \r\n"))],
    ["lone CR line endings", lines(30, (i) => (i % 3 ? "\r" : " \r"))],
    ["runs of blank lines, some holding spaces and tabs", lines(30, (i) => ["\n\n\n\n", " \n \n\t\n\n", "\r\n\r\n\r\n", "\n"][i % 4]!)],
    [
      "emoji, ZWJ sequences, flags and combining marks before the whitespace",
      lines(
        30,
        (i) =>
          [" caf\u00e9 \u{1F600} \n", " \u{1F469}\u200D\u{1F469}\u200D\u{1F467}\t\r\n", " e\u0301 n\u0303  \n\n\n", " \u{1F1EB}\u{1F1F7} \u{1D49C}\u0301 \r\n"][
            i % 4
          ]!,
      ),
    ],
    ["indented lines and leading blank lines", `\n\n   ${lines(30, (i) => (i % 2 ? " \n    " : "\n\t"))}`],
    [
      "Markdown headings, lists and a fence with trailing spaces",
      `# Notes  \r\n\r\n${lines(10, () => " \n")}\n## List \t\n\n${lines(10, (i) => `  \n- item ${i} `)}\n\n\`\`\`  \ncode line   \n\`\`\`\n\n${lines(10, () => "\t\n")}`,
    ],
    [
      "BOM, no-break spaces, zero-width spaces, form feeds, line separators, terminal colours, control characters",
      // One control character only: text holding many is taken for binary.
      `\uFEFF${lines(30, (i) => (i === 4 ? "\u0007 \n" : [" \u00A0\n", "\u200B \f\n", " \u2028", "\u001B[31m red\u001B[0m \n"][i % 4]!))}`,
    ],
    ["double-encoded UTF-8 and a lone surrogate", lines(30, (i) => [" \u00e2\u0080\u0093 dash \n", " caf\u00c3\u00a9\u0083 \n", " \uD800 lone \n"][i % 3]!)],
    ["a word larger than a chunk, ending in spaces", `${lines(4, () => " \n")}${"x".repeat(500)}   \r\n${"\u{1F600}".repeat(150)} \n${lines(4, () => " \n")}`],
  ];

  it.each(cases)("%s", async (_name, content) => {
    for (const [maxTokens, overlapTokens] of [
      [32, 4],
      [32, 0],
      [48, 16],
    ] as const) {
      const { contentType, chunks } = await chunksOf(content, maxTokens, overlapTokens);
      // Plain text, or Markdown without front matter: extraction only normalises them.
      expect(["text", "markdown"]).toContain(contentType);
      expect(chunks.length).toBeGreaterThan(1);
      expectExact(content, chunks);
    }
  });

  it("holds for generated documents (a seeded sweep over the same ingredients)", async () => {
    let seed = 20240601;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const words = [
      "alpha",
      "beta",
      "caf\u00e9",
      "e\u0301t\u0301e\u0301",
      "\u{1F600}",
      "\u{1F469}\u200D\u{1F467}",
      "\u6F22\u5B57",
      "na\u00efve",
      "x".repeat(40),
      "end.",
    ];
    const gaps = [" ", " ", " ", "  ", "\u00A0"];
    const ends = ["\n", "\n", " \n", "\t\n", " \t\n", "\r\n", "  \r\n", "\n\n", " \n\n\n", "\r\n \r\n\r\n", "\u00A0\n", "\u200B\n"];
    const starts = ["", "", "", "  ", "# ", "- ", "\t"];
    for (let doc = 0; doc < 120; doc++) {
      const n = 5 + Math.floor(random() * 40);
      let content = "";
      for (let l = 0; l < n; l++) {
        const w = 1 + Math.floor(random() * 14);
        content += pick(starts) + Array.from({ length: w }, () => pick(words)).join(pick(gaps)) + pick(ends);
      }
      const maxTokens = pick([32, 40, 64]);
      const { contentType, chunks } = await chunksOf(content, maxTokens, pick([0, 4, 8]));
      expect(["text", "markdown"]).toContain(contentType);
      expectExact(content, chunks);
    }
  });
});

describe("chunk offsets of rewritten content (best effort)", () => {
  /** Each chunk's first and last words lie in its span. */
  function expectWordsInSpan(content: string, chunks: PreparedChunk[]): void {
    for (const c of chunks) {
      const words = c.content.match(/[\p{L}\p{N}]+/gu) ?? [];
      const span = content.slice(c.startOffset, c.endOffset);
      expect(span).toContain(words[0]);
      expect(span).toContain(words.at(-1));
    }
  }

  it("HTML: each chunk's span holds its words", async () => {
    const para = (i: number) =>
      `<p class="text">Paragraph ${i} talks about <a href="https://example.com/${i}">link number ${i}</a> and <b>bold words</b> here.</p>  `;
    const html = `<!doctype html><html><head><title>My page</title><style>p { color: red }</style></head><body><article><h1>My page</h1>\r\n${Array.from({ length: 20 }, (_, i) => para(i)).join("\r\n")}</article></body></html>`;
    const { contentType, chunks } = await chunksOf(html, 40, 4);
    expect(contentType).toBe("html");
    expectPlaced(html, chunks);
    expectWordsInSpan(html, chunks);
  });

  it("Markdown front matter: the body's chunks are placed exactly", async () => {
    const body = `# Release notes  \r\n\r\n${lines(20, () => "  \r\n")}`;
    const md = `---\ntitle: Release notes\ndescription: What changed \ntags: [one, two]\n---\n\n${body}`;
    const { contentType, chunks } = await chunksOf(md);
    expect(contentType).toBe("markdown");
    expectPlaced(md, chunks);
    expectWordsInSpan(md, chunks);
    // The first chunk holds the lines made from the front matter; the others are the body's, normalised.
    for (const c of chunks.slice(1)) expect(normalise(md.slice(c.startOffset, c.endOffset))).toBe(c.content);
  });

  it("JSON re-indented: whitespace only, so exact", async () => {
    const json = JSON.stringify({ title: "Inventory \u{1F4E6}", items: Array.from({ length: 30 }, (_, i) => ({ name: `item ${i}`, note: "caf\u00e9" })) });
    const { contentType, chunks } = await chunksOf(json);
    expect(contentType).toBe("json");
    expectPlaced(json, chunks);
    for (const c of chunks) expect(json.slice(c.startOffset, c.endOffset).replace(/\s+/g, "")).toBe(c.content.replace(/\s+/g, ""));
  });

  it("CSV: spans stay inside the content", async () => {
    const csv = Array.from({ length: 40 }, (_, i) => `${i};name ${i};caf\u00e9 ${i}  `).join("\r\n");
    const { contentType, chunks } = await chunksOf(csv);
    expect(contentType).toBe("csv");
    expectPlaced(csv, chunks);
  });
});

describe("spansInContent", () => {
  it("maps a span over removed whitespace to its source", () => {
    expect(spansInContent("a  \r\nb \n", "a\nb", [{ start: 0, end: 3 }])).toEqual([{ start: 0, end: 6 }]);
    expect(
      spansInContent(" \n\n\n a \t\r\n\r\n\r\n\r\nb", "a\n\nb", [
        { start: 0, end: 1 },
        { start: 3, end: 4 },
      ]),
    ).toEqual([
      { start: 5, end: 6 },
      { start: 16, end: 17 },
    ]);
  });

  it("keeps spans when the text is the content", () => {
    expect(spansInContent("same text", "same text", [{ start: 5, end: 9 }])).toEqual([{ start: 5, end: 9 }]);
  });

  it("places a repaired character on its double-encoded source and U+FFFD on its lone surrogate", () => {
    expect(spansInContent("x \u00e2\u0080\u0093 y", "x \u2013 y", [{ start: 2, end: 3 }])).toEqual([{ start: 2, end: 5 }]);
    expect(spansInContent("a\uDC00b", "a\uFFFDb", [{ start: 1, end: 3 }])).toEqual([{ start: 1, end: 3 }]);
  });

  it("gives text that extraction added an empty span where it was added", () => {
    const text = "```\nlet x = 1;\n```";
    expect(
      spansInContent("let x = 1;  ", text, [
        { start: 0, end: 3 },
        { start: 4, end: 14 },
        { start: 15, end: 18 },
      ]),
    ).toEqual([
      { start: 0, end: 0 },
      { start: 0, end: 10 },
      { start: 12, end: 12 },
    ]);
  });

  it("never splits a surrogate pair", () => {
    // Rewritten text whose emoji differs from the content's in its second half.
    const [span] = spansInContent("ab \u{1F600}", "ab \u{1F601}", [{ start: 0, end: 5 }]);
    expect(span!.start).toBe(0);
    expect([3, 5]).toContain(span!.end);
  });
});
