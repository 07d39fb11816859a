export * from "./text";
export * from "./embedder";
export * from "./chunk-index";
export * from "./sqlite-chunk-index";
export * from "./scoring";
export * from "./openai-embedder";
export * from "./embedder-config";
