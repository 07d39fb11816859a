import { type FormEvent, useCallback, useEffect, useState } from "react";
import { type Chunk, type DocumentDetail, type DocumentListItem, FINAL_STATUSES, type MemoryEntry } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, Link, PageTitle, StatusBadge, formatDate } from "../ui";

const POLL_MS = 1000;
const STATUSES = ["all", "queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"];

type Source = "text" | "url" | "file";

export function DocumentsPage({ api, containerTag, navigate }: PageProps) {
  const [docs, setDocs] = useState<DocumentListItem[]>();
  const [error, setError] = useState<unknown>();
  const [status, setStatus] = useState("all");
  const [allTags, setAllTags] = useState(false);

  const load = useCallback(
    () =>
      api.listDocuments(allTags ? undefined : containerTag).then(
        (d) => {
          setDocs(d);
          setError(undefined);
        },
        (err: unknown) => setError(err),
      ),
    [api, containerTag, allTags],
  );
  useEffect(() => void load(), [load]);

  // Live status: poll while any listed document is still being processed.
  const pending = docs?.some((d) => !FINAL_STATUSES.has(d.status)) ?? false;
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(t);
  }, [pending, load]);

  const shown = docs?.filter((d) => status === "all" || d.status === status);
  return (
    <>
      <PageTitle>Documents</PageTitle>
      <AddDocument api={api} containerTag={containerTag} onAdded={() => void load()} />
      <section className="card" aria-labelledby="doc-list-heading">
        <div className="row spread">
          <h2 id="doc-list-heading">
            {allTags ? "All container tags" : <>In {containerTag}</>}
            {pending ? <span className="live"> · updating</span> : null}
          </h2>
          <div className="row">
            <label htmlFor="status-filter">Status</label>
            <select id="status-filter" value={status} onChange={(e) => setStatus(e.target.value)}>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <label className="check">
              <input type="checkbox" checked={allTags} onChange={(e) => setAllTags(e.target.checked)} /> every container tag
            </label>
            <button type="button" className="secondary" onClick={() => void load()}>
              Refresh
            </button>
          </div>
        </div>
        <ErrorMessage error={error} />
        {shown === undefined ? (
          error ? null : (
            <p aria-busy="true">Loading…</p>
          )
        ) : shown.length === 0 ? (
          <Empty>{docs?.length ? "No document has this status." : "No documents yet: add text, a URL or a file above."}</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col">Status</th>
                  <th scope="col">Type</th>
                  <th scope="col">Container tags</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((d) => (
                  <tr key={d.id} data-document-id={d.id}>
                    <td>
                      <Link to={`/documents/${encodeURIComponent(d.id)}`} navigate={navigate}>
                        {d.title || d.customId || d.url || d.id}
                      </Link>
                      <div className="muted mono">{d.id}</div>
                    </td>
                    <td>
                      <StatusBadge status={d.status} />
                    </td>
                    <td>{d.type}</td>
                    <td>{d.containerTags.join(", ")}</td>
                    <td>{formatDate(d.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function AddDocument({ api, containerTag, onAdded }: Pick<PageProps, "api" | "containerTag"> & { onAdded: () => void }) {
  const [source, setSource] = useState<Source>("text");
  const [text, setText] = useState("");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [added, setAdded] = useState<string>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setAdded(undefined);
    try {
      let out;
      if (source === "file") {
        if (!file) return;
        setProgress({ loaded: 0, total: file.size });
        out = await api.uploadFile(file, containerTag, (loaded, total) => setProgress({ loaded, total }));
      } else {
        out = await api.addDocument(source === "url" ? url.trim() : text, containerTag);
      }
      setAdded(`Added ${out.id} (${out.status}) to ${containerTag}.`);
      setText("");
      setUrl("");
      onAdded();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="add-heading">
      <h2 id="add-heading">Add a document to {containerTag}</h2>
      <form onSubmit={submit} className="stack">
        <fieldset className="row">
          <legend>Source</legend>
          {(["text", "url", "file"] as const).map((s) => (
            <label key={s} className="check">
              <input type="radio" name="source" value={s} checked={source === s} onChange={() => setSource(s)} />{" "}
              {s === "url" ? "URL" : s[0]!.toUpperCase() + s.slice(1)}
            </label>
          ))}
        </fieldset>
        {source === "text" ? (
          <>
            <label htmlFor="doc-text">Text</label>
            <textarea id="doc-text" rows={5} value={text} onChange={(e) => setText(e.target.value)} required />
          </>
        ) : source === "url" ? (
          <>
            <label htmlFor="doc-url">URL</label>
            <input id="doc-url" type="url" placeholder="https://example.com/page" value={url} onChange={(e) => setUrl(e.target.value)} required />
          </>
        ) : (
          <>
            <label htmlFor="doc-file">File</label>
            <input id="doc-file" type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
            {progress ? (
              <div className="row">
                <progress id="upload-progress" max={progress.total || 1} value={progress.loaded} aria-label="Upload progress" />
                <span>{progress.total ? Math.round((100 * progress.loaded) / progress.total) : 0}%</span>
              </div>
            ) : null}
          </>
        )}
        <div>
          <button type="submit" disabled={busy}>
            {busy ? "Adding…" : "Add document"}
          </button>
        </div>
      </form>
      {added ? (
        <p role="status" className="ok">
          {added}
        </p>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  );
}

export function DocumentDetailPage({ api, navigate, id }: PageProps & { id: string }) {
  const [doc, setDoc] = useState<DocumentDetail>();
  const [chunks, setChunks] = useState<Chunk[]>();
  const [memories, setMemories] = useState<MemoryEntry[]>();
  const [error, setError] = useState<unknown>();

  const load = useCallback(async () => {
    try {
      const d = await api.getDocument(id);
      setDoc(d);
      setError(undefined);
      if (FINAL_STATUSES.has(d.status)) {
        const [c, m] = await Promise.all([api.chunks(d.id), api.documentMemories(d.containerTags[0]!, d.id)]);
        setChunks(c);
        setMemories(m);
      }
    } catch (err) {
      setError(err);
    }
  }, [api, id]);
  useEffect(() => void load(), [load]);
  const pending = doc !== undefined && !FINAL_STATUSES.has(doc.status);
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(t);
  }, [pending, load]);

  return (
    <>
      <p>
        <Link to="/documents" navigate={navigate}>
          ← Documents
        </Link>
      </p>
      <PageTitle>{doc?.title || doc?.customId || id}</PageTitle>
      <ErrorMessage error={error} />
      {doc ? (
        <section className="card" aria-label="Document">
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={doc.status} />
              {pending ? <span className="live"> processing…</span> : null}
            </dd>
            <dt>Id</dt>
            <dd className="mono">{doc.id}</dd>
            <dt>Container tags</dt>
            <dd>{doc.containerTags.join(", ")}</dd>
            <dt>Type</dt>
            <dd>{doc.type ?? "—"}</dd>
            {doc.url ? (
              <>
                <dt>URL</dt>
                <dd>{doc.url}</dd>
              </>
            ) : null}
            <dt>Added</dt>
            <dd>{formatDate(doc.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDate(doc.updatedAt)}</dd>
          </dl>
          {doc.summary ? <p>{doc.summary}</p> : null}
          {doc.content ? (
            <details>
              <summary>Content</summary>
              <pre className="content">{doc.content}</pre>
            </details>
          ) : null}
        </section>
      ) : null}
      {doc && FINAL_STATUSES.has(doc.status) ? (
        <>
          <section className="card" aria-labelledby="memories-heading">
            <h2 id="memories-heading">Memories formed from it</h2>
            {memories === undefined ? null : memories.length === 0 ? (
              <Empty>No memories were formed from this document.</Empty>
            ) : (
              <ul className="list">
                {memories.map((m) => (
                  <li key={m.id}>
                    {m.memory} <span className="muted mono">{m.id}</span> {m.version > 1 ? <span className="badge">v{m.version}</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card" aria-labelledby="chunks-heading">
            <h2 id="chunks-heading">Chunks</h2>
            {chunks === undefined ? null : chunks.length === 0 ? (
              <Empty>No chunks (a failed document has none).</Empty>
            ) : (
              <ol className="list">
                {chunks.map((c) => (
                  <li key={c.id} id={`chunk-${c.id}`}>
                    <span className="muted">
                      #{c.position} · {c.tokenCount} tokens · {c.type}
                    </span>
                    <pre className="content">{c.content}</pre>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
