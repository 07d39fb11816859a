/**
 * The text the MCP tools answer with: compact, one line per item, every item
 * cited by its id (`m_…` memory, `c_…` chunk, `d_…` document) and its sources,
 * so a model can quote them and read one in full through the resources
 * (`engram://memories/{id}`, `engram://documents/{id}`). Pure functions over
 * the REST API's answers (only the fields used are typed).
 */

/** A document as search results cite it (`include.documents`). */
export interface SourceDocument {
  id: string;
  title?: string | null;
}

/** One result of POST /v4/search: a memory result (`memory`) or a chunk result (`chunk`). */
export interface SearchResult {
  id: string;
  memory?: string;
  chunk?: string;
  documentId?: string;
  similarity?: number;
  updatedAt?: string | null;
  version?: number;
  filepath?: string;
  isAggregated?: boolean;
  documents?: SourceDocument[];
}

export interface SearchAnswer {
  results: SearchResult[];
  total?: number;
}

export interface ProfileAnswer {
  profile: { static?: string[]; dynamic?: string[]; buckets?: Record<string, string[]> };
  searchResults?: SearchAnswer | null;
}

/** An entry of POST /v4/memories/list. */
export interface MemoryEntry {
  id: string;
  memory: string;
  version?: number;
  isStatic?: boolean;
  isForgotten?: boolean;
  updatedAt?: string | null;
  documentIds?: string[];
  history?: unknown[];
}

export interface MemoryList {
  memoryEntries: MemoryEntry[];
  pagination?: { currentPage?: number; totalPages?: number; totalItems?: number };
}

export interface ForgetAnswer {
  dryRun: boolean;
  count: number;
  summary?: string;
  forgetBatchId?: string | null;
  candidates?: { id: string; memory: string; score: number }[];
  forgotten?: { id: string; memory: string; score: number }[];
}

/** An item of GET /v3/container-tags/list. */
export interface ContainerTagItem {
  containerTag: string;
  name?: string | null;
  documentCount?: number;
  memoryCount?: number;
  lastActivityAt?: string | null;
}

/** Longest chunk text shown in a search answer (the document resource has the rest). */
export const CHUNK_CHARS = 600;

const score = (n: number | undefined) => (n === undefined ? "" : n.toFixed(2));
const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : undefined);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Text cut to `max` characters at a word boundary when one is near, with an ellipsis; whitespace runs folded. */
export function clip(text: string, max = CHUNK_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.8 ? cut.slice(0, space) : cut}…`;
}

/** `d_abc "Title"` for each source document, or the bare ids. */
export function sources(docs: SourceDocument[] | undefined, ids: string[] = []): string {
  const list = docs?.length ? docs.map((d) => (d.title ? `${d.id} "${d.title}"` : d.id)) : ids;
  return list.join(", ");
}

function searchLine(r: SearchResult, i: number): string {
  const facts = [`similarity ${score(r.similarity)}`];
  if (r.memory !== undefined) {
    const when = day(r.updatedAt);
    if (when) facts.push(`updated ${when}`);
    if (r.version && r.version > 1) facts.push(`version ${r.version}`);
    if (r.isAggregated) facts.push("aggregated from several memories");
    const from = sources(r.documents);
    facts.push(from ? `sources: ${from}` : "written directly");
    if (r.filepath) facts.push(`file ${r.filepath}`);
    return `${i + 1}. [${r.id}] ${r.memory} (${facts.join("; ")})`;
  }
  const from = sources(r.documents, r.documentId ? [r.documentId] : []);
  if (from) facts.push(`document ${from}`);
  return `${i + 1}. [${r.id}] "${clip(r.chunk ?? "")}" (${facts.join("; ")})`;
}

/** Lines of search results, or a line saying there were none. */
export function formatSearch(answer: SearchAnswer, o: { query: string; mode: string; containerTag?: string }): string {
  const where = o.containerTag ? `container ${o.containerTag}` : "every container";
  if (!answer.results.length) return `No results for "${o.query}" (${o.mode}, ${where}). Try other words, another mode or a lower threshold.`;
  const head = `${plural(answer.results.length, "result")} for "${o.query}" (${o.mode}, ${where}):`;
  return [head, ...answer.results.map(searchLine)].join("\n");
}

/** The profile's static and dynamic facts (and buckets, and search results when a query was given). */
export function formatProfile(answer: ProfileAnswer, o: { containerTag: string; query?: string }): string {
  const p = answer.profile;
  const lines = [`Profile of container ${o.containerTag}`];
  const section = (title: string, facts: string[] | undefined) => {
    if (facts === undefined) return;
    lines.push(`${title}:`);
    if (!facts.length) lines.push("- (none)");
    for (const f of facts) lines.push(`- ${f}`);
  };
  section("Static facts (lasting)", p.static);
  section("Dynamic facts (recent)", p.dynamic);
  for (const [bucket, facts] of Object.entries(p.buckets ?? {})) section(`Bucket ${bucket}`, facts);
  if (o.query !== undefined) {
    const results = answer.searchResults?.results ?? [];
    lines.push(`Memories matching "${o.query}":`);
    if (!results.length) lines.push("- (none)");
    results.forEach((r, i) => lines.push(searchLine(r, i)));
  }
  return lines.join("\n");
}

/** One line per memory entry, with the page position. */
export function formatMemoryList(list: MemoryList, o: { containerTag: string }): string {
  const p = list.pagination ?? {};
  const total = p.totalItems ?? list.memoryEntries.length;
  if (!list.memoryEntries.length) return `No memories in container ${o.containerTag}${p.currentPage && p.currentPage > 1 ? ` on page ${p.currentPage}` : ""}.`;
  const head = `${plural(total, "memory", "memories")} in container ${o.containerTag} (page ${p.currentPage ?? 1} of ${p.totalPages ?? 1}):`;
  const line = (m: MemoryEntry) => {
    const facts: string[] = [];
    if (m.isStatic) facts.push("static");
    if (m.isForgotten) facts.push("forgotten");
    if (m.version && m.version > 1) facts.push(`version ${m.version}`);
    const when = day(m.updatedAt);
    if (when) facts.push(`updated ${when}`);
    facts.push(m.documentIds?.length ? `sources: ${m.documentIds.join(", ")}` : "written directly");
    return `- [${m.id}] ${m.memory} (${facts.join("; ")})`;
  };
  return [head, ...list.memoryEntries.map(line)].join("\n");
}

/** A dry run's candidates with how to confirm, or what was forgotten. */
export function formatForget(answer: ForgetAnswer, o: { containerTag: string }): string {
  const items = (answer.dryRun ? answer.candidates : answer.forgotten) ?? [];
  const list = items.map((m) => `- [${m.id}] ${m.memory} (score ${score(m.score)})`);
  if (answer.dryRun) {
    if (!items.length)
      return `Dry run in container ${o.containerTag}: no memory matches, nothing would be forgotten.${answer.summary ? ` ${answer.summary}` : ""}`;
    return [
      `Dry run in container ${o.containerTag}: ${plural(items.length, "memory", "memories")} would be forgotten. Nothing was forgotten yet.`,
      ...list,
      `To forget exactly these, call forget_memories again with confirm: true and ids: ${JSON.stringify(items.map((m) => m.id))}.`,
    ].join("\n");
  }
  if (!items.length) return `Nothing was forgotten in container ${o.containerTag} (the ids are not active memories of it).`;
  return [
    `Forgot ${plural(items.length, "memory", "memories")} in container ${o.containerTag}${answer.forgetBatchId ? ` (batch ${answer.forgetBatchId})` : ""}:`,
    ...list,
  ].join("\n");
}

/** One line per container tag with its counts. */
export function formatContainerTags(tags: ContainerTagItem[], o: { sessionTag?: string } = {}): string {
  if (!tags.length) return "No container tags yet: nothing has been added.";
  const line = (t: ContainerTagItem) => {
    const facts = [plural(t.documentCount ?? 0, "document"), plural(t.memoryCount ?? 0, "memory", "memories")];
    const when = day(t.lastActivityAt);
    if (when) facts.push(`last activity ${when}`);
    const name = t.name && t.name !== t.containerTag ? ` "${t.name}"` : "";
    const mark = t.containerTag === o.sessionTag ? " [this session's container]" : "";
    return `- ${t.containerTag}${name}: ${facts.join(", ")}${mark}`;
  };
  return [`${plural(tags.length, "container tag")}:`, ...tags.map(line)].join("\n");
}

/** An error answer of the REST API (`{error, details?}`) or any other failure, as one line for the model. */
export function formatError(err: unknown): string {
  const e = err as { status?: number; error?: unknown; message?: string };
  if (typeof e?.status === "number") {
    const body = e.error as { error?: string; details?: string } | undefined;
    if (body && typeof body.error === "string") return `Engram answered ${e.status} ${body.error}${body.details ? `: ${body.details}` : ""}`;
    return `Engram answered ${e.status}${e.message ? `: ${e.message}` : ""}`;
  }
  return `Engram could not be reached: ${e?.message ?? String(err)}`;
}
