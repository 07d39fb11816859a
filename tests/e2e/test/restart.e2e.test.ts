import fs from "node:fs";
import path from "node:path";
import { apiClient, type EngramProcess, startEngram, tempDataDir, waitFor } from "@engram/testing";
import { stopQuietly } from "./helpers";

const KEY = "restart-key-0123456789abcdef0123456789";
const TAG = "fjords";

/**
 * A restart over a saved container (issue #35, architecture.md "Saved partitions"): the stack saves the
 * container's search structures at shutdown and the next start reads them instead of the rows, answering
 * exactly as before; a document added after that start is in the copy saved at the next shutdown; with
 * INDEX_SNAPSHOTS=false nothing is saved. The threshold is lowered to one chunk so a few documents do.
 */
describe("restart over a saved container", () => {
  let engram: EngramProcess | undefined;
  const dataDir = tempDataDir("engram-restart-e2e-");
  const copies = path.join(dataDir, "index-snapshots");
  const env = { INDEX_SNAPSHOT_MIN_CHUNKS: "1", LOG_LEVEL: "info" };

  afterAll(async () => {
    await stopQuietly(engram);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (more: Record<string, string> = {}) => {
    engram = await startEngram({ dataDir, apiKey: KEY, env: { ...env, ...more } });
    return apiClient(engram.url, KEY);
  };
  const stop = async () => {
    const out = engram!;
    await out.stop("SIGTERM");
    engram = undefined;
    const closed = out.output.map((l) => l.trim()).filter((l) => l.includes('"chunk index closed"'));
    return closed.map((l) => JSON.parse(l) as { savedPartitions: number; savedBytes: number })[0];
  };
  const ranked = async (api: ReturnType<typeof apiClient>, q: string) => {
    const res = await api("POST", "/v3/search", { q, containerTags: [TAG], chunkThreshold: 0, limit: 10 });
    expect(res.status).toBe(200);
    return (res.body.results as { documentId: string; score: number; chunks: { content: string; score: number }[] }[]).map((r) => ({
      documentId: r.documentId,
      score: r.score,
      chunks: r.chunks.map((c) => [c.content, c.score]),
    }));
  };

  it("answers the same from the copy after a restart, and keeps it current", async () => {
    let api = await start();
    const texts = [
      "Geirangerfjord is a fjord in Norway, famous for its waterfalls.",
      "Sognefjord is the longest and deepest fjord in Norway.",
      "A fjord is a long narrow inlet with steep sides, created by a glacier.",
    ];
    for (const content of texts) expect((await api("POST", "/v3/documents", { content, containerTag: TAG })).status).toBe(200);
    await waitFor(async () => ((await api("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing",
    });
    const before = await ranked(api, "longest fjord in Norway");
    expect(before[0]!.documentId).toBeDefined();
    expect((await stop())?.savedPartitions).toBeGreaterThanOrEqual(1);
    expect(fs.readdirSync(copies).filter((f) => f.endsWith(".snap")).length).toBeGreaterThanOrEqual(1);

    api = await start();
    expect(await ranked(api, "longest fjord in Norway")).toEqual(before);
    expect((await api("POST", "/v3/documents", { content: "Nærøyfjord is the narrowest fjord in Norway.", containerTag: TAG })).status).toBe(200);
    await waitFor(async () => ((await api("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing",
    });
    const withNew = await ranked(api, "narrowest fjord");
    expect(withNew.some((r) => r.chunks.some(([c]) => String(c).includes("Nærøyfjord")))).toBe(true);
    expect((await stop())?.savedPartitions).toBe(1);

    api = await start();
    expect(await ranked(api, "narrowest fjord")).toEqual(withNew);
    await stop();

    fs.rmSync(copies, { recursive: true, force: true });
    api = await start({ INDEX_SNAPSHOTS: "false" });
    expect(await ranked(api, "narrowest fjord")).toEqual(withNew);
    expect((await stop())?.savedPartitions).toBe(0);
    expect(fs.existsSync(copies)).toBe(false);
    // Four starts and stops of the stack: ~32 s on a quiet machine, past the default 60 s on a busy one.
  }, 180_000);
});
