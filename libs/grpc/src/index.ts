export * from "./protos";
export * from "./errors";
export * from "./convert";
export * from "./server";
export * from "./client";
export * from "./health";
export * from "./clients/profile-buckets";
export * from "./context";
