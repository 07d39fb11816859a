export * from "./errors";
export * from "./address";
export * from "./policy";
export * from "./fetcher";
export * from "./headers";
