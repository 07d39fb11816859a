import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { type Api, expectErrorBody, runCliProcess, stopQuietly } from "./helpers";

const KEY_A = "export-key-a-0123456789abcdef0123";
const KEY_B = "export-key-b-0123456789abcdef0123";
const KEY_C = "export-key-c-0123456789abcdef0123";

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

const TAG = "proj_archive";
const FILE_TEXT = "# Harbour notes\n\nThe lighthouse keeper Oskar Lund logs every ship that enters Vesthavn harbour.\n";

/** The `engram` CLI against a stack, without retries. */
const engram = (args: string[], url: string, key: string) => runCliProcess(["--url", url, "--api-key", key, ...args], { ENGRAM_MAX_RETRIES: "0" }, 120_000);

async function exportArchive(url: string, key: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${url}/v3/export`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function importArchive(url: string, key: string, bytes: Uint8Array, type = "application/x-tar"): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${url}/v3/import`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": type }, body: bytes });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function documents(api: Api): Promise<Body[]> {
  const res = await api("POST", "/v3/documents/list", { limit: 1000, includeContent: true, sort: "createdAt", order: "asc" });
  expect(res.status).toBe(200);
  return res.body.memories;
}

async function allDone(api: Api, count: number): Promise<Body[]> {
  return waitFor(
    async () => {
      const docs = await documents(api);
      return docs.length === count && docs.every((d) => d.status === "done" || d.status === "failed") ? docs : undefined;
    },
    { timeoutMs: 60_000, what: `${count} documents to finish` },
  );
}

async function memoryEntries(api: Api): Promise<Body[]> {
  const res = await api("POST", "/v4/memories/list", { containerTags: [TAG], limit: 1000, includeForgotten: true, sort: "createdAt", order: "asc" });
  expect(res.status).toBe(200);
  return res.body.memoryEntries;
}

/** What must survive the round trip, without the ids (which a same-instance import changes) and the re-indexing's updatedAt. */
function documentView(d: Body) {
  return {
    customId: d.customId,
    content: d.content,
    metadata: d.metadata,
    title: d.title,
    summary: d.summary,
    status: d.status,
    type: d.type,
    containerTags: d.containerTags,
    createdAt: d.createdAt,
  };
}

/**
 * A memory entry with every id replaced by what it names (the memory's text and version), and without its tenant: a
 * same-instance import gives new ids, and the chains, relations and history must still point at the same memories.
 */
function memoryViews(entries: Body[], documentNames: Map<string, string>) {
  const names = new Map<string, string>();
  for (const e of entries) for (const m of [e, ...(e.history ?? [])]) names.set(m.id, `${m.memory ?? m.content}#${m.version}`);
  const name = (id: string | null | undefined) => (id ? (names.get(id) ?? `unknown ${id}`) : id);
  const view = (m: Body) => {
    const { id, orgId: _o, memoryRelations, parentMemoryId, rootMemoryId, history, documentIds, ...rest } = m;
    return {
      ...rest,
      id: name(id),
      parentMemoryId: name(parentMemoryId),
      rootMemoryId: name(rootMemoryId),
      memoryRelations: Object.fromEntries(Object.entries(memoryRelations ?? {}).map(([k, v]) => [name(k), v])),
      documentIds: (documentIds ?? []).map((d: string) => documentNames.get(d) ?? `unknown ${d}`),
      ...(rest.sources ? { sources: rest.sources.map((x: Body) => ({ ...x, documentId: documentNames.get(x.documentId) ?? `unknown ${x.documentId}` })) } : {}),
      ...(history ? { history: history.map(view) } : {}),
    };
  };
  return entries.map(view).sort((x, y) => String(x.id).localeCompare(String(y.id))) as Body[];
}

async function searchView(api: Api, q: string) {
  const memories = await api("POST", "/v4/search", { q, containerTag: TAG, threshold: 0, limit: 10 });
  const chunks = await api("POST", "/v4/search", { q, containerTag: TAG, searchMode: "documents", threshold: 0, limit: 10 });
  expect(memories.status).toBe(200);
  expect(chunks.status).toBe(200);
  return {
    memories: memories.body.results.map((r: Body) => [r.memory, r.version, Number(r.similarity).toFixed(4)]),
    chunks: chunks.body.results.map((r: Body) => [r.chunk ?? r.memory, Number(r.similarity).toFixed(4)]),
  };
}

async function tenantView(api: Api) {
  const docs = await documents(api);
  const settings = await api("GET", "/v3/settings");
  const tag = await api("GET", `/v3/container-tags/${TAG}`);
  const { createdAt: _c, updatedAt: _u, ...tagSettings } = tag.body;
  return {
    documents: docs.map(documentView),
    memories: memoryViews(await memoryEntries(api), new Map(docs.map((d) => [d.id, d.customId ?? String(d.content ?? d.title).slice(0, 60)]))),
    settings: settings.body,
    tag: tagSettings,
    search: [await searchView(api, "who keeps the lighthouse"), await searchView(api, "which editor does Ada use")],
  };
}

async function fileBytes(api: Api, url: string, id: string): Promise<string> {
  const link = await api("GET", `/v3/documents/${id}/file-url`);
  expect(link.status).toBe(200);
  const res = await fetch(new URL(link.body.url, url));
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * Tenant export and import (issue #34): GET /v3/export of tenant A, POST
 * /v3/import into tenant B of the same instance (every id taken: all are
 * remapped) and into a new instance (ids kept), compared through the API:
 * documents with content and files, memories with their whole history,
 * settings, container tag settings and search results.
 */
describe("tenant export and import", () => {
  // Started here rather than by twoTenantStack: a loaded machine may need more than its 30 s to start two stacks.
  const stack = {} as { engram: EngramProcess; a: Api; b: Api };
  beforeAll(async () => {
    stack.engram = await startEngram({ apiKey: KEY_A, env: { ENGRAM_API_KEYS: `${KEY_B}=tenant-b` }, timeoutMs: 120_000 });
    stack.a = apiClient(stack.engram.url, KEY_A);
    stack.b = apiClient(stack.engram.url, KEY_B);
  }, 130_000);
  afterAll(() => stopQuietly(stack.engram));
  let other: EngramProcess | undefined;
  let archive: Buffer;
  let source: Awaited<ReturnType<typeof tenantView>>;
  afterAll(() => stopQuietly(other));

  it("exports a tenant with settings, a container tag, documents, a file, and memories with versions, expiry and forgetting", async () => {
    const a = stack.a;
    expect((await a("PATCH", "/v3/settings", { profileBuckets: [{ key: "tools", description: "Software the user works with" }] })).status).toBe(200);
    expect((await a("PATCH", "/v3/settings", { workspacePrompt: "Keep facts about people and places." })).status).toBe(200);
    expect((await a("PATCH", `/v3/container-tags/${TAG}`, { name: "Archive project", entityContext: "Notes about a harbour town" })).status).toBe(200);
    for (const [i, content] of ["Ada Byron writes all her code in Emacs.", "Ada Byron lives in Vesthavn, near the harbour."].entries()) {
      const res = await a("POST", "/v3/documents", { content, containerTag: TAG, customId: `note-${i}`, metadata: { n: i, kind: "note" } });
      expect(res.status).toBe(200);
    }
    const rag = await a("POST", "/v3/documents", { content: "Vesthavn harbour opens at dawn.", containerTag: TAG, taskType: "superrag" });
    expect(rag.status).toBe(200);
    const form = new FormData();
    form.append("containerTags", JSON.stringify([TAG]));
    form.append("file", new Blob([FILE_TEXT], { type: "text/markdown" }), "harbour.md");
    const up = await fetch(`${stack.engram.url}/v3/documents/file`, { method: "POST", headers: { authorization: `Bearer ${KEY_A}` }, body: form });
    expect(up.status).toBe(200);
    await allDone(a, 4);

    const created = await a("POST", "/v4/memories", {
      containerTag: TAG,
      memories: [
        { content: "Ada Byron's favourite editor is Emacs", isStatic: true, metadata: { source: "chat" } },
        { content: "Ada Byron is on holiday in Lisbon", forgetAfter: "2099-01-01T00:00:00.000Z", forgetReason: "holiday ends" },
        { content: "Ada Byron has a cold" },
      ],
    });
    expect(created.status).toBe(201);
    const [editor, , cold] = created.body.memories;
    expect((await a("PATCH", "/v4/memories", { containerTag: TAG, id: editor.id, newContent: "Ada Byron's favourite editor is now Neovim" })).status).toBe(200);
    expect((await a("DELETE", "/v4/memories", { containerTag: TAG, id: cold.id, reason: "recovered" })).status).toBe(200);

    source = await tenantView(a);
    expect(source.documents).toHaveLength(4);
    const latestEditor = source.memories.find((m) => m.memory === "Ada Byron's favourite editor is now Neovim")!;
    expect(latestEditor.version).toBe(2);
    expect(latestEditor.history).toHaveLength(1);
    expect(source.memories.some((m) => m.isForgotten)).toBe(true);

    const out = await exportArchive(stack.engram.url, KEY_A);
    expect(out.status).toBe(200);
    expect(out.type).toBe("application/x-tar");
    archive = out.bytes;
    // A tar: 512-byte blocks, the first entry is the format header, the manifest is the last entry.
    expect(archive.length % 512).toBe(0);
    expect(archive.subarray(0, 100).toString("utf8")).toContain("engram-archive.json");
    expect(archive.toString("latin1")).toContain("manifest.json");
  });

  it("imports into another tenant of the same instance: every id remapped, nothing lost, memories not formed twice", async () => {
    const res = await importArchive(stack.engram.url, KEY_B, archive);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      settings: true,
      containerTags: 1,
      files: 1,
      documents: { imported: 4, existing: 0, failed: 0 },
      connections: { skipped: 0 },
    });
    expect(res.body.memories.imported).toBe(res.body.counts.memories);
    await allDone(stack.b, 4);
    const target = await tenantView(stack.b);
    expect(target).toEqual(source);
    // Ids were taken (tenant A holds them): new ones.
    const [aDocs, bDocs] = [await documents(stack.a), await documents(stack.b)];
    expect(bDocs.map((d) => d.id).filter((id) => aDocs.some((x) => x.id === id))).toEqual([]);
    // The original file came along (the documents keep their order: the upload was the last one).
    expect(await fileBytes(stack.b, stack.engram.url, bDocs[3]!.id)).toBe(FILE_TEXT);
    // Memory formation did not run again on the re-indexed documents: exactly the archive's memories.
    expect((await memoryEntries(stack.b)).length).toBe((await memoryEntries(stack.a)).length);
  });

  it("adds nothing on a second import of the same archive", async () => {
    const res = await importArchive(stack.engram.url, KEY_B, archive);
    expect(res.status).toBe(200);
    expect(res.body.documents).toMatchObject({ imported: 0, existing: 4, failed: 0 });
    expect(res.body.memories).toEqual({ imported: 0, skipped: res.body.counts.memories });
    expect(await tenantView(stack.b)).toEqual(source);
  });

  it("keeps every id when importing into another instance (engram export, then engram import-archive)", async () => {
    other = await startEngram({ apiKey: KEY_C, timeoutMs: 120_000 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-archive-"));
    const file = path.join(dir, "tenant.tar");
    const exported = await engram(["export", file], stack.engram.url, KEY_A);
    expect(exported).toMatchObject({ code: 0, out: { file, bytes: fs.statSync(file).size } });
    // Never overwritten.
    expect((await engram(["export", file], stack.engram.url, KEY_A)).code).toBe(2);
    const imported = await engram(["import-archive", file], other.url, KEY_C);
    expect(imported).toMatchObject({ code: 0, out: { documents: { imported: 4, existing: 0, failed: 0 }, files: 1 } });
    fs.rmSync(dir, { recursive: true, force: true });
    const c = apiClient(other.url, KEY_C);
    await allDone(c, 4);
    expect(await tenantView(c)).toEqual(source);
    expect((await documents(c)).map((d) => d.id)).toEqual((await documents(stack.a)).map((d) => d.id));
    expect((await memoryEntries(c)).map((m) => [m.id, m.history.map((h: Body) => h.id)])).toEqual(
      (await memoryEntries(stack.a)).map((m) => [m.id, m.history.map((h: Body) => h.id)]),
    );
  });

  it("refuses a cut-off archive, a non-archive, a wrong media type and a key without the admin scope", async () => {
    const cut = await importArchive(stack.engram.url, KEY_B, archive.subarray(0, Math.floor(archive.length / 1024) * 512));
    expect(cut.status).toBe(400);
    expectErrorBody(cut.body);
    expect(cut.body.details).toMatch(/manifest|tar/);
    const junk = await importArchive(stack.engram.url, KEY_B, Buffer.from("not a tar at all".repeat(64)));
    expect(junk.status).toBe(400);
    expectErrorBody(junk.body);
    const json = await importArchive(stack.engram.url, KEY_B, Buffer.from("{}"), "application/json");
    expect(json.status).toBe(415);
    expectErrorBody(json.body);
    const minted = await stack.a("POST", "/v3/keys", { name: "reader", scopes: ["read", "write"] });
    expect(minted.status).toBe(201);
    const reader = await exportArchive(stack.engram.url, minted.body.key);
    expect(reader.status).toBe(403);
    expect((await importArchive(stack.engram.url, minted.body.key, archive)).status).toBe(403);
    // The CLI: exit 3 for the refused key, nothing left behind.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-archive-"));
    expect((await engram(["export", path.join(dir, "x.tar")], stack.engram.url, minted.body.key)).code).toBe(3);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
