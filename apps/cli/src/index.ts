export { runCli, buildProgram } from "./program";
export { ExitCode, exitCodeFor, UsageError } from "./exit-codes";
export { resolveConfig, configPath, writeConfigValue, readConfigFile } from "./config";
export { StateStore, fileCustomId, defaultStatePath } from "./state-file";
export { walkFiles, skipReason } from "./walk";
export { mapLimit } from "./concurrency";
export type { CliIo } from "./io";
