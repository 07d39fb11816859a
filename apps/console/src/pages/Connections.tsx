import { Fragment, useCallback, useEffect, useState } from "react";
import { type Api, type Connection, type CreateConnectionRequest, type Provider, PROVIDERS, type RepositoryResource, type SyncRun } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, Notice, PageTitle, StatusBadge, TableHead, formatDate, usePolling, useSubmit } from "../ui";

const OAUTH: ReadonlySet<string> = new Set(["github", "notion", "google-drive", "gmail", "onedrive"]);
/** Providers that import nothing until resources are chosen (`/resources` + `/configure`). */
const NEEDS_SELECTION: ReadonlySet<string> = new Set(["github"]);
/** Repositories listed per page in the picker. */
const RESOURCES_PER_PAGE = 30;
const LABELS: Record<Provider, string> = {
  "web-crawler": "Web crawler",
  granola: "Granola",
  s3: "Amazon S3 (or S3-compatible)",
  github: "GitHub",
  notion: "Notion",
  "google-drive": "Google Drive",
  gmail: "Gmail",
  onedrive: "OneDrive / SharePoint",
};
/** The metadata fields each non-OAuth provider takes (docs/connectors.md). */
const FIELDS: Partial<Record<Provider, { name: string; label: string; required?: boolean; secret?: boolean; placeholder?: string }[]>> = {
  "web-crawler": [{ name: "startUrl", label: "Start URL", required: true, placeholder: "https://docs.example.com/" }],
  granola: [{ name: "apiKey", label: "Granola API key", required: true, secret: true, placeholder: "grn_…" }],
  s3: [
    { name: "bucket", label: "Bucket", required: true },
    { name: "prefix", label: "Prefix", placeholder: "handbook/" },
    { name: "region", label: "Region", placeholder: "us-east-1" },
    { name: "endpoint", label: "Endpoint (S3-compatible stores)", placeholder: "https://…" },
    { name: "accessKeyId", label: "Access key id", required: true },
    { name: "secretAccessKey", label: "Secret access key", required: true, secret: true },
  ],
};

/** Only an active connection syncs (a server that does not say is taken at its word). */
const syncable = (c: Connection) => !c.status || c.status === "active";
const running = (r?: SyncRun) => r?.status === "queued" || r?.status === "running";

function RunCell({ run }: { run?: SyncRun }) {
  if (!run) return <span className="muted">no run yet</span>;
  return (
    <div className="run">
      <StatusBadge status={run.status} />
      {run.trigger ? <span className="muted"> {run.trigger}</span> : null}
      {run.errorCode ? <span className="mono"> {run.errorCode}</span> : null}
      <div className="muted">
        {formatDate(run.startedAt)}
        {run.completedAt ? ` → ${formatDate(run.completedAt)}` : ""}
        {run.documentsImported !== undefined ? ` · ${run.documentsImported} document${run.documentsImported === 1 ? "" : "s"} imported` : ""}
      </div>
      {run.error ? <div className="error-text">{run.error}</div> : null}
    </div>
  );
}

/** What the status means for the user, when it is not simply active. */
const STATUS_HELP: Record<string, string> = {
  pending_authorization: "Waiting for authorisation on the provider's page. A refused or abandoned authorisation leaves it here: delete it and connect again.",
  auth_expired: "The provider no longer accepts its authorisation (revoked or expired): delete it and connect again.",
  expired: "Expired: it no longer syncs.",
  deleting: "Being deleted.",
};

function ConnectionState({ connection: c }: { connection: Connection }) {
  if (!c.status || c.status === "active") return null;
  return (
    <div className="connection-state">
      <StatusBadge status={c.status} />
      <div className="muted">{STATUS_HELP[c.status]}</div>
    </div>
  );
}

/** Back from a provider's authorisation page: the callback appends `connectionId`, `success` and, on failure, `error`. */
function oauthOutcome(): { notice?: string; failure?: string } {
  const q = new URLSearchParams(window.location.search);
  const id = q.get("connectionId");
  if (!id) return {};
  // Said once: a reload of the page does not repeat it.
  window.history.replaceState(null, "", window.location.pathname);
  if (q.get("success") === "true")
    return {
      notice: `Authorised ${id}: ${NEEDS_SELECTION.has(q.get("provider") ?? "") ? "choose what it imports to start its first sync" : "its first sync has started"}.`,
    };
  return { failure: `The authorisation of ${id} did not complete: ${q.get("error") ?? "refused"}` };
}

/** Connections: list with the last sync run (refreshed while one runs), create, import now, delete (with or without documents). */
export function ConnectionsPage({ api, containerTag }: PageProps) {
  const [connections, setConnections] = useState<Connection[]>();
  const [outcome] = useState(oauthOutcome);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>(outcome.notice);
  const [deleting, setDeleting] = useState<string>();
  /** The row whose panel is open below it: its run history or its repository picker. */
  const [panel, setPanel] = useState<{ id: string; kind: "history" | "resources" }>();
  const togglePanel = (id: string, kind: "history" | "resources") => setPanel((p) => (p?.id === id && p.kind === kind ? undefined : { id, kind }));
  const [keepDocuments, setKeepDocuments] = useState(false);
  /** Poll a little after a create or an import even before a run shows up. */
  const [watchUntil, setWatchUntil] = useState(0);

  const load = useCallback(
    () =>
      api.connections().then(
        (c) => {
          setConnections(c);
          setError(undefined);
        },
        (err: unknown) => setError(err),
      ),
    [api],
  );
  useEffect(() => void load(), [load]);
  const syncing = !!connections?.some((c) => running(c.lastSyncRun));
  const live = syncing || watchUntil > Date.now();
  usePolling(live, load, 1500);

  const importNow = async (c: Connection) => {
    setNotice(undefined);
    setError(undefined);
    // A provider this console does not know (a newer server) cannot be named in the import path.
    if (c.provider === "unknown") return;
    try {
      await api.importConnections(c.provider, c.containerTags);
      setNotice(`Sync started for ${c.provider} (${c.containerTags.join(", ")}).`);
      setWatchUntil(Date.now() + 10_000);
      await load();
    } catch (err) {
      setError(err);
    }
  };

  const remove = async (c: Connection) => {
    setNotice(undefined);
    setError(undefined);
    try {
      await api.deleteConnection(c.id, !keepDocuments);
      setDeleting(undefined);
      setNotice(`Deleted the ${c.provider} connection ${c.id}${keepDocuments ? ", keeping its documents" : " and its documents"}.`);
      await load();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <PageTitle>Connections</PageTitle>
      <NewConnection
        api={api}
        containerTag={containerTag}
        onCreated={(msg) => {
          setNotice(msg);
          setWatchUntil(Date.now() + 10_000);
          void load();
        }}
      />
      {outcome.failure ? (
        <div className="error" role="alert">
          {outcome.failure}
        </div>
      ) : null}
      <ErrorMessage error={error} />
      <Notice>{notice}</Notice>
      <section className="card" aria-labelledby="connections-heading">
        <h2 id="connections-heading">Connections {syncing ? <span className="live">(refreshing while a sync runs)</span> : null}</h2>
        {connections === undefined ? null : connections.length === 0 ? (
          <Empty>No connections yet. Connect a source above: its documents are imported into the container tag you choose.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <TableHead columns={["Provider", "Container tags", "Last sync", "Created"]} />
              <tbody>
                {connections.map((c) => (
                  <Fragment key={c.id}>
                    <tr data-connection-id={c.id} data-run-status={c.lastSyncRun?.status ?? "none"}>
                      <td>
                        {LABELS[c.provider as Provider] ?? c.provider}
                        {c.email ? <div>{c.email}</div> : null}
                        {typeof c.metadata?.startUrl === "string" ? <div className="mono">{c.metadata.startUrl}</div> : null}
                        <div className="muted mono">{c.id}</div>
                        <ConnectionState connection={c} />
                      </td>
                      <td>{c.containerTags.join(", ")}</td>
                      <td>
                        <RunCell run={c.lastSyncRun} />
                      </td>
                      <td>{formatDate(c.createdAt)}</td>
                      <td>
                        {deleting === c.id ? (
                          <div className="stack confirm" role="group" aria-label={`Confirm deleting ${c.id}`}>
                            <span>Delete this {c.provider} connection?</span>
                            <label className="check">
                              <input type="checkbox" checked={keepDocuments} onChange={(e) => setKeepDocuments(e.target.checked)} /> keep the documents it
                              imported
                            </label>
                            <div className="row">
                              <button type="button" className="danger" onClick={() => void remove(c)}>
                                Delete connection
                              </button>
                              <button type="button" className="secondary" onClick={() => setDeleting(undefined)}>
                                Cancel
                              </button>
                            </div>
                          </div>
                        ) : (
                          <div className="row wrap">
                            {NEEDS_SELECTION.has(c.provider) && syncable(c) ? (
                              <button
                                type="button"
                                aria-expanded={panel?.id === c.id && panel.kind === "resources"}
                                aria-controls={`panel-${c.id}`}
                                onClick={() => togglePanel(c.id, "resources")}
                              >
                                Choose repositories
                              </button>
                            ) : null}
                            {syncable(c) ? (
                              <button type="button" onClick={() => void importNow(c)} disabled={running(c.lastSyncRun)}>
                                Import now
                              </button>
                            ) : null}
                            <button
                              type="button"
                              className="secondary"
                              aria-expanded={panel?.id === c.id && panel.kind === "history"}
                              aria-controls={`panel-${c.id}`}
                              onClick={() => togglePanel(c.id, "history")}
                            >
                              History
                            </button>
                            <button
                              type="button"
                              className="secondary"
                              onClick={() => {
                                setKeepDocuments(false);
                                setDeleting(c.id);
                              }}
                            >
                              Delete…
                            </button>
                          </div>
                        )}
                      </td>
                    </tr>
                    {panel?.id === c.id ? (
                      <tr className="panel-row">
                        <td colSpan={5} id={`panel-${c.id}`}>
                          {panel.kind === "history" ? (
                            <RunHistory api={api} connection={c} />
                          ) : (
                            <RepositoryPicker
                              api={api}
                              connection={c}
                              onConfigured={(msg) => {
                                setPanel(undefined);
                                setNotice(msg);
                                setWatchUntil(Date.now() + 10_000);
                                void load();
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

/** The create form: the provider's own fields; OAuth providers answer a link to authorise on the provider's page. */
function NewConnection({ api, containerTag, onCreated }: Pick<PageProps, "api" | "containerTag"> & { onCreated: (msg: string) => void }) {
  const [provider, setProvider] = useState<Provider>("web-crawler");
  const [tag, setTag] = useState(containerTag);
  const [limit, setLimit] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  const { busy, error, submit: submitting } = useSubmit();
  const [authLink, setAuthLink] = useState<{ provider: string; url: string }>();
  useEffect(() => setTag(containerTag), [containerTag]);

  const fields = FIELDS[provider] ?? [];
  const submit = submitting(async () => {
    setAuthLink(undefined);
    const metadata: Record<string, string> = {};
    for (const f of fields) if (values[f.name]?.trim()) metadata[f.name] = values[f.name]!.trim();
    const body: CreateConnectionRequest = {
      containerTag: tag.trim(),
      ...(limit ? { documentLimit: Number(limit) } : {}),
      ...(fields.length ? { metadata } : {}),
      // OAuth: the provider's page sends the browser back here once the user has decided.
      ...(OAUTH.has(provider) ? { redirectUrl: `${window.location.origin}/console/connections?provider=${provider}` } : {}),
    };
    const out = await api.createConnection(provider, body);
    setValues({});
    if (OAUTH.has(provider) && out.authLink) {
      // The provider's page, in this tab: its answer comes back to this page (redirectUrl), still signed in.
      setAuthLink({ provider, url: out.authLink });
      onCreated(`Created ${out.id}: taking you to ${LABELS[provider]} to authorise it…`);
      window.location.assign(out.authLink);
    } else {
      onCreated(`Created ${out.id}: its first sync has started.`);
    }
  });

  return (
    <section className="card" aria-labelledby="new-connection-heading">
      <h2 id="new-connection-heading">New connection</h2>
      <form onSubmit={submit} className="grid-form">
        <label htmlFor="conn-provider">Provider</label>
        <select
          id="conn-provider"
          value={provider}
          onChange={(e) => {
            setProvider(e.target.value as Provider);
            setValues({});
            setAuthLink(undefined);
          }}
        >
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {LABELS[p]}
            </option>
          ))}
        </select>
        <label htmlFor="conn-tag">Into container tag</label>
        <input id="conn-tag" value={tag} onChange={(e) => setTag(e.target.value)} required pattern="[A-Za-z0-9._:\-]{1,100}" />
        {fields.map((f) => (
          <FieldRow key={`${provider}-${f.name}`} field={f} value={values[f.name] ?? ""} onChange={(v) => setValues((x) => ({ ...x, [f.name]: v }))} />
        ))}
        <label htmlFor="conn-limit">Document limit (optional)</label>
        <input id="conn-limit" type="number" min={1} max={10000} value={limit} onChange={(e) => setLimit(e.target.value)} />
        <div />
        <div>
          <button type="submit" disabled={busy}>
            {busy ? "Creating…" : OAUTH.has(provider) ? `Connect ${LABELS[provider]}` : "Create connection"}
          </button>
          {OAUTH.has(provider) ? (
            <p className="muted">
              You will authorise Engram on {LABELS[provider]}&apos;s own page, then come back here (the server needs its OAuth application configured).
            </p>
          ) : null}
        </div>
      </form>
      {authLink ? (
        <p role="status">
          <a className="button" href={authLink.url}>
            Continue to {LABELS[authLink.provider as Provider] ?? authLink.provider}
          </a>
        </p>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  );
}

function FieldRow({
  field,
  value,
  onChange,
}: {
  field: { name: string; label: string; required?: boolean; secret?: boolean; placeholder?: string };
  value: string;
  onChange: (v: string) => void;
}) {
  const id = `conn-${field.name}`;
  return (
    <>
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        type={field.secret ? "password" : "text"}
        autoComplete="off"
        value={value}
        required={field.required}
        placeholder={field.placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}

/** The connection's sync runs, newest first (the server keeps the last 100). */
function RunHistory({ api, connection }: { api: Api; connection: Connection }) {
  const [runs, setRuns] = useState<SyncRun[]>();
  const [error, setError] = useState<unknown>();
  const latest = connection.lastSyncRun;
  // Loaded again when the last run changes (the list refreshes while a sync runs).
  useEffect(() => {
    api.connectionRuns(connection.id).then(setRuns, setError);
  }, [api, connection.id, latest?.startedAt, latest?.status]);
  return (
    <section aria-label={`Sync history of ${connection.id}`}>
      <h3>Sync history</h3>
      <ErrorMessage error={error} />
      {runs === undefined ? null : runs.length === 0 ? (
        <Empty>No sync has run yet.</Empty>
      ) : (
        <ol className="list runs">
          {runs.map((r, i) => (
            <li key={`${r.startedAt ?? ""}-${i}`} data-run-status={r.status}>
              <RunCell run={r} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * GitHub imports only the repositories chosen here: the account's repositories, a page at a time; saving replaces the
 * selection, registers push webhooks where it can and starts a sync.
 */
function RepositoryPicker({ api, connection, onConfigured }: { api: Api; connection: Connection; onConfigured: (msg: string) => void }) {
  const [repos, setRepos] = useState<RepositoryResource[]>([]);
  const [page, setPage] = useState(0);
  const [more, setMore] = useState(false);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [loadError, setLoadError] = useState<unknown>();
  const { busy, error, submit } = useSubmit();

  const loadPage = useCallback(
    (n: number) =>
      api.connectionResources(connection.id, n, RESOURCES_PER_PAGE).then(
        (out) => {
          setRepos((r) => [...r, ...out.resources.filter((x) => !r.some((y) => y.id === x.id))]);
          setPage(n);
          setMore(out.total_count === undefined && out.resources.length === RESOURCES_PER_PAGE);
        },
        (err: unknown) => setLoadError(err),
      ),
    [api, connection.id],
  );
  useEffect(() => void loadPage(1), [loadPage]);

  const save = submit(async () => {
    const selection = repos
      .filter((r) => chosen.has(r.id))
      .map((r) => ({ id: r.id, name: r.full_name ?? r.name, ...(r.default_branch ? { defaultBranch: r.default_branch } : {}) }));
    const out = await api.configureConnection(connection.id, selection);
    onConfigured(`${out.message || `Configured ${selection.length} repositories`} (webhooks registered: ${out.webhooksRegistered}).`);
  });

  return (
    <form aria-label={`Repositories of ${connection.id}`} onSubmit={(e) => void save(e)}>
      <h3>Repositories to import</h3>
      <p className="muted">Saving replaces the current selection and starts a sync.</p>
      <ErrorMessage error={loadError} />
      {page > 0 && repos.length === 0 && !loadError ? <Empty>This account cannot read any repository.</Empty> : null}
      <fieldset className="repos">
        <legend className="visually-hidden">Repositories</legend>
        {repos.map((r) => (
          <label key={r.id} className="check">
            <input
              type="checkbox"
              checked={chosen.has(r.id)}
              onChange={(e) =>
                setChosen((c) => {
                  const next = new Set(c);
                  if (e.target.checked) next.add(r.id);
                  else next.delete(r.id);
                  return next;
                })
              }
            />{" "}
            {r.full_name ?? r.name}
            {r.private ? <span className="badge">private</span> : null}
            {r.description ? <span className="muted"> · {r.description}</span> : null}
          </label>
        ))}
      </fieldset>
      <div className="row">
        {more ? (
          <button type="button" className="secondary" onClick={() => void loadPage(page + 1)}>
            More repositories
          </button>
        ) : null}
        <button type="submit" disabled={busy || chosen.size === 0}>
          {busy ? "Saving…" : `Import ${chosen.size} repositor${chosen.size === 1 ? "y" : "ies"}`}
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
