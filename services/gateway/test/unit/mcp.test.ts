import type { Request } from "express";
import { clip, formatContainerTags, formatError, formatForget, formatMemoryList, formatProfile, formatSearch } from "../../src/mcp/format";
import { selfBaseUrl, sessionContainerTag } from "../../src/mcp/mcp.routes";
import { stdioSettings } from "../../src/mcp/stdio";
import { HttpProblem } from "../../src/http/errors";

describe("MCP result formatting", () => {
  it("cites memory results by id with similarity, date, version and source documents", () => {
    const text = formatSearch(
      {
        results: [
          {
            id: "m_1",
            memory: "Sarah lives in Seattle",
            similarity: 0.8123,
            updatedAt: "2026-01-02T03:04:05.000Z",
            version: 2,
            documents: [{ id: "d_1", title: "Chat 1" }, { id: "d_2" }],
          },
          { id: "m_2", memory: "Sarah prefers tea", similarity: 0.7, updatedAt: "2026-01-01T00:00:00.000Z", version: 1, documents: [] },
        ],
      },
      { query: "where does Sarah live", mode: "memories", containerTag: "user_1" },
    );
    expect(text).toBe(
      [
        '2 results for "where does Sarah live" (memories, container user_1):',
        '1. [m_1] Sarah lives in Seattle (similarity 0.81; updated 2026-01-02; version 2; sources: d_1 "Chat 1", d_2)',
        "2. [m_2] Sarah prefers tea (similarity 0.70; updated 2026-01-01; written directly)",
      ].join("\n"),
    );
  });

  it("cites chunk results by chunk and document, the text clipped", () => {
    const long = `${"word ".repeat(200)}end`;
    const text = formatSearch(
      { results: [{ id: "c_1", chunk: long, documentId: "d_9", similarity: 0.5, documents: [{ id: "d_9", title: "Notes" }] }] },
      { query: "q", mode: "documents" },
    );
    expect(text.split("\n")[0]).toBe('1 result for "q" (documents, every container):');
    expect(text).toMatch(/^1\. \[c_1\] "word word .*…" \(similarity 0\.50; document d_9 "Notes"\)$/m);
    expect(text.length).toBeLessThan(700);
    expect(formatSearch({ results: [] }, { query: "q", mode: "hybrid", containerTag: "t" })).toBe(
      'No results for "q" (hybrid, container t). Try other words, another mode or a lower threshold.',
    );
  });

  it("clips at a word boundary and folds whitespace", () => {
    expect(clip("a  b\n\nc", 10)).toBe("a b c");
    expect(clip("alpha beta gamma delta", 12)).toBe("alpha beta…");
    expect(clip("alpha beta gamma delta", 14)).toBe("alpha beta gam…");
    expect(clip("abcdefghijklmnop", 5)).toBe("abcde…");
  });

  it("shows the profile's sections, empty ones marked, and the query's memories", () => {
    const text = formatProfile(
      {
        profile: { static: ["Sarah is VP of Product"], dynamic: [] },
        searchResults: { results: [{ id: "m_3", memory: "Sarah was promoted", similarity: 0.9 }] },
      },
      { containerTag: "user_1", query: "promotion" },
    );
    expect(text).toBe(
      [
        "Profile of container user_1",
        "Static facts (lasting):",
        "- Sarah is VP of Product",
        "Dynamic facts (recent):",
        "- (none)",
        'Memories matching "promotion":',
        "1. [m_3] Sarah was promoted (similarity 0.90; written directly)",
      ].join("\n"),
    );
  });

  it("lists memories with their page, flags and sources", () => {
    const text = formatMemoryList(
      {
        memoryEntries: [
          { id: "m_1", memory: "A", isStatic: true, version: 3, updatedAt: "2026-02-03T00:00:00Z", documentIds: [] },
          { id: "m_2", memory: "B", isForgotten: true, documentIds: ["d_1", "d_2"] },
        ],
        pagination: { currentPage: 2, totalPages: 3, totalItems: 41 },
      },
      { containerTag: "t" },
    );
    expect(text).toBe(
      [
        "41 memories in container t (page 2 of 3):",
        "- [m_1] A (static; version 3; updated 2026-02-03; written directly)",
        "- [m_2] B (forgotten; sources: d_1, d_2)",
      ].join("\n"),
    );
    expect(formatMemoryList({ memoryEntries: [], pagination: { currentPage: 1 } }, { containerTag: "t" })).toBe("No memories in container t.");
  });

  it("shows a dry run's candidates with the confirming call, and what a real run forgot", () => {
    const preview = formatForget(
      { dryRun: true, count: 1, candidates: [{ id: "m_1", memory: "Titan launches in March", score: 0.91 }] },
      { containerTag: "t" },
    );
    expect(preview).toBe(
      [
        "Dry run in container t: 1 memory would be forgotten. Nothing was forgotten yet.",
        "- [m_1] Titan launches in March (score 0.91)",
        'To forget exactly these, call forget_memories again with confirm: true and ids: ["m_1"].',
      ].join("\n"),
    );
    expect(formatForget({ dryRun: true, count: 0, candidates: [], summary: "nothing at or above 0.8" }, { containerTag: "t" })).toBe(
      "Dry run in container t: no memory matches, nothing would be forgotten. nothing at or above 0.8",
    );
    expect(formatForget({ dryRun: false, count: 1, forgetBatchId: "b_1", forgotten: [{ id: "m_1", memory: "X", score: 1 }] }, { containerTag: "t" })).toBe(
      "Forgot 1 memory in container t (batch b_1):\n- [m_1] X (score 1.00)",
    );
  });

  it("lists container tags with counts and marks the session's", () => {
    expect(
      formatContainerTags(
        [
          { containerTag: "a", name: "a", documentCount: 1, memoryCount: 0, lastActivityAt: "2026-03-04T05:06:07Z" },
          { containerTag: "b", name: "Team B", documentCount: 0, memoryCount: 2, lastActivityAt: null },
        ],
        { sessionTag: "b" },
      ),
    ).toBe(
      ["2 container tags:", "- a: 1 document, 0 memories, last activity 2026-03-04", '- b "Team B": 0 documents, 2 memories [this session\'s container]'].join(
        "\n",
      ),
    );
    expect(formatContainerTags([])).toBe("No container tags yet: nothing has been added.");
  });

  it("turns API errors and unreachable servers into one line", () => {
    expect(formatError({ status: 400, error: { error: "Invalid request", details: "containerTag: bad" }, message: "400 {…}" })).toBe(
      "Engram answered 400 Invalid request: containerTag: bad",
    );
    expect(formatError({ status: 404, error: { error: "Not found" } })).toBe("Engram answered 404 Not found");
    expect(formatError({ status: 502, error: undefined, message: "502 status code (no body)" })).toBe("Engram answered 502: 502 status code (no body)");
    expect(formatError(new Error("Connection error."))).toBe("Engram could not be reached: Connection error.");
  });
});

describe("MCP over HTTP: the gateway's own address and the session's container tag", () => {
  it("calls itself at the local address and port the request came in on", () => {
    expect(selfBaseUrl({ localAddress: "127.0.0.1", localPort: 8787 })).toBe("http://127.0.0.1:8787");
    expect(selfBaseUrl({ localAddress: "::ffff:10.0.0.5", localPort: 80 })).toBe("http://10.0.0.5:80");
    expect(selfBaseUrl({ localAddress: "::1", localPort: 8080 })).toBe("http://[::1]:8080");
    expect(selfBaseUrl({ localAddress: "fe80::1%eth0", localPort: 1 })).toBe("http://[fe80::1%25eth0]:1");
  });

  const req = (headers: Record<string, string>, query: Record<string, unknown> = {}) =>
    ({ header: (n: string) => headers[n.toLowerCase()], query }) as unknown as Request;

  it("takes the tag from the header or the query parameter, validated", () => {
    expect(sessionContainerTag(req({}))).toBeUndefined();
    expect(sessionContainerTag(req({ "x-engram-container-tag": "user_1" }))).toBe("user_1");
    expect(sessionContainerTag(req({}, { containerTag: "user_2" }))).toBe("user_2");
    expect(sessionContainerTag(req({ "x-engram-container-tag": "same" }, { containerTag: "same" }))).toBe("same");
    for (const bad of [
      req({ "x-engram-container-tag": "a b" }),
      req({ "x-engram-container-tag": "x" }, { containerTag: "y" }),
      req({}, { containerTag: ["a", "b"] }),
    ]) {
      expect(() => sessionContainerTag(bad)).toThrow(HttpProblem);
    }
  });
});

describe("MCP over stdio: settings from the environment", () => {
  it("defaults the URL, requires the key and validates the tag, listing every problem", () => {
    expect(stdioSettings({ ENGRAM_API_KEY: "k" })).toEqual({ settings: { url: "http://localhost:8787", apiKey: "k" }, problems: [] });
    expect(stdioSettings({ ENGRAM_API_KEY: "k", ENGRAM_URL: "https://engram.example.com/", ENGRAM_CONTAINER_TAG: "u1" }).settings).toEqual({
      url: "https://engram.example.com",
      apiKey: "k",
      containerTag: "u1",
    });
    const { settings, problems } = stdioSettings({ ENGRAM_URL: "ftp://x", ENGRAM_CONTAINER_TAG: "no spaces" });
    expect(settings).toBeUndefined();
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(/ENGRAM_URL must be an http\(s\) URL[\s\S]*ENGRAM_API_KEY is required[\s\S]*ENGRAM_CONTAINER_TAG must be/);
  });
});
