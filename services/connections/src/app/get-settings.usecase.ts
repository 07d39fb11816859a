import { InvalidArgumentError } from "@engram/kernel";
import { emptySettings, type SettingsView, settingsView } from "../domain/settings";
import type { SettingsRepository } from "./ports";

/**
 * A tenant's organisation settings, secrets left out. One primary-key read
 * (no decryption), so other services may call it on every request that needs
 * the org's profile buckets or prompts.
 */
export class GetSettingsUseCase {
  constructor(private readonly repo: SettingsRepository) {}

  async execute(tenantId: string): Promise<SettingsView> {
    if (!tenantId) throw new InvalidArgumentError("call context without tenant");
    return settingsView((await this.repo.get(tenantId)) ?? emptySettings(tenantId));
  }
}
