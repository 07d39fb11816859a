import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "./exit-codes";

/** The server a fresh `npm start` listens on (README, Quick start). */
export const DEFAULT_URL = "http://localhost:8787";
/** The namespace the server uses when a request names none. */
export const DEFAULT_CONTAINER_TAG = "default";

/** What `~/.config/engram/config.json` may hold. */
export interface ConfigFile {
  url?: string;
  apiKey?: string;
  containerTag?: string;
}

/** The settings a command runs with, and where each came from. */
export interface ResolvedConfig {
  url: string;
  apiKey: string | undefined;
  containerTag: string | undefined;
  configPath: string;
  sources: { url: Source; apiKey: Source | "none"; containerTag: Source | "none" };
}
export type Source = "flag" | "env" | "file" | "default";

/** The keys of `engram config set`, and the file fields they write. */
export const CONFIG_KEYS = { url: "url", "api-key": "apiKey", "container-tag": "containerTag" } as const satisfies Record<string, keyof ConfigFile>;
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** `ENGRAM_CONFIG`, else `$XDG_CONFIG_HOME/engram/config.json`, else `~/.config/engram/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ENGRAM_CONFIG) return path.resolve(env.ENGRAM_CONFIG);
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "engram", "config.json");
}

export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new UsageError(`cannot read the config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError(`the config file ${file} must hold a JSON object`);
  const out: ConfigFile = {};
  for (const k of ["url", "apiKey", "containerTag"] as const) {
    const v = (parsed as Record<string, unknown>)[k];
    if (typeof v === "string" && v) out[k] = v;
  }
  return out;
}

/** Sets (or, with `undefined`, removes) one field; the file is written with mode 0600 in a 0700 directory. */
export function writeConfigValue(file: string, key: ConfigKey, value: string | undefined): ConfigFile {
  const field = CONFIG_KEYS[key];
  if (value !== undefined) validate(field, value);
  const current = readConfigFile(file);
  if (value === undefined) delete current[field];
  else current[field] = field === "url" ? normaliseUrl(value) : value;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
  return current;
}

const TAG_RE = /^[A-Za-z0-9._:-]{1,100}$/;

function validate(field: keyof ConfigFile, value: string): void {
  if (field === "url") normaliseUrl(value);
  else if (field === "containerTag" && !TAG_RE.test(value))
    throw new UsageError(`invalid container tag '${value}': 1-100 letters, digits, '-', '_', '.' or ':'`);
  else if (field === "apiKey" && !value.trim()) throw new UsageError("the API key is empty");
}

/** An http(s) base URL without a trailing slash; anything else is a usage error. */
export function normaliseUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`invalid server URL '${value}': expected http://host:port or https://host`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new UsageError(`invalid server URL '${value}': only http and https are supported`);
  return u.toString().replace(/\/+$/, "");
}

export function checkContainerTag(value: string): string {
  if (!TAG_RE.test(value)) throw new UsageError(`invalid container tag '${value}': 1-100 letters, digits, '-', '_', '.' or ':'`);
  return value;
}

/**
 * Flags, then the environment (`ENGRAM_URL`, `ENGRAM_API_KEY`,
 * `ENGRAM_CONTAINER_TAG`), then the config file, then the defaults.
 */
export function resolveConfig(flags: { url?: string; apiKey?: string; containerTag?: string }, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const file = configPath(env);
  const stored = readConfigFile(file);
  const pick = (flag: string | undefined, envValue: string | undefined, fileValue: string | undefined): [string | undefined, Source | "none"] =>
    flag ? [flag, "flag"] : envValue ? [envValue, "env"] : fileValue ? [fileValue, "file"] : [undefined, "none"];
  const [url, urlSource] = pick(flags.url, env.ENGRAM_URL, stored.url);
  const [apiKey, keySource] = pick(flags.apiKey, env.ENGRAM_API_KEY, stored.apiKey);
  const [tag, tagSource] = pick(flags.containerTag, env.ENGRAM_CONTAINER_TAG, stored.containerTag);
  return {
    url: normaliseUrl(url ?? DEFAULT_URL),
    apiKey,
    containerTag: tag === undefined ? undefined : checkContainerTag(tag),
    configPath: file,
    sources: { url: urlSource === "none" ? "default" : urlSource, apiKey: keySource, containerTag: tagSource },
  };
}

/** A key shown without its secret part. */
export function maskKey(key: string): string {
  return key.length <= 12 ? "****" : `${key.slice(0, 10)}…${key.slice(-4)}`;
}
