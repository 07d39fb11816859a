export * from "./engram-process";
export * from "./wait";
