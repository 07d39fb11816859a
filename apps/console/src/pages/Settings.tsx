import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { PageProps } from "../App";
import { ErrorMessage, Notice, PageTitle } from "../ui";

interface Bucket {
  key: string;
  description: string;
}

/** The form's fields, as text (what the inputs hold). */
interface Draft {
  chunkSize: string;
  workspacePrompt: string;
  filterPrompt: string;
  shouldLLMFilter: "" | "true" | "false";
  includeItems: string;
  excludeItems: string;
  profileBuckets: Bucket[];
}

const BUCKET_KEY_RE = /^[a-z0-9][a-z0-9_-]*$/;

function draftOf(s: Record<string, unknown>): Draft {
  const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v, null, 2));
  return {
    chunkSize: typeof s.chunkSize === "number" ? String(s.chunkSize) : "",
    workspacePrompt: typeof s.workspacePrompt === "string" ? s.workspacePrompt : "",
    filterPrompt: typeof s.filterPrompt === "string" ? s.filterPrompt : "",
    shouldLLMFilter: s.shouldLLMFilter === true ? "true" : s.shouldLLMFilter === false ? "false" : "",
    includeItems: json(s.includeItems),
    excludeItems: json(s.excludeItems),
    profileBuckets: Array.isArray(s.profileBuckets) ? (s.profileBuckets as Bucket[]).map((b) => ({ key: b.key, description: b.description ?? "" })) : [],
  };
}

/**
 * What changed between the stored settings and the form, as PATCH bodies: `workspacePrompt` must be sent alone, so it
 * is a second body. An emptied field is sent as null (cleared). Problems the browser can see are returned instead.
 */
export function patchesOf(before: Draft, after: Draft): { patches: Record<string, unknown>[]; problems: string[] } {
  const problems: string[] = [];
  const other: Record<string, unknown> = {};
  if (after.chunkSize !== before.chunkSize) {
    const t = after.chunkSize.trim();
    if (t === "") other.chunkSize = null;
    else if (!/^-?\d+$/.test(t)) problems.push("Chunk size: a whole number (tokens), or empty for the default");
    else other.chunkSize = Number(t);
  }
  if (after.filterPrompt !== before.filterPrompt) other.filterPrompt = after.filterPrompt.trim() ? after.filterPrompt : null;
  if (after.shouldLLMFilter !== before.shouldLLMFilter) other.shouldLLMFilter = after.shouldLLMFilter === "" ? null : after.shouldLLMFilter === "true";
  for (const [field, label] of [
    ["includeItems", "Include items"],
    ["excludeItems", "Exclude items"],
  ] as const) {
    if (after[field] === before[field]) continue;
    if (!after[field].trim()) other[field] = null;
    else {
      try {
        other[field] = JSON.parse(after[field]) as unknown;
      } catch {
        problems.push(`${label}: not valid JSON`);
      }
    }
  }
  if (JSON.stringify(after.profileBuckets) !== JSON.stringify(before.profileBuckets)) {
    const seen = new Set<string>();
    after.profileBuckets.forEach((b, i) => {
      if (!BUCKET_KEY_RE.test(b.key) || b.key.length > 64)
        problems.push(`Bucket ${i + 1}: the key takes 1-64 lowercase letters, digits, '_' and '-', starting with a letter or digit`);
      else if (seen.has(b.key)) problems.push(`Bucket ${i + 1}: the key '${b.key}' is already used`);
      seen.add(b.key);
    });
    other.profileBuckets = after.profileBuckets.map((b) => ({ key: b.key, description: b.description }));
  }
  const patches: Record<string, unknown>[] = [];
  if (Object.keys(other).length) patches.push(other);
  if (after.workspacePrompt !== before.workspacePrompt) patches.push({ workspacePrompt: after.workspacePrompt.trim() ? after.workspacePrompt : null });
  return { patches, problems };
}

/** The organisation's settings as a form (GET and PATCH /v3/settings); the answer's warnings are shown. */
export function SettingsPage({ api }: PageProps) {
  const [stored, setStored] = useState<Draft>();
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<unknown>();
  const [problems, setProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState<string>();
  const [warnings, setWarnings] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      api.settings().then((s) => {
        const d = draftOf(s);
        setStored(d);
        setDraft(d);
      }, setError),
    [api],
  );
  useEffect(() => void load(), [load]);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => (d ? { ...d, [k]: v } : d));
  const setBucket = (i: number, b: Partial<Bucket>) =>
    set(
      "profileBuckets",
      draft!.profileBuckets.map((x, j) => (j === i ? { ...x, ...b } : x)),
    );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!stored || !draft) return;
    setError(undefined);
    setSaved(undefined);
    setWarnings([]);
    const { patches, problems: found } = patchesOf(stored, draft);
    setProblems(found);
    if (found.length) return;
    if (!patches.length) {
      setSaved("Nothing to save.");
      return;
    }
    setBusy(true);
    try {
      const w: string[] = [];
      const fields: string[] = [];
      for (const p of patches) {
        const out = await api.patchSettings(p);
        if (Array.isArray(out.warnings)) w.push(...(out.warnings as string[]));
        fields.push(...Object.keys((out.updated as Record<string, unknown> | undefined) ?? p));
      }
      setWarnings(w);
      setSaved(`Saved ${fields.join(", ")}.`);
      await load();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle>Settings</PageTitle>
      <ErrorMessage error={error} />
      {draft ? (
        <form onSubmit={save} className="stack" aria-label="Settings">
          <section className="card" aria-labelledby="processing-heading">
            <h2 id="processing-heading">Processing</h2>
            <div className="grid-form">
              <label htmlFor="set-chunk-size">Chunk size (tokens)</label>
              <div>
                <input
                  id="set-chunk-size"
                  inputMode="numeric"
                  value={draft.chunkSize}
                  onChange={(e) => set("chunkSize", e.target.value)}
                  placeholder="default"
                  aria-describedby="set-chunk-size-help"
                />
                <p id="set-chunk-size-help" className="muted">
                  For documents processed from now on; clamped to 32-8192. Empty: the server&apos;s default.
                </p>
              </div>
              <label htmlFor="set-workspace-prompt">Workspace prompt</label>
              <textarea
                id="set-workspace-prompt"
                rows={3}
                maxLength={1500}
                value={draft.workspacePrompt}
                onChange={(e) => set("workspacePrompt", e.target.value)}
              />
            </div>
          </section>
          <section className="card" aria-labelledby="filter-heading">
            <h2 id="filter-heading">Filtering</h2>
            <div className="grid-form">
              <label htmlFor="set-llm-filter">Filter with the LLM</label>
              <select id="set-llm-filter" value={draft.shouldLLMFilter} onChange={(e) => set("shouldLLMFilter", e.target.value as Draft["shouldLLMFilter"])}>
                <option value="">not set</option>
                <option value="true">yes</option>
                <option value="false">no</option>
              </select>
              <label htmlFor="set-filter-prompt">Filter prompt</label>
              <textarea id="set-filter-prompt" rows={3} value={draft.filterPrompt} onChange={(e) => set("filterPrompt", e.target.value)} />
              <label htmlFor="set-include">Include items (JSON)</label>
              <textarea id="set-include" className="mono" rows={3} value={draft.includeItems} onChange={(e) => set("includeItems", e.target.value)} />
              <label htmlFor="set-exclude">Exclude items (JSON)</label>
              <textarea id="set-exclude" className="mono" rows={3} value={draft.excludeItems} onChange={(e) => set("excludeItems", e.target.value)} />
            </div>
          </section>
          <section className="card" aria-labelledby="buckets-heading">
            <h2 id="buckets-heading">Profile buckets</h2>
            {draft.profileBuckets.length === 0 ? <p className="empty">No buckets: profiles have static and dynamic facts only.</p> : null}
            <ol className="list buckets">
              {draft.profileBuckets.map((b, i) => (
                <li key={i} className="row">
                  <label htmlFor={`bucket-key-${i}`}>Key {i + 1}</label>
                  <input id={`bucket-key-${i}`} value={b.key} maxLength={64} onChange={(e) => setBucket(i, { key: e.target.value })} placeholder="work" />
                  <label htmlFor={`bucket-desc-${i}`}>Description {i + 1}</label>
                  <input id={`bucket-desc-${i}`} value={b.description} maxLength={2000} onChange={(e) => setBucket(i, { description: e.target.value })} />
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Remove bucket ${i + 1}`}
                    onClick={() =>
                      set(
                        "profileBuckets",
                        draft.profileBuckets.filter((_, j) => j !== i),
                      )
                    }
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ol>
            <button
              type="button"
              className="secondary"
              disabled={draft.profileBuckets.length >= 50}
              onClick={() => set("profileBuckets", [...draft.profileBuckets, { key: "", description: "" }])}
            >
              Add bucket
            </button>
          </section>
          {problems.length ? (
            <div className="error" role="alert">
              <strong>Check the form</strong>
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="row">
            <button type="submit" disabled={busy}>
              {busy ? "Saving…" : "Save settings"}
            </button>
            <button type="button" className="secondary" onClick={() => setDraft(stored)} disabled={busy}>
              Discard changes
            </button>
          </div>
          <Notice>{saved}</Notice>
          {warnings.length ? (
            <div className="warnings" role="status" aria-label="Warnings">
              <strong>The server warns:</strong>
              <ul>
                {warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </form>
      ) : null}
    </>
  );
}
