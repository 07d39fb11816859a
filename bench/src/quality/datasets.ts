/**
 * Loaders of the judged test collections in ../shared/datasets beside the
 * repository (override with ENGRAM_DATASETS_DIR). Each yields documents, the judged queries and
 * graded judgments keyed by the collection's own ids.
 */
import fs from "node:fs";
import path from "node:path";
import { type Qrels, relevantCount } from "./metrics";

export interface CorpusDoc {
  id: string;
  title: string;
  text: string;
}

export interface Query {
  id: string;
  text: string;
}

export interface Dataset {
  key: DatasetKey;
  name: string;
  dir: string;
  docs: CorpusDoc[];
  /** Documents left out because title and text are both empty (nothing to index). */
  emptyDocs: string[];
  /** Queries with at least one relevant judgment, in file order. */
  queries: Query[];
  qrels: Qrels;
  /** nDCG@10 of SQLite FTS5 (porter tokenizer, bm25()) measured earlier on this machine. */
  fts5ReferenceNdcg10: number;
}

export type DatasetKey = "msmarco" | "cranfield";
export const DATASET_KEYS: readonly DatasetKey[] = ["msmarco", "cranfield"];

export const DATASETS_DIR = process.env.ENGRAM_DATASETS_DIR ?? path.resolve(__dirname, "../../../../shared/datasets");

/** The text indexed for a document, by Engram and by the in-process baseline alike. */
export function documentContent(d: CorpusDoc): string {
  const title = d.title.trim();
  const text = d.text.trim();
  return title && text ? `${title}\n\n${text}` : title || text;
}

function addQrel(qrels: Map<string, Map<string, number>>, qid: string, docId: string, grade: number): void {
  if (!Number.isFinite(grade)) throw new Error(`bad relevance grade for query ${qid}, document ${docId}`);
  let q = qrels.get(qid);
  if (!q) qrels.set(qid, (q = new Map()));
  q.set(docId, Math.max(grade, q.get(docId) ?? -Infinity));
}

function finish(
  key: DatasetKey,
  name: string,
  dir: string,
  allDocs: CorpusDoc[],
  allQueries: Query[],
  qrels: Map<string, Map<string, number>>,
  fts5: number,
): Dataset {
  const ids = new Set<string>();
  for (const d of allDocs) {
    if (ids.has(d.id)) throw new Error(`${name}: duplicate document id ${d.id}`);
    ids.add(d.id);
  }
  for (const [qid, q] of qrels)
    for (const docId of q.keys()) if (!ids.has(docId)) throw new Error(`${name}: qrels of query ${qid} name unknown document ${docId}`);
  const queryIds = new Set(allQueries.map((q) => q.id));
  for (const qid of qrels.keys()) if (!queryIds.has(qid)) throw new Error(`${name}: qrels name unknown query ${qid}`);
  const docs = allDocs.filter((d) => documentContent(d));
  const emptyDocs = allDocs.filter((d) => !documentContent(d)).map((d) => d.id);
  const queries = allQueries.filter((q) => relevantCount(qrels.get(q.id) ?? new Map()) > 0);
  return { key, name, dir, docs, emptyDocs, queries, qrels, fts5ReferenceNdcg10: fts5 };
}

/**
 * msmarco-dl19-5k, BEIR layout: corpus.jsonl {_id,title,text}, queries.jsonl {_id,text},
 * qrels/test.tsv "query-id corpus-id score" (this copy has no header line; one is skipped if present).
 */
export function loadMsmarco(dir = path.join(DATASETS_DIR, "msmarco-dl19-5k")): Dataset {
  const jsonl = (file: string) =>
    fs
      .readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const docs = jsonl("corpus.jsonl").map((o) => ({ id: String(o._id), title: String(o.title ?? ""), text: String(o.text ?? "") }));
  const queries = jsonl("queries.jsonl").map((o) => ({ id: String(o._id), text: String(o.text ?? "") }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(dir, "qrels/test.tsv"), "utf8").split("\n")) {
    const f = line.trim().split(/\t|\s+/);
    if (f.length < 3 || (f[0] === "query-id" && f[1] === "corpus-id")) continue;
    addQrel(qrels, f[0]!, f[1]!, Number(f[2]));
  }
  return finish("msmarco", "msmarco-dl19-5k", dir, docs, queries, qrels, 0.7205);
}

const tag = (block: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(block)?.[1]?.trim() ?? "";

/** Classic SMART fields (.I n / .T / .A / .B / .W) -> id plus field texts. */
function smartRecords(text: string): { id: string; fields: Record<string, string> }[] {
  const out: { id: string; fields: Record<string, string> }[] = [];
  for (const rec of text.split(/^\.I\s+/m).slice(1)) {
    const lines = rec.split("\n");
    const fields: Record<string, string> = {};
    let field = "";
    for (const line of lines.slice(1)) {
      const m = /^\.([A-Z])\s*$/.exec(line);
      if (m) field = m[1]!;
      else if (field) fields[field] = (fields[field] ? fields[field] + "\n" : "") + line;
    }
    out.push({ id: lines[0]!.trim(), fields });
  }
  return out;
}

/**
 * Cranfield 1400. Documents: cran.all.1400, either the TREC-like conversion shipped here
 * (<doc><docno><title><author><bib><text>) or the classic .I/.T/.A/.B/.W records; title = title,
 * text = abstract (which in this collection repeats the title). Queries: cran.qry, <top><num><title>
 * or .I/.W; their numbers are NOT sequential, so queries are numbered 1..225 by position, as the
 * qrels are. Judgments: cranqrel "qid 0 docno rel" (or "qid docno rel"); in this copy rel is
 * 1 (relevant; one row has 3) or 0 (one "not relevant" row per query). A classic file with the
 * original 1..4 / -1 grades (1 = most relevant) is refused rather than misread.
 */
export function loadCranfield(dir = path.join(DATASETS_DIR, "cranfield")): Dataset {
  const rawDocs = fs.readFileSync(path.join(dir, "cran.all.1400"), "utf8");
  const docs: CorpusDoc[] = /<doc>/.test(rawDocs)
    ? [...rawDocs.matchAll(/<doc>([\s\S]*?)<\/doc>/g)].map((m) => ({ id: tag(m[1]!, "docno"), title: tag(m[1]!, "title"), text: tag(m[1]!, "text") }))
    : smartRecords(rawDocs).map((r) => ({ id: r.id, title: (r.fields.T ?? "").trim(), text: (r.fields.W ?? "").trim() }));
  const rawQueries = fs.readFileSync(path.join(dir, "cran.qry"), "utf8");
  const queryTexts = /<top>/.test(rawQueries)
    ? [...rawQueries.matchAll(/<top>([\s\S]*?)<\/top>/g)].map((m) => tag(m[1]!, "title"))
    : smartRecords(rawQueries).map((r) => (r.fields.W ?? "").trim());
  const queries = queryTexts.map((text, i) => ({ id: String(i + 1), text: text.replace(/\s+/g, " ") }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(dir, "cranqrel"), "utf8").split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 3) continue;
    const [qid, docId, grade] = f.length >= 4 ? [f[0]!, f[2]!, Number(f[3])] : [f[0]!, f[1]!, Number(f[2])];
    if (grade < 0 || grade > 3) throw new Error(`cranqrel: grade ${grade} (query ${qid}) is outside 0..3 — the classic 1..4/-1 convention needs mapping first`);
    addQrel(qrels, qid, docId, grade);
  }
  return finish("cranfield", "cranfield", dir, docs, queries, qrels, 0.3771);
}

export function loadDataset(key: DatasetKey): Dataset {
  return key === "msmarco" ? loadMsmarco() : loadCranfield();
}

/**
 * Plain text drawn from both collections, for benches that need realistic prose and queries rather than
 * judgements: their documents cut into sentences of 30–400 characters, and every query's text.
 */
export function datasetText(): { sentences: string[]; queries: string[] } {
  const ms = loadMsmarco();
  const cr = loadCranfield();
  const sentences = [...ms.docs, ...cr.docs]
    .flatMap((d) => d.text.split(/(?<=[.!?])\s+/))
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 30 && s.length < 400);
  const queries = [...ms.queries, ...cr.queries].map((q) => q.text.replace(/\s+/g, " ").trim()).filter(Boolean);
  return { sentences, queries };
}
