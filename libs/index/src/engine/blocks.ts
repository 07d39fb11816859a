/** Postings per block of score bounds (a power of two); see `Posting` in partition.ts. */
export const BLOCK_SHIFT = 6;
export const BLOCK = 1 << BLOCK_SHIFT;
/** Block stats: a record length capped here is still a lower bound; `NO_LEN` marks an empty tf group. */
export const NO_LEN = 0xffff;
export const LEN_CAP = 0xfffe;
