// The Engram REST API as the console calls it: same origin, `Authorization: Bearer <key>`, the API's error body on failure.

export type DocumentStatus = "unknown" | "queued" | "extracting" | "chunking" | "embedding" | "indexing" | "done" | "failed";
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["done", "failed"]);

export interface ErrorBody {
  error: string;
  details?: string;
}

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

/** A list's page (OpenAPI `Pagination`). */
export interface Pagination {
  currentPage: number;
  totalItems: number;
  totalPages: number;
}

export interface DocumentListItem {
  id: string;
  customId: string | null;
  containerTags: string[];
  createdAt: string | null;
  updatedAt: string | null;
  status: DocumentStatus;
  title: string | null;
  summary: string | null;
  type: string;
  url: string | null;
  metadata: Record<string, unknown> | null;
}

export interface DocumentDetail extends DocumentListItem {
  content: string | null;
  source: string | null;
  dreamingStatus: string;
  filepath: string | null;
}

export interface Chunk {
  id: string;
  documentId: string;
  position: number;
  content: string;
  tokenCount: number;
  type: string;
}

export interface HistoryItem {
  id: string;
  memory: string;
  version: number;
  createdAt: string | null;
  isLatest: boolean;
  isForgotten: boolean;
}

export interface MemoryEntry {
  id: string;
  memory: string;
  version: number;
  isLatest: boolean;
  isForgotten: boolean;
  isStatic: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  parentMemoryId: string | null;
  rootMemoryId: string | null;
  forgetReason: string | null;
  memoryRelations: Record<string, "updates" | "extends" | "derives"> | null;
  history?: HistoryItem[];
  documentIds: string[];
  /** Engram extension: the source documents with the positions of the chunks the memory was formed from. */
  sources?: { documentId: string; chunkPositions: number[] }[];
}

export type SearchMode = "memories" | "documents" | "hybrid";

/** A document's metadata: flat values that search filters match. */
export type Metadata = Record<string, string | number | boolean | string[]>;

/** One condition of a search filter (OpenAPI `filters`). */
export interface FilterCondition {
  key: string;
  value: string;
  filterType?: "metadata" | "numeric" | "array_contains" | "string_contains";
  numericOperator?: ">" | "<" | ">=" | "<=" | "=";
  negate?: boolean;
}

export type Filters = { AND: FilterCondition[] } | { OR: FilterCondition[] };

export interface SearchRequest {
  q: string;
  searchMode: SearchMode;
  threshold?: number;
  containerTag?: string;
  rerank?: boolean;
  limit?: number;
  filters?: Filters;
}

export interface SearchResult {
  id: string;
  similarity: number;
  updatedAt: string | null;
  /** A memory result. */
  memory?: string;
  version?: number;
  documents?: { id: string; title?: string | null }[];
  /** A chunk result. */
  chunk?: string;
  documentId?: string;
  /** A chunk result's document metadata. */
  metadata?: Record<string, unknown> | null;
}

export interface ForgetCandidate {
  id: string;
  memory: string;
  score: number;
}

export interface ForgetMatchingResponse {
  dryRun: boolean;
  count: number;
  forgetBatchId: string | null;
  summary: string;
  candidates?: ForgetCandidate[];
  forgotten?: ForgetCandidate[];
}

export interface ProfileResponse {
  profile: { static?: string[]; dynamic?: string[]; buckets?: Record<string, string[]> };
  /** With a query: the memories that answer it. */
  searchResults?: { results: SearchResult[]; total: number; timing: number };
}

export const PROVIDERS = ["web-crawler", "granola", "s3", "github", "notion", "google-drive", "gmail", "onedrive"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface SyncRun {
  status: "queued" | "running" | "succeeded" | "partial" | "failed";
  errorCode: string | null;
  error: string | null;
  startedAt: string | null;
  completedAt?: string;
  documentsImported?: number;
  /** What started it (Engram extension). */
  trigger?: "initial" | "scheduled" | "manual" | "webhook" | null;
}

export interface Connection {
  id: string;
  provider: string;
  email?: string;
  documentLimit?: number;
  createdAt: string | null;
  metadata?: Record<string, unknown>;
  containerTags: string[];
  /** Engram extension: where the connection stands. */
  status?: "pending_authorization" | "active" | "auth_expired" | "expired" | "deleting" | null;
  lastSyncRun?: SyncRun;
}

/** A repository a GitHub connection can read (`GET /v3/connections/{id}/resources`). */
export interface RepositoryResource {
  id: number;
  name: string;
  full_name?: string;
  description?: string | null;
  private?: boolean;
  default_branch?: string;
}

export interface CreateConnectionRequest {
  containerTag: string;
  documentLimit?: number;
  metadata?: Record<string, string>;
  redirectUrl?: string;
}

/** An API key of the tenant (`GET /v3/keys`): never its secret. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  /** The key this console is signed in with. */
  current: boolean;
}

export interface ContainerTag {
  containerTag: string;
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

  return {
    /** A cheap authenticated call: resolves when the key is accepted. */
    checkKey: () => call<unknown>("POST", "/v3/documents/list", { limit: 1 }),
    /** One page of documents, newest first. */
    listDocuments: (containerTag: string | undefined, page = 1, status?: DocumentStatus) =>
      call<{ memories: DocumentListItem[]; pagination: Pagination }>("POST", "/v3/documents/list", {
        limit: PAGE_SIZE,
        page,
        ...(status ? { statuses: [status] } : {}),
        sort: "createdAt",
        order: "desc",
        ...(containerTag ? { containerTags: [containerTag] } : {}),
      }).then((r) => ({ items: r.memories, pagination: r.pagination })),
    addDocument: (content: string, containerTag: string, metadata?: Metadata) =>
      call<{ id: string; status: DocumentStatus }>("POST", "/v3/documents", { content, containerTag, ...(metadata ? { metadata } : {}) }),
    getDocument: (id: string) => call<DocumentDetail>("GET", `/v3/documents/${encodeURIComponent(id)}`),
    deleteDocument: (id: string) => call<void>("DELETE", `/v3/documents/${encodeURIComponent(id)}`),
    chunks: (id: string) => call<{ chunks: Chunk[] }>("GET", `/v3/documents/${encodeURIComponent(id)}/chunks`).then((r) => r.chunks),
    /** The memories formed from a document (v5 read with include=memories). */
    documentMemories: (namespace: string, id: string) =>
      call<{ memories?: MemoryEntry[] }>("GET", `/ns/${encodeURIComponent(namespace)}/document/${encodeURIComponent(id)}?include=memories`).then(
        (r) => r.memories ?? [],
      ),
    containerTags: () => call<ContainerTag[]>("GET", "/v3/container-tags/list"),
    search: (r: SearchRequest) =>
      call<{ results: SearchResult[]; total: number; timing: number }>("POST", "/v4/search", { ...r, include: { documents: true } }),
    /** One page of memories (latest versions with their history), newest first. */
    listMemories: (containerTag: string, includeForgotten: boolean, page = 1) =>
      call<{ memoryEntries: MemoryEntry[]; pagination: Pagination }>("POST", "/v4/memories/list", {
        containerTags: [containerTag],
        limit: PAGE_SIZE,
        page,
        includeForgotten,
      }).then((r) => ({ items: r.memoryEntries, pagination: r.pagination })),
    forgetMemory: (id: string, containerTag: string, reason?: string) =>
      call<{ id: string; forgotten: boolean }>("DELETE", "/v4/memories", { id, containerTag, ...(reason ? { reason } : {}) }),
    forgetMatching: (b: { containerTag: string; query?: string; ids?: string[]; threshold?: number; dryRun: boolean }) =>
      call<ForgetMatchingResponse>("POST", "/v4/memories/forget-matching", b),
    profile: (containerTag: string, q?: string) => call<ProfileResponse>("POST", "/v4/profile", { containerTag, ...(q ? { q } : {}) }),
    settings: () => call<Record<string, unknown>>("GET", "/v3/settings"),
    patchSettings: (patch: Record<string, unknown>) => call<Record<string, unknown>>("PATCH", "/v3/settings", patch),
    connections: () => call<Connection[]>("POST", "/v3/connections/list", {}),
    createConnection: (provider: Provider, body: CreateConnectionRequest) =>
      call<{ id: string; authLink: string; expiresIn: string; redirectsTo?: string }>("POST", `/v3/connections/${provider}`, body),
    /** Starts a sync of the provider's connections (of one container tag when given): 202, a plain-text answer. */
    importConnections: (provider: string, containerTags?: string[]) =>
      call<string>("POST", `/v3/connections/${encodeURIComponent(provider)}/import`, containerTags ? { containerTags } : {}, { text: true }),
    /** The connection's sync runs, newest first (Engram extension; the last 100 are kept). */
    connectionRuns: (id: string, limit = 20) =>
      call<{ runs: SyncRun[] }>("GET", `/v3/connections/${encodeURIComponent(id)}/runs?limit=${limit}`).then((r) => r.runs),
    /** What the connection can import from (GitHub: the account's repositories), one page. */
    connectionResources: (id: string, page: number, perPage: number) =>
      call<{ resources: RepositoryResource[]; total_count?: number }>(
        "GET",
        `/v3/connections/${encodeURIComponent(id)}/resources?page=${page}&per_page=${perPage}`,
      ),
    /** Replaces the connection's selection and starts its sync. */
    configureConnection: (id: string, resources: Record<string, unknown>[]) =>
      call<{ success: boolean; message: string; webhooksRegistered: number }>("POST", `/v3/connections/${encodeURIComponent(id)}/configure`, { resources }),
    deleteConnection: (id: string, deleteDocuments: boolean) =>
      call<{ id: string; provider: string }>("DELETE", `/v3/connections/${encodeURIComponent(id)}?deleteDocuments=${deleteDocuments}`),
    listKeys: () => call<{ keys: ApiKey[] }>("GET", "/v3/keys").then((r) => r.keys),
    /** A new key of this tenant; its secret (`key`) is answered this once. */
    createKey: (name: string) => call<ApiKey & { key: string }>("POST", "/v3/keys", { name }),
    revokeKey: (id: string) => call<ApiKey>("DELETE", `/v3/keys/${encodeURIComponent(id)}`),
    /** A file upload (multipart, `POST /v3/documents/file`) through XMLHttpRequest, for its upload progress. */
    uploadFile(
      file: File,
      containerTag: string,
      onProgress: (loaded: number, total: number) => void,
      metadata?: Metadata,
    ): Promise<{ id: string; status: DocumentStatus }> {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", "/v3/documents/file");
        xhr.setRequestHeader("authorization", `Bearer ${key}`);
        xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
        xhr.onerror = () => reject(new ApiError(0, { error: "Network error", details: "the upload did not reach the server" }));
        xhr.onload = () => {
          if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as { id: string; status: DocumentStatus });
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
