import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type Api, type ContainerTag, createApi } from "./api";
import { DocumentDetailPage, DocumentsPage } from "./pages/Documents";
import { KeysPage } from "./pages/Keys";
import { MemoriesPage } from "./pages/Memories";
import { OverviewPage } from "./pages/Overview";
import { ProfilePage } from "./pages/Profile";
import { SearchPage } from "./pages/Search";
import { ConnectionsPage } from "./pages/Connections";
import { SettingsPage } from "./pages/Settings";
import { byActivity, DEFAULT_TAG, filterTags, openingTag, PICKER_PAGE } from "./tags";
import { Empty, ErrorMessage, formatDate, Link, PageTitle, useSubmit } from "./ui";

const KEY_STORAGE = "engram.console.apiKey";
/** This tab's current container tag (session storage): a reload stays on it. */
const TAG_STORAGE = "engram.console.containerTag";
/** The container tag last chosen in this browser (local storage): preferred on opening while the tenant still has it. */
const CHOSEN_TAG_STORAGE = "engram.console.chosenContainerTag";
/** Tags offered as the tag field's suggestions (the picker lists them all). */
const DATALIST_MAX = 200;
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
  ["/overview", "Overview"],
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
  /** Undefined until the tenant's tags are known (the console opens on the most recently active one). */
  const [containerTag, setContainerTag] = useState<string>();
  const [tags, setTags] = useState<ContainerTag[]>();
  const [tagsError, setTagsError] = useState<unknown>();
  const [panelOpen, setPanelOpen] = useState(false);
  const browseButton = useRef<HTMLButtonElement>(null);
  /** Why the console signed out by itself (the key was refused). */
  const [refusal, setRefusal] = useState<string>();
  const forget = useCallback(() => {
    sessionStorage.removeItem(KEY_STORAGE);
    sessionStorage.removeItem(TAG_STORAGE);
    setKey(null);
    setContainerTag(undefined);
    setTags(undefined);
    setPanelOpen(false);
  }, []);
  const api = useMemo(
    () =>
      key
        ? createApi(key, () => {
            forget();
            setRefusal("The server no longer accepts this API key (revoked or removed). Sign in with another key.");
          })
        : undefined,
    [key, forget],
  );

  const loadTags = useCallback(async (): Promise<ContainerTag[] | undefined> => {
    if (!api) return undefined;
    try {
      const list = await api.containerTags();
      setTags(list);
      setTagsError(undefined);
      return list;
    } catch (err) {
      setTagsError(err);
      return undefined;
    }
  }, [api]);

  // Signed in: the tenant's tags, then the tag to open on.
  useEffect(() => {
    if (!api) return;
    let live = true;
    void loadTags().then((list) => {
      if (!live) return;
      const tab = sessionStorage.getItem(TAG_STORAGE);
      const chosen = localStorage.getItem(CHOSEN_TAG_STORAGE);
      // Without the list (an older server, a failure): this tab's tag, the last choice, or the default one.
      setContainerTag((cur) => cur ?? (list ? openingTag(list, tab, chosen) : (tab ?? chosen ?? DEFAULT_TAG)));
    });
    return () => {
      live = false;
    };
  }, [api, loadTags]);

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
    forget();
    navigate("/");
  };
  const changeTag = (t: string) => {
    sessionStorage.setItem(TAG_STORAGE, t);
    localStorage.setItem(CHOSEN_TAG_STORAGE, t);
    setContainerTag(t);
  };
  const togglePanel = () => {
    if (!panelOpen) void loadTags();
    setPanelOpen(!panelOpen);
  };
  const closePanel = () => {
    setPanelOpen(false);
    browseButton.current?.focus();
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

  let page;
  if (containerTag === undefined) {
    page = (
      <p aria-busy="true" className="empty">
        Loading the container tags…
      </p>
    );
  } else {
    const props: PageProps = { api, containerTag, navigate };
    const docMatch = /^\/documents\/([^/]+)$/.exec(route);
    if (docMatch) page = <DocumentDetailPage {...props} id={decodeURIComponent(docMatch[1]!)} />;
    else if (route.startsWith("/overview")) page = <OverviewPage {...props} />;
    else if (route.startsWith("/search")) page = <SearchPage {...props} />;
    else if (route.startsWith("/memories")) page = <MemoriesPage {...props} />;
    else if (route.startsWith("/profile")) page = <ProfilePage {...props} />;
    else if (route.startsWith("/settings")) page = <SettingsPage {...props} />;
    else if (route.startsWith("/connections")) page = <ConnectionsPage {...props} />;
    else if (route.startsWith("/keys")) page = <KeysPage {...props} />;
    else page = <DocumentsPage {...props} />;
  }

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
        {containerTag !== undefined ? (
          <div className="tag-picker">
            <ContainerTagInput value={containerTag} tags={tags} onChange={changeTag} />
            <button type="button" className="secondary" ref={browseButton} aria-expanded={panelOpen} aria-controls="tag-panel" onClick={togglePanel}>
              Browse tags
            </button>
          </div>
        ) : null}
        <button type="button" className="secondary" onClick={signOut}>
          Sign out
        </button>
        {panelOpen && containerTag !== undefined ? (
          <TagPanel
            tags={tags}
            error={tagsError}
            value={containerTag}
            onChange={(t) => {
              changeTag(t);
              closePanel();
            }}
            onClose={closePanel}
          />
        ) : null}
      </header>
      <main id="main" key={route}>
        {page}
      </main>
    </div>
  );
}

/** The container tag every page works in: free text (a new tag starts with its first document), the tenant's tags offered. */
function ContainerTagInput({ value, tags, onChange }: { value: string; tags: ContainerTag[] | undefined; onChange: (t: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <form
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
        {byActivity(tags ?? [])
          .slice(0, DATALIST_MAX)
          .map((t) => (
            <option key={t.containerTag} value={t.containerTag} />
          ))}
      </datalist>
    </form>
  );
}

/**
 * The tenant's container tags (those of the key, for a key limited to some), most recently active first, with their
 * document and memory counts and last activity; a filter narrows them, and the list grows by PICKER_PAGE on demand.
 * Tag names and display names are user input: they are rendered as text only.
 */
function TagPanel({
  tags,
  error,
  value,
  onChange,
  onClose,
}: {
  tags: ContainerTag[] | undefined;
  error: unknown;
  value: string;
  onChange: (t: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const [limit, setLimit] = useState(PICKER_PAGE);
  const filter = useRef<HTMLInputElement>(null);
  // Opened: the filter takes the focus (type to narrow, Escape closes).
  useEffect(() => filter.current?.focus(), []);
  useEffect(() => setLimit(PICKER_PAGE), [query]);
  const matching = useMemo(() => filterTags(tags ?? [], query), [tags, query]);
  const shown = matching.slice(0, limit);
  const more = Math.min(PICKER_PAGE, matching.length - shown.length);
  return (
    <section
      id="tag-panel"
      className="tag-panel"
      aria-labelledby="tag-panel-heading"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <div className="row spread">
        <h2 id="tag-panel-heading">Container tags</h2>
        <div className="row">
          <label htmlFor="tag-filter">Filter tags</label>
          <input id="tag-filter" ref={filter} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <ErrorMessage error={error} />
      {tags === undefined ? (
        error ? null : (
          <p aria-busy="true">Loading…</p>
        )
      ) : matching.length === 0 ? (
        <Empty>{tags.length === 0 ? "No container tags yet: add a document or a memory to start one." : `No container tag matches “${query.trim()}”.`}</Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {shown.length < matching.length ? `Showing ${shown.length} of ${matching.length}` : `${matching.length}`} container tag
            {matching.length === 1 ? "" : "s"}
            {query.trim() ? ` matching “${query.trim()}”` : ""}, most recently active first
          </p>
          <div className="table-wrap">
            <table aria-label="Container tags">
              <thead>
                <tr>
                  <th scope="col">Tag</th>
                  <th scope="col">Documents</th>
                  <th scope="col">Memories</th>
                  <th scope="col">Last activity</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((t) => (
                  <tr key={t.containerTag} data-container-tag={t.containerTag} aria-current={t.containerTag === value ? "true" : undefined}>
                    <th scope="row">
                      <button type="button" className="link" onClick={() => onChange(t.containerTag)}>
                        {t.containerTag}
                      </button>
                      {t.containerTag === value ? <span className="muted"> (current)</span> : null}
                      {t.name && t.name !== t.containerTag ? <div className="muted tag-name">{t.name}</div> : null}
                    </th>
                    <td data-count="documents">{t.documentCount}</td>
                    <td data-count="memories">{t.memoryCount}</td>
                    <td>{formatDate(t.lastActivityAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {more > 0 ? (
            <button type="button" className="secondary" onClick={() => setLimit((l) => l + PICKER_PAGE)}>
              Show {more} more
            </button>
          ) : null}
        </>
      )}
    </section>
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
