import { waitFor } from "@engram/testing";
import { type Api, expectErrorBody, twoTenantStack, waitDone } from "./helpers";

const KEY_A = "memories-key-a-0123456789abcdef";
const KEY_B = "memories-key-b-0123456789abcdef";

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

async function memories(api: Api, containerTag: string, includeForgotten = false): Promise<Body[]> {
  const res = await api("POST", "/v4/memories/list", { containerTags: [containerTag], limit: 100, includeForgotten });
  expect(res.status).toBe(200);
  return res.body.memoryEntries;
}

async function searchMemories(api: Api, q: string, containerTag: string, extra: Body = {}): Promise<Body[]> {
  const res = await api("POST", "/v4/search", { q, containerTag, threshold: 0, ...extra });
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.results.length);
  return res.body.results;
}

describe("memories API and recall", () => {
  const { a, b } = twoTenantStack(KEY_A, KEY_B, { MEMORY_EXPIRY_SWEEP_MS: "200" });

  it("writes memories directly (201), searchable the moment the call returns", async () => {
    const res = await a("POST", "/v4/memories", {
      containerTag: "user_direct",
      memories: [
        { content: "John prefers dark mode", isStatic: false, metadata: { source: "settings" } },
        { content: "John is from Seattle", isStatic: true },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.documentId).toBeNull();
    expect(res.body.memories).toHaveLength(2);
    expect(res.body.memories[0]).toEqual({
      id: expect.stringMatching(/^m_/),
      memory: "John prefers dark mode",
      isStatic: false,
      createdAt: expect.any(String),
      forgetAfter: null,
      forgetReason: null,
      metadata: { source: "settings" },
    });
    const hits = await searchMemories(a, "which mode does John prefer", "user_direct");
    // The whole REST memory result: exactly these fields (filepath only when the memory has one).
    const listed = (await memories(a, "user_direct")).find((m) => m.id === res.body.memories[0].id)!;
    expect(hits[0]!).toEqual({
      id: res.body.memories[0].id,
      memory: "John prefers dark mode",
      metadata: { source: "settings" },
      updatedAt: listed.updatedAt,
      similarity: expect.any(Number),
      version: 1,
    });
    expect(hits[0]!.similarity).toBeGreaterThan(0);
    expect(hits[0]!.similarity).toBeLessThanOrEqual(1);
  });

  it("validates inputs with the API error body: 1-100 memories, containerTag required, content limits", async () => {
    for (const body of [
      { containerTag: "x", memories: [] },
      { containerTag: "x", memories: Array.from({ length: 101 }, (_, i) => ({ content: `m${i}` })) },
      { memories: [{ content: "no tag" }] },
      { containerTag: "x", memories: [{ content: "" }] },
      { containerTag: "x", memories: [{ content: "x", unknown: 1 }] },
      { containerTag: "bad tag", memories: [{ content: "x" }] },
    ]) {
      const res = await a("POST", "/v4/memories", body);
      expect(res.status).toBe(400);
      expectErrorBody(res.body);
    }
  });

  it("updates by id or exact content as new versions; lists history; 409 for an older version", async () => {
    const created = await a("POST", "/v4/memories", { containerTag: "user_versions", memories: [{ content: "Alice works at Acme", metadata: { k: "v" } }] });
    const v1 = created.body.memories[0];
    const p1 = await a("PATCH", "/v4/memories", { id: v1.id, containerTag: "user_versions", newContent: "Alice works at Globex" });
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ memory: "Alice works at Globex", version: 2, parentMemoryId: v1.id, rootMemoryId: v1.id, metadata: { k: "v" } });
    const p2 = await a("PATCH", "/v4/memories", {
      content: "Alice works at Globex",
      containerTag: "user_versions",
      newContent: "Alice works at Initech",
      metadata: null,
    });
    expect(p2.body).toMatchObject({ version: 3, parentMemoryId: p1.body.id, rootMemoryId: v1.id, metadata: null });
    const stale = await a("PATCH", "/v4/memories", { id: v1.id, containerTag: "user_versions", newContent: "nope" });
    expect(stale.status).toBe(409);
    expect(stale.body.details).toContain(p2.body.id);
    const entries = await memories(a, "user_versions");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: p2.body.id, memory: "Alice works at Initech", version: 3, isLatest: true, isForgotten: false, rootMemoryId: v1.id });
    expect(entries[0]!.history.map((h: Body) => [h.version, h.memory, h.isLatest])).toEqual([
      [1, "Alice works at Acme", false],
      [2, "Alice works at Globex", false],
    ]);
    const ctx = await searchMemories(a, "where does Alice work", "user_versions", { include: { relatedMemories: true } });
    expect(ctx.map((r) => r.id)).toEqual([p2.body.id]);
    expect(ctx[0]!.context.parents.map((p: Body) => [p.version, p.memory])).toEqual([
      [-1, "Alice works at Globex"],
      [-2, "Alice works at Acme"],
    ]);
    const none = await a("PATCH", "/v4/memories", { containerTag: "user_versions", newContent: "x" });
    expect(none.status).toBe(400);
    // Both id and content (the description allows it): the id decides. Event dates are plain strings, kept as given.
    const both = await a("PATCH", "/v4/memories", {
      id: p2.body.id,
      content: "not its content",
      containerTag: "user_versions",
      newContent: "Alice works at Hooli",
      temporalContext: { eventDate: ["spring 2026", "2026-03"] },
    });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ version: 4, parentMemoryId: p2.body.id });
    const forgetBoth = await a("DELETE", "/v4/memories", { id: both.body.id, content: "unrelated", containerTag: "user_versions" });
    expect(forgetBoth.body).toEqual({ id: both.body.id, forgotten: true });
  });

  it("forgets: 200 then 409, 404 unknown, gone from search unless forgotten memories are asked for", async () => {
    const created = await a("POST", "/v4/memories", { containerTag: "user_forget", memories: [{ content: "Project Titan launches in March" }] });
    const id = created.body.memories[0].id;
    const f = await a("DELETE", "/v4/memories", { id, containerTag: "user_forget", reason: "cancelled" });
    expect(f.status).toBe(200);
    expect(f.body).toEqual({ id, forgotten: true });
    const again = await a("DELETE", "/v4/memories", { id, containerTag: "user_forget" });
    expect(again.status).toBe(409);
    expectErrorBody(again.body);
    const unknown = await a("DELETE", "/v4/memories", { id: "m_00000000000000000000", containerTag: "user_forget" });
    expect(unknown.status).toBe(404);
    // An id of a shape Engram never issues (the description's own example) names no memory: 404, not 400.
    const example = await a("DELETE", "/v4/memories", { id: "mem_abc123", containerTag: "user_forget" });
    expect(example.status).toBe(404);
    expectErrorBody(example.body);
    expect((await a("PATCH", "/v4/memories", { id: "mem_abc123", containerTag: "user_forget", newContent: "x" })).status).toBe(404);
    expect(await searchMemories(a, "Project Titan", "user_forget")).toEqual([]);
    const withForgotten = await searchMemories(a, "Project Titan", "user_forget", { include: { forgottenMemories: true } });
    expect(withForgotten.map((r) => r.id)).toEqual([id]);
    expect((await memories(a, "user_forget", true))[0]).toMatchObject({ isForgotten: true, forgetReason: "cancelled" });
  });

  it("never confuses document and memory ids: each endpoint names the kind it was given", async () => {
    const doc = await a("POST", "/v3/documents", { content: "A document about kinds of ids.", containerTag: "user_ids" });
    const docId = doc.body.id;
    const mem = await a("POST", "/v4/memories", { containerTag: "user_ids", memories: [{ content: "A memory about kinds of ids" }] });
    const memId = mem.body.memories[0].id;
    const forgetDoc = await a("DELETE", "/v4/memories", { id: docId, containerTag: "user_ids" });
    expect(forgetDoc.status).toBe(400);
    expect(forgetDoc.body.error).toMatch(/document id, not a memory id/);
    const v5 = await a("DELETE", "/ns/user_ids/memories", { ids: [docId] });
    expect(v5.body.errors[0]).toMatchObject({ id: docId, error: expect.stringMatching(/document id/) });
    const delMem = await a("DELETE", "/ns/user_ids/document", { ids: [memId] });
    expect(delMem.body.errors[0].error).toMatch(/memory id, not a document id/);
    const getMem = await a("GET", `/v3/documents/${memId}`);
    expect(getMem.status).toBe(400);
    expect(getMem.body.error + (getMem.body.details ?? "")).toMatch(/memory/);
  });

  it("forget-matching previews with dryRun and then forgets exactly what it showed", async () => {
    await a("POST", "/v4/memories", {
      containerTag: "user_fm",
      memories: [{ content: "Project Titan launches in March" }, { content: "Project Titan budget is two million" }, { content: "Sarah enjoys hiking" }],
    });
    const preview = await a("POST", "/v4/memories/forget-matching", { containerTag: "user_fm", query: "forget everything about Project Titan", dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dryRun: true, count: 2, forgetBatchId: null });
    expect(preview.body.candidates.map((c: Body) => c.memory).sort()).toEqual(["Project Titan budget is two million", "Project Titan launches in March"]);
    expect(preview.body.forgotten).toBeUndefined();
    expect((await memories(a, "user_fm")).length).toBe(3);
    const done = await a("POST", "/v4/memories/forget-matching", { containerTag: "user_fm", q: "Project Titan", reason: "cancelled" });
    expect(done.body).toMatchObject({ dryRun: false, count: 2, forgetBatchId: expect.stringMatching(/^b_/) });
    expect(done.body.forgotten.map((c: Body) => c.id).sort()).toEqual(preview.body.candidates.map((c: Body) => c.id).sort());
    expect((await memories(a, "user_fm")).map((m) => m.memory)).toEqual(["Sarah enjoys hiking"]);
    const both = await a("POST", "/v4/memories/forget-matching", { containerTag: "user_fm", query: "x", ids: ["m_00000000000000000000"] });
    expect(both.status).toBe(400);
  });

  it("v5 forgetting: exact ids with per-id errors, semantic with a dry run; both answer count, matches, errors", async () => {
    const created = await a("POST", "/v4/memories", {
      containerTag: "user_v5",
      memories: [{ content: "Bob drinks green tea" }, { content: "Bob owns a red bicycle" }],
    });
    const [tea, bike] = created.body.memories.map((m: Body) => m.id);
    const dry = await a("DELETE", "/ns/user_v5/memories/semantic", { query: "green tea", dryRun: true });
    expect(dry.body).toEqual({ count: 1, matches: [{ id: tea, memory: "Bob drinks green tea", score: expect.any(Number) }], errors: [] });
    const exact = await a("DELETE", "/ns/user_v5/memories", { ids: [bike, "m_00000000000000000000"] });
    expect(exact.body).toEqual({
      count: 1,
      matches: [{ id: bike, memory: "Bob owns a red bicycle", score: 1 }],
      errors: [{ id: "m_00000000000000000000", error: expect.any(String) }],
    });
    const listed = await a("POST", "/ns/user_v5/list/memories", {});
    expect(listed.body.memories.map((m: Body) => m.id)).toEqual([tea]);
    expect(listed.body).toMatchObject({ documents: [], chunks: [], pagination: { currentPage: 1, totalItems: 1 } });
    const tooMany = await a("DELETE", "/ns/user_v5/memories", { ids: Array.from({ length: 101 }, (_, i) => `m_${i}`) });
    expect(tooMany.status).toBe(400);
  });

  it("forms memories from documents (taskType memory) before reporting them done; superrag forms none", async () => {
    const conversation = [
      "user: Hi! My name is Sarah Chen and I work as a product manager at Acme.",
      "assistant: Nice to meet you, Sarah!",
      "user: I live in Seattle with my dog Max.",
    ].join("\n");
    await a("POST", "/ns/user_form/document", { id: "chat-1", content: conversation, metadata: { kind: "chat" } });
    const done = await waitDone(a, "user_form", "chat-1");
    expect(done.system.status).toBe("done");
    const withMemories = await a("GET", "/ns/user_form/document/chat-1?include=memories,chunks");
    const formed: Body[] = withMemories.body.memories;
    expect(formed.length).toBeGreaterThan(0);
    const texts = formed.map((m) => m.memory).join(" | ");
    expect(texts).toMatch(/Sarah/);
    expect(texts).toMatch(/Seattle/);
    expect(texts).not.toMatch(/\bI live\b/);
    for (const m of formed) {
      expect(m.documentIds).toEqual([withMemories.body.chunks[0].documentId]);
      expect(m.metadata).toMatchObject({ kind: "chat" });
    }
    const hits = await searchMemories(a, "where does Sarah live", "user_form");
    expect(hits[0]!.memory).toMatch(/Seattle/);

    await a("POST", "/ns/user_form/document?taskType=superrag", { id: "plain", content: "The cafeteria opens at 8am on weekdays." });
    await waitDone(a, "user_form", "plain");
    const plain = await a("GET", "/ns/user_form/document/plain?include=memories");
    expect(plain.body.memories).toEqual([]);
  });

  it("include.chunks: chunk results list the document's matching chunks; on a memories search, memory results embed their sources' chunks (old format)", async () => {
    const docs = await searchMemories(a, "where does Sarah live", "user_form", { searchMode: "documents", include: { chunks: true } });
    expect(docs[0]!.chunks[0]).toMatchObject({
      content: expect.stringContaining("Seattle"),
      documentId: docs[0]!.documentId,
      position: 0,
      score: expect.any(Number),
    });
    const old = await searchMemories(a, "where does Sarah live", "user_form", { include: { chunks: true } });
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((r) => "memory" in r && !("chunk" in r))).toBe(true);
    expect(old[0]!.chunks[0]).toMatchObject({ content: expect.stringContaining("Seattle"), documentId: docs[0]!.documentId });
  });

  it("deleting a document retires the memories whose only source it was", async () => {
    await a("POST", "/ns/user_del/document", { id: "d1", content: "user: I am allergic to peanuts." });
    await waitDone(a, "user_del", "d1");
    const before = await searchMemories(a, "peanuts allergy", "user_del");
    expect(before.length).toBeGreaterThan(0);
    await a("DELETE", "/ns/user_del/document", { ids: ["d1"] });
    await waitFor(async () => ((await searchMemories(a, "peanuts allergy", "user_del")).length === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: "memories retired",
    });
  });

  it("searches in every mode: memories (default), documents (chunks), hybrid (both), with filters", async () => {
    await a("POST", "/v4/memories", {
      containerTag: "user_modes",
      memories: [{ content: "The API rate limit is 100 requests per minute", metadata: { tier: "free" } }],
    });
    await a("POST", "/ns/user_modes/document?taskType=superrag", {
      id: "limits",
      content: "Rate limits: the API allows 100 requests per minute on the free tier.",
      metadata: { tier: "free" },
    });
    await waitDone(a, "user_modes", "limits");
    const mem = await searchMemories(a, "API rate limit", "user_modes");
    expect(mem.every((r) => "memory" in r && !("chunk" in r))).toBe(true);
    const docs = await searchMemories(a, "API rate limit", "user_modes", { searchMode: "documents", include: { documents: true } });
    expect(docs[0]!).toMatchObject({
      chunk: expect.stringContaining("100 requests"),
      documentId: expect.stringMatching(/^d_/),
      id: expect.stringMatching(/^c_/),
    });
    expect(docs[0]!.documents[0]).toMatchObject({ id: docs[0]!.documentId, title: expect.any(String) });
    const hybrid = await searchMemories(a, "API rate limit", "user_modes", { searchMode: "hybrid" });
    expect(hybrid.some((r) => "memory" in r)).toBe(true);
    expect(hybrid.some((r) => "chunk" in r)).toBe(true);
    const filtered = await searchMemories(a, "API rate limit", "user_modes", { searchMode: "hybrid", filters: { AND: [{ key: "tier", value: "pro" }] } });
    expect(filtered).toEqual([]);
    const bad = await a("POST", "/v4/search", { q: "x", searchMode: "everything" });
    expect(bad.status).toBe(400);
  });

  it("v3 search groups chunks per document, adds neighbours unless onlyMatchingChunks, and searches inside one document", async () => {
    const long = Array.from(
      { length: 240 },
      (_, i) => `Paragraph ${i} talks about ${i === 120 ? "the quarterly zebra migration" : "ordinary office topics and weather"}.`,
    ).join("\n\n");
    await a("POST", "/ns/user_v3/document?taskType=superrag", { id: "long", content: long });
    await waitDone(a, "user_v3", "long");
    const res = await a("POST", "/v3/search", { q: "zebra migration", containerTag: "user_v3" });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ documentId: expect.stringMatching(/^d_/), score: expect.any(Number), createdAt: expect.any(String) });
    expect(res.body.results[0].chunks.every((c: Body) => c.isRelevant)).toBe(true);
    const ctx = await a("POST", "/v3/search", { q: "zebra migration", containerTag: "user_v3", onlyMatchingChunks: false, includeFullDocs: true });
    expect(ctx.body.results[0].chunks.some((c: Body) => c.isRelevant === false)).toBe(true);
    expect(ctx.body.results[0].content).toContain("Paragraph 0");
    const inside = await a("POST", "/v3/search", { q: "zebra", docId: "long", containerTag: "user_v3" });
    expect(inside.body.results.map((r: Body) => r.documentId)).toEqual([res.body.results[0].documentId]);
    const missing = await a("POST", "/v3/search", { q: "zebra", docId: "nope", containerTag: "user_v3" });
    expect(missing.status).toBe(404);
  });

  it("builds profiles: static and dynamic facts, optional search results, sections on request", async () => {
    await a("POST", "/v4/memories", {
      containerTag: "user_profile",
      memories: [
        { content: "Dana is a software engineer", isStatic: true },
        { content: "Dana is from Lisbon", isStatic: true },
        { content: "Dana is preparing a talk for next week" },
      ],
    });
    const res = await a("POST", "/v4/profile", { containerTag: "user_profile" });
    expect(res.status).toBe(200);
    expect(res.body.profile.static.sort()).toEqual(["Dana is a software engineer", "Dana is from Lisbon"]);
    expect(res.body.profile.dynamic).toEqual(["Dana is preparing a talk for next week"]);
    expect(res.body.profile.buckets).toEqual({});
    expect(res.body.searchResults).toBeUndefined();
    const withQ = await a("POST", "/v4/profile", { containerTag: "user_profile", q: "where is Dana from", include: ["static"] });
    expect(Object.keys(withQ.body.profile)).toEqual(["static"]);
    expect(withQ.body.searchResults.results[0].memory).toBe("Dana is from Lisbon");
    expect(withQ.body.searchResults).toMatchObject({ total: expect.any(Number), timing: expect.any(Number) });
    const missingTag = await a("POST", "/v4/profile", {});
    expect(missingTag.status).toBe(400);
    const buckets = await a("POST", "/v4/profile/buckets", { containerTag: "user_profile" });
    expect(buckets.body).toEqual({ buckets: [] });
  });

  it("profile buckets come from the organisation's settings (PATCH /v3/settings profileBuckets)", async () => {
    const set = await b("PATCH", "/v3/settings", {
      profileBuckets: [
        { key: "pets", description: "animals such as a dog or a cat" },
        { key: "work", description: "job, employer, engineer, colleagues" },
      ],
    });
    expect(set.status).toBe(200);
    const defs = await b("POST", "/v4/profile/buckets", { containerTag: "user_buckets" });
    expect(defs.body.buckets).toEqual([
      { key: "pets", description: "animals such as a dog or a cat" },
      { key: "work", description: "job, employer, engineer, colleagues" },
    ]);
    await b("POST", "/v4/memories", {
      containerTag: "user_buckets",
      memories: [{ content: "Eli has a dog named Rex" }, { content: "Eli is an engineer at Initech", isStatic: true }, { content: "Eli likes jazz" }],
    });
    const res = await b("POST", "/v4/profile", { containerTag: "user_buckets", include: ["buckets"] });
    expect(res.body.profile).toEqual({ buckets: { pets: ["Eli has a dog named Rex"], work: ["Eli is an engineer at Initech"] } });
    const one = await b("POST", "/v4/profile", { containerTag: "user_buckets", include: ["buckets"], buckets: ["work"] });
    expect(one.body.profile.buckets).toEqual({ work: ["Eli is an engineer at Initech"] });
    // The other tenant's organisation has no buckets.
    expect((await a("POST", "/v4/profile/buckets", { containerTag: "user_buckets" })).body.buckets).toEqual([]);
  });

  it("lists chunks of a namespace (v5)", async () => {
    const res = await a("POST", "/ns/user_v3/list/chunks?limit=2&order=asc", {});
    expect(res.status).toBe(200);
    expect(res.body.chunks).toHaveLength(2);
    expect(res.body.chunks[0]).toMatchObject({ documentId: expect.stringMatching(/^d_/), position: 0, content: expect.any(String) });
    expect(res.body.pagination.totalItems).toBeGreaterThan(2);
  });

  it("keeps tenants apart: another tenant's key sees, updates and forgets nothing", async () => {
    const created = await a("POST", "/v4/memories", { containerTag: "shared_tag", memories: [{ content: "Tenant A secret: the vault code is 1234" }] });
    const id = created.body.memories[0].id;
    expect(await searchMemories(b, "vault code", "shared_tag")).toEqual([]);
    expect((await b("POST", "/v4/search", { q: "vault code", threshold: 0 })).body.results).toEqual([]);
    expect(await memories(b, "shared_tag")).toEqual([]);
    expect((await b("DELETE", "/v4/memories", { id, containerTag: "shared_tag" })).status).toBe(404);
    expect((await b("PATCH", "/v4/memories", { id, containerTag: "shared_tag", newContent: "hijacked" })).status).toBe(404);
    expect((await b("DELETE", "/ns/shared_tag/memories", { ids: [id] })).body.count).toBe(0);
    expect((await b("POST", "/v4/memories/forget-matching", { containerTag: "shared_tag", query: "vault code" })).body.count).toBe(0);
    expect((await b("POST", "/v4/profile", { containerTag: "shared_tag" })).body.profile.dynamic).toEqual([]);
    expect((await searchMemories(a, "vault code", "shared_tag")).map((r) => r.id)).toEqual([id]);
  });

  it("forgets memories whose forgetAfter passed", async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await a("POST", "/v4/memories", {
      containerTag: "user_expiry",
      memories: [{ content: "The door code is 4411 today", forgetAfter: soon, forgetReason: "rotates" }],
    });
    expect(created.body.memories[0]).toMatchObject({ forgetAfter: soon, forgetReason: "rotates" });
    expect((await searchMemories(a, "door code", "user_expiry")).length).toBe(1);
    await waitFor(async () => ((await memories(a, "user_expiry", true))[0]?.isForgotten ? true : undefined), { timeoutMs: 10_000, what: "expiry" });
    expect(await searchMemories(a, "door code", "user_expiry")).toEqual([]);
  });
});
