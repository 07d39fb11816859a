import { useCallback, useEffect, useState } from "react";
import type { ApiKey } from "../api";
import type { PageProps } from "../App";
import { ConfirmAction, Empty, ErrorMessage, Notice, PageTitle, TableHead, formatDate, useSubmit } from "../ui";

const SCOPES = ["read", "write", "admin"] as const;
const SCOPE_HELP: Record<(typeof SCOPES)[number], string> = {
  read: "search and read",
  write: "add, change and delete content",
  admin: "keys, settings, connections",
};

/**
 * The tenant's API keys (GET/POST /v3/keys, DELETE /v3/keys/{id}): list, create (the secret shown once, with a copy
 * button) with its scopes and container tags (never more than this console key's own), revoke after a confirmation.
 * The key this console signed in with cannot be revoked from here.
 */
export function KeysPage({ api }: PageProps) {
  const [keys, setKeys] = useState<ApiKey[]>();
  // one error line for loading and creating
  const { busy, error, setError, submit } = useSubmit();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Set<string>>(new Set(SCOPES));
  const [tags, setTags] = useState("");
  const [created, setCreated] = useState<ApiKey & { key: string }>();
  const [copied, setCopied] = useState<string>();
  const [revoked, setRevoked] = useState<string>();

  const load = useCallback(() => api.listKeys().then(setKeys, setError), [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const create = submit(async () => {
    setCopied(undefined);
    setRevoked(undefined);
    const containerTags = tags
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    setCreated(
      await api.createKey(name.trim(), {
        scopes: SCOPES.filter((x) => scopes.has(x)),
        ...(containerTags.length ? { containerTags } : {}),
      }),
    );
    setName("");
    setTags("");
    await load();
  });

  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("The browser refused the clipboard: select the key and copy it.");
    }
  };

  // Its failure is shown by the confirmation, next to the key.
  const revoke = async (k: ApiKey) => {
    setRevoked(undefined);
    await api.revokeKey(k.id);
    setRevoked(`Revoked ${k.name} (${k.prefix}…).`);
    if (created?.id === k.id) setCreated(undefined);
    await load();
  };

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <section className="card" aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">New key</h2>
        <p className="muted">A key of this tenant. Its secret is shown once, here: only its SHA-256 is stored.</p>
        <form onSubmit={create} className="row">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required placeholder="ci" />
          <fieldset className="row">
            <legend>Scopes</legend>
            {SCOPES.map((x) => (
              <label key={x} className="check" title={SCOPE_HELP[x]}>
                <input
                  type="checkbox"
                  checked={scopes.has(x)}
                  onChange={(e) =>
                    setScopes((c) => {
                      const next = new Set(c);
                      if (e.target.checked) next.add(x);
                      else next.delete(x);
                      return next;
                    })
                  }
                />{" "}
                {x}
              </label>
            ))}
          </fieldset>
          <label htmlFor="key-tags">Container tags</label>
          <input id="key-tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="all (or user_1, user_2)" />
          <button type="submit" disabled={busy || !name.trim() || scopes.size === 0}>
            {busy ? "Creating…" : "Create key"}
          </button>
        </form>
        {created ? (
          <div className="stack secret" role="status" aria-live="polite">
            <p>
              <strong>Created {created.name}.</strong> Copy its secret now: it is not shown again.
            </p>
            <div className="row">
              <label htmlFor="new-key-secret">New API key</label>
              <input id="new-key-secret" className="mono" readOnly value={created.key} onFocus={(e) => e.target.select()} size={44} />
              <button type="button" onClick={() => void copy(created.key)}>
                Copy
              </button>
              <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
                Done
              </button>
            </div>
            {copied ? <p className="muted">{copied}</p> : null}
          </div>
        ) : null}
      </section>
      <ErrorMessage error={error} />
      <Notice>{revoked}</Notice>
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {keys === undefined ? null : keys.length === 0 ? (
          <Empty>No keys.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <TableHead columns={["Name", "Prefix", "Rights", "Created", "Status"]} />
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <td>
                      {k.name}
                      <div className="muted mono">{k.id}</div>
                    </td>
                    <td className="mono">{k.prefix}…</td>
                    <td>
                      {k.scopes.join(", ")}
                      <div className="muted">{k.containerTags ? `tags: ${k.containerTags.join(", ")}` : "all tags"}</div>
                    </td>
                    <td>{formatDate(k.createdAt)}</td>
                    <td>
                      {k.revokedAt ? (
                        <span className="badge status-failed">revoked {formatDate(k.revokedAt)}</span>
                      ) : (
                        <span className="badge status-done">active</span>
                      )}
                      {k.current ? <div className="muted">this console&apos;s key</div> : null}
                    </td>
                    <td>
                      {k.revokedAt || k.current ? null : (
                        <ConfirmAction
                          label="Revoke…"
                          labelAria={`Revoke ${k.name}…`}
                          quiet
                          question={`Revoke ${k.name}? Its users get 401 from now on.`}
                          confirmLabel={`Revoke ${k.name}`}
                          groupLabel={`Confirm revoking ${k.name}`}
                          onConfirm={() => revoke(k)}
                        />
                      )}
                    </td>
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
