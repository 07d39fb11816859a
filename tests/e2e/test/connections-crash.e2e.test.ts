import { apiClient, type EngramProcess, HTTPX_SITE, startEngram, startStaticSite, type StaticSite, tempDataDir, waitFor } from "@engram/testing";
import { stopQuietly } from "./helpers";

const KEY = "crash-key-connections-0123456789abcdef";

/**
 * kill -9 with a connector's work in flight: a web crawl (politeness delay
 * on, so the crash lands mid-crawl, between a page's import and its ledger
 * entry for some) is killed without grace. After the restart the run left
 * running reads as failed, a manual import starts at once (the replica takes
 * its own lease back), converges on every page of the site exactly once, and
 * every imported document ends done: nothing lost, duplicated or stuck.
 */
describe("connections: crash mid-sync", () => {
  let site: StaticSite;
  let engram: EngramProcess | undefined;
  const dataDir = tempDataDir("engram-crash-conn-");
  const env = { ENGRAM_ALLOW_PRIVATE_URLS: "true", CRAWL_DEFAULT_DELAY_MS: "150" };
  beforeAll(async () => {
    site = await startStaticSite(HTTPX_SITE);
  });
  afterAll(async () => {
    await stopQuietly(engram);
    await site?.close();
  });

  type Run = { status: string; startedAt: string; errorCode: string | null; error: string | null };
  type Doc = { id: string; status: string };

  it("loses nothing, duplicates nothing and leaves nothing stuck", async () => {
    engram = await startEngram({ dataDir, apiKey: KEY, env });
    let api = apiClient(engram.url, KEY);
    const created = await api("POST", "/v3/connections/web-crawler", { containerTag: "crash-docs", metadata: { startUrl: `${site.origin}/` } });
    expect(created.body).toMatchObject({ id: expect.any(String) });
    const id = created.body.id as string;
    const documents = async () => (await api("POST", "/v3/connections/web-crawler/documents", { containerTags: ["crash-docs"] })).body as Doc[];
    // Some pages in, the crawl still going: then no grace.
    await waitFor(async () => ((await documents()).length >= 4 ? true : undefined), { timeoutMs: 30_000, intervalMs: 50, what: "a few pages imported" });
    const before = await documents();
    expect(((await api("GET", `/v3/connections/${id}`)).body.lastSyncRun as Run).status).toBe("running");
    expect((await engram.stop("SIGKILL")).signal).toBe("SIGKILL");

    engram = await startEngram({ dataDir, apiKey: KEY, env });
    api = apiClient(engram.url, KEY);
    const interrupted = (await api("GET", `/v3/connections/${id}`)).body.lastSyncRun as Run;
    expect((await api("POST", "/v3/connections/web-crawler/import", { containerTags: ["crash-docs"] })).status).toBe(202);
    const finished = await waitFor(
      async () => {
        const run = (await api("GET", `/v3/connections/${id}`)).body.lastSyncRun as Run;
        return run.startedAt > interrupted.startedAt && run.status !== "running" ? run : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: "the sync after the restart to finish" },
    );
    expect(finished.status).toBe("succeeded");

    // Every page once: the documents imported before the crash kept their ids.
    const after = await documents();
    expect(new Set(after.map((d) => d.id)).size).toBe(after.length);
    expect(after.length).toBe(HTTPX_SITE_PAGES);
    for (const d of before) expect(after.map((x) => x.id)).toContain(d.id);
    await waitFor(async () => ((await documents()).every((d) => d.status === "done") ? true : undefined), {
      timeoutMs: 60_000,
      what: "every imported document to be done",
    });
    expect((await api("GET", "/v3/documents/processing")).body.totalCount).toBe(0);
  });
});

/** HTML pages of the fixture site reachable from its start page (what a full crawl records). */
const HTTPX_SITE_PAGES = 23;
