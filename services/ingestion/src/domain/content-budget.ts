/**
 * The content a document listing carries (issue #33). A listing with content
 * could otherwise grow past what one answer can hold (the gRPC message limit,
 * 64 MiB): the answer gets a content budget in bytes, and documents are taken
 * in page order, each with its whole content or with none. A document whose
 * content does not fit in what is left of the budget is listed without it
 * (marked), and later, smaller ones may still fit; the page itself (which
 * documents, how many, the pagination) never changes, so page N+1 is where
 * the caller expects it.
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

/** Which documents of a page carry their content within `budgetBytes`; `sizes` are their content sizes in page order. */
export function fitContent(sizes: readonly number[], budgetBytes: number): ContentFit {
  if (!Number.isFinite(budgetBytes) || budgetBytes < 0) throw new RangeError(`content budget must be a non-negative number of bytes, got ${budgetBytes}`);
  let usedBytes = 0;
  let omitted = 0;
  const keep = sizes.map((size) => {
    if (size === 0 || usedBytes + size <= budgetBytes) {
      usedBytes += size;
      return true;
    }
    omitted++;
    return false;
  });
  return { keep, usedBytes, omitted };
}

/**
 * The budget of one answer: the service's cap, lowered (never raised) by what
 * the caller asked for; 0 or absent = the cap.
 */
export function contentBudget(cap: number, requested: number | undefined): number {
  if (requested === undefined || requested <= 0) return cap;
  return Math.min(cap, requested);
}
