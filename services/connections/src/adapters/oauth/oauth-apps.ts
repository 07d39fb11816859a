import type { OAuthAppSource } from "../../app/oauth-flow";
import { oauthSecretContext, type SecretSealer, type SettingsRepository } from "../../app/ports";
import type { OAuthAppRef } from "../../domain/credentials";
import type { OAuthApp, OAuthConnector } from "../../domain/oauth";
import type { OAuthProvider } from "../../domain/settings";

/** Whose settings entry holds a connector's custom application: Gmail shares Google's (one Google Cloud OAuth client). */
const SETTINGS_KEY: Record<OAuthConnector, OAuthProvider> = {
  "google-drive": "google-drive",
  gmail: "google-drive",
  notion: "notion",
  onedrive: "onedrive",
  github: "github",
};

/**
 * OAuth applications: the tenant's custom one from its settings (client
 * secret opened from its sealed form) when `customKeyEnabled` is on and both
 * client id and secret are stored, otherwise Engram's own from configuration.
 * A connection remembers which one authorized it; a refresh uses that one
 * again, and finds it gone when the tenant switched or replaced it (the
 * connection must then be authorized again, as the specification says).
 */
export class SettingsOAuthApps implements OAuthAppSource {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly sealer: SecretSealer,
    private readonly engram: Partial<Record<OAuthConnector, OAuthApp>>,
  ) {}

  async forNewConnection(tenantId: string, provider: OAuthConnector): Promise<(OAuthApp & { ref: OAuthAppRef }) | undefined> {
    const custom = await this.custom(tenantId, provider);
    if (custom) return { ...custom, ref: { source: "custom", clientId: custom.clientId } };
    const own = this.engram[provider];
    return own ? { ...own, ref: { source: "engram", clientId: own.clientId } } : undefined;
  }

  async byRef(tenantId: string, provider: OAuthConnector, ref: OAuthAppRef): Promise<OAuthApp | undefined> {
    const app = ref.source === "custom" ? await this.custom(tenantId, provider) : this.engram[provider];
    return app && app.clientId === ref.clientId ? app : undefined;
  }

  private async custom(tenantId: string, provider: OAuthConnector): Promise<OAuthApp | undefined> {
    const key = SETTINGS_KEY[provider];
    const rec = (await this.settings.get(tenantId))?.oauthApps[key];
    if (!rec?.customKeyEnabled || !rec.clientId || !rec.sealedClientSecret) return undefined;
    return { clientId: rec.clientId, clientSecret: this.sealer.openString(rec.sealedClientSecret, oauthSecretContext(tenantId, key)) };
  }
}
