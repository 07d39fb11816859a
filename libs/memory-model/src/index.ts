/**
 * The memory model shared by the memories service, recall and the memory
 * stores: the record shape, the search and list queries and hits, and the
 * record's proto mapping.
 */
export * from "./memory";
export * from "./queries";
export * from "./memory-proto";
