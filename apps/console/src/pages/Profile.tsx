import { useEffect, useState } from "react";
import type { ProfileResponse, SearchResult } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, PageTitle, useSubmit } from "../ui";

function Facts({ items, empty }: { items: string[] | undefined; empty: string }) {
  if (!items?.length) return <Empty>{empty}</Empty>;
  return (
    <ul className="list">
      {items.map((x, i) => (
        <li key={i}>{x}</li>
      ))}
    </ul>
  );
}

export function ProfilePage({ api, containerTag }: PageProps) {
  const [profile, setProfile] = useState<ProfileResponse>();
  const [error, setError] = useState<unknown>();
  const [q, setQ] = useState("");
  const [asked, setAsked] = useState<{ q: string; results: SearchResult[] }>();
  const { busy, error: askError, submit } = useSubmit();
  useEffect(() => {
    setAsked(undefined);
    api.profile(containerTag).then(setProfile, setError);
  }, [api, containerTag]);
  // The profile and the memories that answer a question, in one call (what an agent would put in its prompt).
  const ask = submit(async () => {
    const out = await api.profile(containerTag, q.trim());
    setProfile(out);
    setAsked({ q: q.trim(), results: out.searchResults?.results ?? [] });
  });
  const buckets = Object.entries(profile?.profile.buckets ?? {});
  return (
    <>
      <PageTitle>Profile of {containerTag}</PageTitle>
      <ErrorMessage error={error} />
      <section className="card" aria-labelledby="ask-heading">
        <h2 id="ask-heading">Ask with the profile</h2>
        <form onSubmit={ask} className="row wrap">
          <label htmlFor="profile-q">Question</label>
          <input id="profile-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} required placeholder="where does the user live?" />
          <button type="submit" disabled={busy}>
            {busy ? "Asking…" : "Ask"}
          </button>
        </form>
        <ErrorMessage error={askError} />
        {asked ? (
          asked.results.length === 0 ? (
            <Empty>No memory answers “{asked.q}”.</Empty>
          ) : (
            <ol className="list results" aria-label={`Memories answering ${asked.q}`}>
              {asked.results.map((r) => (
                <li key={r.id} className="result">
                  {r.memory ?? r.chunk} <span className="muted">similarity {r.similarity.toFixed(3)}</span>
                </li>
              ))}
            </ol>
          )
        ) : null}
      </section>
      {profile ? (
        <div className="split">
          <section className="card" aria-labelledby="static-heading">
            <h2 id="static-heading">Static</h2>
            <p className="muted">Long-term facts.</p>
            <Facts items={profile.profile.static} empty="No static facts yet." />
          </section>
          <section className="card" aria-labelledby="dynamic-heading">
            <h2 id="dynamic-heading">Dynamic</h2>
            <p className="muted">Recent memories, newest first.</p>
            <Facts items={profile.profile.dynamic} empty="No recent memories yet." />
          </section>
          <section className="card wide" aria-labelledby="buckets-heading">
            <h2 id="buckets-heading">Buckets</h2>
            {buckets.length === 0 ? (
              <Empty>No profile buckets are defined (Settings → profileBuckets).</Empty>
            ) : (
              buckets.map(([k, v]) => (
                <div key={k}>
                  <h3>{k}</h3>
                  <Facts items={v} empty="Nothing in this bucket." />
                </div>
              ))
            )}
          </section>
        </div>
      ) : null}
    </>
  );
}
