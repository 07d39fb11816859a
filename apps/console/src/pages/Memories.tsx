import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from "react";
import type { Chunk, ForgetMatchingResponse, MemoryEntry, Pagination } from "../api";
import type { PageProps } from "../App";
import { ConfirmAction, Empty, ErrorMessage, Link, Notice, PageTitle, Pager, formatDate, useSubmit } from "../ui";

// The graph library is most of the console's weight: loaded when a memory with versions or relations is opened.
const MemoryGraph = lazy(() => import("./MemoryGraph").then((m) => ({ default: m.MemoryGraph })));

export function MemoriesPage({ api, containerTag, navigate }: PageProps) {
  const [entries, setEntries] = useState<MemoryEntry[]>();
  const [error, setError] = useState<unknown>();
  const [includeForgotten, setIncludeForgotten] = useState(false);
  // `?id=m_…` (from a document's page) opens that memory.
  const [openId, setOpenId] = useState<string | undefined>(() => new URLSearchParams(window.location.search).get("id") ?? undefined);

  const [pagination, setPagination] = useState<Pagination>();
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [containerTag, includeForgotten]);
  const load = useCallback(
    () =>
      api.listMemories(containerTag, includeForgotten, page).then(
        (m) => {
          setEntries(m.items);
          setPagination(m.pagination);
          setError(undefined);
        },
        (err: unknown) => setError(err),
      ),
    [api, containerTag, includeForgotten, page],
  );
  useEffect(() => void load(), [load]);
  const open = entries?.find((m) => m.id === openId);

  return (
    <>
      <PageTitle>Memories</PageTitle>
      <AddMemory
        api={api}
        containerTag={containerTag}
        onAdded={(id) => {
          setOpenId(id);
          void load();
        }}
      />
      <ForgetMatching api={api} containerTag={containerTag} onForgotten={() => void load()} />
      <div className="split">
        <section className="card" aria-labelledby="mem-list-heading">
          <div className="row spread">
            <h2 id="mem-list-heading">In {containerTag}</h2>
            <label className="check">
              <input type="checkbox" checked={includeForgotten} onChange={(e) => setIncludeForgotten(e.target.checked)} /> include forgotten
            </label>
          </div>
          <ErrorMessage error={error} />
          {entries === undefined ? null : entries.length === 0 ? (
            <Empty>No memories in {containerTag} yet. Memories are formed from the documents you add.</Empty>
          ) : (
            <ul className="list memories">
              {entries.map((m) => (
                <li key={m.id} className={m.isForgotten ? "forgotten" : undefined}>
                  <button type="button" className="link" aria-expanded={m.id === openId} onClick={() => setOpenId(m.id === openId ? undefined : m.id)}>
                    {m.memory}
                  </button>
                  <div className="muted">
                    v{m.version}
                    {m.isStatic ? " · static" : ""}
                    {m.isForgotten ? " · forgotten" : ""}
                    {m.history?.length ? ` · ${m.history.length} earlier version${m.history.length === 1 ? "" : "s"}` : ""} · {m.documentIds.length} source
                    {m.documentIds.length === 1 ? "" : "s"}
                  </div>
                </li>
              ))}
            </ul>
          )}
          <Pager pagination={pagination} onPage={setPage} label="Memory pages" />
        </section>
        {open ? (
          <MemoryDetail
            key={open.id}
            memory={open}
            all={entries ?? []}
            onOpen={setOpenId}
            api={api}
            containerTag={containerTag}
            navigate={navigate}
            onForgotten={() => {
              setOpenId(undefined);
              void load();
            }}
          />
        ) : null}
      </div>
    </>
  );
}

interface MemoryDetailProps extends PageProps {
  memory: MemoryEntry;
  /** The listed memories, to name a relation's other end. */
  all: MemoryEntry[];
  onOpen: (id: string) => void;
  onForgotten: () => void;
}

function MemoryDetail({ memory: m, all, onOpen, api, containerTag, navigate, onForgotten }: MemoryDetailProps) {
  const relations = Object.entries(m.memoryRelations ?? {});
  return (
    <section className="card" aria-labelledby="memory-heading">
      <h2 id="memory-heading">Memory</h2>
      <p className="result-text">{m.memory}</p>
      <dl className="facts">
        <dt>Id</dt>
        <dd className="mono">{m.id}</dd>
        <dt>Version</dt>
        <dd>
          {m.version}
          {m.isLatest ? " (latest)" : ""}
        </dd>
        <dt>Created</dt>
        <dd>{formatDate(m.createdAt)}</dd>
        {m.forgetReason ? (
          <>
            <dt>Forget reason</dt>
            <dd>{m.forgetReason}</dd>
          </>
        ) : null}
      </dl>
      <h3>Source documents</h3>
      {m.documentIds.length === 0 ? (
        <Empty>Created directly through the API, not from a document.</Empty>
      ) : (
        <Provenance api={api} memory={m} navigate={navigate} />
      )}
      <h3>Versions and relations</h3>
      {m.history?.length || relations.length || all.some((x) => x.memoryRelations?.[m.id]) ? (
        <Suspense fallback={<p className="muted">Loading the graph…</p>}>
          <MemoryGraph memory={m} all={all} onSelect={(id) => id !== m.id && all.some((x) => x.id === id) && onOpen(id)} />
        </Suspense>
      ) : (
        <Empty>This is the first version, with no relation to another memory.</Empty>
      )}
      {m.isForgotten || !m.isLatest ? null : <EditMemory api={api} memory={m} containerTag={containerTag} onSaved={onOpen} onSavedReload={onForgotten} />}
      {m.isForgotten ? null : (
        <ConfirmAction
          label="Forget…"
          question="Forget this memory? Searches and profiles stop returning it."
          confirmLabel="Confirm forget"
          groupLabel="Confirm forgetting"
          onConfirm={async () => {
            await api.forgetMemory(m.id, containerTag, "forgotten in the console");
            onForgotten();
          }}
        />
      )}
    </section>
  );
}

/** Source documents shown with their chunks at most this many. */
const PROVENANCE_DOCUMENTS = 5;

/**
 * Where the memory came from: each source document, linked, and the text of the chunks it was formed from, each
 * linked to that chunk on the document's page. A document deleted since is said so.
 */
function Provenance({ api, memory, navigate }: Pick<PageProps, "api" | "navigate"> & { memory: MemoryEntry }) {
  const sources = memory.sources ?? memory.documentIds.map((documentId) => ({ documentId, chunkPositions: [] as number[] }));
  const [chunks, setChunks] = useState<Record<string, Chunk[] | "unavailable">>({});
  useEffect(() => {
    let cancelled = false;
    for (const s of sources.slice(0, PROVENANCE_DOCUMENTS)) {
      if (s.chunkPositions.length === 0) continue;
      api.chunks(s.documentId).then(
        (c) => !cancelled && setChunks((x) => ({ ...x, [s.documentId]: c })),
        () => !cancelled && setChunks((x) => ({ ...x, [s.documentId]: "unavailable" })),
      );
    }
    return () => {
      cancelled = true;
    };
  }, [api, memory]);
  return (
    <ul className="list provenance" aria-label="Provenance">
      {sources.map((s, i) => {
        const loaded = chunks[s.documentId];
        return (
          <li key={s.documentId} data-document-id={s.documentId}>
            <Link to={`/documents/${encodeURIComponent(s.documentId)}`} navigate={navigate} className="mono">
              {s.documentId}
            </Link>
            {s.chunkPositions.length ? (
              <span className="muted">
                {" "}
                · chunk{s.chunkPositions.length === 1 ? "" : "s"} {s.chunkPositions.map((p) => `#${p}`).join(", ")}
              </span>
            ) : null}
            {i >= PROVENANCE_DOCUMENTS ? null : loaded === "unavailable" ? (
              <p className="muted">This document is no longer available.</p>
            ) : loaded ? (
              s.chunkPositions.map((p) => {
                const chunk = loaded.find((c) => c.position === p);
                return (
                  <blockquote key={p} className="source-chunk" data-chunk-position={p}>
                    <pre className="content">{chunk ? chunk.content : "(this chunk was replaced when the document was processed again)"}</pre>
                    <Link to={`/documents/${encodeURIComponent(s.documentId)}?chunk=${p}`} navigate={navigate}>
                      Open chunk #{p} in its document
                    </Link>
                  </blockquote>
                );
              })
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Forget by topic: a dry run lists what would go, then the confirmation forgets exactly those (by id). */
function ForgetMatching({ api, containerTag, onForgotten }: Pick<PageProps, "api" | "containerTag"> & { onForgotten: () => void }) {
  const [query, setQuery] = useState("");
  const [threshold, setThreshold] = useState("0.8");
  const [preview, setPreview] = useState<ForgetMatchingResponse>();
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();

  const dryRun = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    try {
      setPreview(await api.forgetMatching({ containerTag, query, threshold: Number(threshold), dryRun: true }));
    } catch (err) {
      setError(err);
    }
  };
  const confirm = async () => {
    const ids = preview?.candidates?.map((c) => c.id) ?? [];
    if (ids.length === 0) return;
    try {
      const out = await api.forgetMatching({ containerTag, ids, dryRun: false });
      setDone(`Forgot ${out.count} memor${out.count === 1 ? "y" : "ies"}.`);
      setPreview(undefined);
      onForgotten();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section className="card" aria-labelledby="forget-heading">
      <h2 id="forget-heading">Forget by topic</h2>
      <form onSubmit={dryRun} className="row wrap">
        <label htmlFor="forget-query">Topic</label>
        <input id="forget-query" value={query} onChange={(e) => setQuery(e.target.value)} required placeholder="everything about Project Titan" />
        <label htmlFor="forget-threshold">Threshold</label>
        <input id="forget-threshold" type="number" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
        <button type="submit" className="secondary">
          Preview (dry run)
        </button>
      </form>
      {preview ? (
        <div className="preview" aria-live="polite">
          <p>{preview.summary}</p>
          {preview.candidates?.length ? (
            <>
              <ul className="list">
                {preview.candidates.map((c) => (
                  <li key={c.id}>
                    {c.memory} <span className="muted">score {c.score.toFixed(2)}</span>
                  </li>
                ))}
              </ul>
              <div className="row">
                <button type="button" className="danger" onClick={() => void confirm()}>
                  Forget these {preview.candidates.length}
                </button>
                <button type="button" className="secondary" onClick={() => setPreview(undefined)}>
                  Cancel
                </button>
              </div>
            </>
          ) : (
            <Empty>Nothing matches at this threshold; nothing would be forgotten.</Empty>
          )}
        </div>
      ) : null}
      <Notice>{done}</Notice>
      <ErrorMessage error={error} />
    </section>
  );
}

/** Writes a memory directly, without a document (static: a lasting fact of the profile). */
function AddMemory({ api, containerTag, onAdded }: Pick<PageProps, "api" | "containerTag"> & { onAdded: (id: string) => void }) {
  const [content, setContent] = useState("");
  const [isStatic, setIsStatic] = useState(false);
  const [added, setAdded] = useState<string>();
  const { busy, error, submit } = useSubmit();
  const add = submit(async () => {
    const out = await api.addMemories({ containerTag, memories: [{ content: content.trim(), isStatic }] });
    const id = out.memories?.[0]?.id;
    setAdded(`Added ${id ?? "the memory"}.`);
    setContent("");
    if (id) onAdded(id);
  });
  return (
    <section className="card" aria-labelledby="add-memory-heading">
      <h2 id="add-memory-heading">Add a memory to {containerTag}</h2>
      <form onSubmit={add} className="row wrap">
        <label htmlFor="memory-content">New memory</label>
        <input
          id="memory-content"
          className="grow"
          value={content}
          onChange={(e) => setContent(e.target.value)}
          required
          placeholder="Alex prefers dark mode"
        />
        <label className="check">
          <input type="checkbox" checked={isStatic} onChange={(e) => setIsStatic(e.target.checked)} /> static (a lasting fact)
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Adding…" : "Add memory"}
        </button>
      </form>
      <Notice>{added}</Notice>
      <ErrorMessage error={error} />
    </section>
  );
}

/** A new version with new content: the memory keeps its id chain, the old text stays in its history. */
function EditMemory({
  api,
  memory,
  containerTag,
  onSaved,
  onSavedReload,
}: Pick<PageProps, "api" | "containerTag"> & { memory: MemoryEntry; onSaved: (id: string) => void; onSavedReload: () => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(memory.memory);
  const { busy, error, submit } = useSubmit();
  const save = submit(async () => {
    const out = await api.updateMemory(memory.id, containerTag, text.trim());
    setEditing(false);
    onSavedReload();
    onSaved(out.id);
  });
  if (!editing)
    return (
      <button type="button" className="secondary" onClick={() => setEditing(true)}>
        Edit (new version)…
      </button>
    );
  return (
    <form onSubmit={save} className="stack" aria-label="Edit the memory">
      <label htmlFor="memory-edit">New content</label>
      <textarea id="memory-edit" rows={2} value={text} onChange={(e) => setText(e.target.value)} required />
      <div className="row">
        <button type="submit" disabled={busy || text.trim() === memory.memory}>
          {busy ? "Saving…" : "Save as a new version"}
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
