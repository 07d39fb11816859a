import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rootLogger } from "@engram/observability";
import { HashingEmbedder, SearchEngine } from "@engram/index";
import type { Clock } from "@engram/kernel";
import type { BucketClassifier, ExtractedFact, ExtractionInput, FactExtractor, MemoryRelator, RelationCandidate, RelationDecision } from "@engram/nlp";
import { SqliteMemoryStore } from "../../src/adapters/embedded/memory.sqlite";
import { FormMemoriesUseCase } from "../../src/app/form-memories.usecase";
import { KeyedMutex } from "../../src/app/keyed-mutex";
import { MemoryWriter } from "../../src/app/memory-writer";
import type { BucketSource, DocumentRef, FormationContextSource, FormationEvents, SourceDocument, SourceDocumentReader } from "../../src/app/ports";

export const logger = rootLogger({ level: "silent" });

export class TestClock implements Clock {
  constructor(public t = Date.parse("2026-11-20T10:00:00.000Z")) {}
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "engram-memories-"));
}

/** Every memory of one namespace, every version, oldest first (a page of up to 100). */
export async function allVersions(store: SqliteMemoryStore, tenantId: string, namespace: string, clock: Clock) {
  const page = await store.list({
    tenantId,
    namespaces: [namespace],
    sort: "createdAt",
    order: "asc",
    offset: 0,
    limit: 100,
    now: clock.now().toISOString(),
    allVersions: true,
  });
  return page.items;
}

export function openStore(dir: string): SqliteMemoryStore {
  return new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false });
}

/** One fact per non-empty line of the chunks; "static:" marks a static fact, "infer:" an inference. */
export class LineExtractor implements FactExtractor {
  readonly id = "test-lines";
  inputs: ExtractionInput[] = [];
  async extract(input: ExtractionInput): Promise<ExtractedFact[]> {
    this.inputs.push(input);
    return input.chunks.flatMap((c) =>
      c.content
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .map((line) => {
          const isStatic = line.startsWith("static:");
          const isInference = line.startsWith("infer:");
          const content = line.replace(/^(static|infer):\s*/, "");
          return { content, isStatic, isInference, eventDates: [], chunkPositions: [c.position] };
        }),
    );
  }
}

/** Decides by a rule over the fact and the best candidate. */
export class RuleRelator implements MemoryRelator {
  readonly id = "test-rules";
  seen: RelationCandidate[][] = [];
  constructor(private readonly rule: (fact: ExtractedFact, best: RelationCandidate | undefined) => RelationDecision) {}
  async relate(fact: ExtractedFact, candidates: RelationCandidate[]): Promise<RelationDecision> {
    this.seen.push(candidates);
    return this.rule(fact, candidates[0]);
  }
}

export class NoBuckets implements BucketSource, FormationContextSource {
  defs: { key: string; description: string }[] = [];
  /** The container tag's formation settings (none by default). */
  tag: { entityContext?: string; memoryFilesystemPaths?: string[] } = {};
  async buckets() {
    return this.defs;
  }
  async formationContext() {
    return this.tag;
  }
  close(): void {}
}

export class WordClassifier implements BucketClassifier {
  readonly id = "test-words";
  async classify(texts: string[], buckets: { key: string; description: string }[]): Promise<string[][]> {
    return texts.map((t) => buckets.filter((b) => t.toLowerCase().includes(b.key)).map((b) => b.key));
  }
}

export class MapReader implements SourceDocumentReader {
  docs = new Map<string, SourceDocument>();
  fail: Error | undefined;
  async read(_tenantId: string, _namespace: string, documentId: string): Promise<SourceDocument | undefined> {
    if (this.fail) throw this.fail;
    return this.docs.get(documentId);
  }
  close(): void {}
}

export class Events implements FormationEvents {
  readonly dones: DocumentRef[] = [];
  readonly failures: { ref: DocumentRef; reason: string }[] = [];
  async done(ref: DocumentRef): Promise<void> {
    this.dones.push(ref);
  }
  async failed(ref: DocumentRef, reason: string): Promise<void> {
    this.failures.push({ ref, reason });
  }
}

export function writerFor(store: SqliteMemoryStore): MemoryWriter {
  return new MemoryWriter(store, new HashingEmbedder(64));
}

export const mutex = () => new KeyedMutex();

/** Memory formation over `store`: the tests' writer, no buckets, a lock of its own and the silent logger; the rest from the test. */
export function formationOver(
  store: SqliteMemoryStore,
  deps: Pick<ConstructorParameters<typeof FormMemoriesUseCase>[0], "reader" | "extractor" | "relator" | "events" | "clock"> & { tags?: FormationContextSource },
): FormMemoriesUseCase {
  const buckets = new NoBuckets();
  return new FormMemoriesUseCase({ repo: store, writer: writerFor(store), buckets, tags: buckets, lock: mutex(), logger, ...deps });
}
