import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

/**
 * The served OpenAPI description and the API reference page on the
 * all-in-one stack: both open (no key), the description a sound OpenAPI 3.1
 * document (every schema compiles as JSON Schema 2020-12, every $ref
 * resolves, operation ids unique, every example valid against its schema),
 * and the page a Swagger UI served from the gateway itself (no CDN) with a
 * CSP that allows no inline script. The unit test
 * (services/gateway/test/unit/openapi.test.ts) checks the description against
 * the routes and what they accept.
 *
 * ENGRAM_ENTRY=dist/all-in-one.js runs this against the built bundle (after `pnpm build`).
 */

type Json = Record<string, unknown>;

const KEY = "openapi-key-0123456789abcdef0123";

describe("OpenAPI description and reference page", () => {
  let engram: EngramProcess;
  let doc: Json;
  /** The operations (`method template`) whose live answers were validated. */
  const checked = new Set<string>();

  /** A caller that checks each answer against the operation's description of that status, and records the operation. */
  const liveChecker = async () => {
    doc ??= (await (await fetch(`${engram.url}/openapi.json`)).json()) as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi" });
    const esc = (x: string) => x.replace(/~/g, "~0").replace(/\//g, "~1");
    const problems: string[] = [];
    const call = async (method: string, template: string, url: string, body?: unknown, status = 200): Promise<Json> => {
      // a FormData body is sent as multipart/form-data (fetch sets the boundary), anything else as JSON
      const form = body instanceof FormData;
      const res = await fetch(engram.url + url, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${KEY}`, ...(body === undefined || form ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
      });
      const answer = (await res.json()) as Json;
      expect({ url, status: res.status }).toEqual({ url, status });
      const validate = ajv.compile({ $ref: `openapi#/paths/${esc(template)}/${method}/responses/${res.status}/content/application~1json/schema` });
      if (!validate(answer)) problems.push(`${method} ${url}: ${ajv.errorsText(validate.errors)}`);
      checked.add(`${method} ${template}`);
      return answer;
    };
    return { call, problems, ajv };
  };

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY });
  });
  afterAll(() => stopQuietly(engram));

  it("serves /openapi.json without a key", async () => {
    const res = await fetch(`${engram.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    doc = (await res.json()) as Json;
    expect(doc.openapi).toBe("3.1.0");
    // The same document every time (generated once).
    expect(await (await fetch(`${engram.url}/openapi.json`)).json()).toEqual(doc);
  });

  it("is a sound OpenAPI 3.1 document", () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const ops = Object.values(paths).flatMap((item) => Object.entries(item).filter(([m]) => ["get", "post", "put", "patch", "delete"].includes(m)));
    const ids = ops.map(([, op]) => op.operationId as string);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of [
      "/healthz",
      "/readyz",
      "/metrics",
      "/files/{token}",
      "/openapi.json",
      "/docs",
      "/mcp",
      "/v3/documents",
      "/v4/search",
      "/ns/{namespace}/document",
    ])
      expect(Object.keys(paths)).toContain(p);
    // OpenAPI forbids two templates of the same hierarchy that differ only by parameter names.
    const templates = Object.keys(paths).map((p) => p.replace(/\{[^}]+\}/g, "{}"));
    expect(new Set(templates).size).toBe(templates.length);
    // Every path parameter of a template is declared, and required.
    for (const [p, item] of Object.entries(paths))
      for (const [, op] of Object.entries(item)) {
        const declared = ((op.parameters ?? []) as Json[]).filter((x) => x.in === "path");
        const names = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        expect({ p, params: declared.map((x) => x.name).sort() }).toEqual({ p, params: [...names].sort() });
        expect(declared.every((x) => x.required === true)).toBe(true);
      }

    // Every $ref points at something in the document.
    const refs: string[] = [];
    const walk = (x: unknown) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === "object") {
        for (const [k, v] of Object.entries(x))
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    const pointer = (ref: string) =>
      ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((node, part) => (node as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    expect(refs.filter((r) => !r.startsWith("#/") || pointer(r) === undefined)).toEqual([]);

    // Every schema compiles as JSON Schema 2020-12, and every example validates against its schema.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi" });
    const compile = (where: string) => ajv.compile({ $ref: `openapi#${where}` });
    const components = (doc.components as { schemas: Json }).schemas;
    for (const name of Object.keys(components)) compile(`/components/schemas/${name}`);
    const problems: string[] = [];
    const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
    for (const [p, item] of Object.entries(paths))
      for (const [m, op] of Object.entries(item)) {
        const at = `/paths/${esc(p)}/${m}`;
        for (const [media, c] of Object.entries(((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>)) {
          const validate = compile(`${at}/requestBody/content/${esc(media)}/schema`);
          if (c.example !== undefined && !validate(c.example)) problems.push(`${m} ${p} request example: ${ajv.errorsText(validate.errors)}`);
        }
        for (const [status, r] of Object.entries(op.responses as Record<string, Json>))
          for (const media of Object.keys((r.content ?? {}) as Json)) compile(`${at}/responses/${status}/content/${esc(media)}/schema`);
        ((op.parameters ?? []) as Json[]).forEach((param, i) => {
          const validate = compile(`${at}/parameters/${i}/schema`);
          const example = (param.schema as Json).example;
          if (example !== undefined && !validate(example))
            problems.push(`${m} ${p} parameter ${param.name as string} example: ${ajv.errorsText(validate.errors)}`);
        });
      }
    expect(problems).toEqual([]);
  });

  it("describes the answers truly: live answers of the operations the console reads validate against their descriptions", async () => {
    const { call, problems } = await liveChecker();
    const added = await call("post", "/v3/documents", "/v3/documents", {
      content: "user: I live in Lisbon and I work as a pastry chef.",
      containerTag: "shapes",
      metadata: { team: "kitchen", shift: 2 },
    });
    const id = added.id as string;
    for (let i = 0; i < 200; i++) {
      const d = await call("get", "/v3/documents/{id}", `/v3/documents/${id}`);
      if (d.status === "done" || d.status === "failed") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await call("post", "/v3/documents/list", "/v3/documents/list", { containerTags: ["shapes"], includeContent: true });
    const v5 = await call("get", "/ns/{namespace}/document/{id}", `/ns/shapes/document/${id}?include=memories,chunks`);
    expect((v5.memories as unknown[]).length).toBeGreaterThan(0);
    await call("get", "/v3/documents/{id}/chunks", `/v3/documents/${id}/chunks`);
    for (const searchMode of ["memories", "documents", "hybrid"])
      await call("post", "/v4/search", "/v4/search", {
        q: "where does the user live",
        containerTag: "shapes",
        searchMode,
        threshold: 0,
        include: { documents: true, chunks: true },
      });
    const listed = await call("post", "/v4/memories/list", "/v4/memories/list", { containerTags: ["shapes"], includeForgotten: true });
    expect((listed.memoryEntries as unknown[]).length).toBeGreaterThan(0);
    await call("post", "/v4/memories/forget-matching", "/v4/memories/forget-matching", { containerTag: "shapes", query: "Lisbon", dryRun: true });
    const written = await call(
      "post",
      "/v4/memories",
      "/v4/memories",
      { containerTag: "shapes", memories: [{ content: "The user bakes sourdough", isStatic: true }] },
      201,
    );
    const memoryId = (written.memories as { id: string }[])[0]!.id;
    await call("patch", "/v4/memories", "/v4/memories", { id: memoryId, containerTag: "shapes", newContent: "The user bakes rye sourdough" });
    await call("post", "/v4/profile", "/v4/profile", { containerTag: "shapes", q: "what is the user's job?" });
    await call("get", "/v3/container-tags/list", "/v3/container-tags/list");
    // A connection whose run fails at once (the start URL is refused): it has a lastSyncRun.
    const created = await call("post", "/v3/connections/{idOrProvider}", "/v3/connections/web-crawler", {
      containerTag: "shapes",
      metadata: { startUrl: "http://127.0.0.1:9/" },
    });
    for (let i = 0; i < 100; i++) {
      const c = await call("get", "/v3/connections/{idOrProvider}", `/v3/connections/${created.id as string}`);
      if ((c.lastSyncRun as Json | undefined)?.completedAt) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await call("post", "/v3/connections/list", "/v3/connections/list", {});
    await call("get", "/v3/connections/{connectionId}/runs", `/v3/connections/${created.id as string}/runs`);
    await call("get", "/v3/keys", "/v3/keys");
    expect(problems).toEqual([]);
  });

  it("describes the other answers truly: every other JSON answer of the API validates against its description", async () => {
    const { call, problems, ajv } = await liveChecker();
    // every document of this walk is in "others"
    const api = apiClient(engram.url, KEY);
    const settled = (id: string) => waitDone(api, "others", id);

    // adding one by one: text and files, v5 and v3; a patch; a file's link
    await call("post", "/ns/{namespace}/document", "/ns/others/document", { id: "note-0", content: "user: I run every morning." });
    const file = () => new Blob(["The quarterly report says revenue grew by 12 percent."], { type: "text/plain" });
    const v5form = new FormData();
    v5form.append("file", file(), "report.txt");
    v5form.append("id", "report-v5");
    await call("post", "/ns/{namespace}/document/file", "/ns/others/document/file", v5form);
    const v3form = new FormData();
    v3form.append("file", file(), "report.txt");
    v3form.append("containerTag", "others");
    const uploaded = await call("post", "/v3/documents/file", "/v3/documents/file", v3form);
    await settled(uploaded.id as string);
    await call("get", "/v3/documents/{id}/file-url", `/v3/documents/${uploaded.id as string}/file-url`);
    await settled("note-0");
    await call("patch", "/v3/documents/{id}", "/v3/documents/note-0", { content: "user: I run every evening now.", metadata: { habit: "running" } });

    // v5 documents: a batch with a refused item, the three lists, deletes with an unknown id
    const v5batch = await call("post", "/ns/{namespace}/document/batch", "/ns/others/document/batch", {
      documents: [
        { id: "note-1", content: "user: My sister Ana moved to Porto last spring." },
        { id: "note-2", content: "" },
      ],
    });
    expect(v5batch.failed).toBe(1);
    await settled("note-1");
    await call("post", "/ns/{namespace}/list/documents", "/ns/others/list/documents", {});
    await call("post", "/ns/{namespace}/list/chunks", "/ns/others/list/chunks", {});
    await call("post", "/ns/{namespace}/list/memories", "/ns/others/list/memories", {});
    await call("delete", "/ns/{namespace}/memories/semantic", "/ns/others/memories/semantic", { query: "Porto", dryRun: true });
    await call("delete", "/ns/{namespace}/memories", "/ns/others/memories", { ids: ["no-such-memory"] });

    // v3: a batch with a refused item, processing, search with summaries and full documents, related memories
    const v3batch = await call("post", "/v3/documents/batch", "/v3/documents/batch", {
      containerTag: "others",
      documents: ["user: The team meets every Tuesday at 9.", { content: "", customId: "empty-one" }],
    });
    expect(v3batch.failed).toBe(1);
    await call("get", "/v3/documents/processing", "/v3/documents/processing");
    for (const r of (v3batch.results as Json[]).filter((x) => x.status !== "error")) await settled(r.id as string);
    const v3search = await call("post", "/v3/search", "/v3/search", {
      q: "when does the team meet",
      containerTags: ["others"],
      chunkThreshold: 0,
      documentThreshold: 0,
      includeSummary: true,
      includeFullDocs: true,
    });
    expect((v3search.results as unknown[]).length).toBeGreaterThan(0);
    await call("post", "/v4/search", "/v4/search", {
      q: "where does Ana live",
      containerTag: "others",
      threshold: 0,
      include: { relatedMemories: true, summaries: true },
    });
    await call("post", "/v4/conversations", "/v4/conversations", {
      conversationId: "conv-1",
      messages: [{ role: "user", content: "I prefer tea to coffee." }],
      containerTags: ["others"],
    });

    // health, and a key created then revoked
    await call("get", "/healthz", "/healthz");
    await call("get", "/readyz", "/readyz");
    const newKey = await call("post", "/v3/keys", "/v3/keys", { name: "described" }, 201);
    await call("delete", "/v3/keys/{id}", `/v3/keys/${newKey.id as string}`);

    // memories by id, profile buckets
    const own = await call("post", "/v4/memories", "/v4/memories", { containerTag: "others", memories: [{ content: "The user keeps bees" }] }, 201);
    await call("delete", "/v4/memories", "/v4/memories", { id: (own.memories as Json[])[0]!.id, containerTag: "others", reason: "a test" });
    await call("post", "/v4/profile/buckets", "/v4/profile/buckets", { containerTag: "others" });

    // settings and container tags
    await call("get", "/v3/settings", "/v3/settings");
    await call("post", "/v3/settings/suggest-buckets", "/v3/settings/suggest-buckets");
    const patched = await call("patch", "/v3/settings", "/v3/settings", { shouldLLMFilter: false, chunkSize: 800, githubClientId: "gh-app" });
    expect(Object.keys(patched.updated as Json).sort()).toEqual(["chunkSize", "githubClientId", "shouldLLMFilter"]);
    await call("patch", "/v3/container-tags/{containerTag}", "/v3/container-tags/others", { name: "Others", entityContext: "Notes about the user" });
    await call("get", "/v3/container-tags/{containerTag}", "/v3/container-tags/others");
    const merge = await call(
      "post",
      "/v3/container-tags/merge",
      "/v3/container-tags/merge",
      { containerTags: ["others", "merged"], targetContainerTag: "merged" },
      202,
    );
    for (let i = 0; i < 100; i++) {
      const m = await call("get", "/v3/container-tags/merge/{mergeId}", `/v3/container-tags/merge/${merge.mergeId as string}`);
      if (m.status === "completed" || m.status === "failed") break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // the tenant's archive, imported into the same tenant (everything is there already: nothing is added); the
    // import's answer is checked here, the round trip itself in export-import.e2e.test.ts
    const archive = await fetch(`${engram.url}/v3/export`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(archive.status).toBe(200);
    const imported = await fetch(`${engram.url}/v3/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/x-tar" },
      body: Buffer.from(await archive.arrayBuffer()),
    });
    expect(imported.status).toBe(200);
    const validateImport = ajv.compile({ $ref: "openapi#/paths/~1v3~1import/post/responses/200/content/application~1json/schema" });
    if (!validateImport(await imported.json())) problems.push(`post /v3/import: ${ajv.errorsText(validateImport.errors)}`);
    checked.add("post /v3/import");

    // a connection's documents, then the deletes and the organisation reset
    await call("post", "/v3/connections/{provider}/documents", "/v3/connections/web-crawler/documents", { containerTags: ["shapes"] });
    const byTags = await call("post", "/v3/connections/{provider}/connection", "/v3/connections/web-crawler/connection", { containerTags: ["shapes"] });
    await call("delete", "/v3/connections/{idOrProvider}", `/v3/connections/${byTags.id as string}`);
    await call("delete", "/ns/{namespace}/document", "/ns/merged/document", { ids: ["note-1", "no-such-document"] });
    await call("delete", "/v3/documents/bulk", "/v3/documents/bulk", { ids: ["no-such-document"] });
    await call("delete", "/v3/container-tags/{containerTag}", "/v3/container-tags/merged");
    await call("delete", "/v3/documents/bulk", "/v3/documents/bulk", { containerTags: ["shapes"] });
    await call("post", "/v3/settings/reset", "/v3/settings/reset", { confirmation: patched.orgSlug });
    expect(problems).toEqual([]);
  });

  it("checked every operation that answers JSON live, except the description itself, MCP and the two OAuth-only connection calls", () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const jsonAnswers = Object.entries(paths).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([m]) => ["get", "post", "put", "patch", "delete"].includes(m))
        .filter(([, op]) =>
          Object.entries(op.responses as Record<string, Json>).some(([code, r]) => code < "400" && (r.content as Json | undefined)?.["application/json"]),
        )
        .map(([m]) => `${m} ${p}`),
    );
    // /openapi.json is this file's subject (checked as a document above); /mcp answers JSON-RPC (tests/e2e/test/mcp*);
    // listing a provider's resources and configuring them need an OAuth provider's fake (console-oauth.e2e.test.ts drives them).
    const elsewhere = new Set([
      "get /openapi.json",
      "post /mcp",
      "get /v3/connections/{connectionId}/resources",
      "post /v3/connections/{connectionId}/configure",
    ]);
    expect([...elsewhere].filter((op) => !jsonAnswers.includes(op))).toEqual([]);
    expect(jsonAnswers.filter((op) => !checked.has(op) && !elsewhere.has(op))).toEqual([]);
  });

  it("serves the reference page and its assets without a key, from the gateway", async () => {
    const page = await fetch(`${engram.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    // No inline script and nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.every((u) => u.startsWith("/"))).toBe(true);
    expect(urls).toEqual(expect.arrayContaining(["/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/docs/assets/init.js"]));
    for (const u of urls) {
      const res = await fetch(engram.url + u);
      expect({ u, status: res.status }).toEqual({ u, status: 200 });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const bundle = await fetch(`${engram.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect(bundle.headers.get("cache-control")).toMatch(/max-age=/);
    expect(await (await fetch(`${engram.url}/docs/assets/init.js`)).text()).toContain('"/openapi.json"');
    // Only the page's files: the rest of the package (and anything else) is not served.
    for (const u of ["/docs/assets/index.html", "/docs/assets/..%2Fpackage.json", "/docs/assets/swagger-ui-bundle.js.map"]) {
      const res = await fetch(engram.url + u);
      expect({ u, status: res.status }).toEqual({ u, status: 404 });
    }
  });
});
