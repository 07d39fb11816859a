import type { FilterExpr } from "@engram/filters";
import { contentBudget, contentBytes as contentBytesOf, type DocumentStatus, fitContent, InvalidArgumentError } from "@engram/kernel";
import { type DocumentRecord, validateConnectionId, validateNamespace } from "../domain/document";
import type { DocumentRepository } from "./ports";

export interface ListDocumentsCommand {
  tenantId: string;
  /** Undefined = every namespace of the tenant. */
  namespaces?: string[];
  filter?: FilterExpr;
  filepath?: string;
  /** Only the documents this connection imported. */
  connectionId?: string;
  page: number;
  limit: number;
  sort: string;
  order: string;
  statuses?: DocumentStatus[];
  /** Carry each document's content, within the answer's content budget; false = every content "". */
  includeContent?: boolean;
  /** With includeContent: the caller's own, lower budget in bytes (absent or 0 = the service's cap). */
  maxContentBytes?: number;
}

export const LIST_MAX_LIMIT = 1100;

export interface Page<T> {
  items: T[];
  currentPage: number;
  limit: number;
  totalItems: number;
  totalPages: number;
}

export interface DocumentPage extends Page<DocumentRecord> {
  /** With includeContent: the budget the page was filled under, and which items are listed without their content. */
  content?: { maxBytes: number; omitted: boolean[]; omittedCount: number };
}

/**
 * Lists documents of a scope, newest first by default, with metadata filters
 * and pagination. With content, the page is read without it first (each
 * content's size only), the budget decides which documents carry theirs
 * (fitContent, @engram/kernel), and only those are loaded: an answer never holds
 * more content than its budget, in memory or on the wire.
 */
export class ListDocumentsUseCase {
  /** `maxContentBytes`: the service's cap on the content one listing carries (INGESTION_LIST_MAX_CONTENT_BYTES). */
  constructor(
    private readonly repo: DocumentRepository,
    private readonly opts: { maxContentBytes: number },
  ) {}

  async execute(c: ListDocumentsCommand): Promise<DocumentPage> {
    for (const ns of c.namespaces ?? []) validateNamespace(ns);
    if (c.connectionId !== undefined) validateConnectionId(c.connectionId);
    if (c.sort !== "createdAt" && c.sort !== "updatedAt") throw new InvalidArgumentError(`cannot sort by ${c.sort}`, "sort is createdAt or updatedAt");
    if (c.order !== "asc" && c.order !== "desc") throw new InvalidArgumentError(`invalid order ${c.order}`, "order is asc or desc");
    if (!Number.isInteger(c.page) || c.page < 1) throw new InvalidArgumentError("page must be a positive integer");
    if (!Number.isInteger(c.limit) || c.limit < 1 || c.limit > LIST_MAX_LIMIT) throw new InvalidArgumentError(`limit must be 1 to ${LIST_MAX_LIMIT}`);
    if (c.maxContentBytes !== undefined && (!Number.isSafeInteger(c.maxContentBytes) || c.maxContentBytes < 0)) {
      throw new InvalidArgumentError("maxContentBytes must be a non-negative integer");
    }
    const { items, total, contentBytes } = await this.repo.list({
      tenantId: c.tenantId,
      namespaces: c.namespaces,
      filter: c.filter,
      filepath: c.filepath,
      connectionId: c.connectionId,
      statuses: c.statuses,
      sort: c.sort,
      order: c.order,
      offset: (c.page - 1) * c.limit,
      limit: c.limit,
      withoutContent: true,
    });
    const page = { currentPage: c.page, limit: c.limit, totalItems: total, totalPages: Math.ceil(total / c.limit) };
    if (!c.includeContent) return { ...page, items };
    const maxBytes = contentBudget(this.opts.maxContentBytes, c.maxContentBytes);
    const fit = fitContent(contentBytes ?? items.map(() => 0), maxBytes);
    const wanted = items.filter((d, i) => fit.keep[i] && (contentBytes?.[i] ?? 0) > 0).map((d) => d.id);
    const contents = wanted.length ? await this.repo.contents(c.tenantId, wanted) : new Map<string, string>();
    // Fitted again on what was read: a content changed between the two reads still keeps the answer within budget.
    // A document removed meanwhile lists as the first read saw it, with content "".
    const loaded = items.map((d, i) => (fit.keep[i] ? (contents.get(d.id) ?? "") : undefined));
    const final = fitContent(
      loaded.map((x) => (x === undefined ? Number.POSITIVE_INFINITY : contentBytesOf(x))),
      maxBytes,
    );
    return {
      ...page,
      items: items.map((d, i) => (final.keep[i] ? { ...d, content: loaded[i] ?? "" } : d)),
      content: { maxBytes, omitted: final.keep.map((k) => !k), omittedCount: final.omitted },
    };
  }
}
