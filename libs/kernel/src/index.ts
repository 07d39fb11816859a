export * from "./errors";
export * from "./ids";
export * from "./status";
export * from "./json";
export * from "./clock";
export * from "./scope";
export * from "./buckets";
export * from "./filepath";
