import { type Clock, InvalidArgumentError } from "@engram/kernel";
import {
  applySettingsPatch,
  type ChangedField,
  changedFields,
  emptySettings,
  type SettingsPatch,
  type SettingsView,
  settingsView,
  validateSettingsPatch,
} from "../domain/settings";
import { oauthSecretContext, type SecretSealer, type SettingsRepository } from "./ports";

export interface UpdateSettingsCommand {
  tenantId: string;
  patch: SettingsPatch;
}

export interface UpdateSettingsResult {
  tenantId: string;
  /** The organisation's slug: Engram's organisation is the tenant, so its id. */
  orgSlug: string;
  /** The settings after the update (secrets left out). */
  settings: SettingsView;
  /** Every field the patch set or cleared, whether or not its value differed. */
  changed: ChangedField[];
}

/**
 * PATCH semantics: a field sent as null is cleared, a field not sent is kept.
 * Validates the patch again (the gateway is not the only caller), seals
 * client secrets with the tenant and provider bound in, and writes the result
 * atomically.
 */
export class UpdateSettingsUseCase {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly sealer: SecretSealer,
    private readonly clock: Clock,
  ) {}

  async execute(cmd: UpdateSettingsCommand): Promise<UpdateSettingsResult> {
    const { tenantId, patch } = cmd;
    if (!tenantId) throw new InvalidArgumentError("call context without tenant");
    validateSettingsPatch(patch);
    const changed = changedFields(patch);
    let stored;
    if (changed.length === 0) {
      stored = (await this.repo.get(tenantId)) ?? emptySettings(tenantId);
    } else {
      const now = this.clock.now().toISOString();
      const seal = (provider: string, plaintext: string) => this.sealer.seal(plaintext, oauthSecretContext(tenantId, provider));
      stored = await this.repo.update(tenantId, (current) => applySettingsPatch(current ?? emptySettings(tenantId), patch, seal, now));
    }
    return { tenantId, orgSlug: tenantId, settings: settingsView(stored), changed };
  }
}
