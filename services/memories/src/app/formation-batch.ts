import { calibrate, similarityTerms, termCoverage } from "@engram/index";
import { isActiveMemory } from "@engram/memory-model";
import type { Dreaming } from "@engram/kernel";
import type { ExtractedFact, MemoryRelator, RelationCandidate, RelationDecision } from "@engram/nlp";
import { addSources, contentKey, createMemory, type MemoryRecord, nextVersion } from "../domain/memory";
import type { MemoryRepository, MemoryWrite, NamespaceChanges, SourceDocument } from "./ports";

/**
 * Batched memory formation (dreaming=dynamic): what one document's formation
 * read of its namespace, and the plan of its one write. The reads run outside
 * the namespace lock; the plan is decided fact by fact in the document's order
 * over the reading plus what the earlier facts of the same plan did, so a
 * later fact relates to an earlier one of the same document (a correction
 * updates it, a repetition is a duplicate within the document) as it did when
 * each fact was written before the next was decided.
 */

/** Candidates the relator sees per fact. */
export const CANDIDATES = 5;
/** Hits read per fact: room for candidates the plan itself retires (a memory an earlier fact updated is no longer one). */
const HITS_READ = 2 * CANDIDATES;

/** What a document's formation read of its namespace, at one namespace version. */
export interface NamespaceReading {
  version: number;
  /** Content keys of the latest memories this document already produced (an earlier generation): not written again. */
  seen: Set<string>;
  /** Ids of the namespace's memories with each fact's content key, by key. */
  sameContent: Map<string, string[]>;
  /** Each fact's search hits (ids and similarity, best first), by fact index; read on first need. */
  hits: Map<number, { id: string; similarity: number }[]>;
  /** Every memory read, as stored (changes merged since replace it), by id. */
  stored: Map<string, MemoryRecord>;
  /** Memories others wrote after the first read that no search returned: candidates scored like the document's own. */
  arrived: Set<string>;
}

export interface FormationScope {
  tenantId: string;
  namespace: string;
  documentId: string;
  dreaming: Dreaming;
  now: string;
}

/** Reads the namespace for a document's facts: its version first, so every later change is counted after it. */
export async function readNamespace(repo: MemoryRepository, s: FormationScope, facts: readonly ExtractedFact[]): Promise<NamespaceReading> {
  const version = await repo.namespaceVersion(s.tenantId, s.namespace);
  const reading: NamespaceReading = { version, seen: new Set(), sameContent: new Map(), hits: new Map(), stored: new Map(), arrived: new Set() };
  for (const m of await repo.findByDocument(s.tenantId, s.documentId)) if (m.isLatest) reading.seen.add(contentKey(m.content));
  if (s.dreaming === "instant") return reading;
  // The first fact of each content not formed before: later ones of the same content are duplicates within the document.
  const first = new Map<string, number>();
  facts.forEach((f, i) => {
    const key = contentKey(f.content);
    if (!reading.seen.has(key) && !first.has(key)) first.set(key, i);
  });
  const same = await Promise.all([...first.keys()].map(async (key) => [key, await repo.findByContentKey(s.tenantId, s.namespace, key)] as const));
  for (const [key, ms] of same) {
    reading.sameContent.set(
      key,
      ms.map((m) => m.id),
    );
    for (const m of ms) reading.stored.set(m.id, m);
  }
  // Facts whose content is remembered already only add a source: no search. The rest search in one pass.
  const searched = [...first].filter(([key]) => !same.find(([k]) => k === key)![1].some((m) => isActiveMemory(m, s.now))).map(([, i]) => i);
  await Promise.all(searched.map((i) => searchFact(repo, s, reading, facts[i]!, i)));
  return reading;
}

async function searchFact(repo: MemoryRepository, s: FormationScope, r: NamespaceReading, fact: ExtractedFact, i: number) {
  let hits = r.hits.get(i);
  if (hits) return hits;
  const found = await repo.search({ tenantId: s.tenantId, namespaces: [s.namespace], text: fact.content, limit: HITS_READ, now: s.now });
  hits = found.map((h) => {
    // A memory read earlier (or merged from changes since) keeps that state: it is the newer one.
    if (!r.stored.has(h.memory.id)) r.stored.set(h.memory.id, h.memory);
    return { id: h.memory.id, similarity: h.similarity };
  });
  r.hits.set(i, hits);
  return hits;
}

/** Folds what was written in the namespace after the reading into it (MemoryRepository.changesSince). */
export function mergeChanges(r: NamespaceReading, changes: NamespaceChanges, documentId: string): void {
  r.version = changes.version;
  for (const m of changes.changed) {
    const known = r.stored.has(m.id);
    r.stored.set(m.id, m);
    const key = contentKey(m.content);
    const same = r.sameContent.get(key);
    if (same && !same.includes(m.id)) same.push(m.id);
    if (m.isLatest && m.sources.some((x) => x.documentId === documentId)) r.seen.add(key);
    if (!known) r.arrived.add(m.id);
  }
}

/** The one write of a document's memories, and what each fact did (for metrics). */
export interface FormationPlan {
  /** Memories not stored yet (they take the facts' vectors). */
  fresh: MemoryRecord[];
  /** Stored memories changed (a source added, or no longer the latest version), each expected at the version read. */
  changed: MemoryRecord[];
  expect: NonNullable<MemoryWrite["expect"]>;
  expectNoDuplicate: NonNullable<MemoryWrite["expectNoDuplicate"]>;
  outcomes: string[];
}

/**
 * A candidate the search did not rank (one this plan wrote, or one another writer wrote after the reading): its own
 * similarity to the fact, on the scale every search reports (similarity.ts: the share of the fact's information the
 * memory holds, calibrated), without the dense side or the ranking's sharing.
 */
export function ownSimilarity(factTerms: ReturnType<typeof similarityTerms>, memoryTerms: ReadonlySet<string>): number {
  return calibrate(termCoverage(factTerms, (t) => memoryTerms.has(t)));
}

/** Relation decisions already made in this formation, by fact and candidate list: a plan decided again asks only where its candidates changed. */
export class DecisionCache {
  private readonly decisions = new Map<string, RelationDecision>();
  constructor(private readonly relator: MemoryRelator) {}

  async relate(i: number, fact: ExtractedFact, candidates: RelationCandidate[]): Promise<RelationDecision> {
    const key = `${i}\u0001${candidates.map((c) => `${c.id}\u0000${c.content}\u0000${c.isStatic}\u0000${c.similarity}`).join("\u0001")}`;
    let d = this.decisions.get(key);
    if (!d) this.decisions.set(key, (d = await this.relator.relate(fact, candidates)));
    return d;
  }
}

/**
 * Decides every fact of the document in order over the reading: a fact seen
 * before in this document is skipped; the same content already remembered
 * gains this document as a source; otherwise the relator decides over the
 * fact's candidates (its search hits as the plan left them, plus the memories
 * the plan wrote and those that arrived since the reading) whether it is a
 * duplicate, an update (a new version), an extension or a derivation of one,
 * or a new memory.
 */
export async function planDocument(p: {
  repo: MemoryRepository;
  scope: FormationScope;
  doc: SourceDocument;
  facts: readonly ExtractedFact[];
  reading: NamespaceReading;
  decisions: DecisionCache;
  /** The id of the memory the i-th fact creates: the same in every plan of one formation (so are the decisions over it). */
  idFor: (i: number) => string;
  signal?: AbortSignal;
}): Promise<FormationPlan> {
  const { scope, doc, reading: r } = p;
  const { tenantId, documentId, now } = scope;
  /** This plan's state of each memory it wrote or changed, by id. */
  const overlay = new Map<string, MemoryRecord>();
  /** Memories this plan created, in order. */
  const created: string[] = [];
  const seen = new Set(r.seen);
  const noDuplicate = new Set<string>();
  const outcomes: string[] = [];
  const view = (id: string) => overlay.get(id) ?? r.stored.get(id);
  const termsOf = new Map<string, Set<string>>();
  const memoryTerms = (m: MemoryRecord) => {
    let t = termsOf.get(m.id);
    if (!t) termsOf.set(m.id, (t = new Set(similarityTerms(m.content).map((x) => x.term))));
    return t;
  };
  const temporal = (fact: ExtractedFact) =>
    doc.date || fact.eventDates.length
      ? { ...(doc.date ? { documentDate: doc.date } : {}), ...(fact.eventDates.length ? { eventDates: fact.eventDates } : {}) }
      : undefined;

  for (const [i, fact] of p.facts.entries()) {
    p.signal?.throwIfAborted();
    const key = contentKey(fact.content);
    if (seen.has(key)) {
      outcomes.push("duplicate_in_document");
      continue;
    }
    seen.add(key);
    const cited = { documentId, chunkPositions: fact.chunkPositions };
    // Dates of this statement: its document's date and the events it names (a new version states them anew).
    const temporalContext = temporal(fact);
    const fresh = (relations: Record<string, "extends" | "derives"> = {}) => {
      const m = createMemory({
        id: p.idFor(i),
        tenantId,
        namespace: doc.namespace,
        content: fact.content,
        isStatic: fact.isStatic,
        metadata: doc.metadata,
        temporalContext,
        sources: [cited],
        relations,
        isInference: fact.isInference,
        bucketKeys: fact.bucketKeys ?? [],
        filepath: doc.filepath,
        now,
      });
      overlay.set(m.id, m);
      created.push(m.id);
      return m;
    };
    const addSource = (target: MemoryRecord) => overlay.set(target.id, addSources(target, [cited], now));

    // instant: the document on its own (deduplicated within itself only), no lookups across the container.
    if (scope.dreaming === "instant") {
      fresh();
      outcomes.push("new");
      continue;
    }
    // A memory this fact adds must still be the only active one of its content when the write commits.
    noDuplicate.add(key);
    // The same content already remembered: this document becomes one more source of it.
    const same = (r.sameContent.get(key) ?? []).map(view).find((m): m is MemoryRecord => !!m && isActiveMemory(m, now));
    if (same) {
      addSource(same);
      noDuplicate.delete(key);
      outcomes.push("duplicate");
      continue;
    }
    // Candidates: the fact's search hits as this plan left them (a memory it made a version of is no longer one), the
    // memories this plan created and those written since the reading, by similarity.
    const pool = new Map<string, number>();
    for (const h of await searchFact(p.repo, scope, r, fact, i)) pool.set(h.id, h.similarity);
    const factTerms = similarityTerms(fact.content);
    for (const id of [...created, ...r.arrived]) {
      const m = view(id);
      if (pool.has(id) || !m) continue;
      const similarity = ownSimilarity(factTerms, memoryTerms(m));
      if (similarity > 0) pool.set(id, similarity);
    }
    const candidates = [...pool]
      .flatMap(([id, similarity]) => {
        const m = view(id);
        return m && isActiveMemory(m, now) ? [{ m, similarity }] : [];
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, CANDIDATES);
    const decision = await p.decisions.relate(
      i,
      fact,
      candidates.map((c) => ({ id: c.m.id, content: c.m.content, similarity: c.similarity, isStatic: c.m.isStatic })),
    );
    const target = decision.targetId ? candidates.find((c) => c.m.id === decision.targetId)?.m : undefined;
    if (decision.kind === "duplicate" && target) {
      addSource(target);
      noDuplicate.delete(key);
      outcomes.push("duplicate");
      continue;
    }
    if (decision.kind === "updates" && target) {
      const { next, previous } = nextVersion(
        target,
        {
          content: fact.content,
          isStatic: fact.isStatic,
          addSources: [cited],
          isInference: fact.isInference,
          temporalContext: { value: temporalContext },
          ...(fact.bucketKeys ? { bucketKeys: fact.bucketKeys } : {}),
        },
        p.idFor(i),
        now,
      );
      overlay.set(previous.id, previous);
      overlay.set(next.id, next);
      created.push(next.id);
      outcomes.push("updates");
      continue;
    }
    if ((decision.kind === "extends" || decision.kind === "derives") && target) {
      fresh({ [target.id]: decision.kind });
      outcomes.push(decision.kind);
    } else {
      fresh();
      outcomes.push("new");
    }
  }

  const records = [...overlay.values()];
  const changed = records.filter((m) => r.stored.has(m.id));
  return {
    fresh: records.filter((m) => !r.stored.has(m.id)),
    changed,
    expect: changed.map((m) => ({ id: m.id, updatedAt: r.stored.get(m.id)!.updatedAt })),
    expectNoDuplicate: [...noDuplicate].map((contentKey) => ({ tenantId, namespace: doc.namespace, contentKey, now })),
    outcomes,
  };
}
