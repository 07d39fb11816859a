import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type Supermemory from "supermemory";
import { z } from "zod";
import { DEFAULT_NAMESPACE } from "@engram/kernel";
import { FULL_RIGHTS, hasScope, type KeyRights, type Scope } from "../auth/scopes";
import {
  type ContainerTagItem,
  type ForgetAnswer,
  formatContainerTags,
  formatError,
  formatForget,
  formatMemoryList,
  formatProfile,
  formatSearch,
  type MemoryEntry,
  type MemoryList,
  type ProfileAnswer,
  type SearchAnswer,
} from "./format";

export const MCP_SERVER_NAME = "engram";
export const MCP_SERVER_VERSION = "0.1.0";

export interface EngramToolsOptions {
  /**
   * The REST client the tools call: the official `supermemory` SDK pointed at
   * Engram with the caller's own API key, so every tool gets the API's
   * validation, tenant isolation and answers.
   */
  client: Supermemory;
  /** Fixes the container tag for the whole session: the tools then take no `containerTag`. */
  containerTag?: string;
  /**
   * The key's rights (scoped keys): only the tools its scopes allow are
   * listed, and a key limited to container tags gets no tenant-wide tool.
   * Absent: every tool (the stdio server, whose key's rights the API checks on each call).
   */
  rights?: KeyRights;
}

/** The scope each tool needs (the REST routes it calls need no other). */
export const TOOL_SCOPES = {
  add_memory: "write",
  add_document: "write",
  search: "read",
  get_profile: "read",
  list_memories: "read",
  forget_memories: "write",
  list_container_tags: "read",
} as const satisfies Record<string, Scope>;

/** The tools a key with these rights is offered. */
export function toolsFor(rights: KeyRights = FULL_RIGHTS): (keyof typeof TOOL_SCOPES)[] {
  return (Object.keys(TOOL_SCOPES) as (keyof typeof TOOL_SCOPES)[]).filter(
    (t) => hasScope(rights, TOOL_SCOPES[t]) && !(t === "list_container_tags" && rights.containerTags),
  );
}

const INSTRUCTIONS = `Engram is a long-term memory: memories (short facts about a user, project or topic) and documents (texts and web pages, which Engram turns into memories).
- Before answering a question that may depend on what was said or saved before, call search (or get_profile for who the user is).
- When the user states a durable fact or preference, or asks you to remember something, save it with add_memory (one self-contained fact per call). Use add_document for longer texts or a URL.
- Cite memories and documents by their ids (m_…, d_…, c_…); read one in full through the resources engram://memories/{id} and engram://documents/{id}.
- forget_memories always previews first; forget only what the user asked to forget, with confirm: true and the ids of the preview.`;

/** The SDK types the filter language; the tool passes it on as given and Engram validates it. */
type SearchFilters = Parameters<Supermemory["search"]["memories"]>[0]["filters"];

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
const metadataSchema = z
  .record(z.string(), metadataValue)
  .describe("Flat key/value metadata (string, number, boolean or string array values), usable later in filters.");
const filtersSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'Metadata filter in the API\'s syntax: {"AND":[…]} or {"OR":[…]} of conditions {"key","value"} (optional "filterType": "numeric"|"array_contains"|"string_contains", "numericOperator": ">"|"<"|">="|"<="|"=", "negate": true). Example: {"AND":[{"key":"team","value":"sales"},{"key":"year","value":"2024","filterType":"numeric","numericOperator":">="}]}',
  );

/** A tool's answer: one text block. */
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
/** A failed call, as a result the model reads (never a protocol error). */
const failure = (err: unknown): CallToolResult => ({ content: [{ type: "text", text: formatError(err) }], isError: true });

/** `engram://memories/m_abc?containerTag=x` → the id and the optional tag. */
function resourceTarget(uri: URL, variable: string | string[] | undefined): { id: string; containerTag?: string } {
  const raw = Array.isArray(variable) ? (variable[0] ?? "") : (variable ?? "");
  const encoded = raw.split("?")[0]!;
  let id = encoded;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    /* not percent-encoding: the id as written */
  }
  const containerTag = uri.searchParams.get("containerTag") ?? undefined;
  return { id, ...(containerTag ? { containerTag } : {}) };
}

/**
 * Engram's MCP tools and resources for one client (one caller's key): the
 * same tool set serves the Streamable HTTP endpoint (a server per request)
 * and the stdio entry point (one server per process).
 */
export function createEngramMcpServer(o: EngramToolsOptions): McpServer {
  const { client } = o;
  const fixed = o.containerTag;
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });
  const offered = new Set(toolsFor(o.rights));
  const canRead = hasScope(o.rights ?? FULL_RIGHTS, "read");

  // The container tag parameter exists only when the session does not fix one.
  const tagParam = (what: string) =>
    fixed === undefined ? { containerTag: z.string().optional().describe(what) } : ({} as { containerTag?: z.ZodOptional<z.ZodString> });
  const oneTag = (given: string | undefined) => fixed ?? given ?? DEFAULT_NAMESPACE;
  const ONE_TAG = `Container tag (a user, project or space, e.g. "user_123") the memory belongs to; default "${DEFAULT_NAMESPACE}".`;
  const call = async (run: () => Promise<string>): Promise<CallToolResult> => {
    try {
      return text(await run());
    } catch (err) {
      return failure(err);
    }
  };

  if (offered.has("add_memory"))
    server.registerTool(
      "add_memory",
      {
        title: "Save a memory",
        description:
          'Save one fact to long-term memory right away (searchable as soon as this returns). Use it when the user states something worth remembering later: a preference, a fact about themselves or their work, a decision. Write the fact as one self-contained sentence naming its subject ("Sarah prefers dark mode", not "she likes it"). For longer texts or web pages use add_document instead.',
        inputSchema: {
          content: z.string().describe("The fact, as one self-contained sentence."),
          isStatic: z
            .boolean()
            .optional()
            .describe(
              "true for a lasting fact about who the user is (name, role, home town, long-held preference); it then shows in the profile's static facts.",
            ),
          metadata: metadataSchema.optional(),
          ...tagParam(ONE_TAG),
        },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = oneTag(a.containerTag);
          const out = await client.post<{ memories: { id: string; memory: string }[] }>("/v4/memories", {
            body: {
              containerTag,
              memories: [
                { content: a.content, ...(a.isStatic !== undefined ? { isStatic: a.isStatic } : {}), ...(a.metadata ? { metadata: a.metadata } : {}) },
              ],
            },
            signal: extra.signal,
          });
          const m = out.memories[0]!;
          return `Saved memory [${m.id}] in container ${containerTag}: ${m.memory}`;
        }),
    );

  if (offered.has("add_document"))
    server.registerTool(
      "add_document",
      {
        title: "Add a document",
        description:
          "Add a text (notes, a conversation, an article) or a web page (content = one http(s) URL) as a document. Engram processes it in the background — extracting or fetching the text, chunking and indexing it, and forming memories from it — so it becomes searchable a little later (seconds for short texts). Use add_memory instead for a single fact that must be searchable at once.",
        inputSchema: {
          content: z.string().describe("The text, or a single http(s) URL to fetch and read."),
          customId: z
            .string()
            .optional()
            .describe("Your own id for the document (letters, digits, '-', '_', '.', ':'); adding again with the same id updates it."),
          metadata: metadataSchema.optional(),
          ...tagParam(`Container tag (a user, project or space) the document belongs to; default "${DEFAULT_NAMESPACE}".`),
        },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = oneTag(a.containerTag);
          const out = await client.add(
            { content: a.content, containerTag, ...(a.customId ? { customId: a.customId } : {}), ...(a.metadata ? { metadata: a.metadata } : {}) },
            { signal: extra.signal },
          );
          return `Added document [${out.id}] in container ${containerTag} (status ${out.status}). It is processed in the background; search finds it and its memories once done. Read it with the resource engram://documents/${out.id}.`;
        }),
    );

  if (offered.has("search"))
    server.registerTool(
      "search",
      {
        title: "Search memory",
        description:
          'Search long-term memory with a natural-language query. Modes: "memories" (default: extracted facts, best for questions about the user or past conversations), "documents" (passages of added documents, best for details and quotes), "hybrid" (both, each fact next to its evidence). Results are ranked, each with its id, similarity (0-1) and sources.',
        inputSchema: {
          query: z.string().describe("What to look for, in natural language."),
          mode: z.enum(["memories", "documents", "hybrid"]).optional().describe('"memories" (default), "documents" or "hybrid".'),
          threshold: z.number().min(0).max(1).optional().describe("Minimum similarity 0-1 (default 0.6); lower it (e.g. 0.3) when nothing is found."),
          limit: z.number().int().min(1).max(100).optional().describe("Most results to return (default 10)."),
          filters: filtersSchema.optional(),
          ...tagParam("Container tag to search in; default: every container of this API key."),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = fixed ?? a.containerTag;
          const mode = a.mode ?? "memories";
          const out = (await client.search.memories(
            {
              q: a.query,
              searchMode: mode,
              include: { documents: true },
              ...(containerTag !== undefined ? { containerTag } : {}),
              ...(a.threshold !== undefined ? { threshold: a.threshold } : {}),
              ...(a.limit !== undefined ? { limit: a.limit } : {}),
              ...(a.filters ? { filters: a.filters as unknown as SearchFilters } : {}),
            },
            { signal: extra.signal },
          )) as unknown as SearchAnswer;
          return formatSearch(out, { query: a.query, mode, ...(containerTag !== undefined ? { containerTag } : {}) });
        }),
    );

  if (offered.has("get_profile"))
    server.registerTool(
      "get_profile",
      {
        title: "Recall the profile",
        description:
          "Recall what is known about a user, project or topic as a profile: static facts (lasting: identity, long-held preferences) and dynamic facts (recent context). Call it at the start of a conversation to personalise answers; give a query to also get the memories most relevant to it.",
        inputSchema: {
          query: z.string().optional().describe("Optional: also return the memories matching this query."),
          threshold: z.number().min(0).max(1).optional().describe("Minimum similarity of the query's memories (default 0.6)."),
          ...tagParam(`Container tag whose profile to recall; default "${DEFAULT_NAMESPACE}".`),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = oneTag(a.containerTag);
          const out = (await client.profile(
            { containerTag, ...(a.query ? { q: a.query } : {}), ...(a.threshold !== undefined ? { threshold: a.threshold } : {}) },
            { signal: extra.signal },
          )) as unknown as ProfileAnswer;
          return formatProfile(out, { containerTag, ...(a.query ? { query: a.query } : {}) });
        }),
    );

  if (offered.has("list_memories"))
    server.registerTool(
      "list_memories",
      {
        title: "List memories",
        description:
          "List the memories of one container, newest first, with their ids, versions and sources. Use it to review or audit what is stored; use search to find memories about something.",
        inputSchema: {
          limit: z.number().int().min(1).max(100).optional().describe("Memories per page (default 20)."),
          page: z.number().int().min(1).optional().describe("Page number, from 1."),
          includeForgotten: z.boolean().optional().describe("Also list forgotten memories."),
          filters: filtersSchema.optional(),
          ...tagParam(`Container tag to list; default "${DEFAULT_NAMESPACE}".`),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = oneTag(a.containerTag);
          const out = await client.post<MemoryList>("/v4/memories/list", {
            body: {
              containerTags: [containerTag],
              limit: a.limit ?? 20,
              page: a.page ?? 1,
              sort: "updatedAt",
              order: "desc",
              ...(a.includeForgotten ? { includeForgotten: true } : {}),
              ...(a.filters ? { filters: a.filters } : {}),
            },
            signal: extra.signal,
          });
          return formatMemoryList(out, { containerTag });
        }),
    );

  if (offered.has("forget_memories"))
    server.registerTool(
      "forget_memories",
      {
        title: "Forget memories",
        description:
          'Forget memories the user asked to forget, in two steps. 1) Call with a natural-language query ("everything about Project Titan") or with ids: a dry run that lists the matching memories and forgets nothing. 2) After showing them and only if the user agrees, call again with confirm: true and the ids the dry run listed: exactly those are forgotten (kept as history, no longer recalled).',
        inputSchema: {
          query: z.string().optional().describe("What to forget, in natural language (dry run only)."),
          ids: z.array(z.string()).optional().describe("Memory ids: to preview, or, with confirm: true, to forget (those a dry run listed)."),
          confirm: z.boolean().optional().describe("true to forget the given ids for real; anything else is a dry run."),
          threshold: z.number().min(0).max(1).optional().describe("Minimum match score of a query's dry run (default 0.8)."),
          reason: z.string().optional().describe("Why they are forgotten (kept with them)."),
          ...tagParam(`Container tag of the memories; default "${DEFAULT_NAMESPACE}".`),
        },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      (a, extra) =>
        call(async () => {
          const containerTag = oneTag(a.containerTag);
          const confirm = a.confirm === true;
          if (confirm && !a.ids?.length)
            throw new Error(
              "confirm: true forgets exactly the ids a dry run listed: call forget_memories without confirm first (with your query), then again with confirm: true and those ids",
            );
          if (!a.ids?.length && !a.query) throw new Error("give a query (what to forget) or the ids of the memories");
          const out = await client.post<ForgetAnswer>("/v4/memories/forget-matching", {
            body: {
              containerTag,
              dryRun: !confirm,
              ...(a.ids?.length ? { ids: a.ids } : { query: a.query }),
              ...(a.threshold !== undefined && !a.ids?.length ? { threshold: a.threshold } : {}),
              ...(a.reason ? { reason: a.reason } : {}),
            },
            signal: extra.signal,
          });
          return formatForget(out, { containerTag });
        }),
    );

  if (offered.has("list_container_tags"))
    server.registerTool(
      "list_container_tags",
      {
        title: "List container tags",
        description:
          "List the container tags (users, projects or spaces) that hold memories or documents for this API key, with their document and memory counts. Use it to find the right containerTag for the other tools.",
        inputSchema: {},
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (_a, extra) =>
        call(async () => {
          // The SDK has no method for this path: the client's raw GET.
          const tags = await client.get<ContainerTagItem[]>("/v3/container-tags/list", { signal: extra.signal });
          return formatContainerTags(tags, fixed !== undefined ? { sessionTag: fixed } : {});
        }),
    );

  if (canRead)
    server.registerResource(
      "memory",
      new ResourceTemplate("engram://memories/{id}", { list: undefined }),
      {
        title: "Memory",
        description: `A memory with its versions and source document ids, as JSON (engram://memories/m_…; add ?containerTag=… to name its container, else ${fixed ? "the session's" : "every container is looked through"}).`,
        mimeType: "application/json",
      },
      async (uri, variables, extra): Promise<ReadResourceResult> => {
        const target = resourceTarget(uri, variables.id);
        const found = await findMemory(client, target.id, fixed ?? target.containerTag, extra.signal).catch((err: unknown) => {
          throw new Error(formatError(err));
        });
        if (!found) throw new Error(`memory ${target.id} not found${(fixed ?? target.containerTag) ? ` in container ${fixed ?? target.containerTag}` : ""}`);
        return {
          contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ containerTag: found.containerTag, ...found.entry }, null, 2) }],
        };
      },
    );

  if (canRead)
    server.registerResource(
      "document",
      new ResourceTemplate("engram://documents/{id}", { list: undefined }),
      {
        title: "Document",
        description: "A document with its content, status and metadata, as JSON (engram://documents/d_… or a customId).",
        mimeType: "application/json",
      },
      async (uri, variables, extra): Promise<ReadResourceResult> => {
        const { id } = resourceTarget(uri, variables.id);
        const doc = await client.documents.get(id, { signal: extra.signal }).catch((err: unknown) => {
          throw new Error(formatError(err));
        });
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(doc, null, 2) }] };
      },
    );

  return server;
}

/** Memories per list page when looking a memory up (the API's largest page). */
const LOOKUP_PAGE = 1100;

/**
 * A memory by id. The REST API has no read of one memory, so it is looked up
 * in its container's list (forgotten ones and earlier versions included);
 * without a container, in each container that holds memories.
 */
async function findMemory(
  client: Supermemory,
  id: string,
  containerTag: string | undefined,
  signal: AbortSignal,
): Promise<{ containerTag: string; entry: MemoryEntry } | undefined> {
  const tags =
    containerTag !== undefined
      ? [containerTag]
      : (await client.get<ContainerTagItem[]>("/v3/container-tags/list", { signal })).filter((t) => (t.memoryCount ?? 0) > 0).map((t) => t.containerTag);
  for (const tag of tags) {
    for (let page = 1; ; page++) {
      const out = await client.post<MemoryList>("/v4/memories/list", {
        body: { containerTags: [tag], limit: LOOKUP_PAGE, page, includeForgotten: true },
        signal,
      });
      const entry = out.memoryEntries.find((e) => e.id === id || (e.history as { id: string }[] | undefined)?.some((h) => h.id === id));
      if (entry) return { containerTag: tag, entry };
      if (page >= (out.pagination?.totalPages ?? 1)) break;
    }
  }
  return undefined;
}
