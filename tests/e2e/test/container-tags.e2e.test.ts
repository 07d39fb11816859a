import { waitFor } from "@engram/testing";
import { type Api, expectErrorBody, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-tags-0123456789abcdef0123";
const KEY_B = "tenant-b-key-tags-0123456789abcdef0123";

type Tag = { id: string; name: string; containerTag: string; documentCount: number; memoryCount: number; isNova: boolean; lastActivityAt: string | null };

/**
 * Container tags through the gateway: the list with counts from documents
 * and memories, a tag's settings (PATCH creates them, a tag may be set up
 * before its first document), its own profile buckets acting in profiles,
 * deletion with its documents and memories, and tenants kept apart.
 */
describe("container tags end to end", () => {
  const { a, b } = twoTenantStack(KEY_A, KEY_B);
  const idle = (api: Api) =>
    waitFor(async () => ((await api("GET", "/v3/documents/processing")).body.totalCount === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "processing to end",
    });
  const list = async (api: Api) => (await api("GET", "/v3/container-tags/list")).body as Tag[];

  it("lists, shows, configures and deletes tags, within the tenant", async () => {
    expect((await a("POST", "/v3/documents", { content: "The tide table for Brest is published weekly.", containerTag: "research" })).status).toBe(200);
    expect((await a("POST", "/v3/documents", { content: "Harbour fees rose in May.", containerTag: "research" })).status).toBe(200);
    expect((await a("POST", "/v4/memories", { containerTag: "sm_project_notes", memories: [{ content: "Lena prefers morning meetings" }] })).status).toBe(201);
    expect((await b("POST", "/v3/documents", { content: "Tenant b has its own research.", containerTag: "research" })).status).toBe(200);
    await idle(a);
    await idle(b);

    const tags = await list(a);
    const research = tags.find((t) => t.containerTag === "research")!;
    expect(research).toMatchObject({ name: "research", documentCount: 2, isNova: false });
    expect(research.id).toMatch(/^s_[0-9A-Za-z]{20}$/);
    expect(research.lastActivityAt).not.toBeNull();
    expect(tags.find((t) => t.containerTag === "sm_project_notes")).toMatchObject({ documentCount: 0, memoryCount: 1, isNova: true });
    // Tenant b sees its own tag under the same name, with its own id and counts.
    const theirs = (await list(b)).find((t) => t.containerTag === "research")!;
    expect(theirs).toMatchObject({ documentCount: 1 });
    expect(theirs.id).not.toBe(research.id);
    expect((await list(b)).map((t) => t.containerTag)).not.toContain("sm_project_notes");

    // Settings: none yet; PATCH sets them, and a tag may be configured before its first document.
    expect((await a("GET", "/v3/container-tags/research")).body).toMatchObject({
      containerTag: "research",
      name: null,
      entityContext: null,
      memoryFilesystemPaths: null,
      profileBuckets: [],
    });
    expect((await a("GET", "/v3/container-tags/nothing-here")).status).toBe(404);
    const patched = await a("PATCH", "/v3/container-tags/research", {
      name: "Research notes",
      entityContext: "Papers and notes about harbours",
      profileBuckets: [{ key: "harbours", description: "ports, fees, tides" }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      containerTag: "research",
      name: "Research notes",
      entityContext: "Papers and notes about harbours",
      profileBuckets: [{ key: "harbours", description: "ports, fees, tides" }],
    });
    // A field not sent is kept; null clears.
    expect((await a("PATCH", "/v3/container-tags/research", { entityContext: null })).body).toMatchObject({ name: "Research notes", entityContext: null });
    expect((await a("PATCH", "/v3/container-tags/planned", { name: "Planned" })).status).toBe(200);
    expect((await list(a)).find((t) => t.containerTag === "planned")).toMatchObject({ name: "Planned", documentCount: 0, memoryCount: 0 });
    expect((await list(a)).find((t) => t.containerTag === "research")!.name).toBe("Research notes");
    // Tenant b's tag of the same name is untouched.
    expect((await b("GET", "/v3/container-tags/research")).body.name).toBeNull();

    for (const bad of [{ name: "" }, { name: null }, { unknown: 1 }, { profileBuckets: [{ key: "Bad Key" }] }, { entityContext: "x".repeat(1501) }]) {
      const res = await a("PATCH", "/v3/container-tags/research", bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expectErrorBody(res.body);
    }
    expect((await a("GET", "/v3/container-tags/bad%20tag")).status).toBe(400);

    // The tag's own bucket is offered in its profiles, on top of the organisation's.
    expect((await a("PATCH", "/v3/settings", { profileBuckets: [{ key: "work", description: "job" }] })).status).toBe(200);
    await waitFor(
      async () => {
        const keys = ((await a("POST", "/v4/profile/buckets", { containerTag: "research" })).body.buckets as { key: string }[] | undefined)?.map((x) => x.key);
        return keys?.includes("harbours") && keys.includes("work") ? keys : undefined;
      },
      { timeoutMs: 15_000, what: "the tag's bucket to apply" },
    );

    // Deleted with its documents and memories; then it is gone.
    const deleted = await a("DELETE", "/v3/container-tags/research");
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, containerTag: "research", deletedDocumentsCount: 2 });
    expect(typeof deleted.body.deletedMemoriesCount).toBe("number");
    expect((await a("GET", "/v3/container-tags/research")).status).toBe(404);
    expect((await a("DELETE", "/v3/container-tags/research")).status).toBe(404);
    expect((await list(a)).map((t) => t.containerTag)).not.toContain("research");
    const left = await a("POST", "/v4/search", { q: "tide table", containerTag: "research", searchMode: "hybrid", threshold: 0 });
    expect(left.body.results).toEqual([]);
    // A tag with memories only: its memories are forgotten.
    expect((await a("DELETE", "/v3/container-tags/sm_project_notes")).body).toMatchObject({ deletedDocumentsCount: 0, deletedMemoriesCount: 1 });
    // Tenant b still has its tag and document.
    expect((await list(b)).find((t) => t.containerTag === "research")).toMatchObject({ documentCount: 1 });
  });

  it("applies a tag's memory paths and entity context when forming memories", async () => {
    const patched = await a("PATCH", "/v3/container-tags/repo_docs", {
      memoryFilesystemPaths: ["docs/", "README.md"],
      entityContext: "The user is Sarah Chen, who maintains this repository.",
    });
    expect(patched.status).toBe(200);
    const add = (customId: string, content: string, filepath?: string) =>
      a("POST", "/v3/documents", { content, containerTag: "repo_docs", customId, ...(filepath ? { filepath } : {}) });
    await add("guide", "user: I prefer tabs over spaces.", "docs/guide.md");
    await add("source", "user: I prefer Rust for command-line tools.", "src/main.rs");
    await add("loose", "user: I prefer long walks after lunch.");
    // Every document is done; the one outside the paths is searchable as chunks but forms no memory.
    for (const id of ["guide", "source", "loose"])
      await waitFor(async () => ((await a("GET", `/ns/repo_docs/document/${id}`)).body.system?.status === "done" ? true : undefined), {
        what: `${id} to be done`,
      });
    const memories = ((await a("POST", "/v4/memories/list", { containerTags: ["repo_docs"], limit: 50 })).body.memoryEntries as { memory: string }[]).map(
      (m) => m.memory,
    );
    expect(memories.join(" | ")).toMatch(/Sarah Chen prefers tabs over spaces/);
    expect(memories.join(" | ")).toMatch(/long walks/);
    expect(memories.join(" | ")).not.toMatch(/Rust/);
    const chunks = (await a("POST", "/v4/search", { q: "Rust command-line tools", containerTag: "repo_docs", searchMode: "documents", threshold: 0 })).body
      .results as { chunk: string }[];
    expect(chunks.map((c) => c.chunk)).toEqual(expect.arrayContaining([expect.stringMatching(/Rust/)]));
  });

  it("merges a tag into another: memories at once, documents by a queued job (the newer of two same caller ids stays), then the source is gone", async () => {
    expect((await a("POST", "/v3/documents", { content: "Old note: the ferry leaves at 7.", containerTag: "m-dst", customId: "ferry" })).status).toBe(200);
    await idle(a);
    expect(
      (await a("POST", "/v3/documents", { content: "The ferry to Vigo leaves at 8:15 on weekdays.", containerTag: "m-src", customId: "ferry" })).status,
    ).toBe(200);
    expect((await a("POST", "/v3/documents", { content: "The harbour café opens at 6.", containerTag: "m-src" })).status).toBe(200);
    expect((await a("POST", "/v4/memories", { containerTag: "m-src", memories: [{ content: "Rosa runs the harbour café" }] })).status).toBe(201);
    await idle(a);

    for (const bad of [
      { containerTags: ["m-src"], targetContainerTag: "m-dst" },
      { containerTags: ["m-dst", "m-dst"], targetContainerTag: "m-dst" },
      { containerTags: ["m-src", "m-dst"] },
    ]) {
      const res = await a("POST", "/v3/container-tags/merge", bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expectErrorBody(res.body);
    }
    expect((await a("POST", "/v3/container-tags/merge", { containerTags: ["no-such-tag", "m-dst"], targetContainerTag: "m-dst" })).status).toBe(404);

    const queued = await a("POST", "/v3/container-tags/merge", { containerTags: ["m-src", "m-dst"], targetContainerTag: "m-dst" });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ success: true, status: "queued", targetTag: "m-dst", sourceTags: ["m-src"] });
    const mergeId = queued.body.mergeId as string;
    // Another tenant cannot follow it.
    expect((await b("GET", `/v3/container-tags/merge/${mergeId}`)).status).toBe(404);
    const done = await waitFor(
      async () => {
        const m = (await a("GET", `/v3/container-tags/merge/${mergeId}`)).body;
        return m.status === "completed" || m.status === "failed" ? m : undefined;
      },
      { timeoutMs: 60_000, what: "the merge to finish" },
    );
    expect(done).toMatchObject({ id: mergeId, status: "completed", targetTag: "m-dst", sourceTags: ["m-src"], movedDocumentsCount: 2, error: null });
    expect(done.movedMemoriesCount).toBeGreaterThanOrEqual(1);
    await idle(a);

    // The source is gone; the target holds both documents, the newer ferry note replacing the older one.
    expect((await a("GET", "/v3/container-tags/m-src")).status).toBe(404);
    expect((await list(a)).find((t) => t.containerTag === "m-dst")).toMatchObject({ documentCount: 2 });
    const ferry = (await a("POST", "/v4/search", { q: "when does the ferry leave", containerTag: "m-dst", searchMode: "documents", threshold: 0 })).body
      .results as { chunk: string }[];
    expect(ferry.some((r) => r.chunk.includes("8:15"))).toBe(true);
    expect(ferry.some((r) => r.chunk.includes("at 7"))).toBe(false);
    const memories = (await a("POST", "/v4/memories/list", { containerTags: ["m-dst"], limit: 100 })).body.memoryEntries as { memory: string }[];
    expect(memories.map((m) => m.memory)).toContain("Rosa runs the harbour café");
    expect((await a("GET", "/v3/container-tags/merge/g_unknownunknownunkno")).status).toBe(404);
  });
});
