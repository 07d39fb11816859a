import fs from "node:fs";
import path from "node:path";
import { DEFAULT_URL, configPath, normaliseUrl, readConfigFile, resolveConfig, writeConfigValue } from "../src/config";
import { UsageError } from "../src/exit-codes";
import { tempDir } from "./helpers";

describe("config", () => {
  const dir = tempDir();

  it("takes flags over the environment over the file over the defaults", () => {
    const file = path.join(dir(), "config.json");
    fs.writeFileSync(file, JSON.stringify({ url: "http://file:1", apiKey: "file-key", containerTag: "file_tag" }));
    const env = { ENGRAM_CONFIG: file, ENGRAM_URL: "http://env:2", ENGRAM_API_KEY: "env-key" };

    const fromFlags = resolveConfig({ url: "http://flag:3", apiKey: "flag-key", containerTag: "flag_tag" }, env);
    expect(fromFlags).toMatchObject({
      url: "http://flag:3",
      apiKey: "flag-key",
      containerTag: "flag_tag",
      sources: { url: "flag", apiKey: "flag", containerTag: "flag" },
    });

    const fromEnv = resolveConfig({}, env);
    expect(fromEnv).toMatchObject({
      url: "http://env:2",
      apiKey: "env-key",
      containerTag: "file_tag",
      sources: { url: "env", apiKey: "env", containerTag: "file" },
    });

    const fromFile = resolveConfig({}, { ENGRAM_CONFIG: file });
    expect(fromFile).toMatchObject({ url: "http://file:1", apiKey: "file-key", sources: { url: "file", apiKey: "file" } });

    const defaults = resolveConfig({}, { ENGRAM_CONFIG: path.join(dir(), "missing.json") });
    expect(defaults).toMatchObject({
      url: DEFAULT_URL,
      apiKey: undefined,
      containerTag: undefined,
      sources: { url: "default", apiKey: "none", containerTag: "none" },
    });
  });

  it("finds the file at ENGRAM_CONFIG, XDG_CONFIG_HOME or ~/.config", () => {
    expect(configPath({ ENGRAM_CONFIG: "/x/c.json" })).toBe("/x/c.json");
    expect(configPath({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/engram/config.json");
    expect(configPath({})).toMatch(/\.config\/engram\/config\.json$/);
  });

  it("writes settings with mode 0600 and keeps the others", () => {
    const file = path.join(dir(), "sub", "config.json");
    writeConfigValue(file, "url", "http://localhost:9999/");
    writeConfigValue(file, "api-key", "sk_test");
    writeConfigValue(file, "container-tag", "team_a");
    expect(readConfigFile(file)).toEqual({ url: "http://localhost:9999", apiKey: "sk_test", containerTag: "team_a" });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    writeConfigValue(file, "container-tag", undefined);
    expect(readConfigFile(file)).toEqual({ url: "http://localhost:9999", apiKey: "sk_test" });
  });

  it("refuses bad URLs, tags and files as usage errors", () => {
    expect(() => normaliseUrl("localhost:8787")).toThrow(UsageError);
    expect(() => normaliseUrl("ftp://x")).toThrow(UsageError);
    expect(() => writeConfigValue(path.join(dir(), "c.json"), "container-tag", "has space")).toThrow(UsageError);
    expect(() => resolveConfig({ containerTag: "a/b" }, { ENGRAM_CONFIG: path.join(dir(), "none.json") })).toThrow(UsageError);
    const bad = path.join(dir(), "bad.json");
    fs.writeFileSync(bad, "{nope");
    expect(() => readConfigFile(bad)).toThrow(/not valid JSON/);
  });
});
