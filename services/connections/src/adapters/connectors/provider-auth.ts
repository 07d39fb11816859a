import { ProviderError } from "@engram/provider-http";
import type { ProviderAuth } from "../../app/sync-ports";

/**
 * A provider call with the connection's access token: a 401 gets one fresh
 * token (ProviderAuth.refreshed: refreshed once, rotation persisted) and one
 * more try; a second 401, or a refused refresh, is the caller's to map.
 * Shared by the connectors that call their provider over HTTP.
 */
export async function withAccessToken<T>(auth: ProviderAuth, call: (token: string) => Promise<T>): Promise<T> {
  let token = await auth.token();
  for (let refreshed = false; ; refreshed = true) {
    try {
      return await call(token);
    } catch (e) {
      if (!(e instanceof ProviderError) || e.status !== 401 || refreshed) throw e;
      token = await auth.refreshed(token);
    }
  }
}

/** The call's result, or undefined when the provider answers 404 (the item is gone or no longer shared). */
export async function orMissing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ProviderError && e.status === 404) return undefined;
    throw e;
  }
}
