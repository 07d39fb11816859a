import {
  type SourceDocument,
  batchesOf,
  cleanMetadata,
  formedFrom,
  planDocument,
  planMemory,
  ratePerSecond,
  targetCustomId,
  targetTaskType,
} from "../src/migrate/mapping";
import path from "node:path";
import { ExitCode } from "../src/exit-codes";
import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

const doc = (over: Partial<SourceDocument> = {}): SourceDocument => ({
  id: "abcdefghijklmnopqrstuv",
  customId: null,
  containerTags: ["proj_a"],
  metadata: { n: 1 },
  status: "done",
  content: "Ada lives in Vesthavn.",
  ...over,
});

describe("migrate mapping: ids", () => {
  it("keeps the source's customId when the target accepts it", () => {
    expect(targetCustomId({ id: "x", customId: "note-1" })).toBe("note-1");
  });

  it("derives a stable customId from the source id when there is none", () => {
    expect(targetCustomId({ id: "abcdefghijklmnopqrstuv", customId: null })).toBe("migrated:abcdefghijklmnopqrstuv");
    expect(targetCustomId({ id: "d_1", customId: undefined })).toBe("migrated:d_1");
  });

  it("hashes a source id or customId the target would refuse (characters, length), the same way every run", () => {
    const odd = targetCustomId({ id: "has space/and slash", customId: null });
    expect(odd).toMatch(/^migrated:[0-9a-f]{40}$/);
    expect(targetCustomId({ id: "has space/and slash", customId: null })).toBe(odd);
    const long = targetCustomId({ id: "x", customId: "c".repeat(200) });
    expect(long).toMatch(/^migrated:[0-9a-f]{40}$/);
    expect(long).not.toBe(odd);
  });
});

describe("migrate mapping: metadata", () => {
  it("keeps flat values and names what the target would refuse", () => {
    const { metadata, dropped } = cleanMetadata({ s: "x", n: 2, b: false, a: ["p", "q"], nested: { x: 1 }, nil: null, mixed: [1, "a"], inf: Infinity });
    expect(metadata).toEqual({ s: "x", n: 2, b: false, a: ["p", "q"] });
    expect(dropped.sort()).toEqual(["inf", "mixed", "nested", "nil"]);
  });

  it("has no metadata for a non-object or an empty one", () => {
    expect(cleanMetadata(null)).toEqual({ metadata: undefined, dropped: [] });
    expect(cleanMetadata("text")).toEqual({ metadata: undefined, dropped: [] });
    expect(cleanMetadata([1])).toEqual({ metadata: undefined, dropped: [] });
    expect(cleanMetadata({})).toEqual({ metadata: undefined, dropped: [] });
  });
});

describe("migrate mapping: documents", () => {
  it("sends content, customId, container tag, metadata and filepath", () => {
    const plan = planDocument(doc({ customId: "note-1", filepath: "notes/a.md" }), new Set());
    expect(plan).toMatchObject({
      kind: "send",
      doc: { content: "Ada lives in Vesthavn.", customId: "note-1", containerTag: "proj_a", metadata: { n: 1 }, filepath: "notes/a.md", taskType: "superrag" },
    });
  });

  it("forms memories on the target exactly for documents that formed some on the source, unless the source names a taskType", () => {
    const d = doc();
    expect(targetTaskType(d, new Set([d.id]))).toBe("memory");
    expect(targetTaskType(d, new Set())).toBe("superrag");
    expect(targetTaskType({ ...d, taskType: "memory" }, new Set())).toBe("memory");
    expect(targetTaskType({ ...d, taskType: "superrag" }, new Set([d.id]))).toBe("superrag");
    expect(targetTaskType({ ...d, taskType: "other" }, new Set([d.id]))).toBe("memory");
  });

  it("leaves a document still processing on the source for a later run", () => {
    for (const status of ["queued", "extracting", "chunking", "embedding", "indexing", "unknown"])
      expect(planDocument(doc({ status }), new Set())).toEqual({ kind: "pending", status });
  });

  it("takes a failed document too (the target processes it again)", () => {
    expect(planDocument(doc({ status: "failed" }), new Set()).kind).toBe("send");
  });

  it("sends the URL of a document the source holds only as a link, and fails one with neither", () => {
    const plan = planDocument(doc({ content: "", url: "https://example.com/a" }), new Set());
    expect(plan).toMatchObject({ kind: "send", doc: { content: "https://example.com/a" } });
    expect(planDocument(doc({ content: null, url: "ftp://x" }), new Set())).toMatchObject({ kind: "failed" });
    expect(planDocument(doc({ content: "   ", url: null }), new Set())).toMatchObject({ kind: "failed" });
  });

  it("asks for a document read alone when the listing left its content out", () => {
    expect(planDocument(doc({ content: undefined, contentOmitted: true }), new Set())).toEqual({ kind: "read" });
  });

  it("carries several container tags, drops tags the target refuses, and keeps a refused customId in the metadata", () => {
    const plan = planDocument(doc({ containerTags: ["a", "b", "bad tag"], customId: "x".repeat(120) }), new Set());
    if (plan.kind !== "send") throw new Error(plan.kind);
    expect(plan.doc.containerTags).toEqual(["a", "b"]);
    expect(plan.doc.containerTag).toBeUndefined();
    expect(plan.doc.metadata).toEqual({ n: 1, sourceCustomId: "x".repeat(120) });
    expect(plan.doc.customId).toMatch(/^migrated:/);
    expect(planDocument(doc({ containerTags: ["bad tag"] }), new Set())).toMatchObject({ kind: "failed" });
    expect(planDocument(doc({ containerTags: [] }), new Set())).toMatchObject({ kind: "send", doc: { content: "Ada lives in Vesthavn." } });
  });

  it("gives the same hash for the same document and another when anything sent changes", () => {
    const a = planDocument(doc(), new Set());
    const b = planDocument(doc(), new Set());
    const c = planDocument(doc({ metadata: { n: 2 } }), new Set());
    const d = planDocument(doc(), new Set([doc().id]));
    if (a.kind !== "send" || b.kind !== "send" || c.kind !== "send" || d.kind !== "send") throw new Error("not sent");
    expect(a.hash).toBe(b.hash);
    expect(c.hash).not.toBe(a.hash);
    expect(d.hash).not.toBe(a.hash);
  });
});

describe("migrate mapping: memories", () => {
  const now = new Date("2030-01-01T00:00:00Z");
  const mem = { id: "m_1", memory: "Ada prefers tea", isStatic: true, metadata: { source: "chat", deep: { x: 1 } }, documentIds: [] as string[] };

  it("copies a direct memory with its fields (metadata the target takes)", () => {
    const plan = planMemory(
      { ...mem, forgetAfter: "2031-01-01T00:00:00Z", forgetReason: "later", temporalContext: { documentDate: "2029-05-01", eventDate: ["2029-06-01", 3] } },
      "t",
      new Set(),
      now,
    );
    expect(plan).toMatchObject({
      kind: "send",
      containerTag: "t",
      memory: {
        content: "Ada prefers tea",
        isStatic: true,
        metadata: { source: "chat" },
        forgetAfter: "2031-01-01T00:00:00.000Z",
        forgetReason: "later",
        temporalContext: { documentDate: "2029-05-01", eventDate: ["2029-06-01"] },
      },
      droppedMetadata: ["deep"],
    });
  });

  it("leaves memories of a migrated document to the target's own formation", () => {
    expect(planMemory({ ...mem, documentIds: ["d1"] }, "t", new Set(["d1"]), now)).toEqual({ kind: "from-document" });
  });

  it("copies a memory whose source documents are gone as a direct memory", () => {
    expect(planMemory({ ...mem, documentIds: ["gone"] }, "t", new Set(["d1"]), now).kind).toBe("send");
  });

  it("skips forgotten and expired memories; a reason without an expiry is not sent", () => {
    expect(planMemory({ ...mem, isForgotten: true }, "t", new Set(), now)).toMatchObject({ kind: "skip" });
    expect(planMemory({ ...mem, forgetAfter: "2020-01-01T00:00:00Z" }, "t", new Set(), now)).toMatchObject({ kind: "skip" });
    const plan = planMemory({ ...mem, forgetReason: "why" }, "t", new Set(), now);
    if (plan.kind !== "send") throw new Error(plan.kind);
    expect(plan.memory).not.toHaveProperty("forgetReason");
  });

  it("collects the documents memories were formed from", () => {
    expect([
      ...formedFrom([
        { ...mem, documentIds: ["a", "b"] },
        { ...mem, documentIds: null },
        { ...mem, documentIds: ["a"] },
      ]),
    ]).toEqual(["a", "b"]);
  });
});

describe("migrate mapping: batches and rate", () => {
  const item = (taskType: "memory" | "superrag", content = "x", containerTags?: string[]) => ({
    doc: { content, customId: "c", taskType, ...(containerTags ? { containerTags } : {}) },
  });

  it("groups by taskType and several-tag sets, at most `size` documents each", () => {
    const items = [item("superrag"), item("memory"), item("superrag"), item("superrag"), item("superrag", "x", ["a", "b"])];
    const batches = batchesOf(items, 2, 1_000_000);
    expect(batches.map((b) => b.map((i) => `${i.doc.taskType}${i.doc.containerTags ? "+" : ""}`))).toEqual([
      ["superrag", "superrag"],
      ["superrag"],
      ["memory"],
      ["superrag+"],
    ]);
    expect(batches.flat()).toHaveLength(items.length);
  });

  it("closes a batch at the byte budget; a larger document goes alone", () => {
    const batches = batchesOf(
      [item("superrag", "a".repeat(60)), item("superrag", "b".repeat(60)), item("superrag", "c".repeat(500)), item("superrag", "d")],
      10,
      100,
    );
    expect(batches.map((b) => b.length)).toEqual([1, 1, 1, 1]);
  });

  it("gives documents per second", () => {
    expect(ratePerSecond(100, 4000)).toBe(25);
    expect(ratePerSecond(5, 0)).toBe(0);
  });
});

describe("engram migrate: command line", () => {
  const dir = tempDir();
  const io = (env: NodeJS.ProcessEnv = {}) => captureIo({ ENGRAM_CONFIG: path.join(dir(), "config.json"), ...env }, dir());
  const base = ["--url", "http://127.0.0.1:9", "--api-key", "k"];

  it("answers usage errors with exit code 2 before any request", async () => {
    const cases: string[][] = [
      ["migrate"],
      ["migrate", "--from-url", "http://127.0.0.1:1"],
      ["migrate", "--from-url", "ftp://x", "--from-key", "s"],
      ["migrate", "--from-url", "http://127.0.0.1:1", "--from-key", "s", "--concurrency", "0"],
      ["migrate", "--from-url", "http://127.0.0.1:1", "--from-key", "s", "--batch-size", "601"],
      ["migrate", "--from-url", "http://127.0.0.1:1", "--from-key", "s", "--retries", "-1"],
      ["migrate", "--from-url", "http://127.0.0.1:1", "--from-key", "s", "--container-tag", "bad tag"],
      ["migrate", "--from-url", "http://127.0.0.1:9", "--from-key", "k"],
    ];
    for (const argv of cases) {
      const c = io();
      expect([argv.join(" "), await runCli([...base, ...argv], c)]).toEqual([argv.join(" "), ExitCode.Usage]);
    }
  });

  it("takes the source key from ENGRAM_MIGRATE_FROM_KEY, and ends with exit code 4 when the source is unreachable", async () => {
    const c = io({ ENGRAM_MIGRATE_FROM_KEY: "s" });
    expect(await runCli([...base, "--json", "migrate", "--from-url", "http://127.0.0.1:1", "--retries", "0", "--state", "s.json"], c)).toBe(
      ExitCode.Unreachable,
    );
    const summary = JSON.parse(c.out());
    expect(summary.error).toMatch(/unreachable/);
    expect(summary.documents).toEqual({ listed: 0, added: 0, unchanged: 0, pending: 0, failed: 0 });
  });
});
