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
  /** What the stored settings ask for that this deployment cannot do. */
  warnings: string[];
}

/** What the settings ask for that the deployment cannot do: the filter prompt needs a model. */
export function settingsWarnings(s: Pick<SettingsView, "shouldLLMFilter" | "filterPrompt">, filterModel: boolean): string[] {
  if (s.shouldLLMFilter !== true) return [];
  if (!filterModel)
    return [
      "shouldLLMFilter is stored but no language model is configured (LLM_BASE_URL and LLM_MODEL of the connections service): imported content is not filtered by filterPrompt; includeItems and excludeItems still apply",
    ];
  if (!s.filterPrompt?.trim())
    return ["shouldLLMFilter is on but filterPrompt is empty: imported content is not filtered by a model until a filterPrompt is set"];
  return [];
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
    /** Whether a model is configured to apply the filter prompt to imports. */
    private readonly filterModel = false,
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
    const settings = settingsView(stored);
    // Said in answer to a patch that touches the model filter (not on every later patch).
    const aboutFilter = changed.some((c) => !("provider" in c) && (c.field === "shouldLLMFilter" || c.field === "filterPrompt"));
    return { tenantId, orgSlug: tenantId, settings, changed, warnings: aboutFilter ? settingsWarnings(settings, this.filterModel) : [] };
  }
}
