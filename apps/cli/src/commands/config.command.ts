import { CONFIG_KEYS, type ConfigKey, configPath, maskKey, readConfigFile, writeConfigValue } from "../config";
import type { CommandContext } from "../context";
import { UsageError } from "../exit-codes";

function checkKey(key: string): ConfigKey {
  if (!(key in CONFIG_KEYS)) throw new UsageError(`unknown setting '${key}': one of ${Object.keys(CONFIG_KEYS).join(", ")}`);
  return key as ConfigKey;
}

/** `engram config set <key> <value>`: writes the config file (mode 0600). */
export function configSet(ctx: CommandContext, key: string, value: string): number {
  const k = checkKey(key);
  const file = configPath(ctx.io.env);
  const stored = writeConfigValue(file, k, value);
  ctx.printer.result({ file, ...stored, ...(stored.apiKey ? { apiKey: maskKey(stored.apiKey) } : {}) }, () => ctx.printer.line(`set ${k} in ${file}`));
  return 0;
}

/** `engram config unset <key>`. */
export function configUnset(ctx: CommandContext, key: string): number {
  const k = checkKey(key);
  const file = configPath(ctx.io.env);
  writeConfigValue(file, k, undefined);
  ctx.printer.result({ file, unset: k }, () => ctx.printer.line(`removed ${k} from ${file}`));
  return 0;
}

/** `engram config show`: the settings in effect and where each comes from (the key masked). */
export function configShow(ctx: CommandContext): number {
  const c = ctx.config;
  const file = readConfigFile(c.configPath);
  const view = {
    file: c.configPath,
    url: { value: c.url, from: c.sources.url },
    apiKey: { value: c.apiKey ? maskKey(c.apiKey) : null, from: c.sources.apiKey },
    containerTag: { value: c.containerTag ?? null, from: c.sources.containerTag },
    stored: { ...file, ...(file.apiKey ? { apiKey: maskKey(file.apiKey) } : {}) },
  };
  const p = ctx.printer;
  p.result(view, () => {
    p.line(`config file    ${c.configPath}`);
    p.line(`url            ${c.url}  (${c.sources.url})`);
    p.line(`api-key        ${c.apiKey ? maskKey(c.apiKey) : "(none)"}  (${c.sources.apiKey})`);
    p.line(`container-tag  ${c.containerTag ?? "(none: the server's default)"}  (${c.sources.containerTag})`);
  });
  return 0;
}
