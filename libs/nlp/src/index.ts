export * from "./ports";
