import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import type { MemoriesConfig } from "./config";

export interface MemoriesDeps {
  config: MemoriesConfig;
  logger: Logger;
}

/**
 * The memories service. Its contract (engram.memories.v1.MemoriesService) is
 * complete; memory formation and the memories API arrive with the memories
 * release, until then every RPC answers UNIMPLEMENTED (HTTP 501).
 */
export function createMemoriesModule(_deps: MemoriesDeps): ServiceModule {
  return {
    name: "memories",
    grpcServices: { "engram.memories.v1.MemoriesService": {} },
  };
}
