import type { FilterExpr } from "@engram/filters";
import { type DocumentStatus, InvalidArgumentError } from "@engram/kernel";
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
}

export const LIST_MAX_LIMIT = 1100;

export interface Page<T> {
  items: T[];
  currentPage: number;
  limit: number;
  totalItems: number;
  totalPages: number;
}

/** Lists documents of a scope, newest first by default, with metadata filters and pagination. */
export class ListDocumentsUseCase {
  constructor(private readonly repo: DocumentRepository) {}

  async execute(c: ListDocumentsCommand): Promise<Page<DocumentRecord>> {
    for (const ns of c.namespaces ?? []) validateNamespace(ns);
    if (c.connectionId !== undefined) validateConnectionId(c.connectionId);
    if (c.sort !== "createdAt" && c.sort !== "updatedAt") throw new InvalidArgumentError(`cannot sort by ${c.sort}`, "sort is createdAt or updatedAt");
    if (c.order !== "asc" && c.order !== "desc") throw new InvalidArgumentError(`invalid order ${c.order}`, "order is asc or desc");
    if (!Number.isInteger(c.page) || c.page < 1) throw new InvalidArgumentError("page must be a positive integer");
    if (!Number.isInteger(c.limit) || c.limit < 1 || c.limit > LIST_MAX_LIMIT) throw new InvalidArgumentError(`limit must be 1 to ${LIST_MAX_LIMIT}`);
    const { items, total } = await this.repo.list({
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
    });
    return { items, currentPage: c.page, limit: c.limit, totalItems: total, totalPages: Math.ceil(total / c.limit) };
  }
}
