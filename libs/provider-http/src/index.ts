export * from "./provider-http";
