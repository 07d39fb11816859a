import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { type EngramProcess, startEngram } from "@engram/testing";
import { stopQuietly } from "./helpers";

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

describe("OpenAPI description and reference page", () => {
  let engram: EngramProcess;
  let doc: Json;

  beforeAll(async () => {
    engram = await startEngram({ apiKey: "openapi-key-0123456789abcdef0123" });
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
    doc ??= (await (await fetch(`${engram.url}/openapi.json`)).json()) as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi" });
    const esc = (x: string) => x.replace(/~/g, "~0").replace(/\//g, "~1");
    const key = "openapi-key-0123456789abcdef0123";
    const problems: string[] = [];
    /** Calls the API and checks the answer against the operation's description of that status. */
    const call = async (method: string, template: string, url: string, body?: unknown, status = 200): Promise<Json> => {
      const res = await fetch(engram.url + url, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer = (await res.json()) as Json;
      expect({ url, status: res.status }).toEqual({ url, status });
      const validate = ajv.compile({ $ref: `openapi#/paths/${esc(template)}/${method}/responses/${res.status}/content/application~1json/schema` });
      if (!validate(answer)) problems.push(`${method} ${url}: ${ajv.errorsText(validate.errors)}`);
      return answer;
    };

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
