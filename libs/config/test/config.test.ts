import { ConfigError, env, loadConfig, mongoConfigShape, z } from "../src/index";

const schema = z.object({
  PORT: env.port(8080),
  WORKERS: env.int(4, { min: 1, max: 16 }),
  DEBUG: env.bool(false),
  TAGS: env.list(["a", "b"]),
  NAME: env.string("engram"),
  LOG_LEVEL: env.logLevel(),
  UPSTREAM: env.address().optional(),
});

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("applies defaults for an empty environment", () => {
    expect(loadConfig("test", schema, {})).toEqual({ PORT: 8080, WORKERS: 4, DEBUG: false, TAGS: ["a", "b"], NAME: "engram", LOG_LEVEL: "info" });
  });

  it("parses given values", () => {
    const c = loadConfig("test", schema, {
      PORT: "9000",
      WORKERS: "8",
      DEBUG: "yes",
      TAGS: "x, y ,,z",
      NAME: "other",
      LOG_LEVEL: "debug",
      UPSTREAM: "localhost:50051",
    });
    expect(c).toEqual({ PORT: 9000, WORKERS: 8, DEBUG: true, TAGS: ["x", "y", "z"], NAME: "other", LOG_LEVEL: "debug", UPSTREAM: "localhost:50051" });
  });

  it("reports every problem in one ConfigError", () => {
    const err = configErrorOf(() => loadConfig("svc", schema, { PORT: "not-a-port", DEBUG: "maybe" }));
    expect(err.component).toBe("svc");
    expect(err.problems).toHaveLength(2);
    expect(err.problems.some((p) => p.startsWith("PORT:") && p.includes('"not-a-port"'))).toBe(true);
    expect(err.problems.some((p) => p.startsWith("DEBUG:") && p.includes('"maybe"'))).toBe(true);
    expect(err.message).toContain("invalid configuration for svc");
    expect(err.message).toContain("PORT");
    expect(err.message).toContain("DEBUG");
  });

  it("reports three bad variables as three problems", () => {
    const err = configErrorOf(() => loadConfig("svc", schema, { WORKERS: "99", LOG_LEVEL: "loud", UPSTREAM: "no port here" }));
    expect(err.problems.map((p) => p.split(":")[0]).sort()).toEqual(["LOG_LEVEL", "UPSTREAM", "WORKERS"]);
  });

  it("names the real problem of a number out of range, not its type", () => {
    const err = configErrorOf(() => loadConfig("svc", schema, { WORKERS: "0" }));
    expect(err.problems).toEqual(['WORKERS: must be at least 1 (got "0")']);
    expect(configErrorOf(() => loadConfig("svc", schema, { WORKERS: "17" })).problems).toEqual(['WORKERS: must be at most 16 (got "17")']);
    expect(configErrorOf(() => loadConfig("svc", schema, { WORKERS: "many" })).problems).toEqual(['WORKERS: must be a number (got "many")']);
  });

  it("treats empty strings as unset (defaults apply)", () => {
    expect(loadConfig("test", schema, { PORT: "", WORKERS: "", DEBUG: "", TAGS: "", NAME: "", LOG_LEVEL: "", UPSTREAM: "" })).toEqual(
      loadConfig("test", schema, {}),
    );
  });

  it("treats an empty required variable as missing", () => {
    const required = z.object({ ADDRESS: env.address() });
    const err = configErrorOf(() => loadConfig("svc", required, { ADDRESS: "" }));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(/^ADDRESS:/);
    expect(err.problems[0]).not.toContain("got");
  });

  it("never echoes the value of a secret-looking variable", () => {
    const secrets = z.object({ OPENAI_API_KEY: z.string().min(20), DB_PASSWORD: z.string().min(12), AUTH_TOKEN: z.string().min(10), PORT: env.port(1) });
    const err = configErrorOf(() => loadConfig("svc", secrets, { OPENAI_API_KEY: "sk-live-abc", DB_PASSWORD: "hunter2", AUTH_TOKEN: "tok123", PORT: "http" }));
    expect(err.problems).toHaveLength(4);
    for (const secret of ["sk-live-abc", "hunter2", "tok123"]) expect(err.message).not.toContain(secret);
    // Other values are still shown to help the operator.
    expect(err.message).toContain('(got "http")');
  });

  it("ignores unrelated variables", () => {
    expect(loadConfig("test", z.object({ NAME: env.string("x") }), { PATH: "/usr/bin", NAME: "y" })).toEqual({ NAME: "y" });
  });
});

describe("env.bool", () => {
  const parse = (v: string | undefined, def = false) => loadConfig("t", z.object({ B: env.bool(def) }), { B: v }).B;

  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
    ["no", false],
  ])("%s -> %s", (v, expected) => {
    expect(parse(v)).toBe(expected);
    expect(parse(v, true)).toBe(expected);
  });

  it("uses the default when unset", () => {
    expect(parse(undefined, true)).toBe(true);
    expect(parse(undefined, false)).toBe(false);
  });

  it.each(["TRUE", "on", "2", "y"])("rejects %s", (v) => {
    const err = configErrorOf(() => parse(v));
    expect(err.problems[0]).toContain("must be true or false");
  });
});

describe("env.int", () => {
  const s = z.object({ N: env.int(10, { min: 1, max: 100 }) });
  const parse = (v: string | undefined) => loadConfig("t", s, { N: v }).N;

  it("parses integers and applies the default", () => {
    expect(parse("42")).toBe(42);
    expect(parse("1")).toBe(1);
    expect(parse("100")).toBe(100);
    expect(parse(undefined)).toBe(10);
  });

  it.each(["abc", "1.5", "0", "101", "-3"])("rejects %s", (v) => {
    expect(() => parse(v)).toThrow(ConfigError);
  });
});

describe("env.list", () => {
  const parse = (v: string | undefined) => loadConfig("t", z.object({ L: env.list(["d1", "d2"]) }), { L: v }).L;

  it("splits on commas, trims and drops empty entries", () => {
    expect(parse(" a ,b,, c ,")).toEqual(["a", "b", "c"]);
    expect(parse("single")).toEqual(["single"]);
  });

  it("uses the default when unset", () => {
    expect(parse(undefined)).toEqual(["d1", "d2"]);
  });

  it("defaults to an empty list", () => {
    expect(loadConfig("t", z.object({ L: env.list() }), {}).L).toEqual([]);
  });
});

describe("mongoConfigShape", () => {
  const schema = z.object(mongoConfigShape);

  it("leaves MONGO_URL unset and defaults MONGO_DB to engram", () => {
    expect(loadConfig("t", schema, {})).toEqual({ MONGO_DB: "engram" });
  });

  it("accepts mongodb:// and mongodb+srv:// URLs and a database name", () => {
    expect(loadConfig("t", schema, { MONGO_URL: "mongodb://a:27017,b:27017/?replicaSet=rs0", MONGO_DB: "engram_prod" })).toEqual({
      MONGO_URL: "mongodb://a:27017,b:27017/?replicaSet=rs0",
      MONGO_DB: "engram_prod",
    });
    expect(loadConfig("t", schema, { MONGO_URL: "mongodb+srv://cluster.example.net/" }).MONGO_URL).toBe("mongodb+srv://cluster.example.net/");
  });

  it("refuses another scheme and an invalid database name without echoing the URL (it may carry a password)", () => {
    const err = configErrorOf(() => loadConfig("t", schema, { MONGO_URL: "http://user:s3cret@db:27017", MONGO_DB: "a.b" }));
    expect(err.problems.map((p) => p.split(":")[0]).sort()).toEqual(["MONGO_DB", "MONGO_URL"]);
    expect(err.message).not.toContain("s3cret");
    expect(err.message).toContain('(got "a.b")');
  });
});
