import { connectionCredentialsContext } from "./connection-ports";
import { oauthSecretContext } from "./ports";

/** The keyring as this use case needs it (adapters/crypto SecretKeyring). */
export interface Resealer {
  /** The value sealed again with the newest key, or undefined when it already is; throws when no key of the ring opens it. */
  reseal(sealed: Uint8Array, context: string): Uint8Array | undefined;
  /** The ring's key fingerprints, newest first. */
  readonly fingerprints: readonly string[];
}

type Bind = (fingerprints: readonly string[], o?: { resealed?: boolean }) => void | Promise<void>;

/** A store of sealed values that can be walked and re-sealed (both connection stores, both settings stores). */
export interface ResealableStore<Owner> {
  resealSecrets(reseal: (sealed: Uint8Array, owner: Owner) => Uint8Array | undefined): Promise<number>;
  bindSecretKey: Bind;
}

export interface ResealReport {
  connections: number;
  clientSecrets: number;
  /** Values no key of the ring opens (left as they are); the newest key is recorded only when there are none. */
  failed: { what: string; reason: string }[];
}

/**
 * Key rotation's second step: every connection credential and client secret
 * sealed with an older key of the ring (or before the keyring, with no key
 * id) is sealed again with the newest; then the stores record the newest
 * key, so that the older ones can leave ENGRAM_SECRET_KEYS. Values no key
 * opens are reported by owner (never by content) and the stores keep the
 * older key recorded. Safe to run again, and while the service runs.
 */
export async function resealSecrets(deps: {
  ring: Resealer;
  connections: ResealableStore<{ tenantId: string; id: string }>;
  settings: ResealableStore<{ tenantId: string; provider: string }>;
}): Promise<ResealReport> {
  const { ring } = deps;
  // The ring must still open what is stored (the start-up check).
  await deps.connections.bindSecretKey(ring.fingerprints);
  await deps.settings.bindSecretKey(ring.fingerprints);
  const failed: ResealReport["failed"] = [];
  const attempt = (context: string, what: string) => (sealed: Uint8Array) => {
    try {
      return ring.reseal(sealed, context);
    } catch (err) {
      failed.push({ what, reason: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
  };
  const connections = await deps.connections.resealSecrets((sealed, o) =>
    attempt(connectionCredentialsContext(o.tenantId, o.id), `connection ${o.id} of tenant ${o.tenantId}`)(sealed),
  );
  const clientSecrets = await deps.settings.resealSecrets((sealed, o) =>
    attempt(oauthSecretContext(o.tenantId, o.provider), `${o.provider} client secret of tenant ${o.tenantId}`)(sealed),
  );
  if (failed.length === 0) {
    await deps.connections.bindSecretKey(ring.fingerprints, { resealed: true });
    await deps.settings.bindSecretKey(ring.fingerprints, { resealed: true });
  }
  return { connections, clientSecrets, failed };
}
