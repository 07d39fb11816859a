import type { Logger } from "@engram/observability";
import type { GatewayConfig } from "../config";
import type { KeyService } from "./keys.service";

/**
 * Start-up keys: ENGRAM_API_KEY and ENGRAM_API_KEYS are stored (hashed) when
 * missing. With neither set and no active key at all, one key is created for
 * the default tenant and printed once; it is never shown again.
 */
export async function bootstrapKeys(keys: KeyService, c: GatewayConfig, log: Logger, print: (line: string) => void): Promise<void> {
  if (c.ENGRAM_API_KEY && (await keys.ensure(c.ENGRAM_API_KEY, c.ENGRAM_DEFAULT_TENANT, "ENGRAM_API_KEY"))) {
    log.info({ tenant: c.ENGRAM_DEFAULT_TENANT }, "stored ENGRAM_API_KEY");
  }
  for (const { key, tenant } of c.ENGRAM_API_KEYS) {
    if (await keys.ensure(key, tenant, "ENGRAM_API_KEYS")) log.info({ tenant }, "stored a key from ENGRAM_API_KEYS");
  }
  if (!c.ENGRAM_API_KEY && c.ENGRAM_API_KEYS.length === 0 && (await keys.countActive()) === 0) {
    const { key, record } = await keys.create(c.ENGRAM_DEFAULT_TENANT, "first-start");
    log.info({ keyId: record.id, tenant: record.tenantId }, "created the first API key");
    print(
      `\n  Engram API key (tenant "${record.tenantId}") — shown only this once, keep it:\n\n    ${key}\n\n  Create more with: pnpm keys create --tenant <name>\n`,
    );
  }
}
