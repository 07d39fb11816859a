import { analyze, MAX_TOKEN_LENGTH, stem, STOP_WORDS, tokenize } from "../src/text";
import { dot, HashingEmbedder, normalize } from "../src/embedder";
import { fuse, keywordCoverage } from "../src/scoring";

describe("tokenize", () => {
  it("lower-cases, splits on non-word characters and keeps digits", () => {
    expect(tokenize("Hello, World! Version 2.0 -- e-mail")).toEqual(["hello", "world", "version", "2", "0", "e", "mail"]);
  });

  it("drops possessive 's and inner apostrophes", () => {
    expect(tokenize("Sarah's plan isn't ready")).toEqual(["sarah", "plan", "isnt", "ready"]);
    expect(tokenize("Sarah’s")).toEqual(["sarah"]);
  });

  it("handles non-ASCII letters", () => {
    expect(tokenize("Café Müller über")).toEqual(["café", "müller", "über"]);
  });

  it("returns nothing for text without words", () => {
    expect(tokenize("  --- !!! ")).toEqual([]);
  });

  it("cuts a token longer than MAX_TOKEN_LENGTH to that length", () => {
    const long = "a".repeat(100_000);
    const [t] = tokenize(`x ${long} y`).slice(1, 2);
    expect(t).toBe("a".repeat(MAX_TOKEN_LENGTH));
    expect(tokenize("b".repeat(MAX_TOKEN_LENGTH))).toEqual(["b".repeat(MAX_TOKEN_LENGTH)]);
  });

  it("never cuts a surrogate pair in half", () => {
    // 63 ASCII letters, then a letter outside the BMP (two code units) straddling the limit.
    const t = tokenize("a".repeat(MAX_TOKEN_LENGTH - 1) + "𝐀" + "b".repeat(10))[0]!;
    expect(t).toBe("a".repeat(MAX_TOKEN_LENGTH - 1));
    expect(Buffer.from(t, "utf8").toString("utf8")).toBe(t); // a lone surrogate would not survive UTF-8
  });
});

describe("analyze", () => {
  it("removes stop words", () => {
    expect(analyze("the cat is on the mat")).toEqual(["cat", "mat"]);
    for (const t of analyze("what is this and why would you do that")) expect(STOP_WORDS.has(t)).toBe(false);
  });

  it("stems words (running -> run) so variants match", () => {
    expect(analyze("running")).toEqual(["run"]);
    expect(stem("promoted")).toBe(stem("promotes"));
    expect(stem("promoted")).not.toBe("promoted");
    expect(analyze("Runs")).toEqual(analyze("run"));
    expect(analyze("connected connections")).toEqual(["connect", "connect"]);
  });

  it("stems a megabyte-long word as its first MAX_TOKEN_LENGTH letters (the stemmer is quadratic in length)", () => {
    const word = "ab".repeat(500_000);
    expect(analyze(word)).toEqual([stem(word.slice(0, MAX_TOKEN_LENGTH))]);
    expect(stem(word)).toBe(stem(word.slice(0, MAX_TOKEN_LENGTH)));
  });

  it("leaves tokens with digits unstemmed", () => {
    expect(analyze("v2 running2")).toEqual(["v2", "running2"]);
  });
});

describe("HashingEmbedder", () => {
  const e = new HashingEmbedder(256);
  const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

  it("produces unit-length vectors of the configured size", async () => {
    const [a, b] = await e.embed(["Sarah is being promoted to VP of Product.", "x"]);
    expect(a).toHaveLength(256);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(norm(b!)).toBeCloseTo(1, 5);
    expect(e.id).toBe("hashing-v1-256");
    expect(e.dimensions).toBe(256);
  });

  it("is deterministic", () => {
    const text = "The rate limit is 100 requests per minute.";
    expect(Array.from(e.embedOne(text))).toEqual(Array.from(new HashingEmbedder(256).embedOne(text)));
  });

  it("embeds text without terms as the zero vector (no NaN)", () => {
    const v = e.embedOne("the of and");
    expect(Array.from(v).every((x) => x === 0)).toBe(true);
  });

  it("puts similar texts closer than unrelated ones", () => {
    const q = e.embedOne("who is getting promoted to vice president?");
    const similar = e.embedOne("Sarah is being promoted to vice president of product");
    const unrelated = e.embedOne("Our API rate limit is 100 requests per minute");
    expect(dot(q, similar)).toBeGreaterThan(dot(q, unrelated) + 0.1);
    expect(dot(q, q)).toBeCloseTo(1, 5);
  });

  it("morphological variants land near each other", () => {
    const a = e.embedOne("deploying kubernetes clusters");
    const b = e.embedOne("deployment of a kubernetes cluster");
    const c = e.embedOne("baking sourdough bread");
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  it("normalize leaves the zero vector alone", () => {
    expect(Array.from(normalize(new Float32Array(3)))).toEqual([0, 0, 0]);
    expect(Array.from(normalize(new Float32Array([3, 4])))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });
});

describe("scoring", () => {
  it("keywordCoverage is the share of distinct query terms found", () => {
    expect(keywordCoverage(analyze("promoted product manager"), "Sarah was promoted to product lead")).toBeCloseTo(2 / 3);
    expect(keywordCoverage([], "anything")).toBe(0);
  });

  it("fuse ranks candidates found by both sides first and drops weak dense-only ones", () => {
    const keyword = new Map([
      [1, 5],
      [2, 3],
    ]);
    const dense = new Map([
      [2, 0.9],
      [3, 0.8],
      [4, 0.05],
    ]);
    const fused = fuse(keyword, dense);
    expect(fused.map((f) => f.rid)).toEqual([2, 1, 3]);
  });
});
