import { ConfigError } from "@engram/config";
import { loadGatewayConfig } from "../../src/config";

function configError(env: Record<string, string>): ConfigError {
  try {
    loadGatewayConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("loadGatewayConfig", () => {
  it("applies defaults", () => {
    const c = loadGatewayConfig({});
    expect(c.PORT).toBe(8787);
    expect(c.ENGRAM_API_KEYS).toEqual([]);
    expect(c.ENGRAM_API_KEY).toBeUndefined();
    expect(c.ENGRAM_DEFAULT_TENANT).toBe("default");
    expect(c.GATEWAY_KEY_CACHE_SECONDS).toBe(10);
  });

  it("parses ENGRAM_API_KEYS into key/tenant pairs", () => {
    const c = loadGatewayConfig({ ENGRAM_API_KEYS: "k1234567890123456=acme,k2234567890123456=beta" });
    expect(c.ENGRAM_API_KEYS).toEqual([
      { key: "k1234567890123456", tenant: "acme" },
      { key: "k2234567890123456", tenant: "beta" },
    ]);
  });

  it("tolerates spaces and empty entries, and keys containing '='", () => {
    const c = loadGatewayConfig({ ENGRAM_API_KEYS: " k1234567890123456=acme , ,k2234567890123456==x=beta.team " });
    expect(c.ENGRAM_API_KEYS).toEqual([
      { key: "k1234567890123456", tenant: "acme" },
      { key: "k2234567890123456==x", tenant: "beta.team" },
    ]);
  });

  it.each([
    ["no '='", "k1234567890123456"],
    ["no tenant", "k1234567890123456="],
    ["no key", "=acme"],
    ["a short key", "short=acme"],
    ["an invalid tenant", "k1234567890123456=ac me"],
    ["one bad pair among good ones", "k1234567890123456=acme,oops"],
  ])("rejects a malformed pair: %s", (_label, value) => {
    const err = configError({ ENGRAM_API_KEYS: value });
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(/^ENGRAM_API_KEYS:/);
    expect(err.problems[0]).toContain("key=tenant");
  });

  it("never echoes a key in the error (its message is printed at start-up)", () => {
    const err = configError({ ENGRAM_API_KEYS: "sk_secret_value_1234=bad tenant" });
    expect(err.message).not.toContain("sk_secret_value_1234");
    expect(err.problems.join("\n")).not.toContain("secret_value");
    const single = configError({ ENGRAM_API_KEY: "sk_too_short" });
    expect(single.problems[0]).toMatch(/^ENGRAM_API_KEY:/);
    expect(single.message).not.toContain("sk_too_short");
  });

  it("reports every invalid variable together", () => {
    const err = configError({ ENGRAM_API_KEYS: "nope", ENGRAM_API_KEY: "short", PORT: "99999", ENGRAM_DEFAULT_TENANT: "no spaces" });
    expect(err.problems.map((p) => p.split(":")[0]).sort()).toEqual(["ENGRAM_API_KEY", "ENGRAM_API_KEYS", "ENGRAM_DEFAULT_TENANT", "PORT"]);
  });
  it("limits: generous defaults, per-tenant overrides as JSON, every problem named", () => {
    const c = loadGatewayConfig({});
    expect(c).toMatchObject({
      GATEWAY_LIMITS_ENABLED: true,
      GATEWAY_AUTH_FAILURES_PER_MINUTE: 20,
      GATEWAY_IDEMPOTENCY_TTL_HOURS: 24,
      GATEWAY_TENANT_LIMITS: {},
    });
    expect(loadGatewayConfig({ GATEWAY_TENANT_LIMITS: '{"acme":{"documents":10,"requestsPerSecond":2.5}}' }).GATEWAY_TENANT_LIMITS).toEqual({
      acme: { documents: 10, requestsPerSecond: 2.5 },
    });
    expect(configError({ GATEWAY_TENANT_LIMITS: "{not json" }).message).toMatch(/GATEWAY_TENANT_LIMITS: must be a JSON object/);
    expect(configError({ GATEWAY_TENANT_LIMITS: '{"acme":{"documnets":1}}' }).message).toMatch(/GATEWAY_TENANT_LIMITS: .*documnets/);
    expect(configError({ GATEWAY_TENANT_LIMITS: '{"acme":{"documents":-1}}' }).message).toMatch(/acme\.documents/);
  });
});
