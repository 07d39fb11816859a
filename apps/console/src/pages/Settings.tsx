import { type FormEvent, useEffect, useState } from "react";
import type { Connection } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, PageTitle, formatDate } from "../ui";

/** The organisation's settings: shown as JSON, changed with a JSON patch (PATCH /v3/settings). */
export function SettingsPage({ api }: PageProps) {
  const [settings, setSettings] = useState<Record<string, unknown>>();
  const [patch, setPatch] = useState("{}");
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api.settings().then(setSettings, setError);
  }, [api]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(patch) as Record<string, unknown>;
    } catch {
      setError(new Error("the patch is not valid JSON"));
      return;
    }
    try {
      await api.patchSettings(body);
      setSettings(await api.settings());
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <section className="card" aria-labelledby="current-heading">
        <h2 id="current-heading">Current settings</h2>
        {settings ? <pre className="content">{JSON.stringify(settings, null, 2)}</pre> : null}
      </section>
      <section className="card" aria-labelledby="patch-heading">
        <h2 id="patch-heading">Change settings</h2>
        <form onSubmit={save} className="stack">
          <label htmlFor="settings-patch">Fields to change (JSON, as PATCH /v3/settings takes them)</label>
          <textarea id="settings-patch" rows={6} className="mono" value={patch} onChange={(e) => setPatch(e.target.value)} />
          <div>
            <button type="submit">Save</button>
          </div>
        </form>
        {saved ? (
          <p role="status" className="ok">
            Saved.
          </p>
        ) : null}
      </section>
      <ErrorMessage error={error} />
    </>
  );
}

export function ConnectionsPage({ api }: PageProps) {
  const [connections, setConnections] = useState<Connection[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api.connections().then(setConnections, setError);
  }, [api]);
  return (
    <>
      <PageTitle>Connections</PageTitle>
      <ErrorMessage error={error} />
      <section className="card">
        {connections === undefined ? null : connections.length === 0 ? (
          <Empty>No connections. Connect a source with POST /v3/connections/&#123;provider&#125; (see the API reference at /docs).</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Account</th>
                  <th scope="col">Container tags</th>
                  <th scope="col">Last sync</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {connections.map((c) => (
                  <tr key={c.id}>
                    <td>
                      {c.provider}
                      <div className="muted mono">{c.id}</div>
                    </td>
                    <td>{c.email ?? "—"}</td>
                    <td>{c.containerTags.join(", ")}</td>
                    <td>
                      {c.lastSyncRun ? `${c.lastSyncRun.status} (${formatDate(c.lastSyncRun.startedAt)})` : "never"}
                      {c.lastSyncRun?.error ? <div className="error-text">{c.lastSyncRun.error}</div> : null}
                    </td>
                    <td>{formatDate(c.createdAt)}</td>
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
