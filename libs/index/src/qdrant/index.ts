export * from "./filter";
export * from "./sparse";
export * from "./ranking";
