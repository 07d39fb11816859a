import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HashingEmbedder, type Embedder, SqliteChunkIndex } from "@engram/index";
import type { Clock } from "@engram/kernel";
import { metrics, rootLogger } from "@engram/observability";
import type { DocumentSource, DocumentSourceReader, ExtractedText, Extractor, PipelineEvents, StateChange } from "../../src/app/ports";
import { extractDocument } from "../../src/adapters/extract";
import { fixMojibake, tidy } from "../../src/adapters/extract/normalize";
import { ProcessDocumentUseCase, type ProcessCommand, SEQUENCE } from "../../src/app/process-document.usecase";
import { UnprocessableDocumentError } from "../../src/domain/errors";
import { prepareDocument } from "../../src/domain/prepare";

/** The preparer as the pool runs it, on this thread; `hashingDimensions` makes it embed like the worker does. */
function inlinePreparer(hashingDimensions?: number) {
  return {
    calls: 0,
    failWith: undefined as Error | undefined,
    async prepare(text: string, chunking: { maxTokens: number; overlapTokens: number }, content?: string) {
      this.calls++;
      if (this.failWith) throw this.failWith;
      return prepareDocument({ text, chunking, ...(content !== undefined ? { content } : {}), ...(hashingDimensions ? { hashingDimensions } : {}) });
    },
  };
}

/** The worker's extraction, on this thread: text content is sniffed like a file (SourceExtractor), files are read from their bytes. */
class InlineExtractor implements Extractor {
  async extract(source: DocumentSource): Promise<ExtractedText> {
    return extractDocument({ bytes: source.bytes ?? new TextEncoder().encode(source.text ?? ""), fileName: source.fileName });
  }
}

/** Extractor double: text passes through; URL sources are refused like an unreachable page. */
class FakeExtractor implements Extractor {
  async extract(source: DocumentSource): Promise<ExtractedText> {
    if (source.kind === "url") throw new UnprocessableDocumentError(`the URL could not be used: ${source.url} was refused`);
    const text = source.text ?? "";
    const first = text
      .split("\n")
      .find((l) => l.trim())
      ?.trim();
    const markdown = first?.startsWith("#") ?? false;
    return { text, title: first?.replace(/^#+\s*/, ""), contentType: markdown ? "markdown" : "text" };
  }
}

const logger = rootLogger({ level: "silent" });
const clock: Clock = { now: () => new Date("2024-06-01T12:00:00.000Z") };

type IndexedInfo = NonNullable<Parameters<PipelineEvents["stateChanged"]>[1]>;

class RecordingEvents implements PipelineEvents {
  readonly states: StateChange[] = [];
  readonly indexedCalls: IndexedInfo[] = [];
  readonly order: string[] = [];
  async stateChanged(change: StateChange, indexed?: IndexedInfo): Promise<void> {
    this.states.push(change);
    this.order.push(change.status);
    if (indexed) {
      this.indexedCalls.push(indexed);
      this.order.push("indexed");
    }
  }
}

class MapSources implements DocumentSourceReader {
  readonly sources = new Map<string, DocumentSource>();
  reads = 0;
  failWith: Error | undefined;
  async read(tenantId: string, namespace: string, documentId: string, generation: number): Promise<DocumentSource | undefined> {
    this.reads++;
    if (this.failWith) throw this.failWith;
    const s = this.sources.get(`${tenantId}/${namespace}/${documentId}`);
    return s && { ...s, current: s.generation === generation };
  }
  put(s: Omit<DocumentSource, "current">): void {
    this.sources.set(`${s.tenantId}/${s.namespace}/${s.documentId}`, { ...s, current: true });
  }
}

/** The real embedder, recording each batch size. */
class CountingEmbedder implements Embedder {
  private readonly inner = new HashingEmbedder(64);
  readonly id = this.inner.id;
  readonly dimensions = this.inner.dimensions;
  readonly semantic = this.inner.semantic;
  readonly batches: number[] = [];
  readonly kinds: string[] = [];
  async embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]> {
    this.batches.push(texts.length);
    this.kinds.push(kind);
    return this.inner.embed(texts);
  }
}

const ARTICLE = [
  "# Release notes",
  "",
  "Engram now ships an embedded event bus that stores every message durably in SQLite.",
  "",
  "The pipeline worker extracts text, splits it into chunks, embeds each chunk and indexes it for recall.",
  "",
  "## Upgrading",
  "",
  "Stop the old process, replace the binary and start it again; queued documents resume where they stopped.",
  "",
  "Search quality improved for short questions about rate limits and promotions.",
].join("\n");

describe("ProcessDocumentUseCase", () => {
  let dir: string;
  let index: SqliteChunkIndex;
  let sources: MapSources;
  let events: RecordingEvents;
  let embedder: CountingEmbedder;
  let preparer: ReturnType<typeof inlinePreparer>;
  let useCase: ProcessDocumentUseCase;

  const cmd = (over: Partial<ProcessCommand> = {}): ProcessCommand => ({
    tenantId: "acme",
    namespace: "user_1",
    documentId: "d_doc1",
    generation: 2,
    taskType: "memory",
    dreaming: "dynamic",
    lastAttempt: false,
    ...over,
  });

  const source = (over: Partial<DocumentSource> = {}): Omit<DocumentSource, "current"> => ({
    tenantId: "acme",
    namespace: "user_1",
    documentId: "d_doc1",
    generation: 2,
    kind: "text",
    text: ARTICLE,
    customId: "notes-1",
    metadata: { team: "core", version: 3 },
    createdAt: "2024-05-01T00:00:00.000Z",
    updatedAt: "2024-05-02T00:00:00.000Z",
    ...over,
  });

  /** The use case over this test's fakes, with the given extractor (chunks of at most 32 tokens). */
  const useCaseWith = (extractor: ConstructorParameters<typeof ProcessDocumentUseCase>[0]["extractor"], embedBatchSize: number) =>
    new ProcessDocumentUseCase({
      sources,
      extractor,
      preparer,
      embedder,
      index,
      events,
      clock,
      chunking: { maxTokens: 32, overlapTokens: 4 },
      embedBatchSize,
      logger,
    });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-worker-"));
    index = new SqliteChunkIndex(dir);
    sources = new MapSources();
    events = new RecordingEvents();
    embedder = new CountingEmbedder();
    preparer = inlinePreparer();
    useCase = useCaseWith(new FakeExtractor(), 2);
  });

  afterEach(async () => {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("superrag: publishes extracting -> chunking -> embedding -> indexing -> done with sequences 1..5, then indexed", async () => {
    sources.put(source());
    await useCase.execute(cmd({ taskType: "superrag" }));

    expect(events.order).toEqual(["extracting", "chunking", "embedding", "indexing", "done", "indexed"]);
    expect(events.states.map((s) => s.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.indexedCalls[0]!.taskType).toBe("superrag");
  });

  describe("stopped by the shutdown (the event's signal aborts)", () => {
    /** An extraction that runs until the signal aborts it, as the pool's terminated thread does. */
    class StoppableExtractor implements Extractor {
      started = false;
      extract(_source: DocumentSource, signal?: AbortSignal): Promise<ExtractedText> {
        this.started = true;
        return new Promise((_, reject) => signal!.addEventListener("abort", () => reject(signal!.reason), { once: true }));
      }
    }

    it("mid-extraction, even on the last attempt: throws (the event is delivered again), reports no failure and writes nothing", async () => {
      sources.put(source());
      const extractor = new StoppableExtractor();
      const stop = new AbortController();
      const running = useCaseWith(extractor, 2).execute(cmd({ lastAttempt: true, signal: stop.signal }));
      while (!extractor.started) await new Promise((r) => setImmediate(r));
      const reason = new Error("the process is stopping");
      stop.abort(reason);
      await expect(running).rejects.toBe(reason);
      expect(events.order).toEqual(["extracting"]);
      expect(await index.listDocumentChunks("acme", "user_1", "d_doc1")).toEqual([]);
    });

    it("after extraction, before the chunks are written: nothing is indexed; the redelivered event then completes the document", async () => {
      sources.put(source());
      const stop = new AbortController();
      // The signal aborts while the text is chunked: the next step does not start.
      preparer.prepare = async function (text, chunking, content) {
        stop.abort(new Error("the process is stopping"));
        return prepareDocument({ text, chunking, ...(content !== undefined ? { content } : {}) });
      };
      await expect(useCase.execute(cmd({ lastAttempt: true, signal: stop.signal }))).rejects.toThrow("the process is stopping");
      expect(events.order).not.toContain("failed");
      expect(await index.listDocumentChunks("acme", "user_1", "d_doc1")).toEqual([]);

      preparer.prepare = inlinePreparer().prepare;
      await useCase.execute(cmd({ taskType: "superrag", signal: new AbortController().signal }));
      expect(events.order.slice(-2)).toEqual(["done", "indexed"]);
      expect((await index.listDocumentChunks("acme", "user_1", "d_doc1")).length).toBeGreaterThan(0);
    });
  });

  it("times every stage in engram_pipeline_stage_duration_seconds", async () => {
    const counts = async () => {
      const text = await metrics.exposition();
      return Object.fromEntries(
        ["extract", "chunk", "embed", "index"].map((stage) => [
          stage,
          Number(new RegExp(`^engram_pipeline_stage_duration_seconds_count\\{stage="${stage}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0),
        ]),
      );
    };
    const before = await counts();
    sources.put(source());
    await useCase.execute(cmd({ taskType: "superrag" }));
    const after = await counts();
    expect(Object.fromEntries(Object.entries(after).map(([stage, n]) => [stage, n - before[stage]!]))).toEqual({ extract: 1, chunk: 1, embed: 1, index: 1 });
  });

  it("memory: stops at indexing (sequence 4) with DocumentIndexed; the memories service reports done after formation", async () => {
    sources.put(source());
    await useCase.execute(cmd());
    expect(events.order).toEqual(["extracting", "chunking", "embedding", "indexing", "indexed"]);
    expect(events.states.map((s) => s.sequence)).toEqual([1, 2, 3, 4]);
    expect(events.states.at(-1)).toMatchObject({ status: "indexing", title: "Release notes", contentType: "markdown" });
    expect(SEQUENCE.done).toBe(5);
    for (const s of events.states) {
      expect(s).toMatchObject({ tenantId: "acme", namespace: "user_1", documentId: "d_doc1", generation: 2 });
      expect(s.reason).toBeUndefined();
    }
    // Title and content type are known from chunking on.
    expect(events.states[0]!.title).toBeUndefined();
    for (const s of events.states.slice(1)) expect(s).toMatchObject({ title: "Release notes", contentType: "markdown" });

    const chunks = await index.listDocumentChunks("acme", "user_1", "d_doc1");
    expect(chunks.length).toBeGreaterThan(1);
    expect(events.indexedCalls).toEqual([
      {
        tenantId: "acme",
        namespace: "user_1",
        documentId: "d_doc1",
        generation: 2,
        chunkCount: chunks.length,
        title: "Release notes",
        contentType: "markdown",
        customId: "notes-1",
        taskType: "memory",
        dreaming: "dynamic",
      },
    ]);
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
    for (const c of chunks) {
      expect(ARTICLE.slice(c.startOffset, c.endOffset).trim()).toBe(c.content);
      expect(c.id).toMatch(/^c_[0-9A-Za-z]{20}$/);
      expect(c.createdAt).toBe("2024-06-01T12:00:00.000Z");
      expect(c.document).toEqual({
        title: "Release notes",
        contentType: "markdown",
        customId: "notes-1",
        metadata: { team: "core", version: 3 },
        createdAt: "2024-05-01T00:00:00.000Z",
        updatedAt: "2024-05-02T00:00:00.000Z",
      });
    }
    // Embedded in batches of embedBatchSize.
    expect(embedder.batches.reduce((a, b) => a + b, 0)).toBe(chunks.length);
    expect(Math.max(...embedder.batches)).toBeLessThanOrEqual(2);
    expect(new Set(embedder.kinds)).toEqual(new Set(["document"]));

    const q = "how do I upgrade and resume queued documents?";
    const hits = await index.search({ tenantId: "acme", namespaces: ["user_1"], text: q, vector: new HashingEmbedder(64).embedOne(q), limit: 5 });
    expect(hits[0]!.chunk.content).toContain("queued documents resume");
  });

  it("is idempotent: a redelivery replaces the document's chunks", async () => {
    sources.put(source());
    await useCase.execute(cmd());
    const first = await index.listDocumentChunks("acme", "user_1", "d_doc1");
    await useCase.execute(cmd());
    const second = await index.listDocumentChunks("acme", "user_1", "d_doc1");
    expect(second.map((c) => c.content)).toEqual(first.map((c) => c.content));
    expect(events.indexedCalls).toHaveLength(2);
  });

  it("fails a URL source with a reason and indexes nothing", async () => {
    sources.put(source({ kind: "url", text: undefined, url: "https://example.com/page" }));
    await expect(useCase.execute(cmd())).resolves.toBeUndefined();
    expect(events.order).toEqual(["extracting", "failed"]);
    const failed = events.states.at(-1)!;
    expect(failed).toMatchObject({ status: "failed", sequence: 5, generation: 2, documentId: "d_doc1" });
    expect(failed.reason).toMatch(/URL/);
    expect(events.indexedCalls).toEqual([]);
    expect(await index.listDocumentChunks("acme", "user_1", "d_doc1")).toEqual([]);
  });

  it("fails a document without extractable text", async () => {
    sources.put(source({ text: " \n\n  " }));
    await useCase.execute(cmd());
    expect(events.order).toEqual(["extracting", "failed"]);
    expect(events.states.at(-1)!.reason).toMatch(/no text/);
  });

  it("rethrows a source read error for the bus to retry when it is not the last attempt", async () => {
    sources.put(source());
    sources.failWith = new Error("ingestion unreachable");
    await expect(useCase.execute(cmd({ lastAttempt: false }))).rejects.toThrow("ingestion unreachable");
    expect(events.states).toEqual([]);
    expect(events.indexedCalls).toEqual([]);
  });

  it("publishes failed with the error on the last attempt", async () => {
    sources.put(source());
    sources.failWith = new Error("ingestion unreachable");
    await expect(useCase.execute(cmd({ lastAttempt: true }))).resolves.toBeUndefined();
    expect(events.states).toHaveLength(1);
    expect(events.states[0]).toMatchObject({ tenantId: "acme", namespace: "user_1", documentId: "d_doc1", generation: 2, status: "failed", sequence: 5 });
    expect(events.states[0]!.reason).toContain("ingestion unreachable");
    expect(events.indexedCalls).toEqual([]);
  });

  it("does nothing for a stale generation", async () => {
    // The index holds the current generation's chunks; an old event must not touch them.
    sources.put(source({ generation: 3, text: "Current generation text about zebras." }));
    await useCase.execute(cmd({ generation: 3 }));
    const before = await index.listDocumentChunks("acme", "user_1", "d_doc1");
    events.states.length = 0;
    events.indexedCalls.length = 0;
    events.order.length = 0;
    embedder.batches.length = 0;

    await useCase.execute(cmd({ generation: 2, lastAttempt: true }));
    expect(sources.reads).toBe(2);
    expect(events.order).toEqual([]);
    expect(embedder.batches).toEqual([]);
    expect(await index.listDocumentChunks("acme", "user_1", "d_doc1")).toEqual(before);
  });

  it("an evicted worker whose generation was overtaken while it worked writes nothing and reports nothing", async () => {
    // Generation 2 passes the `current` check; while it extracts, another worker indexes generation 3.
    sources.put(source({ text: "Old generation text about walruses." }));
    const late = useCaseWith(
      {
        extract: async (s: DocumentSource) => {
          const other = useCaseWith(new FakeExtractor(), 2);
          sources.put(source({ generation: 3, text: "New generation text about zebras." }));
          await other.execute(cmd({ generation: 3 }));
          return new FakeExtractor().extract(s);
        },
      },
      2,
    );
    await late.execute(cmd({ generation: 2 }));
    expect((await index.listDocumentChunks("acme", "user_1", "d_doc1")).map((c) => c.content)).toEqual(["New generation text about zebras."]);
    // Generation 3 reported its states; generation 2 (whose progress states ingestion ignores) no indexing, done or DocumentIndexed.
    expect(events.indexedCalls.map((c) => c.generation)).toEqual([3]);
    const lateStates = events.states.filter((s) => s.generation === 2).map((s) => s.status);
    expect(lateStates).toContain("extracting");
    expect(lateStates).not.toContain("indexing");
    expect(lateStates).not.toContain("done");
  });

  it("uses the vectors a local preparer made and calls the embedder for none", async () => {
    sources.put(source());
    const local = new ProcessDocumentUseCase({
      sources,
      extractor: new FakeExtractor(),
      preparer: inlinePreparer(64),
      embedder,
      index,
      events,
      clock,
      chunking: { maxTokens: 32, overlapTokens: 4 },
      embedBatchSize: 2,
      logger,
    });
    await local.execute(cmd({ taskType: "superrag" }));
    expect(events.order.at(-2)).toBe("done");
    expect(embedder.batches).toEqual([]);
    const q = "how do I upgrade and resume queued documents?";
    const hits = await index.search({ tenantId: "acme", namespaces: ["user_1"], text: q, vector: new HashingEmbedder(64).embedOne(q), limit: 5 });
    expect(hits[0]!.chunk.content).toContain("queued documents resume");
  });

  it("fails the document with the preparer's reason when its budget runs out, without retrying", async () => {
    sources.put(source());
    preparer.failWith = new UnprocessableDocumentError("indexing took longer than 120 s and was stopped; split the document into smaller ones");
    await expect(useCase.execute(cmd({ lastAttempt: false }))).resolves.toBeUndefined();
    expect(events.order).toEqual(["extracting", "chunking", "failed"]);
    expect(events.states.at(-1)!.reason).toMatch(/^indexing took longer than 120 s/);
    expect(events.indexedCalls).toEqual([]);
  });

  it("does nothing when the document was deleted meanwhile", async () => {
    await useCase.execute(cmd({ lastAttempt: true }));
    expect(sources.reads).toBe(1);
    expect(events.order).toEqual([]);
  });

  describe("chunk offsets, with the real extraction", () => {
    const withExtraction = () => useCaseWith(new InlineExtractor(), 8);

    it("index a text document's content even where extraction removed trailing spaces, tabs and CRs", async () => {
      // The reported case: CHUNK_MAX_TOKENS=32, a superrag document whose lines end with a space.
      const content = Array.from(
        { length: 24 },
        (_, i) => `Line ${i} of the notes says caf\u00e9 \u{1F600} and e\u0301 ${["", "\t", " \t"][i % 3]} ${i % 5 ? "\n" : "\r\n\r\n\r\n"}`,
      ).join("");
      sources.put(source({ text: content }));
      await withExtraction().execute(cmd({ taskType: "superrag" }));
      expect(events.order.at(-2)).toBe("done");
      expect(events.states.at(-1)!.contentType).toBe("text");
      const chunks = await index.listDocumentChunks("acme", "user_1", "d_doc1");
      expect(chunks.length).toBeGreaterThan(4);
      for (const c of chunks) {
        const span = content.slice(c.startOffset, c.endOffset);
        // The span is the chunk's source; the chunk's text is that span normalised as extraction does.
        expect(tidy(fixMojibake(span))).toBe(c.content);
        expect(span.trim()).toBe(span);
      }
      // Trailing whitespace inside the spans: they are not the normalised text itself.
      expect(chunks.some((c) => content.slice(c.startOffset, c.endOffset) !== c.content)).toBe(true);
    });

    it("index the extracted text of a file document, which has no text content", async () => {
      const text = Array.from({ length: 24 }, (_, i) => `Row ${i} of the export ends with spaces   `).join("\r\n");
      sources.put(source({ kind: "file", text: undefined, bytes: new TextEncoder().encode(text), fileName: "export.txt" }));
      await withExtraction().execute(cmd({ taskType: "superrag" }));
      const extracted = (await extractDocument({ bytes: new TextEncoder().encode(text), fileName: "export.txt" })).text;
      const chunks = await index.listDocumentChunks("acme", "user_1", "d_doc1");
      expect(chunks.length).toBeGreaterThan(4);
      for (const c of chunks) expect(extracted.slice(c.startOffset, c.endOffset)).toBe(c.content);
    });
  });
});
