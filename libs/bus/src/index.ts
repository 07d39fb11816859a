export * from "./port";
export * from "./partition";
export * from "./embedded-bus";
export * from "./events";
export * from "./outbox";
export * from "./delivery";
export * from "./kafka-bus";
export * from "./kafka-config";
