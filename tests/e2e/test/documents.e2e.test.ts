import { expectErrorBody, twoTenantStack, waitDone } from "./helpers";

const KEY_A = "tenant-a-key-0123456789abcdef";
const KEY_B = "tenant-b-key-0123456789abcdef";

describe("documents end to end (all-in-one over HTTP and gRPC)", () => {
  const stack = twoTenantStack(KEY_A, KEY_B);
  const { a, b } = stack;

  it("adds a v5 document, never 404s right after the add, reaches done and is searchable", async () => {
    const add = await a("POST", "/ns/notes/document", {
      content: "Sarah was promoted to VP of Product at Northwind in March.",
      id: "sarah-1",
      metadata: { type: "note" },
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ id: "sarah-1", status: "queued" });

    const immediate = await a("GET", "/ns/notes/document/sarah-1");
    expect(immediate.status).toBe(200);
    expect(["queued", "extracting", "chunking", "embedding", "indexing", "done"]).toContain(immediate.body.system.status);

    const done = await waitDone(a, "notes", "sarah-1");
    expect(done.system.status).toBe("done");
    expect(done).toEqual(
      expect.objectContaining({ id: "sarah-1", content: "Sarah was promoted to VP of Product at Northwind in March.", metadata: { type: "note" } }),
    );
    expect(Date.parse(done.system.createdAt)).not.toBeNaN();
    expect(done).not.toHaveProperty("chunks");
    expect(done).not.toHaveProperty("memories");

    const search = await a("POST", "/v4/search", {
      q: "who was promoted to VP of Product?",
      containerTag: "notes",
      searchMode: "documents",
      include: { documents: true },
    });
    expect(search.status).toBe(200);
    expect(search.body.total).toBe(search.body.results.length);
    expect(typeof search.body.timing).toBe("number");
    const hit = search.body.results[0];
    expect(hit.chunk).toContain("Sarah was promoted");
    expect(hit.similarity).toBeGreaterThan(0);
    expect(hit.similarity).toBeLessThanOrEqual(1);
    expect(hit.metadata).toEqual({ type: "note" });
    expect(hit.documents[0].id).toBe(hit.documentId);
    expect(hit.id).toMatch(/^c_/);
  });

  it("returns chunks with include=chunks, each carrying its documentId", async () => {
    await a("POST", "/ns/notes/document", { content: "# Heading\n\nParagraph one about tea.\n\nParagraph two about coffee.", id: "drinks" });
    const done = await waitDone(a, "notes", "drinks");
    const withChunks = await a("GET", "/ns/notes/document/drinks?include=chunks");
    expect(withChunks.status).toBe(200);
    expect(withChunks.body.chunks.length).toBeGreaterThan(0);
    const docId = withChunks.body.chunks[0].documentId;
    expect(docId).toMatch(/^d_[0-9A-Za-z]{20}$/);
    expect(withChunks.body.chunks.map((c: { position: number }) => c.position)).toEqual([...withChunks.body.chunks.keys()]);
    expect(done.system.status).toBe("done");
    const bad = await a("GET", "/ns/notes/document/drinks?include=summaries");
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body);
  });

  it("serves the legacy v3 add and read", async () => {
    const add = await a("POST", "/v3/documents", { content: "The v3 API stores documents with a containerTag.", containerTag: "legacy", customId: "v3-doc" });
    expect(add.status).toBe(200);
    expect(add.body.status).toBe("queued");
    expect(add.body.id).toMatch(/^d_[0-9A-Za-z]{20}$/);
    const get = await a("GET", `/v3/documents/${add.body.id}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(expect.objectContaining({ id: add.body.id, customId: "v3-doc", containerTags: ["legacy"], taskType: "memory" }));
    const byCustom = await a("GET", "/v3/documents/v3-doc");
    expect(byCustom.body.id).toBe(add.body.id);
    await waitDone(a, "legacy", "v3-doc");
    const chunks = await a("GET", `/v3/documents/${add.body.id}/chunks`);
    expect(chunks.status).toBe(200);
    expect(chunks.body.chunks[0].documentId).toBe(add.body.id);
  });

  it("re-adding the same id with the same content reports the current state; new content is re-processed", async () => {
    await a("POST", "/ns/notes/document", { content: "Version one of the roadmap.", id: "roadmap" });
    await waitDone(a, "notes", "roadmap");
    const dup = await a("POST", "/ns/notes/document", { content: "Version one of the roadmap.", id: "roadmap" });
    expect(dup.body).toEqual({ id: "roadmap", status: "done" });
    const changed = await a("POST", "/ns/notes/document", { content: "Version two of the roadmap mentions quantum gardening.", id: "roadmap" });
    expect(changed.body).toEqual({ id: "roadmap", status: "queued" });
    const done = await waitDone(a, "notes", "roadmap");
    expect(done.content).toContain("Version two");
    const search = await a("POST", "/v4/search", { q: "quantum gardening", containerTag: "notes", searchMode: "documents" });
    expect(search.body.results.map((r: { chunk: string }) => r.chunk).join(" ")).toContain("quantum gardening");
  });

  it("isolates tenants and namespaces", async () => {
    await a("POST", "/ns/private/document", { content: "The launch code word is marmalade.", id: "secret" });
    await waitDone(a, "private", "secret");
    // Another tenant: same namespace and id are invisible, also by service id.
    const own = await a("GET", "/ns/private/document/secret");
    expect((await b("GET", "/ns/private/document/secret")).status).toBe(404);
    const serviceId = (await a("GET", "/ns/private/document/secret?include=chunks")).body.chunks[0].documentId;
    expect((await b("GET", `/v3/documents/${serviceId}`)).status).toBe(404);
    const searchB = await b("POST", "/v4/search", { q: "launch code word marmalade", searchMode: "documents", threshold: 0 });
    expect(searchB.status).toBe(200);
    expect(searchB.body.results).toEqual([]);
    // Same tenant, another namespace: not reachable through that namespace.
    expect((await a("GET", `/ns/other/document/${serviceId}`)).status).toBe(404);
    const searchOther = await a("POST", "/v4/search", { q: "launch code word marmalade", containerTag: "other", searchMode: "documents", threshold: 0 });
    expect(searchOther.body.results).toEqual([]);
    expect(own.status).toBe(200);
  });

  it("rejects requests without a valid key with 401 and the error body", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-key-0000000000000" }, { authorization: "Basic abc" }] as Record<string, string>[]) {
      const res = await fetch(`${stack.engram.url}/ns/notes/document/sarah-1`, { headers });
      expect(res.status).toBe(401);
      expectErrorBody(await res.json());
    }
    const health = await fetch(`${stack.engram.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("answers bad input with clear 4xx error bodies", async () => {
    const cases: [string, string, unknown, number][] = [
      ["POST", "/ns/notes/document", "{not json", 400],
      ["POST", "/ns/notes/document", { content: "" }, 400],
      ["POST", "/ns/notes/document", { content: 42 }, 400],
      ["POST", "/ns/notes/document", { content: "x", unknownField: true }, 400],
      ["POST", "/ns/notes/document", { content: "x", id: "has space" }, 400],
      ["POST", "/ns/notes/document", { content: "x", metadata: { nested: { no: 1 } } }, 400],
      ["POST", "/ns/bad%20ns/document", { content: "x" }, 400],
      ["POST", "/ns/notes/document?taskType=nope", { content: "x" }, 400],
      ["POST", "/v3/documents", { content: "x", containerTag: "a".repeat(101) }, 400],
      ["POST", "/v4/search", { q: "" }, 400],
      ["GET", "/ns/notes/document/m_AAAAAAAAAAAAAAAAAAAA", undefined, 400],
      ["GET", "/ns/notes/document/does-not-exist", undefined, 404],
      ["GET", "/no/such/route", undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await a(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status });
      expectErrorBody(res.body);
    }
    const memoryId = await a("GET", "/ns/notes/document/m_AAAAAAAAAAAAAAAAAAAA");
    expect(memoryId.body.error).toMatch(/memory id/);
    const unknown = await a("POST", "/ns/notes/document", { content: "x", unknownField: true });
    expect(unknown.body.details).toMatch(/unknownField/);
    const notJson = await a("POST", "/ns/notes/document", "content=x", { "content-type": "text/plain" });
    expect(notJson.status).toBe(415);
    const tooBig = await a("POST", "/ns/notes/document", { content: "x".repeat(17 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
    expectErrorBody(tooBig.body);
  });

  it("serves health, readiness, metrics and request ids", async () => {
    expect((await fetch(`${stack.engram.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${stack.engram.url}/metrics`)).text();
    expect(metrics).toContain("engram_http_request_duration_seconds");
    expect(metrics).toContain("engram_grpc_server_duration_seconds");
    expect(metrics).toContain("engram_pipeline_stage_duration_seconds");
    const res = await a("GET", "/ns/notes/document/sarah-1", undefined, { "x-request-id": "req-abc-123" });
    expect(res.headers.get("x-request-id")).toBe("req-abc-123");
    const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const traced = await a("GET", "/ns/notes/document/sarah-1", undefined, { traceparent: parent });
    expect(traced.headers.get("traceparent")).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(traced.headers.get("traceparent")).not.toBe(parent);
    const generated = await a("GET", "/ns/notes/document/sarah-1");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
