import type { OrgSettings } from "../domain/settings";

/**
 * Storage port for organisation settings, one record per tenant. Sealed
 * client secrets are opaque bytes to it.
 */
export interface SettingsRepository {
  /** The tenant's stored settings; undefined when it never stored any. */
  get(tenantId: string): Promise<OrgSettings | undefined>;
  /**
   * Reads the tenant's settings, lets `change` compute the next state and
   * stores it, atomically: a concurrent update is never lost. `change` runs
   * inside the store's transaction, so it must be synchronous and do no I/O.
   */
  update(tenantId: string, change: (current: OrgSettings | undefined) => OrgSettings): Promise<OrgSettings>;
  /** Removes the tenant's settings (custom OAuth applications included): the organisation reset. True when there were any. */
  delete(tenantId: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Authenticated encryption of secrets at rest. `context` names what the value
 * is and whom it belongs to; a value only opens under the context it was
 * sealed with.
 */
export interface SecretSealer {
  seal(plaintext: string, context: string): Uint8Array;
  openString(sealed: Uint8Array, context: string): string;
  /** Whether a value is sealed with an older key than the newest of the ring (then it is sealed again when next used). */
  isStale?(sealed: Uint8Array): boolean;
}

/** The context a tenant's OAuth client secret for one provider is sealed under. */
export const oauthSecretContext = (tenantId: string, provider: string) => `oauth-client-secret:${tenantId}:${provider}`;
