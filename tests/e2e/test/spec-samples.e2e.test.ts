import fs from "node:fs";
import path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { apiClient, type EngramProcess, startEngram, waitFor } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

/**
 * The examples work as pasted (issue #33). Every cURL sample of the public
 * OpenAPI description (tests/fixtures/spec/openapi-v3-v4.yaml, x-codeSamples,
 * Apache-2.0) and every request example of the service specification
 * (tests/fixtures/spec/service-api.md: its endpoint tables and rules, written
 * out below with the line each comes from) is sent to a fresh all-in-one stack
 * as pasted: the same method, path, query, headers and body bytes, with only
 * the placeholder ids of the samples (doc_abc123, mem_abc123, conn_abc123,
 * merge_abc, doc_def456) replaced by ids of things created first, and the API
 * key. Each answer must be the status the description documents for it, and a
 * 2xx JSON body must validate against the description's schema for that status
 * (where the description gives one). The aliases the samples send (`from`/`to`
 * for merges, `customId` and `containerTag` for conversations) are accepted:
 * docs/api-decisions.md section 20.
 *
 * Every cURL sample of the description has a plan below (the suite fails on a
 * sample without one), so a new sample cannot go unchecked. What is checked
 * with a documented answer other than 2xx, and why:
 *
 * - POST /v3/settings/reset `{ }`: 400. The sample omits `confirmation`, which
 *   the description's own schema requires (a reset that needs no confirmation
 *   would erase the organisation).
 * - POST /v3/connections/{id}/configure `{ }`: 400. The sample omits
 *   `resources`, which the description's own schema requires.
 * - GET /v3/connections/{id}/resources: 501 for the Notion connection the
 *   samples create (the spec: resources exist for the code-repository
 *   connector only; other providers answer 501).
 *
 * What cannot be checked here: the OAuth consent itself (the user visiting
 * authLink at Notion) needs the real provider; the samples' connection is
 * created (authLink checked) and used unauthorised, as the fakes-free stack can.
 * The TypeScript and Python samples are the SDKs' (tests/e2e/test/sdk.e2e.test.ts
 * covers the TypeScript SDK); only the cURL ones are sent here.
 */

const KEY = "spec-samples-key-0123456789abcdef";
const SPEC_DIR = path.resolve(__dirname, "../../fixtures/spec");
const PUBLIC_BASE = "https://api.supermemory.ai";

type Schema = Record<string, unknown>;
interface SpecOperation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  "x-codeSamples"?: { lang: string; label?: string; source: string }[];
}
const spec = parseYaml(fs.readFileSync(path.join(SPEC_DIR, "openapi-v3-v4.yaml"), "utf8")) as {
  paths: Record<string, Record<string, SpecOperation>>;
};
const serviceApi = fs.readFileSync(path.join(SPEC_DIR, "service-api.md"), "utf8");

// --- cURL, as a shell reads it ---

/** The words of a command line as a POSIX shell splits them: quotes, backslash escapes and line continuations; `$VAR` expanded outside single quotes. */
function shellWords(cmd: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  let i = 0;
  const add = (s: string) => (cur = (cur ?? "") + s);
  const variable = () => {
    const m = /^\$(\w+)|^\$\{(\w+)\}/.exec(cmd.slice(i));
    if (!m) return false;
    const name = (m[1] ?? m[2])!;
    if (!(name in vars)) throw new Error(`the sample uses $${name}, which the test does not set`);
    add(vars[name]!);
    i += m[0].length;
    return true;
  };
  while (i < cmd.length) {
    const c = cmd[i]!;
    if (c === "\\" && cmd[i + 1] === "\n") {
      i += 2;
    } else if (c === "\\") {
      add(cmd[i + 1] ?? "");
      i += 2;
    } else if (/\s/.test(c)) {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
      i++;
    } else if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated ' in the sample");
      add(cmd.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      i++;
      add("");
      while (i < cmd.length && cmd[i] !== '"') {
        if (cmd[i] === "\\" && /["\\$`]/.test(cmd[i + 1] ?? "")) {
          add(cmd[i + 1]!);
          i += 2;
        } else if (cmd[i] !== "$" || !variable()) {
          add(cmd[i]!);
          i++;
        }
      }
      if (cmd[i] !== '"') throw new Error('unterminated " in the sample');
      i++;
    } else if (c !== "$" || !variable()) {
      add(c);
      i++;
    }
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

interface CurlRequest {
  method: string;
  /** Path and query, relative to the server. */
  url: string;
  headers: [string, string][];
  /** -d: the body bytes as pasted. */
  data?: string;
  /** -F: form fields; a value starting with @ names a file. */
  form: [string, string][];
}

/** A cURL sample as curl would send it (the options the samples use: -X, -H, -d, -F). */
function parseCurl(source: string, vars: Record<string, string>): CurlRequest {
  const w = shellWords(source, vars);
  if (w[0] !== "curl") throw new Error(`not a curl command: ${source.slice(0, 40)}`);
  const out: CurlRequest = { method: "", url: "", headers: [], form: [] };
  for (let i = 1; i < w.length; i++) {
    const a = w[i]!;
    const next = () => {
      const v = w[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "-X" || a === "--request") out.method = next();
    else if (a === "-H" || a === "--header") {
      const h = next();
      const colon = h.indexOf(":");
      out.headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (a === "-d" || a === "--data" || a === "--data-raw") out.data = next();
    else if (a === "-F" || a === "--form") {
      const f = next();
      const eq = f.indexOf("=");
      out.form.push([f.slice(0, eq), f.slice(eq + 1)]);
    } else if (a.startsWith("-")) throw new Error(`the test does not know curl's ${a}`);
    else out.url = a;
  }
  out.method ||= out.data !== undefined || out.form.length ? "POST" : "GET";
  if (!out.url.startsWith(PUBLIC_BASE)) throw new Error(`the sample's URL is not under ${PUBLIC_BASE}: ${out.url}`);
  out.url = out.url.slice(PUBLIC_BASE.length);
  return out;
}

interface Sample {
  operationId: string;
  method: string;
  route: string;
  curl: string;
}
const samples: Sample[] = Object.entries(spec.paths).flatMap(([route, ops]) =>
  Object.entries(ops).flatMap(([method, op]) =>
    (op["x-codeSamples"] ?? [])
      .filter((s) => s.lang === "bash" || /curl/i.test(s.label ?? ""))
      .map((s) => ({ operationId: op.operationId, method: method.toUpperCase(), route, curl: s.source })),
  ),
);

// --- the stack and what the placeholders name ---

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

let engram: EngramProcess | undefined;
const ids: Record<string, string> = {};

async function send(r: CurlRequest, replace: Record<string, string> = {}): Promise<Answer> {
  const sub = (s: string) => Object.entries(replace).reduce((acc, [from, to]) => acc.split(from).join(to), s);
  const headers = new Headers(r.headers.map(([k, v]) => [k, sub(v)]));
  let body: string | FormData | undefined;
  if (r.data !== undefined) body = sub(r.data);
  else if (r.form.length) {
    const form = new FormData();
    for (const [k, v] of r.form) {
      if (v.startsWith("@")) {
        // The samples' file (./handbook.pdf): a real PDF of the fixtures, sent under the sample's file name.
        const bytes = fs.readFileSync(path.resolve(__dirname, "../../fixtures/documents/pdf/fake-memo.pdf"));
        form.append(k, new Blob([bytes], { type: "application/pdf" }), path.basename(v.slice(1)));
      } else form.append(k, sub(v));
    }
    body = form;
  }
  const res = await fetch(engram!.url + sub(r.url), { method: r.method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text };
}

/** A JSON call of the test's own (setting up what a sample's placeholder names). */
async function api(method: string, url: string, body?: unknown): Promise<Answer> {
  return send({
    method,
    url,
    headers: [
      ["Authorization", `Bearer ${KEY}`],
      ["Content-Type", "application/json"],
    ],
    data: body === undefined ? undefined : JSON.stringify(body),
    form: [],
  });
}

async function newDocument(customId: string, containerTag = "user_123"): Promise<string> {
  const r = await api("POST", "/v3/documents", { content: `Spec samples: ${customId} is about harbour tides.`, containerTag, customId });
  expect(r.status).toBe(200);
  return (r.body as { id: string }).id;
}

async function newMemory(content: string): Promise<string> {
  const r = await api("POST", "/v4/memories", { containerTag: "user_123", memories: [{ content }] });
  expect(r.status).toBe(201);
  return (r.body as { memories: { id: string }[] }).memories[0]!.id;
}

async function notionConnection(): Promise<string> {
  const r = await api("POST", "/v3/connections/notion", { containerTags: ["user_123"], redirectUrl: "https://yourapp.com/callbacks/notion" });
  expect(r.status).toBe(200);
  return (r.body as { id: string }).id;
}

// --- what each sample must answer ---

interface Plan {
  /** The documented status. */
  status: number;
  /** Why, when it is not the description's success status. */
  why?: string;
  /** Creates what the sample's placeholders name; returns placeholder → real id. */
  setup?: () => Promise<Record<string, string>>;
  /** More than the schema: what the answer must say. */
  check?: (a: Answer) => void | Promise<void>;
  /** Samples run in this order (then the description's); destructive ones last. */
  phase?: number;
}

const PLANS: Record<string, Plan> = {
  postV3Documents: {
    status: 200,
    check: async (a) => {
      expect(a.body).toEqual({ id: expect.any(String), status: "queued" });
      await waitDone(client(), "user_123", "chat_session_1");
    },
  },
  postV3DocumentsBatch: { status: 200 },
  patchV3DocumentsById: { status: 200, setup: async () => ({ doc_abc123: ids.doc! }) },
  getV3DocumentsById: { status: 200, setup: async () => ({ doc_abc123: ids.doc! }), check: (a) => expect(a.body).toMatchObject({ id: ids.doc }) },
  deleteV3DocumentsById: { status: 204, setup: async () => ({ doc_abc123: await newDocument("to-delete-one") }), phase: 1 },
  postV3DocumentsFile: {
    status: 200,
    check: async (a) => {
      ids.fileDoc = (a.body as { id: string }).id;
      await waitFor(async () => ((await api("GET", `/v3/documents/${ids.fileDoc}`)).body as { status?: string }).status === "done" || undefined, {
        timeoutMs: 60_000,
        what: "the uploaded PDF to be processed",
      });
    },
  },
  postV3DocumentsList: { status: 200 },
  getV3DocumentsProcessing: { status: 200 },
  getV3DocumentsByIdChunks: {
    status: 200,
    setup: async () => ({ doc_abc123: ids.doc! }),
    check: (a) => expect((a.body as { chunks: unknown[] }).chunks.length).toBeGreaterThan(0),
  },
  getV3DocumentsByIdFileUrl: { status: 200, setup: async () => ({ doc_abc123: ids.fileDoc! }) },
  deleteV3DocumentsBulk: {
    status: 200,
    setup: async () => ({ doc_abc123: await newDocument("to-delete-two"), doc_def456: await newDocument("to-delete-three") }),
    check: (a) => expect(a.body).toMatchObject({ success: true, deletedCount: 2 }),
    phase: 1,
  },
  postV3Search: { status: 200, check: (a) => expect((a.body as { results: unknown[] }).results.length).toBeGreaterThan(0) },
  getV3Settings: { status: 200 },
  patchV3Settings: { status: 200 },
  postV3SettingsReset: {
    status: 400,
    why: "the sample's body { } omits confirmation, which the description's schema requires",
    check: (a) => expect(a.text).toMatch(/confirmation/),
  },
  postV3SettingsSuggestBuckets: { status: 200 },
  getV3ContainerTagsList: { status: 200 },
  getV3ContainerTagsByContainerTag: { status: 200 },
  patchV3ContainerTagsByContainerTag: { status: 200 },
  deleteV3ContainerTagsByContainerTag: { status: 200, phase: 3 },
  postV3ContainerTagsMerge: {
    status: 202,
    setup: async () => {
      await newDocument("old-notes", "user_old");
      return {};
    },
    check: (a) => {
      expect(a.body).toMatchObject({ success: true, targetTag: "user_123", sourceTags: ["user_old"] });
      ids.merge = (a.body as { mergeId: string }).mergeId;
    },
  },
  getV3ContainerTagsMergeByMergeId: {
    status: 200,
    setup: async () => ({ merge_abc: ids.merge! }),
    check: (a) => expect(a.body).toMatchObject({ id: ids.merge, targetTag: "user_123" }),
  },
  postV4Memories: { status: 201 },
  deleteV4Memories: { status: 200, setup: async () => ({ mem_abc123: await newMemory("John is learning the cello") }), phase: 1 },
  patchV4Memories: {
    status: 200,
    setup: async () => ({ mem_abc123: await newMemory("John prefers dark mode in the evening") }),
    check: (a) => expect(a.body).toMatchObject({ memory: "John now prefers light mode" }),
  },
  postV4MemoriesForgetMatching: { status: 200 },
  postV4MemoriesList: { status: 200 },
  postV4Profile: { status: 200 },
  postV4ProfileBuckets: { status: 200 },
  postV4Search: { status: 200 },
  postV4Conversations: {
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ conversationId: "chat_offsite_2026", containerTag: "user_123" }),
  },
  postV3ConnectionsList: { status: 200 },
  postV3ConnectionsByProvider: {
    status: 200,
    check: (a) => {
      const b = a.body as { id: string; authLink: string; redirectsTo?: string };
      expect(new URL(b.authLink).searchParams.get("client_id")).toBe("spec-samples-notion");
      expect(b.redirectsTo).toBe("https://yourapp.com/callbacks/notion");
    },
  },
  deleteV3ConnectionsByProvider: { status: 200, setup: async () => (await notionConnection(), {}), phase: 2 },
  getV3ConnectionsByConnectionIdResources: {
    status: 501,
    why: "the spec: resources exist for the code-repository connector only; other providers (Notion here) answer 501",
    setup: async () => ({ conn_abc123: await notionConnection() }),
  },
  postV3ConnectionsByConnectionIdConfigure: {
    status: 400,
    why: "the sample's body { } omits resources, which the description's schema requires",
    setup: async () => ({ conn_abc123: await notionConnection() }),
    check: (a) => expect(a.text).toMatch(/resources/),
  },
  getV3ConnectionsByConnectionId: { status: 200, setup: async () => ({ conn_abc123: await notionConnection() }) },
  deleteV3ConnectionsByConnectionId: { status: 200, setup: async () => ({ conn_abc123: await notionConnection() }), phase: 2 },
  postV3ConnectionsByProviderConnection: { status: 200, setup: async () => (await notionConnection(), {}) },
  postV3ConnectionsByProviderDocuments: { status: 200 },
  postV3ConnectionsByProviderImport: { status: 202 },
};

/** The JSON client the helpers take. */
const client = () => apiClient(engram!.url, KEY);

// --- service-api.md: its request examples, each with the line it comes from ---

interface ServiceExample {
  /** A line of service-api.md the example writes out (checked to be there). */
  from: string;
  name: string;
  run: () => Promise<Answer>;
  status: number;
  check?: (a: Answer) => void;
}

const jsonRequest = (method: string, url: string, body?: unknown) => api(method, url, body);

const SERVICE_EXAMPLES: ServiceExample[] = [
  {
    from: "| POST | /v3/connections/{provider} | body: redirectUrl (string URL), containerTag (string), documentLimit (integer), metadata (object) | connection creation response |",
    name: "create a connection",
    run: () =>
      jsonRequest("POST", "/v3/connections/notion", {
        redirectUrl: "https://yourapp.com/callbacks/notion",
        containerTag: "user_123",
        documentLimit: 100,
        metadata: { team: "sales" },
      }),
    status: 200,
    check: (a) =>
      expect(a.body).toMatchObject({
        id: expect.any(String),
        authLink: expect.any(String),
        expiresIn: expect.any(String),
        redirectsTo: "https://yourapp.com/callbacks/notion",
      }),
  },
  {
    from: "| POST | /v3/connections/list | body: containerTags (array of string) | array of connections |",
    name: "list connections",
    run: () => jsonRequest("POST", "/v3/connections/list", { containerTags: ["user_123"] }),
    status: 200,
    check: (a) => expect(Array.isArray(a.body)).toBe(true),
  },
  {
    from: "| DELETE | /v3/connections/{connectionId} | query: deleteDocuments (boolean, default true) | connection deletion response |",
    name: "delete a connection, keeping its documents",
    run: async () => jsonRequest("DELETE", `/v3/connections/${await notionConnection()}?deleteDocuments=false`),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ id: expect.any(String), provider: "notion" }),
  },
  {
    from: "| GET | /v3/connections/{connectionId}/resources | query: page (integer, default 1), per_page (integer, default 30) | resources listing response |",
    name: "list resources of a provider without them (rule 4: 501)",
    run: async () => jsonRequest("GET", `/v3/connections/${await notionConnection()}/resources?page=1&per_page=30`),
    status: 501,
  },
  {
    from: "4. The resources and configure endpoints exist only for the code-repository connector. Other providers answer 501.",
    name: "configure resources of a provider without them (rule 4: 501)",
    run: async () =>
      jsonRequest("POST", `/v3/connections/${await notionConnection()}/configure`, { resources: [{ id: 1, name: "octo/docs", defaultBranch: "main" }] }),
    status: 501,
  },
  {
    from: "| POST | /ns/{namespace}/document | taskType, dreaming | JSON: content, id, supportingContext, metadata, group, date | acceptance result |",
    name: "add a v5 document",
    run: () =>
      jsonRequest("POST", "/ns/user_123/document?taskType=memory&dreaming=dynamic", {
        content: "The Q3 offsite is in Tokyo.",
        id: "ns_offsite",
        supportingContext: "Team travel notes",
        metadata: { kind: "travel" },
        group: { team: "product" },
        date: "2026-03-01",
      }),
    status: 200,
    check: (a) => expect(a.body).toEqual({ id: expect.any(String), status: "queued" }),
  },
  {
    from: "| POST | /ns/{namespace}/document/batch | taskType, dreaming | JSON: documents (array of 1 to 600 objects, each with content, id, supportingContext, metadata, group, date) | batch result |",
    name: "add v5 documents in a batch",
    run: () =>
      jsonRequest("POST", "/ns/user_123/document/batch?taskType=superrag&dreaming=instant", {
        documents: [
          {
            content: "Gift policy for VP promotions",
            id: "ns_gifts",
            supportingContext: "HR",
            metadata: { kind: "policy" },
            group: { team: "hr" },
            date: "2026-01-10",
          },
          { content: "Q3 roadmap notes", id: "ns_roadmap" },
        ],
      }),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ count: 2, failed: 0 }),
  },
  {
    from: "| POST | /ns/{namespace}/document/file | fileType, mimeType (when inference is insufficient), taskType, dreaming | multipart/form-data, parts below | acceptance result |",
    name: "upload a v5 file with its text parts",
    run: () =>
      send({
        method: "POST",
        url: "/ns/user_123/document/file?mimeType=application%2Fpdf&taskType=memory",
        headers: [["Authorization", `Bearer ${KEY}`]],
        form: [
          ["file", "@./memo.pdf"],
          ["supportingContext", "A memo about deliveries"],
          ["date", "2023-01-23"],
          ["metadata", JSON.stringify({ kind: "memo" })],
          ["group", JSON.stringify({ team: "ops" })],
        ],
      }),
    status: 200,
    check: (a) => expect(a.body).toEqual({ id: expect.any(String), status: "queued" }),
  },
  {
    from: "| GET | /ns/{namespace}/document/{id} | include (comma-separated: chunks, memories) | none | document with system object |",
    name: "read a v5 document with chunks and memories",
    run: async () => {
      await waitDone(client(), "user_123", "ns_offsite");
      return jsonRequest("GET", "/ns/user_123/document/ns_offsite?include=chunks,memories");
    },
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ id: "ns_offsite", system: { status: "done" }, chunks: expect.any(Array), memories: expect.any(Array) }),
  },
  {
    from: "5. List: type is documents, chunks or memories. Pagination and sorting are query parameters; the body holds only the optional filter. Example query values are page 1, limit 100, sort createdAt, order desc.",
    name: "list v5 documents with the example query values",
    run: () => jsonRequest("POST", "/ns/user_123/list/documents?page=1&limit=100&sort=createdAt&order=desc", {}),
    status: 200,
    check: (a) =>
      expect(a.body).toMatchObject({
        documents: expect.any(Array),
        chunks: [],
        memories: [],
        pagination: { currentPage: 1, totalPages: expect.any(Number) },
      }),
  },
  {
    from: "| DELETE | /ns/{namespace}/document | none | JSON: ids (array of 1 to 100 IDs) | delete documents response |",
    name: "delete v5 documents by id",
    run: () => jsonRequest("DELETE", "/ns/user_123/document", { ids: ["ns_roadmap", "ns_never_added"] }),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ count: 1, errors: [{ id: "ns_never_added", error: expect.any(String) }] }),
  },
  {
    from: "| DELETE | /ns/{namespace}/memories/semantic | none | JSON: query (string), dryRun (boolean) | forget response |",
    name: "preview a semantic forget",
    run: () => jsonRequest("DELETE", "/ns/user_123/memories/semantic", { query: "display preferences", dryRun: true }),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ count: expect.any(Number), matches: expect.any(Array), errors: expect.any(Array) }),
  },
  {
    from: "| DELETE | /ns/{namespace}/memories | none | JSON: ids (array) | forget response |",
    name: "forget memories by id",
    run: async () => jsonRequest("DELETE", "/ns/user_123/memories", { ids: [await newMemory("John keeps a bonsai")] }),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ count: 1, matches: expect.any(Array), errors: [] }),
  },
  {
    from: "| POST | /v4/search | primary recall; body field searchMode with values memories, documents, hybrid |",
    name: "hybrid recall",
    run: () => jsonRequest("POST", "/v4/search", { q: "where is the offsite", containerTag: "user_123", searchMode: "hybrid" }),
    status: 200,
    check: (a) => expect(a.body).toMatchObject({ results: expect.any(Array) }),
  },
];

// --- the suite ---

describe("the description's cURL samples and the specification's request examples, as pasted", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat("datetime", (v: string) => !Number.isNaN(Date.parse(v)));
  ajv.addSchema({ ...spec, $id: "spec" } as Schema);
  const validators = new Map<string, ValidateFunction>();
  const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
  const validate = (s: Sample, a: Answer) => {
    const op = spec.paths[s.route]![s.method.toLowerCase()]!;
    const declared = op.responses[String(a.status)];
    expect({ sample: s.operationId, declared: Boolean(declared), status: a.status }).toEqual({ sample: s.operationId, declared: true, status: a.status });
    if (!declared?.content?.["application/json"]?.schema || a.status >= 300) return;
    const pointer = `/paths/${escape(s.route)}/${s.method.toLowerCase()}/responses/${a.status}/content/application~1json/schema`;
    let v = validators.get(pointer);
    if (!v) validators.set(pointer, (v = ajv.compile({ $ref: `spec#${pointer}` })));
    const ok = v(a.body);
    expect({ sample: s.operationId, errors: ok ? [] : v.errors }).toEqual({ sample: s.operationId, errors: [] });
  };

  beforeAll(async () => {
    engram = await startEngram({
      apiKey: KEY,
      // A loaded machine can take longer than the default 30 s to start the stack.
      timeoutMs: 120_000,
      env: { NOTION_CLIENT_ID: "spec-samples-notion", NOTION_CLIENT_SECRET: "spec-samples-secret", ENGRAM_PUBLIC_URL: "https://engram.example.com" },
    });
    // The samples' connection redirects to https://yourapp.com: an origin the organisation allows (section 18).
    expect((await api("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://yourapp.com"] })).status).toBe(200);
    ids.doc = await newDocument("doc-abc");
    await waitDone(client(), "user_123", "doc-abc", 60_000);
  }, 240_000);
  afterAll(() => stopQuietly(engram));

  it("found the description's cURL samples, and a plan for each", () => {
    expect(samples.length).toBeGreaterThanOrEqual(40);
    expect(samples.map((s) => s.operationId).filter((id) => !PLANS[id])).toEqual([]);
    expect(Object.keys(PLANS).filter((id) => !samples.some((s) => s.operationId === id))).toEqual([]);
  });

  for (const x of SERVICE_EXAMPLES)
    it(`service-api.md: ${x.name} answers ${x.status}`, async () => {
      expect(serviceApi).toContain(x.from);
      const a = await x.run();
      expect({ example: x.name, status: a.status, body: a.status === x.status ? undefined : a.body }).toEqual({
        example: x.name,
        status: x.status,
        body: undefined,
      });
      x.check?.(a);
    });

  const ordered = [...samples].sort((a, b) => (PLANS[a.operationId]?.phase ?? 0) - (PLANS[b.operationId]?.phase ?? 0));
  for (const s of ordered)
    it(`${s.method} ${s.route} (${s.operationId}): the cURL sample answers ${PLANS[s.operationId]?.status ?? "?"}${PLANS[s.operationId]?.why ? ` (${PLANS[s.operationId]!.why})` : ""}`, async () => {
      const plan = PLANS[s.operationId]!;
      // A refusal is planned only with its reason (the samples are meant to succeed).
      if (!plan.why) expect([s.operationId, plan.status >= 200 && plan.status < 300]).toEqual([s.operationId, true]);
      const request = parseCurl(s.curl, { SUPERMEMORY_API_KEY: KEY });
      expect(request.method).toBe(s.method);
      const replace = (await plan.setup?.()) ?? {};
      const a = await send(request, replace);
      expect({ sample: s.operationId, status: a.status, body: a.status === plan.status ? undefined : a.body }).toEqual({
        sample: s.operationId,
        status: plan.status,
        body: undefined,
      });
      validate(s, a);
      await plan.check?.(a);
    });
});
