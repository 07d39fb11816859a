import { apiClient, type EngramProcess, startEngram, tempDataDir, waitFor } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

describe("process lifecycle", () => {
  let engram: EngramProcess | undefined;
  afterEach(() => stopQuietly(engram));

  it("exits cleanly on SIGTERM and keeps documents searchable across a restart", async () => {
    const dataDir = tempDataDir();
    const key = "restart-key-0123456789abcdef";
    engram = await startEngram({ dataDir, apiKey: key });
    let api = apiClient(engram.url, key);
    await api("POST", "/ns/kb/document", { content: "Durable storage keeps the pelican migration notes.", id: "pelicans" });
    await waitDone(api, "kb", "pelicans");
    // Accepted but maybe not processed yet when the signal arrives: must survive too.
    const late = await api("POST", "/ns/kb/document", { content: "Herons nest in colonies near the estuary.", id: "herons" });
    expect(late.status).toBe(200);

    const exit = await engram.stop("SIGTERM");
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(10_000);
    expect(engram.output.join("\n")).toContain("shutdown complete");

    engram = await startEngram({ dataDir, apiKey: key });
    // The chunk index and the memory store were loaded into memory before the stack reported ready.
    const loaded = engram.output.findIndex((l) => l.includes('"chunk index and memory store loaded"'));
    expect(loaded).toBeGreaterThanOrEqual(0);
    expect(loaded).toBeLessThan(engram.output.findIndex((l) => l.includes('"engram ready"')));
    api = apiClient(engram.url, key);
    const before = await api("GET", "/ns/kb/document/pelicans");
    expect(before.status).toBe(200);
    expect(before.body.system.status).toBe("done");
    expect((await waitDone(api, "kb", "herons")).system.status).toBe("done");
    const search = await api("POST", "/v4/search", { q: "pelican migration", containerTag: "kb", searchMode: "documents" });
    expect(search.body.results[0].chunk).toContain("pelican migration");
    const herons = await api("POST", "/v4/search", { q: "herons colonies estuary", containerTag: "kb", searchMode: "documents" });
    expect(herons.body.results[0].chunk).toContain("Herons nest");
  });

  it("loses nothing when the process is killed mid-pipeline: every accepted document ends done after a restart", async () => {
    const dataDir = tempDataDir();
    const key = "crash-key-0123456789abcdef0";
    engram = await startEngram({ dataDir, apiKey: key });
    let api = apiClient(engram.url, key);
    const documents = Array.from({ length: 150 }, (_, i) => ({ content: `Crash-safety document ${i} about lighthouses and tides.`, id: `c${i}` }));
    const res = await api("POST", "/ns/crash/document/batch", { documents });
    expect(res.body.count).toBe(150);
    // No grace: SIGKILL while the pipeline is working through the batch.
    const killed = await engram.stop("SIGKILL");
    expect(killed.signal).toBe("SIGKILL");

    engram = await startEngram({ dataDir, apiKey: key });
    api = apiClient(engram.url, key);
    const statuses = await waitFor(
      async () => {
        const list = await api("POST", "/ns/crash/list/documents?limit=200");
        const s = list.body.documents.map((d: { system: { status: string } }) => d.system.status);
        return s.length === 150 && s.every((x: string) => x === "done") ? s : undefined;
      },
      { timeoutMs: 60_000, what: "every accepted document to be done after the restart" },
    );
    expect(statuses).toHaveLength(150);
  });

  it("creates and prints a key on first start only, and that key works", async () => {
    const dataDir = tempDataDir();
    engram = await startEngram({ dataDir, env: { ENGRAM_API_KEY: "" } });
    const printed = engram.output.join("\n").match(/sk_engram_[0-9A-Za-z]{32}/);
    expect(printed).not.toBeNull();
    const api = apiClient(engram.url, printed![0]);
    expect((await api("POST", "/ns/first/document", { content: "hello" })).status).toBe(200);
    await engram.stop();
    engram = await startEngram({ dataDir, env: { ENGRAM_API_KEY: "" } });
    expect(engram.output.join("\n")).not.toMatch(/sk_engram_/);
    const again = apiClient(engram.url, printed![0]);
    expect((await again("GET", "/ns/first/document/does-not-exist")).status).toBe(404);
  });

  it("refuses an invalid configuration listing every problem", async () => {
    await expect(startEngram({ env: { TARGETS: "gateway,bogus", BUS_PARTITIONS: "zero", PORT: "70000" }, timeoutMs: 20_000 })).rejects.toThrow(
      /TARGETS[\s\S]*BUS_PARTITIONS[\s\S]*PORT|TARGETS[\s\S]*PORT[\s\S]*BUS_PARTITIONS/,
    );
  });

  it("refuses services split across processes on embedded engines, naming the fix", async () => {
    await expect(startEngram({ env: { TARGETS: "pipeline-worker" }, timeoutMs: 20_000 })).rejects.toThrow(
      /BUS=embedded[\s\S]*set BUS=kafka[\s\S]*INDEX=embedded[\s\S]*set INDEX=qdrant/,
    );
  });
});
