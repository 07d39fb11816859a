import { useCallback, useEffect, useState } from "react";
import {
  ApiError,
  type Chunk,
  type DocumentDetail,
  type DocumentStatus,
  type DocumentListItem,
  FINAL_STATUSES,
  type MemoryEntry,
  type Metadata,
  type Pagination,
} from "../api";
import type { PageProps } from "../App";
import { ConfirmAction, Empty, ErrorMessage, Link, Notice, PageTitle, Pager, StatusBadge, formatDate, usePolling, useSubmit } from "../ui";

const POLL_MS = 1000;
const STATUSES = ["all", "queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"];

type Source = "text" | "url" | "file";

export function DocumentsPage({ api, containerTag, navigate }: PageProps) {
  // `?deleted=<id>`: back from a document deleted on its page.
  const [deleted] = useState(() => new URLSearchParams(window.location.search).get("deleted"));
  const [docs, setDocs] = useState<DocumentListItem[]>();
  const [pagination, setPagination] = useState<Pagination>();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>();
  const [status, setStatus] = useState("all");
  const [allTags, setAllTags] = useState(false);
  useEffect(() => setPage(1), [containerTag, allTags, status]);

  const load = useCallback(
    () =>
      api.listDocuments(allTags ? undefined : containerTag, page, status === "all" ? undefined : (status as DocumentStatus)).then(
        (d) => {
          setDocs(d.items);
          setPagination(d.pagination);
          setError(undefined);
        },
        (err: unknown) => setError(err),
      ),
    [api, containerTag, allTags, page, status],
  );
  useEffect(() => void load(), [load]);

  // Live status: poll while any listed document is still being processed.
  const pending = docs?.some((d) => !FINAL_STATUSES.has(d.status)) ?? false;
  usePolling(pending, load, POLL_MS);

  return (
    <>
      <PageTitle>Documents</PageTitle>
      <Notice>{deleted ? `Deleted ${deleted}.` : null}</Notice>
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
        {docs === undefined ? (
          error ? null : (
            <p aria-busy="true">Loading…</p>
          )
        ) : docs.length === 0 ? (
          <Empty>{status !== "all" ? `No document is ${status}.` : "No documents yet: add text, a URL or a file above."}</Empty>
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
                {docs.map((d) => (
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
        <Pager pagination={pagination} onPage={setPage} label="Document pages" />
      </section>
    </>
  );
}

/** The metadata field: empty is none; anything but a JSON object is refused here, before a request is sent. */
function parseMetadata(text: string): Metadata | undefined {
  if (!text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(0, { error: "Invalid metadata", details: 'metadata must be a JSON object, like {"team": "platform"}' });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ApiError(0, { error: "Invalid metadata", details: "metadata must be a JSON object, not a list or a single value" });
  return parsed as Metadata;
}

function AddDocument({ api, containerTag, onAdded }: Pick<PageProps, "api" | "containerTag"> & { onAdded: () => void }) {
  const [source, setSource] = useState<Source>("text");
  const [text, setText] = useState("");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number }>();
  const { busy, error, submit: submitting } = useSubmit();
  const [added, setAdded] = useState<string>();
  const [metadataText, setMetadataText] = useState("");

  const submit = submitting(async () => {
    setAdded(undefined);
    const metadata = parseMetadata(metadataText);
    let out;
    if (source === "file") {
      if (!file) return;
      setProgress({ loaded: 0, total: file.size });
      out = await api.uploadFile(file, containerTag, (loaded, total) => setProgress({ loaded, total }), metadata);
    } else {
      out = await api.addDocument(source === "url" ? url.trim() : text, containerTag, metadata);
    }
    setAdded(`Added ${out.id} (${out.status}) to ${containerTag}.`);
    setText("");
    setUrl("");
    setMetadataText("");
    onAdded();
  });

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
        <label htmlFor="doc-metadata">Metadata (optional JSON object)</label>
        <textarea
          id="doc-metadata"
          rows={2}
          className="mono"
          placeholder='{"team": "platform", "priority": 2}'
          aria-describedby="doc-metadata-help"
          value={metadataText}
          onChange={(e) => setMetadataText(e.target.value)}
        />
        <p id="doc-metadata-help" className="muted">
          Strings, numbers, booleans or lists of strings; search filters match them.
        </p>
        <div>
          <button type="submit" disabled={busy}>
            {busy ? "Adding…" : "Add document"}
          </button>
        </div>
      </form>
      <Notice>{added}</Notice>
      <ErrorMessage error={error} />
    </section>
  );
}

/** `?chunk=N`: the chunk a memory's provenance points at, highlighted and scrolled to. */
function chunkFromLocation(): number | undefined {
  const v = new URLSearchParams(window.location.search).get("chunk");
  return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
}

export function DocumentDetailPage({ api, navigate, id }: PageProps & { id: string }) {
  const [focusChunk] = useState(chunkFromLocation);
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
  usePolling(pending, load, POLL_MS);

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
            {doc.failureReason ? (
              <>
                <dt>Why it failed</dt>
                <dd className="error-text">{doc.failureReason}</dd>
              </>
            ) : null}
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
            {doc.metadata && Object.keys(doc.metadata).length ? (
              <>
                <dt>Metadata</dt>
                <dd className="mono">{JSON.stringify(doc.metadata)}</dd>
              </>
            ) : null}
            <dt>Added</dt>
            <dd>{formatDate(doc.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDate(doc.updatedAt)}</dd>
            {doc.summary ? (
              <>
                <dt>Summary</dt>
                <dd>{doc.summary}</dd>
              </>
            ) : null}
          </dl>
          {doc.content ? (
            <details>
              <summary>Content</summary>
              <pre className="content">{doc.content}</pre>
            </details>
          ) : null}
          <DeleteDocument api={api} doc={doc} onDeleted={() => navigate(`/documents?deleted=${encodeURIComponent(doc.id)}`)} />
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
                {memories.map((m) => {
                  const positions = m.sources?.find((x) => x.documentId === doc.id)?.chunkPositions ?? [];
                  return (
                    <li key={m.id}>
                      <Link to={`/memories?id=${encodeURIComponent(m.id)}`} navigate={navigate}>
                        {m.memory}
                      </Link>{" "}
                      <span className="muted mono">{m.id}</span> {m.version > 1 ? <span className="badge">v{m.version}</span> : null}
                      {positions.length ? <span className="muted"> · from chunk {positions.map((p) => `#${p}`).join(", ")}</span> : null}
                    </li>
                  );
                })}
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
                  <li
                    key={c.id}
                    id={`chunk-${c.position}`}
                    data-chunk-position={c.position}
                    className={c.position === focusChunk ? "highlight" : undefined}
                    aria-current={c.position === focusChunk ? "location" : undefined}
                    ref={c.position === focusChunk ? (el) => el?.scrollIntoView({ block: "center" }) : undefined}
                  >
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

/** Delete, confirmed: the document, its chunks, and the memories formed only from it (they are forgotten). */
function DeleteDocument({ api, doc, onDeleted }: { api: PageProps["api"]; doc: DocumentDetail; onDeleted: () => void }) {
  return (
    <ConfirmAction
      label="Delete…"
      question="Delete this document? Its chunks go, and memories formed only from it are forgotten."
      confirmLabel="Delete document"
      groupLabel="Confirm deleting the document"
      onConfirm={async () => {
        await api.deleteDocument(doc.id);
        onDeleted();
      }}
    />
  );
}
