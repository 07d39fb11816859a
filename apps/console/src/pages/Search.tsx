import { useState } from "react";
import type { SearchMode, SearchResult } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, Link, PageTitle, useSubmit } from "../ui";

export function SearchPage({ api, containerTag, navigate }: PageProps) {
  const [q, setQ] = useState("");
  const [mode, setMode] = useState<SearchMode>("memories");
  const [threshold, setThreshold] = useState("0.3");
  const [rerank, setRerank] = useState(false);
  const [limit, setLimit] = useState("10");
  const [results, setResults] = useState<{ mode: SearchMode; results: SearchResult[]; timing: number; total: number }>();
  const { busy, error, submit: submitting } = useSubmit();

  const submit = submitting(
    async () => setResults({ mode, ...(await api.search({ q, searchMode: mode, threshold: Number(threshold), containerTag, rerank, limit: Number(limit) })) }),
    () => setResults(undefined),
  );

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
          <div>
            <button type="submit" disabled={busy}>
              {busy ? "Searching…" : `Search ${containerTag}`}
            </button>
          </div>
        </form>
      </section>
      <ErrorMessage error={error} />
      {results ? (
        <section className="card" aria-labelledby="results-heading" data-mode={results.mode}>
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
