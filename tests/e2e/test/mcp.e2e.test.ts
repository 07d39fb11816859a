import { REPO_ROOT, waitFor } from "@engram/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expectErrorBody, twoTenantStack } from "./helpers";

const KEY_A = "mcp-e2e-key-tenant-a-0001";
const KEY_B = "mcp-e2e-key-tenant-b-0002";

const TOOLS = ["add_document", "add_memory", "forget_memories", "get_profile", "list_container_tags", "list_memories", "search"];

/** The text of a tool result. */
const textOf = (r: unknown): string =>
  (r as CallToolResult).content
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("\n");

/** Calls a tool and returns its text, failing on an error result. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} answered an error: ${textOf(r)}`);
  return textOf(r);
}

/** MCP over Streamable HTTP at /mcp and over stdio, with the SDK's own client, against a running stack. */
describe("MCP server", () => {
  const stack = twoTenantStack(KEY_A, KEY_B);
  const open: Client[] = [];

  /** A client connected to the stack's /mcp with `key` (none: no Authorization header). */
  async function connect(key: string | undefined, o: { headers?: Record<string, string>; query?: string } = {}): Promise<Client> {
    const client = new Client({ name: "engram-e2e", version: "1.0.0" });
    const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...o.headers };
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.engram.url}/mcp${o.query ?? ""}`), { requestInit: { headers } });
    await client.connect(transport);
    open.push(client);
    return client;
  }
  afterAll(() => Promise.all(open.map((c) => c.close())));

  describe("over Streamable HTTP", () => {
    let a: Client;
    beforeAll(async () => {
      a = await connect(KEY_A);
    });

    it("lists the tools, each described, and the memory and document resource templates", async () => {
      const { tools } = await a.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      for (const t of tools) expect(t.description!.length).toBeGreaterThan(80);
      const search = tools.find((t) => t.name === "search")!;
      expect(search.inputSchema.required).toEqual(["query"]);
      expect(Object.keys(search.inputSchema.properties!)).toEqual(expect.arrayContaining(["query", "mode", "threshold", "limit", "filters", "containerTag"]));
      expect(tools.find((t) => t.name === "forget_memories")!.annotations).toMatchObject({ destructiveHint: true });
      const { resourceTemplates } = await a.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["engram://documents/{id}", "engram://memories/{id}"]);
    });

    let memoryId = "";
    it("adds a memory, finds it with search, shows it in the profile and the list, and reads it as a resource", async () => {
      const added = await call(a, "add_memory", { content: "Marguerite prefers oolong tea over coffee", isStatic: true, containerTag: "mcp_user" });
      const id = /^Saved memory \[(m_\w+)\] in container mcp_user: Marguerite prefers oolong tea over coffee$/.exec(added)?.[1];
      expect(id).toBeDefined();
      memoryId = id!;

      const found = await call(a, "search", { query: "which tea does Marguerite prefer?", containerTag: "mcp_user" });
      expect(found).toMatch(/^1 result for "which tea does Marguerite prefer\?" \(memories, container mcp_user\):/);
      expect(found).toContain(`1. [${memoryId}] Marguerite prefers oolong tea over coffee (similarity `);
      expect(found).toContain("written directly");
      // Every container of the key when none is named.
      expect(await call(a, "search", { query: "Marguerite oolong tea" })).toContain(memoryId);

      const profile = await call(a, "get_profile", { containerTag: "mcp_user", query: "Marguerite tea" });
      expect(profile).toContain("Static facts (lasting):\n- Marguerite prefers oolong tea over coffee");
      expect(profile).toContain('Memories matching "Marguerite tea":');
      expect(profile).toContain(`[${memoryId}]`);

      const list = await call(a, "list_memories", { containerTag: "mcp_user" });
      expect(list).toMatch(/^1 memory in container mcp_user \(page 1 of 1\):/);
      expect(list).toContain(`- [${memoryId}] Marguerite prefers oolong tea over coffee (static; updated `);

      for (const uri of [`engram://memories/${memoryId}`, `engram://memories/${memoryId}?containerTag=mcp_user`]) {
        const read = await a.readResource({ uri });
        expect(read.contents[0]).toMatchObject({ uri, mimeType: "application/json" });
        expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
          containerTag: "mcp_user",
          id: memoryId,
          memory: "Marguerite prefers oolong tea over coffee",
          isStatic: true,
        });
      }

      const tags = await call(a, "list_container_tags");
      expect(tags).toMatch(/^- mcp_user: 0 documents, 1 memory, last activity \d{4}-\d\d-\d\d$/m);
    });

    it("adds a document that is processed into something search finds, and reads it as a resource", async () => {
      const added = await call(a, "add_document", {
        content: "The lighthouse keeper on Skerry Island logs every passing ship in a leather notebook.",
        containerTag: "mcp_docs",
        metadata: { kind: "story" },
      });
      const id = /^Added document \[(d_\w+)\] in container mcp_docs \(status queued\)/.exec(added)?.[1];
      expect(id).toBeDefined();
      const doc = await waitFor(
        async () => {
          const read = await a.readResource({ uri: `engram://documents/${id}` });
          const d = JSON.parse((read.contents[0] as { text: string }).text) as { status: string; content: string };
          return d.status === "done" || d.status === "failed" ? d : undefined;
        },
        { timeoutMs: 20_000, what: "the document to be processed" },
      );
      expect(doc).toMatchObject({ status: "done", content: expect.stringContaining("lighthouse keeper") });

      const chunks = await call(a, "search", {
        query: "who logs passing ships?",
        mode: "documents",
        containerTag: "mcp_docs",
        filters: { AND: [{ key: "kind", value: "story" }] },
      });
      expect(chunks).toMatch(
        new RegExp(
          `^1\\. \\[c_\\w+\\] "The lighthouse keeper on Skerry Island logs every passing ship in a leather notebook\\." \\(similarity [\\d.]+; document ${id}`,
          "m",
        ),
      );
      const none = await call(a, "search", {
        query: "who logs passing ships?",
        mode: "documents",
        containerTag: "mcp_docs",
        filters: { AND: [{ key: "kind", value: "poem" }] },
      });
      expect(none).toMatch(/^No results for/);
      expect(await call(a, "search", { query: "lighthouse keeper ships notebook", mode: "hybrid", containerTag: "mcp_docs" })).toContain(`document ${id}`);
    });

    it("forgets by query only after a dry run, and then exactly the ids it listed", async () => {
      const added = await call(a, "add_memory", { content: "Project Titan launches in March", containerTag: "mcp_user" });
      const titan = /\[(m_\w+)\]/.exec(added)![1]!;

      const preview = await call(a, "forget_memories", { query: "forget everything about Project Titan", containerTag: "mcp_user" });
      expect(preview).toContain("Dry run in container mcp_user: 1 memory would be forgotten. Nothing was forgotten yet.");
      expect(preview).toContain(`- [${titan}] Project Titan launches in March (score `);
      expect(preview).toContain(`confirm: true and ids: ["${titan}"]`);
      expect(preview).not.toContain(memoryId);
      expect(await call(a, "search", { query: "when does Project Titan launch?", containerTag: "mcp_user" })).toContain(titan);

      // confirm without the dry run's ids is refused: nothing is forgotten on a query alone.
      const refused = (await a.callTool({
        name: "forget_memories",
        arguments: { query: "Project Titan", confirm: true, containerTag: "mcp_user" },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("call forget_memories without confirm first");

      const done = await call(a, "forget_memories", { ids: [titan], confirm: true, containerTag: "mcp_user", reason: "user asked" });
      expect(done).toMatch(new RegExp(`^Forgot 1 memory in container mcp_user \\(batch b_\\w+\\):\\n- \\[${titan}\\] Project Titan launches in March`));
      expect(await call(a, "search", { query: "when does Project Titan launch?", containerTag: "mcp_user" })).not.toContain(titan);
      expect(await call(a, "list_memories", { containerTag: "mcp_user", includeForgotten: true })).toContain(
        `- [${titan}] Project Titan launches in March (forgotten;`,
      );
    });

    it("answers an invalid call with an error result carrying the API's message, not a protocol error", async () => {
      const bad = (await a.callTool({ name: "add_memory", arguments: { content: "x", containerTag: "not a tag!" } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toBe(
        "Engram answered 400 Invalid request: containerTag: containerTag must be 1-100 characters of letters, digits, '-', '_', '.' and ':'",
      );
      const missing = await a.readResource({ uri: "engram://documents/no-such-doc" }).catch((e: Error) => e);
      expect(String(missing)).toContain("Engram answered 404");
      // Arguments the schema refuses are an error result too.
      const invalid = (await a.callTool({ name: "search", arguments: { query: "x", threshold: 7 } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
    });

    it("refuses a call without a key or with a wrong one: 401 with the API's error body, before any MCP work", async () => {
      for (const key of [undefined, "not-a-valid-key-000000"]) {
        const refused = await connect(key).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(StreamableHTTPError);
        expect((refused as StreamableHTTPError).code).toBe(401);
        const res = await fetch(`${stack.engram.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        expect(res.status).toBe(401);
        const body = (await res.json()) as { error: string };
        expectErrorBody(body);
        expect(body.error).toBe(key ? "Invalid API key" : "Unauthorized");
      }
    });

    it("answers HTTP-level refusals with the API's error body (stateless: GET and DELETE 405, unacceptable Accept 406)", async () => {
      const get = await stack.a("GET", "/mcp");
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
      expectErrorBody(get.body);
      const del = await stack.a("DELETE", "/mcp");
      expect(del.status).toBe(405);
      const plain = await stack.a("POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(plain.status).toBe(406);
      expectErrorBody(plain.body);
      const junk = await stack.a("POST", "/mcp", { hello: "world" }, { accept: "application/json, text/event-stream" });
      expect(junk.status).toBe(400);
      expectErrorBody(junk.body);
      // No session ids: every request stands alone.
      const listed = await stack.a("POST", "/mcp", { jsonrpc: "2.0", id: 7, method: "tools/list" }, { accept: "application/json, text/event-stream" });
      expect(listed.status).toBe(200);
      expect(listed.headers.get("mcp-session-id")).toBeNull();
      expect(listed.body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { tools: expect.any(Array) } });
    });

    it("keeps tenants apart: tenant b's key sees nothing of tenant a", async () => {
      const b = await connect(KEY_B);
      expect(await call(b, "search", { query: "which tea does Marguerite prefer?" })).toMatch(/^No results for/);
      expect(await call(b, "search", { query: "which tea does Marguerite prefer?", containerTag: "mcp_user" })).toMatch(/^No results for/);
      expect(await call(b, "list_memories", { containerTag: "mcp_user" })).toBe("No memories in container mcp_user.");
      expect(await call(b, "list_container_tags")).not.toContain("mcp_user");
      await expect(b.readResource({ uri: `engram://memories/${memoryId}?containerTag=mcp_user` })).rejects.toThrow(/not found/);
      await expect(b.readResource({ uri: `engram://memories/${memoryId}` })).rejects.toThrow(/not found/);
    });

    it("fixes the container tag for the session by header or query parameter", async () => {
      for (const o of [{ headers: { "x-engram-container-tag": "mcp_fixed" } }, { query: "?containerTag=mcp_fixed" }]) {
        const fixed = await connect(KEY_A, o);
        const { tools } = await fixed.listTools();
        for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {})).not.toContain("containerTag");
        // A containerTag sent anyway is not a parameter: the session's tag holds.
        expect(await call(fixed, "add_memory", { content: `Fixed sessions write to one container (${JSON.stringify(o)})`, containerTag: "elsewhere" })).toMatch(
          /in container mcp_fixed:/,
        );
        expect(await call(fixed, "search", { query: "which container do fixed sessions write to?" })).toMatch(/\(memories, container mcp_fixed\)/);
        expect(await call(fixed, "list_container_tags")).toContain("mcp_fixed: 0 documents");
      }
      expect(await call(a, "list_memories", { containerTag: "mcp_fixed" })).toMatch(/^2 memories in container mcp_fixed/);
      expect(await call(a, "list_container_tags")).not.toMatch(/^- elsewhere/m);
      const bad = await connect(KEY_A, { headers: { "x-engram-container-tag": "no spaces allowed" } }).catch((e: unknown) => e);
      expect((bad as StreamableHTTPError).code).toBe(400);
    });
  });

  describe("over stdio", () => {
    it("saves a memory and recalls it through `node --import tsx services/gateway/src/mcp/stdio.ts`", async () => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("ENGRAM_")) env[k] = v;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", "services/gateway/src/mcp/stdio.ts"],
        cwd: REPO_ROOT,
        env: { ...env, ENGRAM_URL: stack.engram.url, ENGRAM_API_KEY: KEY_A, ENGRAM_CONTAINER_TAG: "mcp_stdio" },
        stderr: "pipe",
      });
      const stderr: string[] = [];
      transport.stderr?.on("data", (d: Buffer) => stderr.push(d.toString()));
      const client = new Client({ name: "engram-e2e-stdio", version: "1.0.0" });
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: "engram" });
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
        const saved = await call(client, "add_memory", { content: "Tomasz keeps his bicycle in the garden shed" });
        expect(saved).toMatch(/^Saved memory \[m_\w+\] in container mcp_stdio: Tomasz keeps his bicycle in the garden shed$/);
        const id = /\[(m_\w+)\]/.exec(saved)![1]!;
        const recalled = await call(client, "search", { query: "where does Tomasz keep his bicycle?" });
        expect(recalled).toContain(`1. [${id}] Tomasz keeps his bicycle in the garden shed`);
        expect(recalled).toContain("(memories, container mcp_stdio)");
        expect(await call(client, "get_profile")).toContain("Dynamic facts (recent):\n- Tomasz keeps his bicycle in the garden shed");
      } finally {
        await client.close();
      }
      // Logs went to stderr (stdout carried only MCP messages, or the client would have failed to parse them).
      expect(stderr.join("")).toContain(`engram-mcp: serving ${stack.engram.url} (container tag mcp_stdio) over stdio`);
      expect(await stack.a("POST", "/v4/memories/list", { containerTag: "mcp_stdio" }).then((r) => r.body.memoryEntries[0].memory)).toBe(
        "Tomasz keeps his bicycle in the garden shed",
      );
    });
  });
});
