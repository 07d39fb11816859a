export * from "./filter";
export * from "./sparse";
export * from "./ranking";
export * from "./collections";
export * from "./hybrid";
export * from "./chunk-index.qdrant";
export * from "./memory-search.qdrant";
export * from "./config";
