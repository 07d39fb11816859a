/**
 * The gateway's public entry: the module, its configuration, the key store
 * factory and the key CLI; plus the HTTP app and its request schemas, which
 * the end-to-end fuzzing walks. Callers never import deeper than this.
 */
export { createGatewayModule, type GatewayDeps, type GatewayModule } from "./module";
export { type GatewayConfig, gatewayConfigSchema, loadGatewayConfig } from "./config";
export { openGatewayKeyStore } from "./auth/open-key-store";
export { type GuardStores, openGuardStores } from "./guards/open-guard-stores";
export { runKeysCli } from "./cli/keys.cli";
export { type AppOptions, createApp } from "./http/app";
export { type Backends, backendsAt, createBackends } from "./http/backends";
export { exceedsJsonDepth, MAX_JSON_DEPTH } from "./http/json";
export * as requestSchemas from "./routes/schemas";
export { createKeyBody } from "./routes/keys.routes";
