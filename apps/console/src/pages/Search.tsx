import { useRef, useState } from "react";
import type { FilterCondition, Filters, SearchMode, SearchResult } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, Link, PageTitle, useSubmit } from "../ui";

export function SearchPage({ api, containerTag, navigate }: PageProps) {
  const [q, setQ] = useState("");
  const [mode, setMode] = useState<SearchMode>("memories");
  const [threshold, setThreshold] = useState("0.3");
  const [rerank, setRerank] = useState(false);
  const [limit, setLimit] = useState("10");
  const [conditions, setConditions] = useState<ConditionRow[]>([]);
  const [combine, setCombine] = useState<"AND" | "OR">("AND");
  const [results, setResults] = useState<{ run: number; mode: SearchMode; results: SearchResult[]; timing: number; total: number }>();
  /** Answers so far: each shown answer carries its number, so that a new answer is told from the previous one. */
  const answers = useRef(0);
  const { busy, error, submit: submitting } = useSubmit();
  const filters = filtersOf(conditions, combine);

  const submit = submitting(
    async () =>
      setResults({
        run: ++answers.current,
        mode,
        ...(await api.search({
          q,
          searchMode: mode,
          threshold: Number(threshold),
          containerTag,
          rerank,
          limit: Number(limit),
          ...(filters ? { filters } : {}),
        })),
      }),
    () => setResults(undefined),
  );
  const update = (i: number, patch: Partial<ConditionRow>) => setConditions((cs) => cs.map((c, n) => (n === i ? { ...c, ...patch } : c)));

  return (
    <>
      <PageTitle>Search</PageTitle>
      <section className="card">
        <form onSubmit={submit} className="grid-form">
          <label htmlFor="q">Query</label>
          <input id="q" type="search" value={q} onChange={(e) => setQ(e.target.value)} required />
          <label htmlFor="mode">Mode</label>
          <select id="mode" value={mode} onChange={(e) => setMode(e.target.value as SearchMode)}>
            <option value="memories">memories</option>
            <option value="documents">documents</option>
            <option value="hybrid">hybrid</option>
          </select>
          <label htmlFor="threshold">Threshold</label>
          <input id="threshold" type="number" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
          <label htmlFor="limit">Limit</label>
          <input id="limit" type="number" min={1} max={100} value={limit} onChange={(e) => setLimit(e.target.value)} />
          <span />
          <label className="check">
            <input type="checkbox" checked={rerank} onChange={(e) => setRerank(e.target.checked)} /> Rerank
          </label>
          <span />
          <fieldset className="filters" aria-describedby="filters-help">
            <legend>Metadata filters</legend>
            <p id="filters-help" className="muted">
              Only results whose document metadata match. {conditions.length === 0 ? "None: everything in the container tag." : null}
            </p>
            {conditions.length > 1 ? (
              <div className="row">
                <label htmlFor="filter-combine">Match</label>
                <select id="filter-combine" value={combine} onChange={(e) => setCombine(e.target.value as "AND" | "OR")}>
                  <option value="AND">all conditions</option>
                  <option value="OR">any condition</option>
                </select>
              </div>
            ) : null}
            {conditions.map((c, i) => (
              <div key={c.id} className="row wrap filter-row" role="group" aria-label={`Filter ${i + 1}`}>
                <label htmlFor={`filter-key-${c.id}`}>Key {i + 1}</label>
                <input id={`filter-key-${c.id}`} value={c.key} onChange={(e) => update(i, { key: e.target.value })} required placeholder="team" />
                <label htmlFor={`filter-op-${c.id}`}>Operator {i + 1}</label>
                <select id={`filter-op-${c.id}`} value={c.op} onChange={(e) => update(i, { op: e.target.value as Operator })}>
                  {OPERATORS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
                <label htmlFor={`filter-value-${c.id}`}>Value {i + 1}</label>
                <input
                  id={`filter-value-${c.id}`}
                  value={c.value}
                  onChange={(e) => update(i, { value: e.target.value })}
                  required
                  inputMode={NUMERIC.has(c.op) ? "decimal" : undefined}
                />
                <button type="button" className="secondary" onClick={() => setConditions((cs) => cs.filter((_, n) => n !== i))}>
                  Remove filter {i + 1}
                </button>
              </div>
            ))}
            <button type="button" className="secondary" onClick={() => setConditions((cs) => [...cs, { id: nextId(), key: "", op: "equals", value: "" }])}>
              Add filter
            </button>
            {filters ? (
              <details>
                <summary>As sent (filters)</summary>
                <pre className="content mono">{JSON.stringify(filters, null, 2)}</pre>
              </details>
            ) : null}
          </fieldset>
          <span />
          <div>
            <button type="submit" disabled={busy}>
              {busy ? "Searching…" : `Search ${containerTag}`}
            </button>
          </div>
        </form>
      </section>
      <ErrorMessage error={error} />
      {results ? (
        <section className="card" aria-labelledby="results-heading" data-mode={results.mode} data-run={results.run}>
          <h2 id="results-heading">
            {results.total} result{results.total === 1 ? "" : "s"}{" "}
            <span className="muted">
              ({results.mode}, {results.timing} ms)
            </span>
          </h2>
          {results.results.length === 0 ? (
            <Empty>Nothing at or above the threshold. Lower it, or try another mode.</Empty>
          ) : (
            <ol className="list results">
              {results.results.map((r) => (
                <li key={r.id} className="result">
                  <div className="row spread">
                    <span className="badge">{r.chunk !== undefined ? "chunk" : "memory"}</span>
                    <span className="similarity" title="similarity">
                      similarity {r.similarity.toFixed(3)}
                    </span>
                  </div>
                  <p className="result-text">{r.chunk ?? r.memory}</p>
                  {r.metadata && Object.keys(r.metadata).length ? <p className="muted mono result-metadata">{JSON.stringify(r.metadata)}</p> : null}
                  <p className="muted">
                    Source:{" "}
                    {sourcesOf(r).length === 0
                      ? "created directly (no document)"
                      : sourcesOf(r).map((d, i) => (
                          <span key={d}>
                            {i > 0 ? ", " : null}
                            <Link to={`/documents/${encodeURIComponent(d)}`} navigate={navigate}>
                              {d}
                            </Link>
                          </span>
                        ))}
                  </p>
                </li>
              ))}
            </ol>
          )}
        </section>
      ) : null}
    </>
  );
}

function sourcesOf(r: SearchResult): string[] {
  if (r.documentId) return [r.documentId];
  return (r.documents ?? []).map((d) => d.id);
}

type Operator = "equals" | "not-equals" | "contains" | "array-contains" | ">" | ">=" | "<" | "<=";
const OPERATORS: [Operator, string][] = [
  ["equals", "equals"],
  ["not-equals", "does not equal"],
  ["contains", "text contains"],
  ["array-contains", "list contains"],
  [">", "> (number)"],
  [">=", "≥ (number)"],
  ["<", "< (number)"],
  ["<=", "≤ (number)"],
];
const NUMERIC: ReadonlySet<Operator> = new Set([">", ">=", "<", "<="]);

interface ConditionRow {
  id: number;
  key: string;
  op: Operator;
  value: string;
}

let lastId = 0;
const nextId = () => ++lastId;

/** The builder's rows as the API's `filters` (undefined when there are none). */
function filtersOf(rows: ConditionRow[], combine: "AND" | "OR"): Filters | undefined {
  if (rows.length === 0) return undefined;
  const conditions = rows.map(({ key, op, value }): FilterCondition => {
    const k = key.trim();
    if (op === "not-equals") return { key: k, value, negate: true };
    if (op === "contains") return { key: k, value, filterType: "string_contains" };
    if (op === "array-contains") return { key: k, value, filterType: "array_contains" };
    if (NUMERIC.has(op)) return { key: k, value, filterType: "numeric", numericOperator: op as FilterCondition["numericOperator"] };
    return { key: k, value };
  });
  return combine === "AND" ? { AND: conditions } : { OR: conditions };
}
