import { z } from "zod";

/**
 * Parses and validates configuration from the environment once, at start-up.
 * Every problem is reported in one message (never one at a time).
 */
export class ConfigError extends Error {
  constructor(
    readonly component: string,
    readonly problems: string[],
  ) {
    super(`invalid configuration for ${component}:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

/** Variables whose values are never echoed in a ConfigError (its message ends up in logs); MONGO_URL may carry a password. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|MONGO_URL/i;

export function loadConfig<S extends z.ZodType>(component: string, schema: S, env: Env = process.env): z.infer<S> {
  // Treat empty strings as unset: `FOO=` in a compose file means "default".
  const cleaned: Env = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== "") cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const key = i.path.join(".") || "(environment)";
    const given = i.path.length && !SECRET_NAME.test(String(i.path[0])) ? cleaned[String(i.path[0])] : undefined;
    return `${key}: ${i.message}${given !== undefined ? ` (got ${JSON.stringify(given)})` : ""}`;
  });
  throw new ConfigError(component, problems);
}

/** Reusable field parsers for environment variables. */
export const env = {
  bool: (def: boolean) =>
    z
      .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
      .default(def ? "true" : "false")
      .transform((v) => v === "true" || v === "1" || v === "yes"),
  int: (def: number, opts: { min?: number; max?: number } = {}) =>
    z.coerce
      .number({ message: "must be a number" })
      .int("must be an integer")
      .min(opts.min ?? Number.MIN_SAFE_INTEGER, `must be at least ${opts.min}`)
      .max(opts.max ?? Number.MAX_SAFE_INTEGER, `must be at most ${opts.max}`)
      .default(def),
  port: (def: number) => z.coerce.number({ message: "must be a port number" }).int().min(0).max(65535).default(def),
  string: (def: string) => z.string().default(def),
  list: (def: string[] = []) =>
    z
      .string()
      .default(def.join(","))
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  address: () => z.string().regex(/^[^\s:]+:\d+$/, "must be host:port"),
};

/**
 * MongoDB settings of the production adapters, to spread into a service's
 * schema: MONGO_URL (a replica set; transactions need one) and MONGO_DB
 * (default `engram`). MONGO_URL is optional here: the embedded adapters run
 * without it.
 */
export const mongoConfigShape = {
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/\S+$/, "must be a mongodb:// or mongodb+srv:// connection string")
    .optional(),
  MONGO_DB: z
    .string()
    .regex(/^[^/\\. "$*<>:|?]{1,63}$/, 'must be a MongoDB database name (at most 63 characters, none of / \\ . " $ * < > : | ?)')
    .default("engram"),
};

/** SHUTDOWN_GRACE_MS's default: a process exits within 8 s of SIGTERM. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 8_000;
/** Of the shutdown budget, what SHUTDOWN_DELAY_MS must leave for stopping the modules and closing the stores. */
export const SHUTDOWN_MIN_STOP_MS = 1_000;

/**
 * The shutdown settings of a process (ProcessRuntime), to spread into its
 * schema and check with shutdownConfigProblems: SHUTDOWN_GRACE_MS, the
 * whole budget from SIGTERM to exit (the orchestrator's grace period, e.g.
 * Kubernetes' terminationGracePeriodSeconds, must exceed it);
 * SHUTDOWN_DELAY_MS, the pause while load balancers stop routing; and
 * SHUTDOWN_DEADLINE_MS, the longest drain of a gRPC server's calls (capped by
 * what is left of the budget).
 */
export const shutdownConfigShape = {
  SHUTDOWN_GRACE_MS: env.int(DEFAULT_SHUTDOWN_GRACE_MS, { min: 1_000, max: 120_000 }),
  SHUTDOWN_DELAY_MS: env.int(0, { min: 0, max: 30_000 }),
  SHUTDOWN_DEADLINE_MS: env.int(7000, { min: 100, max: 60_000 }),
};

/** What is wrong with a set of shutdown settings taken together (empty: nothing). */
export function shutdownConfigProblems(c: { SHUTDOWN_GRACE_MS: number; SHUTDOWN_DELAY_MS: number }): string[] {
  return c.SHUTDOWN_DELAY_MS + SHUTDOWN_MIN_STOP_MS > c.SHUTDOWN_GRACE_MS
    ? [`SHUTDOWN_DELAY_MS (${c.SHUTDOWN_DELAY_MS}) must leave at least ${SHUTDOWN_MIN_STOP_MS} ms of SHUTDOWN_GRACE_MS (${c.SHUTDOWN_GRACE_MS}) for stopping`]
    : [];
}

export { z };
export * from "./topology";
