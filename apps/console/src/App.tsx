import { useCallback, useEffect, useMemo, useState } from "react";
import { type Api, createApi } from "./api";
import { DocumentDetailPage, DocumentsPage } from "./pages/Documents";
import { KeysPage } from "./pages/Keys";
import { MemoriesPage } from "./pages/Memories";
import { ProfilePage } from "./pages/Profile";
import { SearchPage } from "./pages/Search";
import { ConnectionsPage } from "./pages/Connections";
import { SettingsPage } from "./pages/Settings";
import { ErrorMessage, Link, PageTitle, useSubmit } from "./ui";

const KEY_STORAGE = "engram.console.apiKey";
const TAG_STORAGE = "engram.console.containerTag";
const BASE = "/console";

/** The route inside the console: the path after /console, "/" at least. */
function currentRoute(): string {
  const p = window.location.pathname;
  const rest = p.startsWith(BASE) ? p.slice(BASE.length) : p;
  return rest === "" ? "/" : rest;
}

export interface PageProps {
  api: Api;
  containerTag: string;
  navigate: (to: string) => void;
}

const NAV: [string, string][] = [
  ["/documents", "Documents"],
  ["/search", "Search"],
  ["/memories", "Memories"],
  ["/profile", "Profile"],
  ["/settings", "Settings"],
  ["/connections", "Connections"],
  ["/keys", "API keys"],
];

export function App() {
  const [key, setKey] = useState<string | null>(() => sessionStorage.getItem(KEY_STORAGE));
  const [route, setRoute] = useState(currentRoute);
  const [containerTag, setContainerTag] = useState(() => sessionStorage.getItem(TAG_STORAGE) ?? "default");
  /** Why the console signed out by itself (the key was refused). */
  const [refusal, setRefusal] = useState<string>();
  const api = useMemo(
    () =>
      key
        ? createApi(key, () => {
            sessionStorage.removeItem(KEY_STORAGE);
            setKey(null);
            setRefusal("The server no longer accepts this API key (revoked or removed). Sign in with another key.");
          })
        : undefined,
    [key],
  );

  useEffect(() => {
    const onPop = () => setRoute(currentRoute());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  // A route may carry a query (`/documents/d_1?chunk=2`): the page reads it from the location, the route is the path.
  const navigate = useCallback((to: string) => {
    window.history.pushState(null, "", `${BASE}${to}`);
    setRoute(to.split("?")[0]!);
    window.scrollTo(0, 0);
  }, []);

  const signIn = (k: string) => {
    sessionStorage.setItem(KEY_STORAGE, k);
    setRefusal(undefined);
    setKey(k);
    if (route === "/" || route === "/signin") navigate("/documents");
  };
  const signOut = () => {
    sessionStorage.removeItem(KEY_STORAGE);
    setKey(null);
    navigate("/");
  };
  const changeTag = (t: string) => {
    sessionStorage.setItem(TAG_STORAGE, t);
    setContainerTag(t);
  };

  if (!api) {
    return (
      <div className="shell">
        <header className="topbar">
          <span className="brand">Engram</span>
        </header>
        <main id="main">
          <SignIn onSignedIn={signIn} refusal={refusal} />
        </main>
      </div>
    );
  }

  const props: PageProps = { api, containerTag, navigate };
  let page;
  const docMatch = /^\/documents\/([^/]+)$/.exec(route);
  if (docMatch) page = <DocumentDetailPage {...props} id={decodeURIComponent(docMatch[1]!)} />;
  else if (route.startsWith("/search")) page = <SearchPage {...props} />;
  else if (route.startsWith("/memories")) page = <MemoriesPage {...props} />;
  else if (route.startsWith("/profile")) page = <ProfilePage {...props} />;
  else if (route.startsWith("/settings")) page = <SettingsPage {...props} />;
  else if (route.startsWith("/connections")) page = <ConnectionsPage {...props} />;
  else if (route.startsWith("/keys")) page = <KeysPage {...props} />;
  else page = <DocumentsPage {...props} />;

  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Engram</span>
        <nav aria-label="Console">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <Link to={to} navigate={navigate} className={route.startsWith(to) || (to === "/documents" && route === "/") ? "active" : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <ContainerTagPicker api={api} value={containerTag} onChange={changeTag} />
        <button type="button" className="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" key={route}>
        {page}
      </main>
    </div>
  );
}

/** The container tag every page works in: free text, with the tenant's existing tags offered. */
function ContainerTagPicker({ api, value, onChange }: { api: Api; value: string; onChange: (t: string) => void }) {
  const [tags, setTags] = useState<string[]>([]);
  const [draft, setDraft] = useState(value);
  useEffect(() => {
    api.containerTags().then(
      (list) => setTags(list.map((t) => t.containerTag)),
      () => setTags([]),
    );
  }, [api, value]);
  return (
    <form
      className="tag-picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.trim()) onChange(draft.trim());
      }}
    >
      <label htmlFor="container-tag">Container tag</label>
      <input
        id="container-tag"
        list="container-tags"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft.trim() && draft.trim() !== value && onChange(draft.trim())}
        pattern="[A-Za-z0-9._:\-]{1,100}"
        title="letters, digits, . _ : - (at most 100)"
        required
      />
      <datalist id="container-tags">
        {tags.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
    </form>
  );
}

function SignIn({ onSignedIn, refusal }: { onSignedIn: (key: string) => void; refusal?: string }) {
  const [key, setKey] = useState("");
  const { busy, error, submit: submitting } = useSubmit();
  const submit = submitting(async () => {
    await createApi(key.trim()).checkKey();
    onSignedIn(key.trim());
  });
  return (
    <section className="card narrow">
      <PageTitle>Sign in</PageTitle>
      <p>
        Enter an Engram API key. It is kept in this tab&apos;s session storage only and sent with each API call; closing the tab forgets it. The server prints a
        key on its first start (<code>npm start</code>); <code>npm run keys</code> creates more.
      </p>
      {refusal ? (
        <div className="error" role="alert">
          {refusal}
        </div>
      ) : null}
      <form onSubmit={submit} className="stack">
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} required placeholder="sk_engram_…" />
        <button type="submit" disabled={busy || !key.trim()}>
          {busy ? "Checking…" : "Sign in"}
        </button>
      </form>
      <ErrorMessage error={error} />
    </section>
  );
}
