import fs from "node:fs";
import path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { stopQuietly, waitDone } from "./helpers";

/**
 * Conformance with the public OpenAPI description (tests/fixtures/spec,
 * Apache-2.0): every operation it describes is called on the all-in-one stack
 * with a body generated from the description itself, twice: a full body (every
 * property, set to its example where the description gives one) and a minimal
 * one (required properties only). Each answer must be a status the operation
 * declares, with a body that validates against the declared schema, or one of
 * the refusals listed in REFUSALS, each documented in docs/api-decisions.md.
 */

const KEY = "conformance-key-0123456789abcdef";
const SPEC_FILE = path.resolve(__dirname, "../../fixtures/spec/openapi-v3-v4.yaml");

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  route: string;
  op: {
    operationId: string;
    requestBody?: { content: Record<string, { schema?: Schema }> };
    responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
    parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  };
}

/**
 * Answers outside the description that Engram gives on purpose, by operation
 * and status, with the reason (docs/api-decisions.md section 10: what answers
 * 501 in this release).
 */
const REFUSALS: Record<string, Record<number, string>> = {
  getV3DocumentsByIdFileUrl: { 400: "a document added as text has no stored file to link to (section 4)" },
  patchV3DocumentsById: { 409: "the example's customId already names the document the POST example created: a caller id names one document (section 4)" },
};

/**
 * Declared 4xx answers that the generated bodies meet for a reason other than
 * a refused valid request: the state of the stack, or the description's own
 * prose asking for more than its schema does. Any other 4xx fails the suite.
 */
const EXPECTED_4XX: Record<string, { status: number; variants?: ("full" | "minimal")[]; why: string }[]> = {
  getV3ConnectionsByConnectionIdResources: [{ status: 400, why: "the connection has not been authorized (no refresh token)" }],
  postV3ConnectionsByConnectionIdConfigure: [{ status: 400, why: "the connection has not been authorized (no refresh token)" }],
  postV3ConnectionsByProviderConnection: [{ status: 404, why: "the example's container tags (user_123, project_123) name no connection" }],
  deleteV3ConnectionsByProvider: [{ status: 404, why: "the example's container tags (user_123, project_123) name no connection" }],
  deleteV3ConnectionsByConnectionId: [{ status: 404, variants: ["minimal"], why: "the full variant deleted it" }],
  deleteV3DocumentsById: [{ status: 404, variants: ["minimal"], why: "the full variant deleted it" }],
  deleteV3ContainerTagsByContainerTag: [{ status: 404, variants: ["minimal"], why: "the full variant deleted it" }],
  postV3SettingsReset: [
    {
      status: 400,
      why: "the generated confirmation is not the organisation's slug (a reset in the middle of the suite would remove what the others use; the last case resets for real)",
    },
  ],
  postV3ContainerTagsMerge: [
    { status: 400, why: "the generated body holds one container tag, where the description asks for exactly two (min 2, max 2 in its prose)" },
  ],
  getV3ContainerTagsMergeByMergeId: [{ status: 404, why: "the id merge_unknown names no merge" }],
  postV4MemoriesForgetMatching: [
    { status: 400, why: "the description's prose: provide either query or ids (the full body has both, the minimal one neither)" },
  ],
  patchV4Memories: [
    { status: 400, variants: ["minimal"], why: "the description's prose: the memory is named by id or content (the minimal body has neither)" },
    { status: 404, variants: ["full"], why: "the example id mem_abc123 names no memory" },
  ],
  deleteV4Memories: [
    { status: 400, variants: ["minimal"], why: "the description's prose: the memory is named by id or content (the minimal body has neither)" },
    { status: 404, variants: ["full"], why: "the example id mem_abc123 names no memory" },
  ],
};

const spec = parseYaml(fs.readFileSync(SPEC_FILE, "utf8")) as { paths: Record<string, Record<string, Operation["op"]>>; components: Schema };

function resolve(s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; i < 20 && typeof cur.$ref === "string"; i++) {
    const parts = (cur.$ref as string).replace(/^#\//, "").split("/");
    let node: unknown = spec;
    for (const p of parts) node = (node as Record<string, unknown>)[p.replace(/~1/g, "/").replace(/~0/g, "~")];
    cur = node as Schema;
  }
  return cur;
}

/** A value for a schema: its example when it has one, else the simplest valid value; objects with every property (full) or the required ones. */
function sample(raw: Schema | undefined, full: boolean, depth = 0, name = ""): unknown {
  const s = resolve(raw);
  if (s.example !== undefined) return s.example;
  if (s.format === "date-time" || s.format === "datetime") return new Date().toISOString();
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as Schema[]).map((x) => sample(x, full, depth + 1));
    return Object.assign({}, ...parts.filter((p) => p && typeof p === "object"));
  }
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alternatives) return sample(alternatives.find((x) => resolve(x).type !== "null") ?? alternatives[0], full, depth + 1);
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  if (type === "object" || s.properties) {
    if (depth > 6) return {};
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props)) if (full || required.has(k)) out[k] = sample(v, full, depth + 1, k);
    return out;
  }
  if (type === "array") return full || (typeof s.minItems === "number" && s.minItems > 0) ? [sample(s.items as Schema, full, depth + 1)] : [];
  if (type === "integer" || type === "number") return typeof s.minimum === "number" ? s.minimum : 1;
  if (type === "boolean") return true;
  if (type === "null") return null;
  if (s.format === "date-time" || s.format === "datetime") return new Date().toISOString();
  if (s.format === "uri" || s.format === "url" || /url$/i.test(name)) return "https://example.com/";
  return "conformance";
}

const operations: Operation[] = Object.entries(spec.paths).flatMap(([route, ops]) =>
  Object.entries(ops)
    .filter(([, op]) => typeof op === "object" && op !== null && "responses" in op)
    .map(([method, op]) => ({ method: method.toUpperCase(), route, op })),
);
// Reads and writes first, deletions last (they remove what the others use).
const order = (o: Operation) => (o.method === "DELETE" ? 2 : o.method === "PATCH" ? 1 : 0);
operations.sort((a, b) => order(a) - order(b));

describe("conformance with the OpenAPI description", () => {
  let engram: EngramProcess | undefined;
  let api: ReturnType<typeof apiClient>;
  const ids: Record<string, string> = {};
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // The description writes "datetime" for some date-time fields: checked as such.
  ajv.addFormat("datetime", (v: string) => !Number.isNaN(Date.parse(v)));
  ajv.addSchema({ ...spec, $id: "spec" } as Schema);
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (pointer: string) => {
    let v = validators.get(pointer);
    if (!v) validators.set(pointer, (v = ajv.compile({ $ref: `spec#${pointer}` })));
    return v;
  };

  beforeAll(async () => {
    engram = await startEngram({
      apiKey: KEY,
      env: { GITHUB_CLIENT_ID: "conformance-app", GITHUB_CLIENT_SECRET: "conformance-secret", ENGRAM_PUBLIC_URL: "https://engram.example.com" },
    });
    api = apiClient(engram.url, KEY);
    const doc = await api("POST", "/v3/documents", {
      content: "Conformance: the lighthouse keeper logs the tides.",
      containerTag: "user_123",
      customId: "conf-doc",
    });
    ids.id = doc.body.id as string;
    await waitDone(api, "user_123", "conf-doc");
    await api("POST", "/v4/memories", { containerTag: "user_123", memories: [{ content: "John prefers dark mode" }] });
    // Connections redirect only to origins the organisation allowed (the generated bodies use https://example.com/).
    await api("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com", "https://example.com"] });
    const conn = await api("POST", "/v3/connections/github", { containerTag: "user_123", redirectUrl: "https://app.example.com/done" });
    ids.connectionId = conn.body.id as string;
    ids.containerTag = "user_123";
    ids.provider = "github";
    ids.mergeId = "merge_unknown";
  }, 120_000);
  afterAll(() => stopQuietly(engram));

  const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

  for (const operation of operations)
    for (const variant of ["full", "minimal"] as const) {
      const { method, route, op } = operation;
      it(`${method} ${route} (${op.operationId}, ${variant} body)`, async () => {
        const url = route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? `unknown-${name}`));
        const json = op.requestBody?.content["application/json"]?.schema;
        const multipart = op.requestBody?.content["multipart/form-data"];
        let res: { status: number; body: unknown };
        if (multipart) {
          const form = new FormData();
          form.append("file", new Blob(["Conformance upload about harbours."], { type: "text/plain" }), "notes.txt");
          form.append("containerTag", "user_123");
          const r = await fetch(`${engram!.url}${url}`, { method, headers: { authorization: `Bearer ${KEY}` }, body: form });
          const text = await r.text();
          res = { status: r.status, body: text ? (JSON.parse(text) as unknown) : undefined };
        } else {
          const body = json ? sample(json, variant === "full") : undefined;
          res = await api(method as "GET", url, body as never);
        }
        const declared = op.responses[String(res.status)];
        const refusal = REFUSALS[op.operationId]?.[res.status];
        if (!declared) {
          if (!refusal)
            throw new Error(`${method} ${url} answered ${res.status}, which the description does not declare: ${JSON.stringify(res.body).slice(0, 400)}`);
          return;
        }
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          const expected = (EXPECTED_4XX[op.operationId] ?? []).find((e) => e.status === res.status && (!e.variants || e.variants.includes(variant)));
          if (!expected) throw new Error(`${method} ${url} refused a body the description allows: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
        }
        const media = declared.content?.["application/json"];
        if (!media?.schema) return;
        const pointer = `/paths/${escape(route)}/${method.toLowerCase()}/responses/${res.status}/content/application~1json/schema`;
        const validate = validatorFor(pointer);
        if (!validate(res.body))
          throw new Error(
            `${method} ${url} answered ${res.status} with a body the description's schema refuses: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 600)}`,
          );
      });
    }

  // Last: it removes everything the cases above used.
  it("POST /v3/settings/reset confirmed with the organisation's slug answers the declared 200 body", async () => {
    const orgSlug = (await api("PATCH", "/v3/settings", { chunkSize: 512 })).body.orgSlug as string;
    const res = await api("POST", "/v3/settings/reset", { confirmation: orgSlug });
    expect(res.status).toBe(200);
    const validate = validatorFor(`/paths/${escape("/v3/settings/reset")}/post/responses/200/content/application~1json/schema`);
    if (!validate(res.body)) throw new Error(`the reset's body does not match the description: ${ajv.errorsText(validate.errors)}`);
    expect(res.body).toMatchObject({ success: true, settingsReset: true });
  });

  it("covers every operation of the description", () => {
    expect(operations.length).toBeGreaterThanOrEqual(41);
  });
});
