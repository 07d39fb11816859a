/**
 * Production engines for the contract suites, as started by the jest
 * globalSetup (scripts/jest-containers.cjs) or given from outside through the
 * same variables. Each suite runs once per adapter: the embedded one always,
 * the production one when its engine is reachable; otherwise the production
 * block is skipped and the reason printed once per suite.
 */
export interface ProductionEngines {
  mongoUrl?: string;
  qdrantUrl?: string;
  kafkaBrokers?: string[];
  /** Why MongoDB and Qdrant are not available (undefined when they are). */
  skipReason?: string;
  /** Why Kafka is not available (undefined when it is, or when no reason was given). */
  kafkaSkipReason?: string;
}

export function productionEngines(env: NodeJS.ProcessEnv = process.env): ProductionEngines {
  const kafka = env.ENGRAM_TEST_KAFKA_BROKERS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    mongoUrl: env.ENGRAM_TEST_MONGO_URL || undefined,
    qdrantUrl: env.ENGRAM_TEST_QDRANT_URL || undefined,
    kafkaBrokers: kafka?.length ? kafka : undefined,
    skipReason: env.ENGRAM_TEST_CONTAINERS_SKIP || undefined,
    kafkaSkipReason: env.ENGRAM_TEST_KAFKA_SKIP || undefined,
  };
}

type Engine = "mongo" | "qdrant" | "kafka";

/**
 * `describe` for a production adapter: runs when every engine it needs is
 * available, else `describe.skip` with the reason printed.
 */
export function describeWithEngines(
  engines: Engine[],
  name: string,
  fn: (e: Required<Omit<ProductionEngines, "skipReason" | "kafkaSkipReason">>) => void,
): void {
  const e = productionEngines();
  const missing = engines.filter((k) => (k === "mongo" ? !e.mongoUrl : k === "qdrant" ? !e.qdrantUrl : !e.kafkaBrokers));
  if (missing.length === 0) {
    describe(name, () => fn({ mongoUrl: e.mongoUrl ?? "", qdrantUrl: e.qdrantUrl ?? "", kafkaBrokers: e.kafkaBrokers ?? [] }));
    return;
  }
  const given = missing.map((k) => (k === "kafka" ? e.kafkaSkipReason : e.skipReason)).find(Boolean);
  const reason = given ?? `no ${missing.join(", ")} configured (ENGRAM_TEST_${missing[0]!.toUpperCase()}_…)`;
  // eslint-disable-next-line no-console
  console.log(`skipped: ${name}: ${reason}`);
  describe.skip(`${name} (skipped: ${reason})`, () => fn({ mongoUrl: "", qdrantUrl: "", kafkaBrokers: [] }));
}

/**
 * A database name of its own for one test file's MongoDB run (drop it in
 * afterAll): test files run in parallel workers against one server.
 */
export function uniqueMongoDbName(suite: string): string {
  const tag = suite.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 24);
  return `engram_t_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}
