/**
 * The composition root's public entry: starting a stack from a validated
 * configuration, the configuration, and the topology rules. Nothing happens on
 * import; `src/main.ts` is the process's entry point (config, signals, exit codes).
 */
export { type RunningStack, startStack } from "./stack";
export { type AllInOneConfig, loadAllInOneConfig } from "./config";
export { memoryStoreKind, SERVICES, type ServiceName, type Topology, topologyProblems } from "./topology";
