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

  it("surfaces Engram's error body through the SDK's typed errors", async () => {
    const bad = new Supermemory({ apiKey: "not-a-valid-key-000000", baseURL: engram.url, maxRetries: 0 });
    await expect(bad.documents.get("anything")).rejects.toMatchObject({ status: 401 });
  });
});
