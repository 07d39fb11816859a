export * from "./engram-process";
export * from "./wait";
export * from "./containers";
export * from "./random";
export * from "./fake-json-api";
export * from "./static-site";
export * from "./fake-granola";
export * from "./fake-github";
