import { useEffect, useState } from "react";
import type { ProfileResponse } from "../api";
import type { PageProps } from "../App";
import { Empty, ErrorMessage, PageTitle } from "../ui";

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
  useEffect(() => {
    api.profile(containerTag).then(setProfile, setError);
  }, [api, containerTag]);
  const buckets = Object.entries(profile?.profile.buckets ?? {});
  return (
    <>
      <PageTitle>Profile of {containerTag}</PageTitle>
      <ErrorMessage error={error} />
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
