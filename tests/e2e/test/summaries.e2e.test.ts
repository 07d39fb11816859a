import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { type Api, stopQuietly, waitDone } from "./helpers";

/**
 * Document summaries on the all-in-one stack: the pipeline summarises each
 * document's text (services/pipeline-worker/src/domain/summary.ts) and every
 * answer that has a `summary` field carries it: the v3 document and list,
 * v3 search with includeSummary, v4 search with include.summaries. New
 * content replaces it.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

const KEY = "summaries-key-0123456789abcdef012345";

const ARTICLE = [
  "# The night train returns",
  "",
  "A night train between Lisbon and Madrid will run again from next spring after a five-year pause.",
  "The operator says the night train will leave Lisbon at ten in the evening and reach Madrid by breakfast.",
  "",
  "Sleeping cars on the night train have been refurbished with private cabins and showers.",
  "Travellers' groups welcomed the return of the night train as an alternative to short flights.",
  "",
  "Tickets go on sale in February.",
].join("\n");

describe("document summaries", () => {
  let engram: EngramProcess;
  let api: Api;

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY });
    api = apiClient(engram.url, KEY);
  });
  afterAll(() => stopQuietly(engram));

  it("summarises a document once it is processed, and every answer with a summary field carries it", async () => {
    const added = await api("POST", "/v3/documents", { content: ARTICLE, containerTag: "travel", customId: "night-train", taskType: "superrag" });
    expect(added.status).toBe(200);
    await waitDone(api, "travel", "night-train");

    const doc = await api("GET", `/v3/documents/${added.body.id as string}`);
    const summary = doc.body.summary as string;
    expect(summary).toContain("A night train between Lisbon and Madrid will run again");
    expect(summary).not.toContain("#");
    expect(summary.length).toBeLessThanOrEqual(500);

    const list = await api("POST", "/v3/documents/list", { containerTags: ["travel"] });
    expect(list.body.memories[0].summary).toBe(summary);

    const v3 = await api("POST", "/v3/search", { q: "sleeping cars on the night train", containerTags: ["travel"], includeSummary: true });
    expect(v3.status).toBe(200);
    expect(v3.body.results[0]).toMatchObject({ documentId: added.body.id, summary });
    const v3Without = await api("POST", "/v3/search", { q: "sleeping cars on the night train", containerTags: ["travel"] });
    expect(v3Without.body.results[0].summary).toBeUndefined();

    const v4 = await api("POST", "/v4/search", {
      q: "sleeping cars on the night train",
      containerTag: "travel",
      searchMode: "documents",
      threshold: 0,
      include: { summaries: true },
    });
    expect(v4.status).toBe(200);
    expect((v4.body.results as Body[])[0]!.documents[0].summary).toBe(summary);
  });

  it("replaces the summary when the document gets new content", async () => {
    await api("POST", "/v3/documents", { content: ARTICLE, containerTag: "energy2", customId: "changing", taskType: "superrag" });
    await waitDone(api, "energy2", "changing");
    const replaced = await api("POST", "/v3/documents", {
      content: "The city council approved a new bicycle lane along the river. Construction of the bicycle lane starts in May.",
      containerTag: "energy2",
      customId: "changing",
      taskType: "superrag",
    });
    expect(replaced.status).toBe(200);
    await waitDone(api, "energy2", "changing");
    const doc = await api("GET", `/v3/documents/${replaced.body.id as string}`);
    expect(doc.body.summary).toContain("bicycle lane");
    expect(doc.body.summary).not.toContain("train");
  });

  it("has no summary for a document without a sentence to keep", async () => {
    const added = await api("POST", "/v3/documents", { content: "Item | Price\nApples | 1.99\nPears | 2.49", containerTag: "energy3", customId: "table" });
    await waitDone(api, "energy3", "table");
    const doc = await api("GET", `/v3/documents/${added.body.id as string}`);
    expect(doc.body.status).toBe("done");
    expect(doc.body.summary).toBeNull();
  });
});
