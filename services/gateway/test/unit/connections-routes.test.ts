import { ConnectionsService, fromStruct, implement, toStruct, toTimestamp } from "@engram/grpc";
import { NotFoundError } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { type StandInGateway, startGatewayAgainst } from "../helpers";

/**
 * The gateway's connection routes against a stand-in ConnectionsService:
 * what each REST call sends over gRPC (validated, mapped), and how the
 * service's answers come back (the OpenAPI description's shapes, the OAuth
 * redirect, webhook bodies byte for byte).
 */
describe("connection routes", () => {
  let gateway: StandInGateway;
  const seen: { rpc: string; request: Record<string, unknown> }[] = [];
  const record = (rpc: string, request: object) => seen.push({ rpc, request: request as Record<string, unknown> });
  const connection = {
    id: "conn_1",
    provider: "PROVIDER_WEB_CRAWLER" as const,
    email: "",
    createdAt: toTimestamp("2026-01-02T03:04:05.000Z"),
    namespace: "user_1",
    containerTags: [],
    metadata: toStruct({ startUrl: "https://docs.example.com/" }),
    status: "CONNECTION_STATUS_ACTIVE" as const,
    lastSyncRun: {
      id: "run_1",
      status: "SYNC_RUN_STATUS_FAILED" as const,
      errorCode: "SYNC_ERROR_CODE_RATE_LIMITED" as const,
      error: "429 from the provider",
      startedAt: toTimestamp("2026-01-02T04:00:00.000Z"),
      completedAt: toTimestamp("2026-01-02T04:01:00.000Z"),
      documentsImported: 7,
      trigger: "SYNC_TRIGGER_SCHEDULED" as const,
    },
  };

  beforeAll(async () => {
    gateway = await startGatewayAgainst(
      implement(ConnectionsService, {
        async CreateConnection(req) {
          record("CreateConnection", req);
          return { id: "conn_new", authLink: "https://provider.example/consent?state=s", expiresIn: "1 hour", redirectsTo: req.redirectUrl };
        },
        async ListConnections(req) {
          record("ListConnections", req);
          return { connections: [connection, { ...connection, id: "conn_2", lastSyncRun: null, documentLimit: 50, email: "a@b.c" }] };
        },
        async GetConnection(req) {
          record("GetConnection", req);
          if (req.connectionId !== "conn_1") throw new NotFoundError(`connection ${req.connectionId} not found`);
          return { connection };
        },
        async ListSyncRuns(req) {
          record("ListSyncRuns", req);
          if (req.connectionId !== "conn_1") throw new NotFoundError(`connection ${req.connectionId} not found`);
          const running = {
            id: "run_2",
            status: "SYNC_RUN_STATUS_RUNNING" as const,
            trigger: "SYNC_TRIGGER_WEBHOOK" as const,
            startedAt: toTimestamp("2026-01-02T05:00:00.000Z"),
            documentsImported: 3,
          };
          return { runs: [running, connection.lastSyncRun].slice(0, req.limit) };
        },
        async DeleteConnection(req) {
          record("DeleteConnection", req);
          return { id: req.connectionId, provider: "PROVIDER_GITHUB" };
        },
        async DeleteConnectionByProvider(req) {
          record("DeleteConnectionByProvider", req);
          return { id: "conn_9", provider: req.provider };
        },
        async ImportConnections(req) {
          record("ImportConnections", req);
          return { message: "", connectionIds: ["conn_1"] };
        },
        async ConfigureConnection(req) {
          record("ConfigureConnection", req);
          return { success: true, message: "configured", webhooksRegistered: 1 };
        },
        async HandleOAuthCallback(req) {
          record("HandleOAuthCallback", req);
          if (req.state === "unknown") return { success: false, error: "unknown or expired state" };
          return { redirectUrl: "https://app.example/done?connectionId=conn_1", connectionId: "conn_1", success: true };
        },
        async HandleProviderWebhook(req) {
          record("HandleProviderWebhook", req);
          const token = req.query.validationToken;
          return token ? { httpStatus: 200, responseBody: Buffer.from(token), responseContentType: "text/plain" } : { httpStatus: 202 };
        },
      }),
      { logger: rootLogger({ level: "silent" }), tmpPrefix: "engram-connections-routes-" },
    );
  });

  afterAll(() => gateway.close());
  beforeEach(() => (seen.length = 0));

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.base}${path}`, {
      method,
      redirect: "manual",
      headers: { authorization: `Bearer ${gateway.key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });

  it("creates a connection with the provider, container tag, limit and metadata sent", async () => {
    const res = await call("POST", "/v3/connections/web-crawler", {
      containerTag: "user_1",
      documentLimit: 500,
      metadata: { startUrl: "https://docs.example.com/", depth: 2, follow: true },
      redirectUrl: "https://app.example/back",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: "conn_new",
      authLink: "https://provider.example/consent?state=s",
      expiresIn: "1 hour",
      redirectsTo: "https://app.example/back",
    });
    const req = seen[0]!.request;
    expect(req).toMatchObject({ provider: "PROVIDER_WEB_CRAWLER", namespace: "user_1", documentLimit: 500, redirectUrl: "https://app.example/back" });
    expect(fromStruct(req.metadata as never)).toEqual({ startUrl: "https://docs.example.com/", depth: 2, follow: true });
    expect((req.context as { tenantId: string }).tenantId).toBe("acme");
  });

  it.each([
    ["an unknown provider", "/v3/connections/dropbox", {}],
    ["an unknown field", "/v3/connections/notion", { containerTag: "u", scope: "all" }],
    ["a document limit out of range", "/v3/connections/notion", { documentLimit: 0 }],
    ["nested metadata", "/v3/connections/notion", { metadata: { a: { b: 1 } } }],
    ["a relative redirect URL", "/v3/connections/notion", { redirectUrl: "/back" }],
    ["a javascript: redirect URL", "/v3/connections/github", { redirectUrl: "javascript:alert(1)" }],
    ["a data: redirect URL", "/v3/connections/github", { redirectUrl: "data:text/html,<script>alert(1)</script>" }],
    ["a vbscript: redirect URL", "/v3/connections/github", { redirectUrl: "vbscript:msgbox(1)" }],
    ["a file: redirect URL", "/v3/connections/github", { redirectUrl: "file:///etc/passwd" }],
    ["an http redirect URL to a non-loopback host", "/v3/connections/github", { redirectUrl: "http://app.example.com/back" }],
    ["a redirect URL with credentials", "/v3/connections/github", { redirectUrl: "https://u:p@app.example.com/back" }],
    ["a container tag with a dot", "/v3/connections/notion", { containerTag: "a.b" }],
  ])("refuses %s with 400 and the API error body, without calling the service", async (_what, path, body) => {
    const res = await call("POST", path, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
    expect(seen).toEqual([]);
  });

  it("lists connections in the OpenAPI shape: optional fields left out, the last sync run with its error code", async () => {
    const res = await call("POST", "/v3/connections/list", { containerTags: ["user_1"] });
    expect(res.status).toBe(200);
    const [first, second] = (await res.json()) as Record<string, unknown>[];
    expect(first).toEqual({
      id: "conn_1",
      provider: "web-crawler",
      createdAt: "2026-01-02T03:04:05.000Z",
      metadata: { startUrl: "https://docs.example.com/" },
      containerTags: ["user_1"],
      status: "active",
      lastSyncRun: {
        status: "failed",
        errorCode: "rate_limited",
        error: "429 from the provider",
        startedAt: "2026-01-02T04:00:00.000Z",
        completedAt: "2026-01-02T04:01:00.000Z",
        documentsImported: 7,
        trigger: "scheduled",
      },
    });
    expect(second).toMatchObject({ id: "conn_2", email: "a@b.c", documentLimit: 50 });
    expect(second).not.toHaveProperty("lastSyncRun");
    expect(seen[0]!.request.containerTags).toEqual(["user_1"]);
  });

  it("gets a connection, and maps the service's not-found to 404", async () => {
    expect(((await (await call("GET", "/v3/connections/conn_1")).json()) as { id: string }).id).toBe("conn_1");
    const missing = await call("GET", "/v3/connections/conn_x");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "connection conn_x not found" });
  });

  it("lists a connection's sync runs, each presented as lastSyncRun is, 20 unless a limit is given", async () => {
    const res = await call("GET", "/v3/connections/conn_1/runs");
    expect(res.status).toBe(200);
    const { runs } = (await res.json()) as { runs: Record<string, unknown>[] };
    const listed = (await (await call("POST", "/v3/connections/list", {})).json()) as { lastSyncRun: unknown }[];
    expect(runs).toEqual([
      { status: "running", errorCode: null, error: null, startedAt: "2026-01-02T05:00:00.000Z", documentsImported: 3, trigger: "webhook" },
      listed[0]!.lastSyncRun,
    ]);
    expect(seen[0]).toMatchObject({ rpc: "ListSyncRuns", request: { connectionId: "conn_1", limit: 20 } });
    expect(((await (await call("GET", "/v3/connections/conn_1/runs?limit=1")).json()) as { runs: unknown[] }).runs).toHaveLength(1);
    expect(seen.at(-1)!.request.limit).toBe(1);
    expect((await call("GET", "/v3/connections/conn_1/runs?limit=100")).status).toBe(200);
    const missing = await call("GET", "/v3/connections/conn_x/runs");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "connection conn_x not found" });
  });

  it.each([["limit=0"], ["limit=101"], ["limit=abc"], ["limit=1.5"], ["limit=1&limit=2"], ["foo=1"]])(
    "refuses the runs query %s with 400 and the API error body, without calling the service",
    async (query) => {
      const res = await call("GET", `/v3/connections/conn_1/runs?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String), details: expect.any(String) });
      expect(seen).toEqual([]);
    },
  );

  it("deletes by id (documents too unless deleteDocuments=false) or by provider and container tags", async () => {
    expect(await (await call("DELETE", "/v3/connections/conn_1")).json()).toEqual({ id: "conn_1", provider: "github" });
    expect(seen[0]).toMatchObject({ rpc: "DeleteConnection", request: { connectionId: "conn_1", deleteDocuments: true } });
    await call("DELETE", "/v3/connections/conn_1?deleteDocuments=false");
    expect(seen[1]!.request.deleteDocuments).toBe(false);
    expect(await (await call("DELETE", "/v3/connections/notion", { containerTags: ["user_1"] })).json()).toEqual({ id: "conn_9", provider: "notion" });
    expect(seen[2]).toMatchObject({
      rpc: "DeleteConnectionByProvider",
      request: { provider: "PROVIDER_NOTION", containerTags: ["user_1"], deleteDocuments: true },
    });
    expect((await call("DELETE", "/v3/connections/notion", {})).status).toBe(400);
    expect((await call("DELETE", "/v3/connections/conn_1?deleteDocuments=maybe")).status).toBe(400);
  });

  it("starts an import with 202 and a text body", async () => {
    const res = await call("POST", "/v3/connections/github/import", { containerTags: ["user_1"] });
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("Importing connections...");
    expect(seen[0]!.request).toMatchObject({ provider: "PROVIDER_GITHUB", containerTags: ["user_1"] });
  });

  it("configures resources as structs", async () => {
    const res = await call("POST", "/v3/connections/conn_1/configure", { resources: [{ id: 42, name: "acme/docs", defaultBranch: "main" }] });
    expect(await res.json()).toEqual({ success: true, message: "configured", webhooksRegistered: 1 });
    expect((seen[0]!.request.resources as never[]).map((r) => fromStruct(r))).toEqual([{ id: 42, name: "acme/docs", defaultBranch: "main" }]);
  });

  it("answers 501 with the API error body for an operation the service does not offer", async () => {
    const res = await call("GET", "/v3/connections/conn_1/resources?page=2&per_page=10");
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ error: "ConnectionsService.ListConnectionResources is not available in this version of Engram" });
  });

  it("redirects the OAuth callback to where the service says, without an API key; a callback it cannot place is a 400", async () => {
    const res = await fetch(`${gateway.base}/v3/connections/auth/callback/notion?code=abc&state=s1`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://app.example/done?connectionId=conn_1");
    expect(seen[0]!.request).toMatchObject({ provider: "PROVIDER_NOTION", code: "abc", state: "s1" });
    const bad = await fetch(`${gateway.base}/v3/connections/auth/callback/notion?state=unknown`, { redirect: "manual" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "unknown or expired state" });
    // An unknown provider in the path is named as the path parameter it is, not as a body field.
    const unknown = await fetch(`${gateway.base}/v3/connections/auth/callback/dropbox?code=abc&state=s1`, { redirect: "manual" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: "Invalid request",
      details: expect.stringMatching(/^path parameter provider: provider must be one of /),
    });
  });

  it("hands a webhook's raw body and headers to the service and answers as it says", async () => {
    const raw = '{"b":1, "a":[2]}  \n';
    const res = await fetch(`${gateway.base}/v3/connections/webhooks/github`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Hub-Signature-256": "sha256=abc", "X-GitHub-Delivery": "d-1" },
      body: raw,
    });
    expect(res.status).toBe(202);
    const req = seen[0]!.request as { provider: string; body: Buffer; headers: Record<string, string> };
    expect(req.provider).toBe("PROVIDER_GITHUB");
    expect(Buffer.from(req.body).toString()).toBe(raw);
    expect(req.headers).toMatchObject({ "x-hub-signature-256": "sha256=abc", "x-github-delivery": "d-1" });
    const handshake = await fetch(`${gateway.base}/v3/connections/webhooks/onedrive?validationToken=tok%20123`, { method: "POST" });
    expect(handshake.status).toBe(200);
    expect(handshake.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await handshake.text()).toBe("tok 123");
  });
});
