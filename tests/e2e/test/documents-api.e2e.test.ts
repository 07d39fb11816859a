import path from "node:path";
import fs from "node:fs";
import { parse as parseYaml } from "yaml";
import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { type Api, expectErrorBody, stopQuietly, waitDone } from "./helpers";

const KEY = "docs-api-key-0123456789abcdef";

async function upload(engram: EngramProcess, path: string, parts: Record<string, string>, file?: { name: string; type?: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts)) form.append(k, v);
  if (file) form.append("file", new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
  const res = await fetch(engram.url + path, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The fields the OpenAPI description (tests/fixtures/spec) requires in an operation's 200 answer. */
function requiredFields(route: string, method: string): string[] {
  const spec = parseYaml(fs.readFileSync(path.resolve(__dirname, "../../fixtures/spec/openapi-v3-v4.yaml"), "utf8")) as {
    paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { required?: string[] } }> }> }>>;
  };
  const required = spec.paths[route]![method]!.responses["200"]!.content["application/json"]!.schema.required ?? [];
  expect(required.length).toBeGreaterThan(0);
  return required;
}

async function searchChunks(api: Api, q: string, containerTag: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await api("POST", "/v4/search", { q, containerTag, searchMode: "documents", threshold: 0, ...extra });
  expect(res.status).toBe(200);
  return res.body.results.map((r: { chunk: string }) => r.chunk);
}

describe("documents API (both generations)", () => {
  let engram: EngramProcess;
  let api: Api;

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY });
    api = apiClient(engram.url, KEY);
  });
  afterAll(() => stopQuietly(engram));

  it("batch adds with per-item results: accepted first in request order, then failed", async () => {
    const res = await api("POST", "/ns/batch/document/batch", {
      documents: [
        { content: "Alpha item about otters.", id: "a1" },
        { content: "", id: "bad-empty" },
        { content: "Beta item about beavers.", id: "b1", metadata: { kind: "rodent" } },
        { content: "https://example.invalid/page", id: "has space" },
        { content: "Gamma item about geese." },
        "not an object",
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.failed).toBe(3);
    const ids = res.body.results.map((r: { id?: string; status: string }) => r.id ?? r.status);
    expect(ids.slice(0, 2)).toEqual(["a1", "b1"]);
    expect(res.body.results[2].id).toMatch(/^d_/);
    expect(res.body.results.slice(0, 3).every((r: { status: string }) => r.status === "queued")).toBe(true);
    const failed = res.body.results.slice(3);
    expect(failed.map((r: { status: string }) => r.status)).toEqual(["error", "error", "error"]);
    expect(failed[0]).toEqual(expect.objectContaining({ id: "bad-empty", error: expect.stringMatching(/content/) }));
    expect(failed[1]).toEqual(expect.objectContaining({ id: "has space" }));
    await waitDone(api, "batch", "b1");
    expect((await api("GET", "/ns/batch/document/b1")).body.metadata).toEqual({ kind: "rodent" });
  });

  it("refuses batches outside 1-600 items and v3 batches answer in the v3 shape", async () => {
    const tooMany = await api("POST", "/ns/batch/document/batch", { documents: Array.from({ length: 601 }, (_, i) => ({ content: `doc ${i}` })) });
    expect(tooMany.status).toBe(400);
    expectErrorBody(tooMany.body);
    expect(tooMany.body.details).toMatch(/600/);
    expect((await api("POST", "/ns/batch/document/batch", { documents: [] })).status).toBe(400);

    const v3 = await api("POST", "/v3/documents/batch", {
      containerTag: "legacy-batch",
      documents: ["Plain string document about herons.", { content: "Object document", customId: "obj-1" }, { content: 5 }],
    });
    expect(v3.status).toBe(200);
    expect(v3.body.success).toBe(2);
    expect(v3.body.failed).toBe(1);
    expect(v3.body.results[0].id).toMatch(/^d_/);
    expect(v3.body.results[2]).toEqual(expect.objectContaining({ status: "error", details: expect.any(String) }));
  });

  it("lists documents with pagination, sort and AND/OR metadata filters (v5 and v3)", async () => {
    for (let i = 0; i < 5; i++) {
      await api("POST", "/ns/listing/document", {
        content: `Listing document number ${i}`,
        id: `l${i}`,
        metadata: { parity: i % 2 ? "odd" : "even", n: i, tags: i < 2 ? ["low"] : ["high"] },
      });
    }
    const page1 = await api("POST", "/ns/listing/list/documents?page=1&limit=2&sort=createdAt&order=asc");
    expect(page1.status).toBe(200);
    expect(page1.body.chunks).toEqual([]);
    expect(page1.body.memories).toEqual([]);
    expect(page1.body.documents.map((d: { id: string }) => d.id)).toEqual(["l0", "l1"]);
    expect(page1.body.pagination).toEqual(expect.objectContaining({ currentPage: 1, totalPages: 3, totalItems: 5, limit: 2 }));
    const page3 = await api("POST", "/ns/listing/list/documents?page=3&limit=2&order=asc");
    expect(page3.body.documents.map((d: { id: string }) => d.id)).toEqual(["l4"]);

    const filtered = await api("POST", "/ns/listing/list/documents?order=asc", {
      filter: {
        OR: [
          {
            AND: [
              { key: "parity", value: "even" },
              { key: "n", value: "2", filterType: "numeric", numericOperator: ">=" },
            ],
          },
          { key: "tags", value: "LOW", filterType: "array_contains", ignoreCase: true, negate: false },
        ],
      },
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.documents.map((d: { id: string }) => d.id)).toEqual(["l0", "l1", "l2", "l4"]);

    const bad = await api("POST", "/ns/listing/list/documents", { filter: { AND: [{ key: "n", value: "x", filterType: "numeric" }] } });
    expect(bad.status).toBe(400);
    expect((await api("POST", "/ns/listing/list/documents?sort=title")).status).toBe(400);
    expect((await api("POST", "/ns/listing/list/documents?limit=0")).status).toBe(400);

    const v3 = await api("POST", "/v3/documents/list", {
      containerTags: ["listing"],
      limit: 2,
      page: 2,
      order: "asc",
      filters: JSON.stringify({ AND: [{ key: "parity", value: "odd" }] }),
    });
    expect(v3.status).toBe(200);
    expect(v3.body.pagination).toEqual({ currentPage: 2, limit: 2, totalItems: 2, totalPages: 1 });
    expect(v3.body.memories).toEqual([]);
    const v3all = await api("POST", "/v3/documents/list", { containerTags: ["listing"], includeContent: true, order: "asc" });
    expect(v3all.body.memories[0]).toEqual(expect.objectContaining({ customId: "l0", content: "Listing document number 0", containerTags: ["listing"] }));
  });

  it("deletes by id (v5 with per-id errors, v3 single and bulk) and the content leaves the index", async () => {
    await api("POST", "/ns/del/document", { content: "The zeppelin hangar stores airships.", id: "zep" });
    await api("POST", "/ns/del/document", { content: "The quarry produces granite blocks.", id: "quarry" });
    await waitDone(api, "del", "zep");
    await waitDone(api, "del", "quarry");
    expect(await searchChunks(api, "zeppelin hangar airships", "del")).toHaveLength(1);

    const res = await api("DELETE", "/ns/del/document", { ids: ["zep", "missing-one", "m_AAAAAAAAAAAAAAAAAAAA"] });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.errors).toEqual([
      { id: "missing-one", error: expect.stringMatching(/not found/) },
      { id: "m_AAAAAAAAAAAAAAAAAAAA", error: expect.stringMatching(/memory id/) },
    ]);
    expect((await api("GET", "/ns/del/document/zep")).status).toBe(404);
    await waitFor(async () => (await searchChunks(api, "zeppelin hangar airships", "del")).length === 0, {
      what: "chunks of the deleted document to leave search",
    });
    const quarryChunks = await searchChunks(api, "quarry granite", "del");
    expect(quarryChunks).toHaveLength(1);

    const tooMany = await api("DELETE", "/ns/del/document", { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) });
    expect(tooMany.status).toBe(400);
    expect((await api("DELETE", "/ns/del/document", { ids: [] })).status).toBe(400);

    const quarry = await api("GET", "/v3/documents/quarry");
    expect((await api("DELETE", `/v3/documents/${quarry.body.id}`)).status).toBe(204);
    expect((await api("DELETE", `/v3/documents/${quarry.body.id}`)).status).toBe(404);
    await waitFor(async () => (await searchChunks(api, "quarry granite", "del")).length === 0, { what: "v3-deleted chunks to leave search" });

    await api("POST", "/v3/documents", { content: "Bulk one", containerTag: "bulk-a" });
    await api("POST", "/v3/documents", { content: "Bulk two", containerTag: "bulk-a" });
    const bulk = await api("DELETE", "/v3/documents/bulk", { containerTags: ["bulk-a"] });
    expect(bulk.body).toEqual({ success: true, deletedCount: 2, containerTags: ["bulk-a"] });
    const bulkIds = await api("DELETE", "/v3/documents/bulk", { ids: ["nope"] });
    expect(bulkIds.body).toEqual({ success: true, deletedCount: 0, errors: [{ id: "nope", error: expect.any(String) }] });
    expect((await api("DELETE", "/v3/documents/bulk", {})).status).toBe(400);

    // A filepath narrows a delete by container tags to that path (a prefix when it ends with "/"); the rest stay.
    await api("POST", "/v3/documents", { content: "Old page one", containerTag: "bulk-b", customId: "old-1", filepath: "old/one.md" });
    await api("POST", "/v3/documents", { content: "Old page two", containerTag: "bulk-b", customId: "old-2", filepath: "old/sub/two.md" });
    await api("POST", "/v3/documents", { content: "Kept page", containerTag: "bulk-b", customId: "kept", filepath: "current/kept.md" });
    await api("POST", "/v3/documents", { content: "No path", containerTag: "bulk-b", customId: "no-path" });
    const byPath = await api("DELETE", "/v3/documents/bulk", { containerTags: ["bulk-b"], filepath: "old/" });
    expect(byPath.body).toEqual({ success: true, deletedCount: 2, containerTags: ["bulk-b"] });
    const left = (await api("POST", "/v3/documents/list", { containerTags: ["bulk-b"] })).body.memories as { customId: string }[];
    expect(left.map((d) => d.customId).sort()).toEqual(["kept", "no-path"]);
    expect((await api("DELETE", "/v3/documents/bulk", { containerTags: ["bulk-b"], filepath: "current/kept.md" })).body.deletedCount).toBe(1);
    for (const bad of [
      { ids: ["kept"], filepath: "old/" },
      { containerTags: ["bulk-b"], filepath: "" },
    ]) {
      const refused = await api("DELETE", "/v3/documents/bulk", bad);
      expect(refused.status).toBe(400);
      expectErrorBody(refused.body);
    }
  });

  it("PATCH changes fields: metadata reaches search filters; new content is re-processed", async () => {
    const add = await api("POST", "/v3/documents", {
      content: "Notes about the lighthouse keeper.",
      containerTag: "patch",
      customId: "lh",
      metadata: { stage: "draft" },
    });
    await waitDone(api, "patch", "lh");
    const byStage = (stage: string) => searchChunks(api, "lighthouse keeper", "patch", { filters: { AND: [{ key: "stage", value: stage }] } });
    expect(await byStage("draft")).toHaveLength(1);
    const patched = await api("PATCH", `/v3/documents/${add.body.id}`, { metadata: { stage: "final" } });
    expect(patched.body).toEqual({ id: add.body.id, status: "done" });
    await waitFor(async () => (await byStage("final")).length === 1, { what: "patched metadata to reach the index" });
    expect(await byStage("draft")).toHaveLength(0);
    // A filepath-only PATCH reaches the chunks too: the search's filepath filter (applied in the index) follows it.
    const atPath = async (filepath: string) =>
      (
        (await api("POST", "/v4/search", { q: "lighthouse keeper", containerTag: "patch", searchMode: "documents", threshold: 0, filepath })).body
          .results as unknown[]
      ).length;
    expect(await atPath("keepers/")).toBe(0);
    expect((await api("PATCH", `/v3/documents/${add.body.id}`, { filepath: "keepers/lighthouse.md" })).status).toBe(200);
    await waitFor(async () => (await atPath("keepers/")) === 1, { what: "the patched filepath to reach the index" });
    expect(await atPath("keepers/lighthouse.md")).toBe(1);

    const content = await api("PATCH", "/v3/documents/lh", { content: "Notes about the harbour master instead." });
    expect(content.body.status).toBe("queued");
    await waitDone(api, "patch", "lh");
    expect(await searchChunks(api, "harbour master", "patch")).toHaveLength(1);
    // Every field is optional: an empty body changes nothing and answers the document's state.
    expect((await api("PATCH", "/v3/documents/lh", {})).body).toEqual({ id: add.body.id, status: "done" });
    expect(await searchChunks(api, "harbour master", "patch")).toHaveLength(1);
    expect((await api("PATCH", "/v3/documents/no-such-document", {})).status).toBe(404);
    // Every field the description requires of GET /v3/documents/{id} is there (dreamingStatus included).
    const got = await api("GET", "/v3/documents/lh");
    for (const field of requiredFields("/v3/documents/{id}", "get")) expect(got.body).toHaveProperty(field);
    expect(got.body.dreamingStatus).toBe("done");
    expect((await api("PATCH", "/v3/documents/lh", { unknown: 1 })).status).toBe(400);
  });

  it("uploads files (v5 and v3), keeps the original behind an expiring link, and limits the size", async () => {
    const text = "Uploaded field notes: the kestrel hovers before it dives.";
    const v5 = await upload(
      engram,
      "/ns/files/document/file",
      { id: "notes-txt", metadata: JSON.stringify({ source: "upload" }) },
      { name: "notes.txt", type: "text/plain", bytes: new TextEncoder().encode(text) },
    );
    expect(v5.status).toBe(200);
    expect(v5.body).toEqual({ id: "notes-txt", status: "queued" });
    const done = await waitDone(api, "files", "notes-txt");
    expect(done.system.status).toBe("done");
    expect(done.metadata).toEqual({ source: "upload" });
    expect(await searchChunks(api, "kestrel hovers", "files")).toEqual([expect.stringContaining("kestrel hovers")]);

    const v3 = await upload(
      engram,
      "/v3/documents/file",
      { containerTags: '["files"]', customId: "md-file", filepath: "docs/readme.md" },
      { name: "readme.md", bytes: new TextEncoder().encode("# Title\n\nMarkdown body about puffins.") },
    );
    expect(v3.status).toBe(200);
    expect(v3.body.id).toMatch(/^d_/);
    expect((await api("GET", `/v3/documents/${v3.body.id}`)).body.filepath).toBe("docs/readme.md");
    const link = await api("GET", `/v3/documents/${v3.body.id}/file-url`);
    expect(link.status).toBe(200);
    const file = await fetch(link.body.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("# Title\n\nMarkdown body about puffins.");
    const forged = await fetch(link.body.url.replace(/.$/, (c: string) => (c === "A" ? "B" : "A")));
    expect(forged.status).toBe(403);
    expect((await api("GET", "/v3/documents/notes-txt/file-url")).status).toBe(200);
    const textDoc = await api("POST", "/ns/files/document", { content: "plain", id: "plain" });
    expect(textDoc.status).toBe(200);
    expect((await api("GET", "/v3/documents/plain/file-url")).status).toBe(400);

    const noFile = await upload(engram, "/ns/files/document/file", { id: "x" });
    expect(noFile.status).toBe(400);
    const badJson = await upload(engram, "/ns/files/document/file", { metadata: "{oops" }, { name: "a.txt", bytes: new Uint8Array([104, 105]) });
    expect(badJson.status).toBe(400);
    expect(badJson.body.details).toMatch(/metadata/);
    const huge = await upload(engram, "/ns/files/document/file", {}, { name: "big.bin", bytes: new Uint8Array(60 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expectErrorBody(huge.body);
  });

  it("reports processing documents and keeps failed ones failed on a metadata-only update", async () => {
    const processing = await api("GET", "/v3/documents/processing");
    expect(processing.status).toBe(200);
    expect(processing.body).toEqual({ documents: expect.any(Array), totalCount: expect.any(Number) });

    // A URL on a private address is refused by the guarded fetcher: the document fails with the reason.
    await api("POST", "/ns/fail/document", { content: `${engram.url}/healthz`, id: "private-url" });
    const failed = await waitDone(api, "fail", "private-url");
    expect(failed.system.status).toBe("failed");
    expect(failed.system.failureReason).toMatch(/private|loopback|not allowed|refused/i);
    const again = await api("POST", "/ns/fail/document", { content: `${engram.url}/healthz`, id: "private-url", metadata: { retry: true } });
    expect(again.body).toEqual({ id: "private-url", status: "failed" });

    // The v3 list narrowed by state (Engram extension): the failed one alone, then the done ones without it.
    await api("POST", "/ns/fail/document", { content: "A note that is processed fine.", id: "fine" });
    await waitDone(api, "fail", "fine");
    const byStatus = async (statuses: unknown) => api("POST", "/v3/documents/list", { containerTags: ["fail"], statuses });
    const onlyFailed = await byStatus(["failed"]);
    expect(onlyFailed.status).toBe(200);
    expect((onlyFailed.body.memories as { customId: string }[]).map((d) => d.customId)).toEqual(["private-url"]);
    expect(onlyFailed.body.pagination).toMatchObject({ totalItems: 1 });
    // Why it failed, in the v3 list and the v3 document too (Engram extension); a done document has no reason.
    const failedItem = (onlyFailed.body.memories as { id: string; failureReason?: string }[])[0]!;
    expect(failedItem.failureReason).toBe(failed.system.failureReason);
    expect((await api("GET", `/v3/documents/${failedItem.id}`)).body.failureReason).toBe(failed.system.failureReason);
    expect((((await byStatus(["done"])).body.memories as { customId: string }[]) ?? []).map((d) => d.customId)).toEqual(["fine"]);
    expect(((await byStatus(["done"])).body.memories as object[])[0]).not.toHaveProperty("failureReason");
    expect(((await byStatus(["done", "failed"])).body.memories as unknown[]).length).toBe(2);
    // And by path: exact, or a prefix ending in "/".
    await api("POST", "/v3/documents", { content: "The handbook's first page.", containerTag: "fail", customId: "hb-a", filepath: "handbook/a.md" });
    await api("POST", "/v3/documents", { content: "The handbook's second page.", containerTag: "fail", customId: "hb-b", filepath: "handbook/b.md" });
    const byPath = async (filepath: string) =>
      ((await api("POST", "/v3/documents/list", { containerTags: ["fail"], filepath })).body.memories as { customId: string }[]).map((d) => d.customId).sort();
    expect(await byPath("handbook/")).toEqual(["hb-a", "hb-b"]);
    expect(await byPath("handbook/b.md")).toEqual(["hb-b"]);
    expect(await byPath("other/")).toEqual([]);
    // v4 chunk results honour it too.
    await waitDone(api, "fail", "hb-a");
    await waitDone(api, "fail", "hb-b");
    const chunksAt = async (filepath: string) =>
      (
        (await api("POST", "/v4/search", { q: "handbook page", containerTag: "fail", searchMode: "documents", threshold: 0, filepath })).body.results as {
          chunk: string;
        }[]
      ).map((r) => r.chunk);
    expect((await chunksAt("handbook/")).sort()).toEqual(["The handbook's first page.", "The handbook's second page."]);
    expect(await chunksAt("handbook/b.md")).toEqual(["The handbook's second page."]);
    expect(await chunksAt("elsewhere/")).toEqual([]);
    for (const bad of [[], ["bogus"], "failed"]) {
      const refused = await byStatus(bad);
      expect(refused.status).toBe(400);
      expectErrorBody(refused.body);
    }
  });
});
