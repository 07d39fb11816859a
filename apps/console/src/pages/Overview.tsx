import { useCallback, useEffect, useState } from "react";
import type { Api, DocumentListItem, DocumentStatus, Pagination } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, formatDate, Link, PageTitle, Pager, usePolling } from "../ui";

const POLL_MS = 2000;
/** The states between queued and done (or failed). */
const PROCESSING: DocumentStatus[] = ["extracting", "chunking", "embedding", "indexing"];

interface Counts {
  queued: number;
  processing: number;
  failed: number;
}

/** The documents queued, being processed and failed: in one tag, or in every tag the key may see. */
async function countsOf(api: Api, containerTag: string | undefined): Promise<Counts> {
  const [queued, processing, failed] = await Promise.all([
    api.countDocuments(containerTag, ["queued"]),
    api.countDocuments(containerTag, PROCESSING),
    api.countDocuments(containerTag, ["failed"]),
  ]);
  return { queued, processing, failed };
}

/**
 * What is processing or failed: the counts in the current container tag and in every tag the key may see (a key
 * limited to some tags sees those: the document list is confined to them), then the failed documents with the reason
 * each failed, linking to the document. Polls while anything is queued or being processed.
 */
export function OverviewPage({ api, containerTag, navigate }: PageProps) {
  const [counts, setCounts] = useState<{ tag: Counts; all: Counts }>();
  const [failed, setFailed] = useState<DocumentListItem[]>();
  const [pagination, setPagination] = useState<Pagination>();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>();

  const load = useCallback(async () => {
    try {
      const [tag, all, f] = await Promise.all([countsOf(api, containerTag), countsOf(api, undefined), api.listFailed(page)]);
      setCounts({ tag, all });
      setFailed(f.items);
      setPagination(f.pagination);
      setError(undefined);
    } catch (err) {
      setError(err);
    }
  }, [api, containerTag, page]);
  useEffect(() => void load(), [load]);
  const pending = counts !== undefined && counts.all.queued + counts.all.processing > 0;
  usePolling(pending, load, POLL_MS);

  const row = (label: string, scope: string, c: Counts) => (
    <tr data-scope={scope}>
      <th scope="row">{label}</th>
      <td data-count="queued">{c.queued}</td>
      <td data-count="processing">{c.processing}</td>
      <td data-count="failed" className={c.failed ? "error-text" : undefined}>
        {c.failed}
      </td>
    </tr>
  );

  return (
    <>
      <PageTitle>Overview</PageTitle>
      <ErrorMessage error={error} />
      <section className="card" aria-labelledby="processing-heading">
        <h2 id="processing-heading">
          Processing
          {pending ? <span className="live"> · updating</span> : null}
        </h2>
        {counts === undefined ? (
          error ? null : (
            <p aria-busy="true">Loading…</p>
          )
        ) : (
          <div className="table-wrap">
            <table aria-label="Documents by state">
              <thead>
                <tr>
                  <th scope="col">Documents</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Processing</th>
                  <th scope="col">Failed</th>
                </tr>
              </thead>
              <tbody>
                {row(`In ${containerTag}`, "tag", counts.tag)}
                {row("In every container tag", "all", counts.all)}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="failed-heading">
        <h2 id="failed-heading">Failed documents</h2>
        {failed === undefined ? null : failed.length === 0 ? (
          <Empty>No document failed.</Empty>
        ) : (
          <ul className="list failed" aria-labelledby="failed-heading">
            {failed.map((d) => (
              <li key={d.id} data-document-id={d.id}>
                <Link to={`/documents/${encodeURIComponent(d.id)}`} navigate={navigate}>
                  {d.title || d.customId || d.url || d.id}
                </Link>{" "}
                <span className="muted">
                  in {d.containerTags.join(", ")} · failed {formatDate(d.updatedAt)}
                </span>
                <div className="error-text">{d.failureReason ?? "No reason was recorded."}</div>
              </li>
            ))}
          </ul>
        )}
        <Pager pagination={pagination} onPage={setPage} label="Failed document pages" />
      </section>
    </>
  );
}
