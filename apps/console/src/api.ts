// The Engram REST API as the console calls it: same origin, `Authorization: Bearer <key>`, the API's error body on failure.

import type { components, paths } from "./api-types.gen";

// The API's types come from the OpenAPI description the gateway serves, which is generated from the zod schemas it
// validates requests with (scripts/api-types.ts writes api-types.gen.ts; `npm test` fails when it is stale).
type Schemas = components["schemas"];
type Method = "get" | "post" | "put" | "patch" | "delete";
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The JSON body an operation takes. */
export type RequestOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;
/** The JSON an operation answers with 200 (or 201). */
export type AnswerOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer A }
      ? Json<A>
      : never
  : never;

export type DocumentStatus = Schemas["DocumentListItem"]["status"];
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["done", "failed"]);

export type ErrorBody = Schemas["ErrorResponse"];

/** A failed call: the HTTP status and the API's `{error, details}` (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.details ? `${body.error}: ${body.details}` : body.error);
  }
}

/** Items per page in the console's lists. */
export const PAGE_SIZE = 50;

export type Pagination = Schemas["Pagination"];
export type DocumentListItem = Schemas["DocumentListItem"];
export type DocumentDetail = Schemas["Document"];
export type Chunk = Schemas["Chunk"];
export type HistoryItem = Schemas["MemoryVersion"];
export type MemoryEntry = Schemas["MemoryEntry"];
export type SearchRequest = RequestOf<"/v4/search", "post">;
export type SearchMode = NonNullable<SearchRequest["searchMode"]>;
export type SearchResult = Schemas["SearchResult"];
export type FilterCondition = Schemas["FilterCondition"];
/** The filters the console builds: one level of conditions, all or any of them. */
export type Filters = { AND: FilterCondition[] } | { OR: FilterCondition[] };
/** A document's metadata as the add form takes it. */
export type Metadata = NonNullable<RequestOf<"/v3/documents", "post">["metadata"]>;
export type ForgetMatchingRequest = RequestOf<"/v4/memories/forget-matching", "post">;
export type ForgetMatchingResponse = Schemas["ForgetMatchingResponse"];
export type ProfileResponse = Schemas["ProfileResponse"];
export type SyncRun = Schemas["SyncRun"];
export type Connection = Schemas["Connection"];
export type Provider = Exclude<Connection["provider"], "unknown">;
/** The providers in the order the console offers them. */
export const PROVIDERS = ["web-crawler", "granola", "s3", "github", "notion", "google-drive", "gmail", "onedrive"] as const satisfies readonly Provider[];
export type CreateConnectionRequest = RequestOf<"/v3/connections/{idOrProvider}", "post">;
export type ApiKey = Schemas["ApiKey"];
export type ContainerTag = Schemas["ContainerTag"];

/** A repository a GitHub connection can read (`GET /v3/connections/{id}/resources`: provider-shaped items). */
export interface RepositoryResource {
  id: number;
  name: string;
  full_name?: string;
  description?: string | null;
  private?: boolean;
  default_branch?: string;
}

async function errorOf(status: number, text: string): Promise<ApiError> {
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (typeof body.error === "string") return new ApiError(status, { error: body.error, ...(body.details ? { details: body.details } : {}) });
  } catch {
    /* not the API's error body */
  }
  return new ApiError(status, { error: `HTTP ${status}`, ...(text ? { details: text.slice(0, 200) } : {}) });
}

/** The typed client of one API key. */
/** `onRefused`: called when the server refuses the key (401), e.g. once it is revoked. */
export function createApi(key: string, onRefused?: () => void) {
  const headers = { authorization: `Bearer ${key}` };

  async function call<T>(method: string, path: string, body?: unknown, opts: { text?: boolean } = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new ApiError(0, { error: "Network error", details: err instanceof Error ? err.message : String(err) });
    }
    const text = await res.text();
    if (res.status === 401) onRefused?.();
    if (!res.ok) throw await errorOf(res.status, text);
    if (opts.text) return text as T;
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * One operation of the description: `template` names it (its path template), `url` is the concrete path, and
   * the body and answer are the operation's own types, so a call the gateway would refuse does not compile.
   */
  function op<P extends keyof paths, M extends keyof paths[P] & Method>(method: M, template: P, url: string, body?: RequestOf<P, M>): Promise<AnswerOf<P, M>> {
    void template;
    return call<AnswerOf<P, M>>(method.toUpperCase(), url, body);
  }
  const at = (id: string) => encodeURIComponent(id);

  return {
    /** A cheap authenticated call: resolves when the key is accepted. */
    checkKey: () => op("post", "/v3/documents/list", "/v3/documents/list", { limit: 1 }),
    /** One page of documents, newest first. */
    listDocuments: (containerTag: string | undefined, page = 1, status?: DocumentStatus) =>
      op("post", "/v3/documents/list", "/v3/documents/list", {
        limit: PAGE_SIZE,
        page,
        ...(status ? { statuses: [status] } : {}),
        sort: "createdAt",
        order: "desc",
        ...(containerTag ? { containerTags: [containerTag] } : {}),
      }).then((r) => ({ items: r.memories, pagination: r.pagination })),
    /** How many documents are in one of `statuses`: in one tag, or every tag the key may see (one item asked for, its total read). */
    countDocuments: (containerTag: string | undefined, statuses: DocumentStatus[]) =>
      op("post", "/v3/documents/list", "/v3/documents/list", {
        limit: 1,
        statuses,
        ...(containerTag ? { containerTags: [containerTag] } : {}),
      }).then((r) => r.pagination.totalItems),
    /** One page of failed documents (each with why it failed), the latest failure first; every tag the key may see. */
    listFailed: (page = 1) =>
      op("post", "/v3/documents/list", "/v3/documents/list", { limit: PAGE_SIZE, page, statuses: ["failed"], sort: "updatedAt", order: "desc" }).then((r) => ({
        items: r.memories,
        pagination: r.pagination,
      })),
    addDocument: (content: string, containerTag: string, metadata?: Metadata) =>
      op("post", "/v3/documents", "/v3/documents", { content, containerTag, ...(metadata ? { metadata } : {}) }),
    getDocument: (id: string) => op("get", "/v3/documents/{id}", `/v3/documents/${at(id)}`),
    /** 204: no body. */
    deleteDocument: (id: string) => call<void>("DELETE", `/v3/documents/${at(id)}`),
    chunks: (id: string) => op("get", "/v3/documents/{id}/chunks", `/v3/documents/${at(id)}/chunks`).then((r) => r.chunks),
    /** The memories formed from a document (v5 read with include=memories). */
    documentMemories: (namespace: string, id: string) =>
      op("get", "/ns/{namespace}/document/{id}", `/ns/${at(namespace)}/document/${at(id)}?include=memories`).then((r) => r.memories ?? []),
    containerTags: () => op("get", "/v3/container-tags/list", "/v3/container-tags/list"),
    search: (r: SearchRequest) => op("post", "/v4/search", "/v4/search", { ...r, include: { documents: true } }),
    /** One page of memories (latest versions with their history), newest first. */
    listMemories: (containerTag: string, includeForgotten: boolean, page = 1) =>
      op("post", "/v4/memories/list", "/v4/memories/list", {
        containerTags: [containerTag],
        limit: PAGE_SIZE,
        page,
        includeForgotten,
      }).then((r) => ({ items: r.memoryEntries, pagination: r.pagination })),
    /** Writes memories directly (no document): `POST /v4/memories`. */
    addMemories: (body: RequestOf<"/v4/memories", "post">) => op("post", "/v4/memories", "/v4/memories", body),
    /** A new version of a memory with new content (the old one stays in its history). */
    updateMemory: (id: string, containerTag: string, newContent: string) => op("patch", "/v4/memories", "/v4/memories", { id, containerTag, newContent }),
    forgetMemory: (id: string, containerTag: string, reason?: string) =>
      op("delete", "/v4/memories", "/v4/memories", { id, containerTag, ...(reason ? { reason } : {}) }),
    forgetMatching: (b: ForgetMatchingRequest) => op("post", "/v4/memories/forget-matching", "/v4/memories/forget-matching", b),
    profile: (containerTag: string, q?: string) => op("post", "/v4/profile", "/v4/profile", { containerTag, ...(q ? { q } : {}) }),
    /** The settings are a wide object the settings page reads field by field. */
    settings: () => call<Record<string, unknown>>("GET", "/v3/settings"),
    patchSettings: (patch: RequestOf<"/v3/settings", "patch">) => call<Record<string, unknown>>("PATCH", "/v3/settings", patch),
    connections: () => op("post", "/v3/connections/list", "/v3/connections/list", {}),
    createConnection: (provider: Provider, body: CreateConnectionRequest) => op("post", "/v3/connections/{idOrProvider}", `/v3/connections/${provider}`, body),
    /** Starts a sync of the provider's connections (of one container tag when given): 202, a plain-text answer. */
    importConnections: (provider: Provider, containerTags?: string[]) =>
      call<string>("POST", `/v3/connections/${at(provider)}/import`, containerTags ? { containerTags } : {}, { text: true }),
    /** The connection's sync runs, newest first (Engram extension; the last 100 are kept). */
    connectionRuns: (id: string, limit = 20) =>
      op("get", "/v3/connections/{connectionId}/runs", `/v3/connections/${at(id)}/runs?limit=${limit}`).then((r) => r.runs),
    /** What the connection can import from (GitHub: the account's repositories), one page; the items are the provider's. */
    connectionResources: (id: string, page: number, perPage: number) =>
      op("get", "/v3/connections/{connectionId}/resources", `/v3/connections/${at(id)}/resources?page=${page}&per_page=${perPage}`).then((r) => ({
        resources: r.resources as unknown as RepositoryResource[],
        total_count: r.total_count,
      })),
    /** Replaces the connection's selection and starts its sync. */
    configureConnection: (id: string, resources: RequestOf<"/v3/connections/{connectionId}/configure", "post">["resources"]) =>
      op("post", "/v3/connections/{connectionId}/configure", `/v3/connections/${at(id)}/configure`, { resources }),
    deleteConnection: (id: string, deleteDocuments: boolean) =>
      op("delete", "/v3/connections/{idOrProvider}", `/v3/connections/${at(id)}?deleteDocuments=${deleteDocuments}`),
    listKeys: () => op("get", "/v3/keys", "/v3/keys").then((r) => r.keys),
    /** A new key of this tenant; its secret (`key`) is answered this once. Scopes and tags default to this console key's own. */
    createKey: (name: string, rights: { scopes?: ApiKey["scopes"]; containerTags?: string[] } = {}) => op("post", "/v3/keys", "/v3/keys", { name, ...rights }),
    revokeKey: (id: string) => op("delete", "/v3/keys/{id}", `/v3/keys/${at(id)}`),
    /** A file upload (multipart, `POST /v3/documents/file`) through XMLHttpRequest, for its upload progress. */
    uploadFile(
      file: File,
      containerTag: string,
      onProgress: (loaded: number, total: number) => void,
      metadata?: Metadata,
    ): Promise<AnswerOf<"/v3/documents/file", "post">> {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", "/v3/documents/file");
        xhr.setRequestHeader("authorization", `Bearer ${key}`);
        xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
        xhr.onerror = () => reject(new ApiError(0, { error: "Network error", details: "the upload did not reach the server" }));
        xhr.onload = () => {
          if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as AnswerOf<"/v3/documents/file", "post">);
          else void errorOf(xhr.status, xhr.responseText).then(reject);
        };
        const form = new FormData();
        form.append("containerTag", containerTag);
        if (metadata) form.append("metadata", JSON.stringify(metadata));
        form.append("file", file, file.name);
        xhr.send(form);
      });
    },
  };
}

export type Api = ReturnType<typeof createApi>;
