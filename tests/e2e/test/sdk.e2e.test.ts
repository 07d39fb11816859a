import Supermemory from "supermemory";
import { type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { stopQuietly } from "./helpers";

/** The official supermemory SDK, pointed at Engram, works unchanged. */
describe("supermemory SDK against Engram", () => {
  let engram: EngramProcess;
  let client: Supermemory;

  beforeAll(async () => {
    engram = await startEngram();
    client = new Supermemory({ apiKey: engram.apiKey, baseURL: engram.url, maxRetries: 0 });
  });
  afterAll(() => stopQuietly(engram));

  it("adds a document and finds it with search", async () => {
    const added = await client.add({
      content: "Engram speaks the same API as the hosted service, so SDK clients work.",
      containerTag: "sdk_user",
      customId: "sdk-doc-1",
    });
    expect(added.status).toBe("queued");
    expect(added.id).toMatch(/^d_/);

    const doc = await waitFor(
      async () => {
        const d = await client.documents.get(added.id);
        return d.status === "done" || d.status === "failed" ? d : undefined;
      },
      { timeoutMs: 20_000, what: "SDK document to be done" },
    );
    expect(doc.status).toBe("done");
    expect(doc.customId).toBe("sdk-doc-1");

    const results = await client.search.memories({ q: "which clients work with the same API?", containerTag: "sdk_user", searchMode: "documents" });
    expect(results.total).toBeGreaterThan(0);
    expect(results.results[0]!.chunk).toContain("SDK clients work");
  });

  it("memories: update, search (default mode), profile and forget through the SDK", async () => {
    // The SDK has no create call for /v4/memories: write through the same client's raw POST.
    const created = await client.post<{ memories: { id: string }[] }>("/v4/memories", {
      body: { containerTag: "sdk_mem", memories: [{ content: "Priya prefers tea over coffee", isStatic: true }] },
    });
    const id = created.memories[0]!.id;
    const updated = await client.memories.updateMemory({ id, containerTag: "sdk_mem", newContent: "Priya prefers green tea over coffee" });
    expect(updated).toMatchObject({ version: 2, parentMemoryId: id, rootMemoryId: id, memory: "Priya prefers green tea over coffee" });

    const found = await client.search({ q: "which tea does Priya prefer", containerTag: "sdk_mem" });
    expect(found.results[0]).toMatchObject({ id: updated.id, memory: "Priya prefers green tea over coffee" });

    const profile = await client.profile({ containerTag: "sdk_mem", q: "Priya tea" });
    expect(profile.profile.static).toEqual(["Priya prefers green tea over coffee"]);
    expect(profile.searchResults?.results.length).toBeGreaterThan(0);

    const forgotten = await client.memories.forget({ id: updated.id, containerTag: "sdk_mem" });
    expect(forgotten).toEqual({ id: updated.id, forgotten: true });
    await expect(client.memories.forget({ id: updated.id, containerTag: "sdk_mem" })).rejects.toMatchObject({ status: 409 });
    expect((await client.search({ q: "Priya tea", containerTag: "sdk_mem" })).results).toEqual([]);
  });

  it("documents search (v3) through the SDK", async () => {
    await client.add({
      content: "The lighthouse keeper logs every passing ship in a leather notebook.",
      containerTag: "sdk_v3",
      taskType: "superrag",
    } as never);
    await waitFor(async () => ((await client.documents.listProcessing()).documents?.length ? undefined : true), {
      timeoutMs: 20_000,
      what: "processing to finish",
    });
    const res = await client.search.documents({ q: "lighthouse ship log", containerTags: ["sdk_v3"] });
    expect(res.results[0]).toMatchObject({ documentId: expect.stringMatching(/^d_/), score: expect.any(Number) });
    expect(res.results[0]!.chunks[0]!.content).toContain("lighthouse keeper");
  });

  it("surfaces Engram's error body through the SDK's typed errors", async () => {
    const bad = new Supermemory({ apiKey: "not-a-valid-key-000000", baseURL: engram.url, maxRetries: 0 });
    await expect(bad.documents.get("anything")).rejects.toMatchObject({ status: 401 });
  });
});
