export * from "./filter";
export * from "./sparse";
export * from "./ranking";
export * from "./collections";
export * from "./hybrid";
export * from "./collection-adapter";
export * from "./chunk-index.qdrant";
export * from "./config";
