import { answer, HTTPX_SITE, startStaticSite, type StaticSite, waitFor } from "@engram/testing";
import { documentChunks, expectErrorBody, finishedRun, type Run, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-conn-0123456789abcdef";
const KEY_B = "tenant-b-key-conn-0123456789abcdef";

/**
 * A web-crawler connection through the gateway, on the all-in-one stack: a
 * real static site (tests/fixtures/sites/httpx) served on loopback is
 * crawled into documents of the connection's container tag; a recrawl after
 * an edit and a deletion converges; deleting the connection deletes its
 * documents; another tenant sees none of it. The connection's run history
 * (an Engram extension) lists both syncs, newest first.
 */
describe("web-crawler connection end to end", () => {
  let site: StaticSite;
  const stack = twoTenantStack(KEY_A, KEY_B, { ENGRAM_ALLOW_PRIVATE_URLS: "true", CRAWL_DEFAULT_DELAY_MS: "0" });
  const { a, b } = stack;

  beforeAll(async () => {
    site = await startStaticSite(HTTPX_SITE);
  });
  afterAll(() => site?.close());

  const documents = async () =>
    (await a("POST", "/v3/connections/web-crawler/documents", { containerTags: ["httpx-docs"] })).body as {
      id: string;
      status: string;
      title: string | null;
    }[];

  it("creates, syncs, searches, recrawls, and deletes a connection with its documents", async () => {
    const created = await a("POST", "/v3/connections/web-crawler", { containerTag: "httpx-docs", metadata: { startUrl: `${site.origin}/` } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(id).toMatch(/^n_[A-Za-z0-9]{20}$/);
    expect(created.body).toMatchObject({ authLink: "", expiresIn: "" });

    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    const docs = await documents();
    // Every page the site links to once: the crawler's own tests prove the exact set; here, that they arrived.
    expect(docs.length).toBeGreaterThan(15);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);

    // Searchable once processed, in the connection's container tag.
    await waitFor(async () => ((await a("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 120_000,
      what: "processing to end",
    });
    const hits = await a("POST", "/v4/search", { q: "HTTPX async client", containerTag: "httpx-docs", searchMode: "documents" });
    expect(hits.status).toBe(200);
    expect(hits.body.results.length).toBeGreaterThan(0);

    // Another tenant sees nothing of it.
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);
    expect((await b("POST", "/v3/connections/list", {})).body).toEqual([]);

    // An edit and a deletion on the site, then a manual import: one document changes, one goes.
    site.transformHtml = (html, pathname) => (pathname === "/quickstart/" ? html.replace("<h1", "<p>Freshly edited for the recrawl.</p><h1") : html);
    site.route("/exceptions/", answer(404, "gone"));
    const imported = await a("POST", "/v3/connections/web-crawler/import", { containerTags: ["httpx-docs"] });
    expect(imported.status).toBe(202);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    expect((await documents()).length).toBe(docs.length - 1);

    // The run history (Engram extension): both syncs, newest first, each as lastSyncRun shows it.
    const runs = await a("GET", `/v3/connections/${id}/runs`);
    expect(runs.status).toBe(200);
    const history = runs.body.runs as Run[];
    expect(history).toHaveLength(2);
    expect(history[0]).toEqual((await a("GET", `/v3/connections/${id}`)).body.lastSyncRun);
    expect(history).toEqual([second, first]);
    expect(history[0]!.startedAt > history[1]!.startedAt).toBe(true);
    const one = await a("GET", `/v3/connections/${id}/runs?limit=1`);
    expect(one.status).toBe(200);
    expect(one.body.runs).toEqual([history[0]]);
    for (const query of ["limit=0", "limit=abc", "foo=1"]) {
      const r = await a("GET", `/v3/connections/${id}/runs?${query}`);
      expect({ query, status: r.status }).toEqual({ query, status: 400 });
      expectErrorBody(r.body);
      expect(r.body.details).toEqual(expect.any(String));
    }
    // Another tenant's key: the connection is unknown to it.
    const foreign = await b("GET", `/v3/connections/${id}/runs`);
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign.body);

    // Deleting the connection deletes its documents.
    const deleted = await a("DELETE", `/v3/connections/${id}`);
    expect(deleted.body).toEqual({ id, provider: "web-crawler" });
    expect((await a("GET", `/v3/connections/${id}`)).status).toBe(404);
    expect((await a("GET", `/v3/connections/${id}/runs`)).status).toBe(404);
    expect(await documents()).toEqual([]);
    expect((await a("GET", `/v3/documents/${docs[0]!.id}`)).status).toBe(404);
  });

  it("an import asked for while the crawl is running is not dropped: a follow-up run picks up an edit made mid-crawl", async () => {
    // The crawl stalls on one page until released; meanwhile a page it already fetched is edited and an import asked for.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    site.route("/async/", (_req, res) => {
      void gate.then(() =>
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end("<html><head><title>Async</title></head><body><h1>Async</h1><p>Held back.</p></body></html>"),
      );
      return true;
    });
    try {
      const created = await a("POST", "/v3/connections/web-crawler", { containerTag: "httpx-midcrawl", metadata: { startUrl: `${site.origin}/` } });
      expect(created.status).toBe(200);
      const id = created.body.id as string;
      await waitFor(async () => (site.count("/async/") > 0 ? true : undefined), { timeoutMs: 60_000, what: "the crawl to reach the held page" });
      expect(site.count("/")).toBeGreaterThan(0);
      site.transformHtml = (html, pathname) => (pathname === "/" ? html.replace("<h1", "<p>Zanzibar edit made during the crawl.</p><h1") : html);
      const imported = await a("POST", "/v3/connections/web-crawler/import", { containerTags: ["httpx-midcrawl"] });
      expect(imported.status).toBe(202);
      release();
      // One more run follows the first, as the manual import it came from.
      const history = await waitFor(
        async () => {
          const runs = (await a("GET", `/v3/connections/${id}/runs`)).body.runs as (Run & { trigger: string })[];
          return runs.length === 2 && runs.every((r) => r.status !== "running") ? runs : undefined;
        },
        { timeoutMs: 120_000, what: "the crawl and its follow-up run to finish" },
      );
      expect(history.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
      expect(history.map((r) => r.trigger)).toEqual(["manual", "initial"]);
      await waitFor(
        async () => ((await documentChunks(a, "httpx-midcrawl", "Zanzibar edit made during the crawl")).some((c) => c.includes("Zanzibar")) ? true : undefined),
        {
          timeoutMs: 120_000,
          what: "the mid-crawl edit to be searchable",
        },
      );
    } finally {
      release();
      site.route("/async/", undefined);
      site.transformHtml = undefined;
    }
  }, 240_000);

  it("refuses a web-crawler connection without a usable start URL, and an OAuth connection with no OAuth application configured", async () => {
    for (const metadata of [{}, { startUrl: "ftp://example.com/" }, { startUrl: "not a url" }, { startUrl: "https://user:pw@example.com/" }]) {
      const r = await a("POST", "/v3/connections/web-crawler", { containerTag: "x", metadata });
      expect({ metadata, status: r.status }).toEqual({ metadata, status: 400 });
      expectErrorBody(r.body);
    }
    for (const provider of ["notion", "google-drive", "gmail", "onedrive", "github"]) {
      const r = await a("POST", `/v3/connections/${provider}`, { containerTag: "x" });
      expect({ provider, status: r.status }).toEqual({ provider, status: 400 });
      expectErrorBody(r.body);
      expect(r.body.error).toMatch(/no OAuth application is configured|need Engram.s public address/);
    }
    expect((await a("POST", "/v3/connections/list", { containerTags: ["x"] })).body).toEqual([]);
  });
});
