import { fromProtoValue, implement, protoEnum, type ServiceImplementation, SettingsService, tenantOf, toProtoValue } from "@engram/grpc";
import type { GetSettingsRequest__Output } from "@engram/grpc/src/gen/engram/connections/v1/GetSettingsRequest";
import type { GetSettingsResponse } from "@engram/grpc/src/gen/engram/connections/v1/GetSettingsResponse";
import type { OAuthApp } from "@engram/grpc/src/gen/engram/connections/v1/OAuthApp";
import type { OAuthAppPatch__Output } from "@engram/grpc/src/gen/engram/connections/v1/OAuthAppPatch";
import type { Settings } from "@engram/grpc/src/gen/engram/connections/v1/Settings";
import type { UpdateSettingsRequest__Output } from "@engram/grpc/src/gen/engram/connections/v1/UpdateSettingsRequest";
import type { UpdateSettingsResponse } from "@engram/grpc/src/gen/engram/connections/v1/UpdateSettingsResponse";
import { InvalidArgumentError } from "@engram/kernel";
import type { GetSettingsUseCase } from "../app/get-settings.usecase";
import type { ResetOrganizationRequest__Output } from "@engram/grpc/src/gen/engram/connections/v1/ResetOrganizationRequest";
import type { ResetOrganizationResponse } from "@engram/grpc/src/gen/engram/connections/v1/ResetOrganizationResponse";
import type { ResetOrganizationUseCase } from "../app/reset-organization.usecase";
import type { SuggestBucketsUseCase } from "../app/suggest-buckets.usecase";
import type { SuggestProfileBucketsRequest__Output } from "@engram/grpc/src/gen/engram/connections/v1/SuggestProfileBucketsRequest";
import type { SuggestProfileBucketsResponse } from "@engram/grpc/src/gen/engram/connections/v1/SuggestProfileBucketsResponse";
import type { UpdateSettingsUseCase } from "../app/update-settings.usecase";
import {
  type ChangedField,
  type OAuthAppPatch,
  type OAuthField,
  isOAuthProvider,
  type OAuthProvider,
  type SettingsPatch,
  type SettingsView,
  type TopLevelField,
} from "../domain/settings";

export interface SettingsUseCases {
  getSettings: GetSettingsUseCase;
  updateSettings: UpdateSettingsUseCase;
  resetOrganization: ResetOrganizationUseCase;
  suggestBuckets: SuggestBucketsUseCase;
}

/** The providers that take custom OAuth apps, from their proto names. */
const oauthProviderOf = (name: string): OAuthProvider | undefined => {
  const p = protoEnum.provider.from(name);
  return p !== undefined && isOAuthProvider(p) ? p : undefined;
};

/** Proto field names of the update masks <-> domain field names. */
const TOP_MASK: Record<string, TopLevelField> = {
  exclude_items: "excludeItems",
  include_items: "includeItems",
  filter_prompt: "filterPrompt",
  should_llm_filter: "shouldLLMFilter",
  chunk_size: "chunkSize",
  profile_buckets: "profileBuckets",
  workspace_prompt: "workspacePrompt",
  allowed_redirect_origins: "allowedRedirectOrigins",
};
const TOP_MASK_NAME = Object.fromEntries(Object.entries(TOP_MASK).map(([k, v]) => [v, k])) as Record<TopLevelField, string>;
const OAUTH_MASK: Record<string, OAuthField> = { client_id: "clientId", client_secret: "clientSecret", custom_key_enabled: "customKeyEnabled" };
const OAUTH_MASK_NAME = Object.fromEntries(Object.entries(OAUTH_MASK).map(([k, v]) => [v, k])) as Record<OAuthField, string>;

function unknownMaskEntries(mask: string[], known: Record<string, unknown>, where: string): void {
  const bad = mask.filter((m) => !(m in known));
  if (bad.length) throw new InvalidArgumentError(`unknown ${where} entries: ${bad.join(", ")}`, `known: ${Object.keys(known).join(", ")}`);
}

function oauthPatchFromProto(p: OAuthAppPatch__Output): OAuthAppPatch {
  unknownMaskEntries(p.updateMask, OAUTH_MASK, "oauth_apps.update_mask");
  const mask = new Set(p.updateMask);
  const out: OAuthAppPatch = {};
  if (mask.has("client_id")) out.clientId = p.clientId ?? null;
  if (mask.has("client_secret")) out.clientSecret = p.clientSecret ?? null;
  if (mask.has("custom_key_enabled")) out.customKeyEnabled = p.customKeyEnabled ?? null;
  return out;
}

/** UpdateSettingsRequest -> domain patch: a masked field left unset is null (clear); an unmasked field is absent (keep). */
export function patchFromProto(req: UpdateSettingsRequest__Output): SettingsPatch {
  unknownMaskEntries(req.updateMask, TOP_MASK, "update_mask");
  const mask = new Set(req.updateMask);
  const patch: SettingsPatch = {};
  if (mask.has("exclude_items")) patch.excludeItems = fromProtoValue(req.excludeItems);
  if (mask.has("include_items")) patch.includeItems = fromProtoValue(req.includeItems);
  if (mask.has("filter_prompt")) patch.filterPrompt = req.filterPrompt ?? null;
  if (mask.has("should_llm_filter")) patch.shouldLLMFilter = req.shouldLlmFilter ?? null;
  if (mask.has("chunk_size")) patch.chunkSize = req.chunkSize ?? null;
  if (mask.has("profile_buckets")) patch.profileBuckets = req.profileBuckets.map((b) => ({ key: b.key, description: b.description }));
  if (mask.has("workspace_prompt")) patch.workspacePrompt = req.workspacePrompt ?? null;
  if (mask.has("allowed_redirect_origins")) patch.allowedRedirectOrigins = [...req.allowedRedirectOrigins];
  if (req.oauthApps.length) {
    patch.oauthApps = {};
    for (const app of req.oauthApps) {
      const provider = oauthProviderOf(app.provider);
      if (!provider) throw new InvalidArgumentError(`custom OAuth apps are supported for google-drive, notion, onedrive and github, not ${app.provider}`);
      if (patch.oauthApps[provider]) throw new InvalidArgumentError(`oauth_apps names ${app.provider} more than once`);
      patch.oauthApps[provider] = oauthPatchFromProto(app);
    }
  }
  return patch;
}

function oauthAppToProto(a: SettingsView["oauthApps"][number]): OAuthApp {
  return {
    provider: protoEnum.provider.to(a.provider),
    ...(a.clientId !== null ? { clientId: a.clientId } : {}),
    clientSecretSet: a.clientSecretSet,
    ...(a.customKeyEnabled !== null ? { customKeyEnabled: a.customKeyEnabled } : {}),
  };
}

/** Full settings -> proto; null values stay unset. */
export function settingsToProto(s: SettingsView): Settings {
  return {
    excludeItems: s.excludeItems === null ? null : toProtoValue(s.excludeItems),
    includeItems: s.includeItems === null ? null : toProtoValue(s.includeItems),
    ...(s.filterPrompt !== null ? { filterPrompt: s.filterPrompt } : {}),
    ...(s.shouldLLMFilter !== null ? { shouldLlmFilter: s.shouldLLMFilter } : {}),
    ...(s.chunkSize !== null ? { chunkSize: s.chunkSize } : {}),
    profileBuckets: s.profileBuckets.map((b) => ({ key: b.key, description: b.description })),
    ...(s.workspacePrompt !== null ? { workspacePrompt: s.workspacePrompt } : {}),
    oauthApps: s.oauthApps.map(oauthAppToProto),
    allowedRedirectOrigins: [...s.allowedRedirectOrigins],
  };
}

/** Only the changed fields' current values (other fields unset), and their names. */
export function updatedToProto(s: SettingsView, changed: ChangedField[]): { updated: Settings; updatedFields: string[] } {
  const full = settingsToProto(s);
  const tops = new Set(changed.flatMap((c) => ("provider" in c ? [] : [c.field])));
  const updated: Settings = {
    profileBuckets: tops.has("profileBuckets") ? full.profileBuckets : [],
    oauthApps: [],
    allowedRedirectOrigins: tops.has("allowedRedirectOrigins") ? full.allowedRedirectOrigins : [],
  };
  if (tops.has("excludeItems")) updated.excludeItems = full.excludeItems;
  if (tops.has("includeItems")) updated.includeItems = full.includeItems;
  if (tops.has("filterPrompt") && full.filterPrompt !== undefined) updated.filterPrompt = full.filterPrompt;
  if (tops.has("shouldLLMFilter") && full.shouldLlmFilter !== undefined) updated.shouldLlmFilter = full.shouldLlmFilter;
  if (tops.has("chunkSize") && full.chunkSize !== undefined) updated.chunkSize = full.chunkSize;
  if (tops.has("workspacePrompt") && full.workspacePrompt !== undefined) updated.workspacePrompt = full.workspacePrompt;
  const providers = new Set(changed.flatMap((c) => ("provider" in c ? [c.provider] : [])));
  updated.oauthApps = s.oauthApps.filter((a) => providers.has(a.provider)).map(oauthAppToProto);
  const updatedFields = changed.map((c) => ("provider" in c ? `oauth_apps.${c.provider}.${OAUTH_MASK_NAME[c.field]}` : TOP_MASK_NAME[c.field]));
  return { updated, updatedFields };
}

/**
 * engram.connections.v1.SettingsService: proto <-> use case mapping only.
 * ResetOrganization answers for the connections side (the gateway adds the
 * document and memory sides); SuggestProfileBuckets gets its sample of
 * memories from the gateway.
 */
export function settingsGrpc(uc: SettingsUseCases): ServiceImplementation {
  return implement(SettingsService, {
    async GetSettings(req: GetSettingsRequest__Output): Promise<GetSettingsResponse> {
      return { settings: settingsToProto(await uc.getSettings.execute(tenantOf(req.context))) };
    },

    async SuggestProfileBuckets(req: SuggestProfileBucketsRequest__Output): Promise<SuggestProfileBucketsResponse> {
      return { suggestions: await uc.suggestBuckets.execute(tenantOf(req.context), req.sampleMemories) };
    },

    async ResetOrganization(req: ResetOrganizationRequest__Output): Promise<ResetOrganizationResponse> {
      const out = await uc.resetOrganization.execute(tenantOf(req.context), req.confirmation);
      return { success: true, deletedConnections: out.deletedConnections, settingsReset: out.settingsReset };
    },

    async UpdateSettings(req: UpdateSettingsRequest__Output): Promise<UpdateSettingsResponse> {
      const res = await uc.updateSettings.execute({ tenantId: tenantOf(req.context), patch: patchFromProto(req) });
      return { tenantId: res.tenantId, orgSlug: res.orgSlug, ...updatedToProto(res.settings, res.changed), warnings: res.warnings };
    },
  });
}
