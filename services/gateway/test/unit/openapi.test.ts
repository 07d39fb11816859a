import type { createApp } from "../../src/http/app";
import { startOfflineGateway } from "./offline-gateway";
import { openApiJson } from "../../src/openapi/docs.routes";

/**
 * The served OpenAPI description against the app it describes:
 *
 * - coverage: every METHOD + path the express app routes has an operation in
 *   the description, and every operation is routed (so a new route without a
 *   description entry fails here);
 * - keys: the operations marked open answer without an API key, the others 401;
 * - request schemas: for every operation with a JSON body, bodies the
 *   description calls valid (its example, a body of every property, a body of
 *   the required ones) are not refused by validation, and bodies it calls
 *   invalid (an unknown property, a property of the wrong type, a missing
 *   required property) are refused with 400 and the API error body.
 *
 * The backends are an address nothing listens on: a request that passes
 * validation fails at its first RPC (503), so a 400 can only be the gateway's
 * own validation.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema; example?: unknown }> };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security: unknown[];
}

const doc = JSON.parse(openApiJson()) as Document;
const METHODS = ["get", "post", "put", "patch", "delete"];
const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
);

/**
 * Generated bodies the description cannot call invalid: a rule across fields
 * that JSON Schema of the request could say only with more machinery than it
 * is worth, written in the operation's description instead. The operation's
 * example must pass all the same.
 */
const CROSS_FIELD_RULES: Record<string, { variants: ("full" | "minimal")[]; rule: string }> = {
  deleteV3DocumentsBulk: { variants: ["full", "minimal"], rule: "either ids or containerTags" },
  patchV4Memories: { variants: ["minimal"], rule: "the memory's id or its content" },
  deleteV4Memories: { variants: ["minimal"], rule: "the memory's id or its content" },
  postV4MemoriesForgetMatching: { variants: ["full", "minimal"], rule: "either query (or q) or ids" },
  postV4MemoriesList: { variants: ["minimal"], rule: "containerTags or containerTag" },
  postV3ContainerTagsMerge: { variants: ["full", "minimal"], rule: "containerTags and targetContainerTag, or their alias form from and to (one form)" },
  postV4Conversations: { variants: ["full", "minimal"], rule: "conversationId or its alias customId (one of the two)" },
};

/** Operations whose body is not read by a zod schema of the gateway. */
const NOT_ZOD_BODIES: Record<string, string> = {
  postMcp: "a JSON-RPC message read by the MCP transport (tests/e2e/test/mcp.e2e.test.ts)",
};

// --- values from the description ---

function resolve(s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; i < 10 && typeof cur.$ref === "string"; i++) cur = doc.components.schemas[(cur.$ref as string).split("/").pop()!] ?? {};
  return cur;
}

const STRINGS = ["x", "user_123", "abc", "1", "2025-01-15T10:30:00Z", "https://example.com/"];

function sampleString(s: Schema): string {
  const min = (s.minLength as number | undefined) ?? 0;
  const ok = (v: string) =>
    v.length >= min && (s.maxLength === undefined || v.length <= (s.maxLength as number)) && (!s.pattern || new RegExp(s.pattern as string, "u").test(v));
  if (s.format === "uri") return "https://example.com/";
  if (s.format === "date-time") return "2026-01-02T03:04:05Z";
  const found = STRINGS.find(ok) ?? STRINGS.map((v) => v.repeat(Math.max(1, min))).find(ok);
  if (found === undefined) throw new Error(`no sample string for ${JSON.stringify(s)}`);
  return found;
}

/** A value the schema accepts: its example, else the simplest one; objects with every property (full) or the required ones. */
function sample(raw: Schema | undefined, full: boolean, depth = 0): unknown {
  const s = resolve(raw);
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alternatives) return sample(alternatives.find((x) => resolve(x).type !== "null") ?? alternatives[0], full, depth + 1);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  if (type === "object" || s.properties) {
    const out: Record<string, unknown> = {};
    const required = new Set((s.required as string[] | undefined) ?? []);
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
      if ((full && depth < 4) || required.has(k)) out[k] = sample(v, full, depth + 1);
    return out;
  }
  if (type === "array") {
    const n = Math.max((s.minItems as number | undefined) ?? 0, full ? 1 : 0);
    return Array.from({ length: n }, () => sample(s.items as Schema, full, depth + 1));
  }
  if (type === "integer" || type === "number") return typeof s.minimum === "number" ? s.minimum : 1;
  if (type === "boolean") return true;
  if (type === "null") return null;
  if (type === "string") return sampleString(s);
  return {};
}

/** A value of another JSON type than the schema's (undefined when the schema takes any type). */
function wrongType(raw: Schema): unknown {
  const s = resolve(raw);
  if (s.anyOf || s.oneOf || !s.type || Array.isArray(s.type)) return undefined;
  return ({ string: 12345, number: "not a number", integer: "not a number", boolean: "yes", array: "x", object: "x" } as Record<string, unknown>)[
    s.type as string
  ];
}

/** Bodies the description calls invalid, each with what is wrong. */
function invalidBodies(schema: Schema, valid: Record<string, unknown>): { why: string; body: unknown }[] {
  const s = resolve(schema);
  const out: { why: string; body: unknown }[] = [];
  const objectForms = ((s.anyOf as Schema[] | undefined) ?? [s]).map(resolve);
  if (objectForms.every((f) => f.additionalProperties === false)) out.push({ why: "an unknown property", body: { ...valid, zzUnknownProperty: 1 } });
  const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
  const typed = props.find(([, v]) => wrongType(v) !== undefined);
  if (typed) out.push({ why: `${typed[0]} of the wrong type`, body: { ...valid, [typed[0]]: wrongType(typed[1]) } });
  const required = (s.required as string[] | undefined) ?? [];
  if (required.length) {
    const { [required[0]!]: _dropped, ...rest } = valid;
    out.push({ why: `no ${required[0]}`, body: rest });
  }
  return out;
}

/** The path with its parameters filled from their schemas (examples first). */
function urlOf(p: string, op: Operation): string {
  let url = p;
  for (const param of op.parameters ?? [])
    if (param.in === "path") url = url.replace(`{${param.name}}`, encodeURIComponent(String(sample(param.schema, false))));
  return url;
}

// --- the app ---

/** Every METHOD + path template the app routes (the router stack, as tests/e2e/test/fuzz.e2e.test.ts reads it). */
interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}
function routesOf(app: ReturnType<typeof createApp>): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) for (const m of Object.keys(layer.route.methods)) out.push(`${m.toUpperCase()} ${layer.route.path}`);
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

/** `/v3/documents/:id` and `/v3/documents/{id}` alike (parameter names aside). */
const template = (route: string) => route.replace(/\/:[^/]+/g, "/{}").replace(/\/\{[^}]+\}/g, "/{}");

describe("OpenAPI description", () => {
  let gw: Awaited<ReturnType<typeof startOfflineGateway>>;
  let app: ReturnType<typeof createApp>;
  let base: string;
  let key: string;

  beforeAll(async () => {
    gw = await startOfflineGateway("engram-openapi-");
    ({ app, base } = gw);
    key = (await gw.keys.create("acme", "test")).key;
  });

  afterAll(() => gw.close());

  const call = async (method: string, url: string, o: { body?: unknown; auth?: boolean } = {}) => {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(o.auth === false ? {} : { authorization: `Bearer ${key}` }),
        ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      redirect: "manual",
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  };

  it("describes every route the app serves, and nothing else", () => {
    const routed = new Set(routesOf(app).map(template));
    const described = new Set(operations.map((o) => template(`${o.method} ${o.path}`)));
    // A route added without an entry in services/gateway/src/openapi/registry.ts fails here (and an entry without a route).
    const routesWithoutDescription = [...routed].filter((r) => !described.has(r)).sort();
    const descriptionsWithoutRoute = [...described].filter((d) => !routed.has(d)).sort();
    expect({ routesWithoutDescription, descriptionsWithoutRoute }).toEqual({ routesWithoutDescription: [], descriptionsWithoutRoute: [] });
    expect(operations.length).toBeGreaterThanOrEqual(60);
  });

  it("describes Idempotency-Key and the guards' answers from the guards' own route list: the header, 409 and 422 on creating POSTs only, 402 where a quota counts, 429 with Retry-After on every keyed operation", () => {
    type Op = { parameters?: { in: string; name: string }[]; responses: Record<string, { $ref?: string }> };
    const byKey = new Map(operations.map((o) => [`${o.method.toLowerCase()} ${o.path}`, o.op as unknown as Op]));
    const idempotent = (k: string) => (byKey.get(k)!.parameters ?? []).some((p) => p.in === "header" && p.name === "Idempotency-Key");
    const creating = [
      "post /v3/documents",
      "post /v3/documents/batch",
      "post /v3/documents/file",
      "post /ns/{namespace}/document",
      "post /ns/{namespace}/document/batch",
      "post /ns/{namespace}/document/file",
      "post /v4/memories",
      "post /v4/conversations",
      "post /v3/connections/{idOrProvider}",
      "post /v3/keys",
    ];
    const keyed = operations.filter((o) => (o.op as { security?: unknown[] }).security?.length !== 0);
    expect(
      keyed
        .filter((o) => idempotent(`${o.method.toLowerCase()} ${o.path}`))
        .map((o) => `${o.method.toLowerCase()} ${o.path}`)
        .sort(),
    ).toEqual([...creating].sort());
    for (const k of creating) expect([k, Object.keys(byKey.get(k)!.responses)]).toEqual([k, expect.arrayContaining(["409", "422", "429"])]);
    for (const k of ["post /v3/documents", "post /v4/memories", "post /v4/conversations", "post /ns/{namespace}/document/batch"])
      expect([k, byKey.get(k)!.responses["402"]]).toEqual([k, { $ref: "#/components/responses/QuotaExceeded" }]);
    for (const k of ["post /v3/keys", "post /v3/connections/{idOrProvider}", "post /v4/search"])
      expect([k, byKey.get(k)!.responses["402"]]).toEqual([k, undefined]);
    // POST /v3/keys keeps its own 409 (too many keys) beside the guard's.
    expect(JSON.stringify(byKey.get("post /v3/keys")!.responses["409"])).toMatch(/too many active keys.*Idempotency-Key.*Retry-After/);
    for (const o of keyed) expect([o.path, (o.op as unknown as Op).responses["429"]]).toEqual([o.path, { $ref: "#/components/responses/TooManyRequests" }]);
    for (const k of ["post /v4/search", "post /v3/documents/list", "delete /v4/memories", "patch /v3/documents/{id}"]) {
      expect([k, idempotent(k)]).toEqual([k, false]);
      expect(byKey.get(k)!.responses).not.toHaveProperty("422");
    }
    expect(byKey.get("get /healthz")!.responses).not.toHaveProperty("429");
    const responses = (doc.components as { responses: Record<string, { headers?: Record<string, unknown> }> }).responses;
    expect(Object.keys(responses.TooManyRequests!.headers ?? {})).toEqual(["Retry-After"]);
    expect(Object.keys(responses.RequestInProgress!.headers ?? {})).toEqual(["Retry-After"]);
  });

  it("is an OpenAPI 3.1 document with unique operation ids, the key scheme and the error body", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(doc.components.schemas.ErrorResponse).toEqual(
      expect.objectContaining({
        type: "object",
        required: ["error"],
        properties: expect.objectContaining({ error: expect.anything(), details: expect.anything() }),
      }),
    );
    for (const { op } of operations) {
      const open = Array.isArray(op.security) && op.security.length === 0;
      if (!open) expect({ op: op.operationId, has401: "401" in op.responses }).toEqual({ op: op.operationId, has401: true });
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const ref = (r as { $ref?: string }).$ref;
        const schema = ref ? undefined : (r as { content?: Record<string, { schema?: Schema }> }).content?.["application/json"]?.schema;
        expect({
          op: op.operationId,
          status,
          error: ref?.startsWith("#/components/responses/") || schema?.$ref === "#/components/schemas/ErrorResponse",
        }).toEqual({
          op: op.operationId,
          status,
          error: true,
        });
      }
    }
  });

  it("open operations answer without a key, the others 401", async () => {
    const wrong: string[] = [];
    for (const { method, path: p, op } of operations) {
      const open = Array.isArray(op.security) && op.security.length === 0;
      const res = await call(method, urlOf(p, op), { auth: false });
      if (open ? res.status === 401 : res.status !== 401) wrong.push(`${method} ${p} (${open ? "open" : "keyed"}) answered ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  const withJsonBodies = operations.filter(({ op }) => op.requestBody?.content["application/json"] && !NOT_ZOD_BODIES[op.operationId]);

  it("has a JSON request body schema for every operation whose route parses one", () => {
    expect(withJsonBodies.length).toBeGreaterThanOrEqual(30);
  });

  it("one rule for unknown body fields (docs/api-decisions.md section 20): every JSON and multipart request body is closed, so an unknown field is a 400 naming it", () => {
    const open: string[] = [];
    for (const { op } of operations) {
      if (NOT_ZOD_BODIES[op.operationId]) continue;
      for (const media of ["application/json", "multipart/form-data"]) {
        const schema = op.requestBody?.content[media]?.schema;
        if (!schema) continue;
        const s = resolve(schema);
        const forms = ((s.anyOf as Schema[] | undefined) ?? [s]).map(resolve);
        if (!forms.every((f) => f.additionalProperties === false)) open.push(`${op.operationId} (${media})`);
      }
    }
    expect(open).toEqual([]);
  });

  it.each(withJsonBodies.map((o) => [o.op.operationId, o] as const))(
    "%s: valid bodies pass validation, invalid ones are refused",
    async (_id, { method, path: p, op }) => {
      const media = op.requestBody!.content["application/json"]!;
      const schema = media.schema!;
      const url = urlOf(p, op);
      const skipped = CROSS_FIELD_RULES[op.operationId];
      const valid: { name: string; body: unknown }[] = [];
      if (media.example !== undefined) valid.push({ name: "example", body: media.example });
      for (const variant of ["full", "minimal"] as const)
        if (!skipped?.variants.includes(variant)) valid.push({ name: variant, body: sample(schema, variant === "full") });
      expect(valid.length).toBeGreaterThan(0);
      for (const v of valid) {
        const res = await call(method, url, { body: v.body });
        // Any answer but validation's 400 (with unreachable backends, typically 503).
        const refusedWith = res.status === 400 ? res.body : undefined;
        expect({ body: v.name, sent: v.body, refusedWith }).toEqual({ body: v.name, sent: v.body, refusedWith: undefined });
      }
      // The rule across fields is real: the generated body it skipped is refused (so this list cannot go stale).
      for (const variant of skipped?.variants ?? []) {
        const res = await call(method, url, { body: sample(schema, variant === "full") });
        expect({ variant, rule: skipped!.rule, status: res.status }).toEqual({ variant, rule: skipped!.rule, status: 400 });
      }
      const base = (media.example ?? sample(schema, false)) as Record<string, unknown>;
      const invalid = invalidBodies(schema, base);
      expect(invalid.length).toBeGreaterThan(0);
      for (const x of invalid) {
        const res = await call(method, url, { body: x.body });
        expect({ why: x.why, status: res.status }).toEqual({ why: x.why, status: 400 });
        expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), details: expect.any(String) }));
        if (x.why === "an unknown property") expect((res.body as { details: string }).details).toContain("unknown field 'zzUnknownProperty'");
      }
    },
  );
});
