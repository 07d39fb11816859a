import { InvalidArgumentError } from "./errors";

/**
 * The content an answer carries (issue #33): document listings with content
 * and v3 search with includeFullDocs could otherwise grow past what one answer
 * can hold (the gRPC message limit, 64 MiB). The answer gets a content budget
 * in bytes, and documents are taken in order, each with its whole content or
 * with none. A document whose content does not fit in what is left of the
 * budget is listed without it (marked), and later, smaller ones may still
 * fit; the list itself (which documents, how many, the pagination) never
 * changes, so page N+1 is where the caller expects it.
 */

/** Bytes a content takes in an answer (UTF-8, as protobuf and JSON carry it). */
export function contentBytes(content: string): number {
  return Buffer.byteLength(content, "utf8");
}

export interface ContentFit {
  /** Per document, in page order: whether its content is carried. */
  keep: boolean[];
  /** Content bytes carried in all. */
  usedBytes: number;
  /** Documents listed without their content. */
  omitted: number;
}

/** An answer's content budget, spent one document at a time, in order. */
export class ContentBudget {
  private used = 0;
  private left = 0;

  constructor(readonly maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new RangeError(`content budget must be a non-negative number of bytes, got ${maxBytes}`);
  }

  /** Takes a content of `size` bytes when it fits in what is left (an empty one always does); false leaves the budget as it was. */
  take(size: number): boolean {
    if (size !== 0 && !(this.used + size <= this.maxBytes)) {
      this.left++;
      return false;
    }
    this.used += size;
    return true;
  }

  /** Content bytes taken so far. */
  get usedBytes(): number {
    return this.used;
  }

  /** Documents refused so far (listed without their content). */
  get omitted(): number {
    return this.left;
  }
}

/** Which documents of a page carry their content within `budgetBytes`; `sizes` are their content sizes in page order. */
export function fitContent(sizes: readonly number[], budgetBytes: number): ContentFit {
  const budget = new ContentBudget(budgetBytes);
  const keep = sizes.map((size) => budget.take(size));
  return { keep, usedBytes: budget.usedBytes, omitted: budget.omitted };
}

/**
 * The budget of one answer: the service's cap, lowered (never raised) by what
 * the caller asked for; 0 or absent = the cap.
 */
export function contentBudget(cap: number, requested: number | undefined): number {
  if (requested === undefined || requested <= 0) return cap;
  return Math.min(cap, requested);
}

/**
 * A tenant export's page cursor (docs/export-format.md): the position of the
 * next record, as decimal text; "" is the start. A malformed cursor is the
 * caller's error.
 */
export function exportCursorOffset(cursor: string): number {
  if (cursor === "") return 0;
  if (!/^\d{1,12}$/.test(cursor)) throw new InvalidArgumentError("invalid export cursor");
  return Number(cursor);
}

/** The cursor of the record at `offset` (exportCursorOffset's inverse). */
export const exportCursor = (offset: number): string => String(offset);

/** Byte budget of one tenant-export page when the caller gives none, and the most it may ask for (under the 4 MiB gRPC message limit). */
export const EXPORT_PAGE_BYTES = 1024 * 1024;
export const EXPORT_PAGE_MAX_BYTES = 3 * 1024 * 1024;

/**
 * One page of a tenant export (documents or memories): records read in steps
 * of `step` from the cursor's position, serialised to JSON, until the next
 * one would pass the byte budget (a page holds at least one record). The next
 * cursor is "" once the records are exhausted.
 */
export async function fillExportPage<T>(opts: {
  cursor: string;
  maxBytes: number;
  step: number;
  read: (offset: number, limit: number) => Promise<{ items: readonly T[]; total: number }>;
  serialise: (item: T) => unknown;
}): Promise<{ records: string[]; nextCursor: string }> {
  if (!Number.isInteger(opts.maxBytes) || opts.maxBytes < 0) throw new InvalidArgumentError("max_bytes must be a non-negative integer");
  const budget = Math.min(opts.maxBytes || EXPORT_PAGE_BYTES, EXPORT_PAGE_MAX_BYTES);
  let offset = exportCursorOffset(opts.cursor);
  const records: string[] = [];
  let bytes = 0;
  for (;;) {
    const { items, total } = await opts.read(offset, opts.step);
    for (const item of items) {
      const json = JSON.stringify(opts.serialise(item));
      const size = Buffer.byteLength(json);
      if (records.length > 0 && bytes + size > budget) return { records, nextCursor: exportCursor(offset) };
      records.push(json);
      bytes += size;
      offset++;
    }
    if (items.length < opts.step || offset >= total) return { records, nextCursor: "" };
  }
}
