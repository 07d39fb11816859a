import { Router } from "express";
import { z } from "zod";
import { fromProtoValue, toProtoValue } from "@engram/grpc";
import type { OAuthApp__Output } from "@engram/grpc/src/gen/engram/connections/v1/OAuthApp";
import type { Settings__Output } from "@engram/grpc/src/gen/engram/connections/v1/Settings";
import type { UpdateSettingsResponse__Output } from "@engram/grpc/src/gen/engram/connections/v1/UpdateSettingsResponse";
import type { JsonValue } from "@engram/kernel";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { HttpProblem } from "../http/errors";
import { orgSettingsPatch, SETTINGS_OAUTH_PROVIDERS, workspacePromptPatch } from "./schemas";

type Body = Record<string, unknown>;
type OrgSettingsPatch = z.infer<typeof orgSettingsPatch>;

const bodyObject = z.record(z.string(), z.unknown(), { message: "the body must be a JSON object" });

/**
 * OpenAPI allows two bodies: `{workspacePrompt}` alone, or an object of the
 * other settings. Both are strict. A body naming workspacePrompt is the first
 * form, so anything beside it is refused by name.
 */
export function parseSettingsPatch(raw: unknown): Body {
  const body = bodyObject.parse(raw);
  if (!Object.hasOwn(body, "workspacePrompt")) return orgSettingsPatch.parse(body);
  const others = Object.keys(body).filter((k) => k !== "workspacePrompt");
  if (others.length) {
    throw new HttpProblem(
      400,
      "Invalid request",
      `body: workspacePrompt must be sent alone; send ${others.map((k) => `'${k}'`).join(", ")} in a separate request`,
    );
  }
  return workspacePromptPatch.parse(body);
}

/** Top-level REST fields -> proto field names of UpdateSettingsRequest.update_mask. */
const TOP_FIELDS = {
  excludeItems: "exclude_items",
  includeItems: "include_items",
  filterPrompt: "filter_prompt",
  shouldLLMFilter: "should_llm_filter",
  chunkSize: "chunk_size",
  profileBuckets: "profile_buckets",
  workspacePrompt: "workspace_prompt",
  allowedRedirectOrigins: "allowed_redirect_origins",
} as const;
const OAUTH_FIELDS = { ClientId: "client_id", ClientSecret: "client_secret", CustomKeyEnabled: "custom_key_enabled" } as const;

/** The UpdateSettings request: the mask lists exactly the keys the caller sent; a key sent as null stays unset (clear). */
export function updateRequest(body: Body): Record<string, unknown> {
  const sent = (k: string) => Object.hasOwn(body, k);
  const req: Record<string, unknown> = { updateMask: [], oauthApps: [] };
  const mask = req.updateMask as string[];
  for (const [field, name] of Object.entries(TOP_FIELDS)) {
    if (!sent(field)) continue;
    mask.push(name);
    const v = body[field];
    if (v === null) continue;
    if (field === "excludeItems" || field === "includeItems") req[field] = toProtoValue(v as JsonValue);
    else if (field === "profileBuckets")
      req.profileBuckets = (v as OrgSettingsPatch["profileBuckets"])!.map((b) => ({ key: b.key, description: b.description ?? "" }));
    else if (field === "shouldLLMFilter") req.shouldLlmFilter = v;
    else if (field === "allowedRedirectOrigins") req.allowedRedirectOrigins = v;
    else req[field] = v;
  }
  for (const { prefix, proto } of SETTINGS_OAUTH_PROVIDERS) {
    const app: Record<string, unknown> = { provider: proto, updateMask: [] };
    for (const [suffix, name] of Object.entries(OAUTH_FIELDS)) {
      const key = `${prefix}${suffix}`;
      if (!sent(key)) continue;
      (app.updateMask as string[]).push(name);
      const v = body[key];
      if (v !== null) app[name === "client_id" ? "clientId" : name === "client_secret" ? "clientSecret" : "customKeyEnabled"] = v;
    }
    if ((app.updateMask as string[]).length) (req.oauthApps as unknown[]).push(app);
  }
  return req;
}

const appOf = (s: Settings__Output | null | undefined, proto: string): OAuthApp__Output | undefined => s?.oauthApps.find((a) => a.provider === proto);

/** GET /v3/settings body (OpenAPI order); unset values are null, client secrets always null. */
export function presentSettings(s: Settings__Output | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { excludeItems: fromProtoValue(s?.excludeItems), filterPrompt: s?.filterPrompt ?? null };
  const oauth = (prefix: string, proto: string) => {
    const a = appOf(s, proto);
    out[`${prefix}ClientId`] = a?.clientId ?? null;
    out[`${prefix}ClientSecret`] = null;
    out[`${prefix}CustomKeyEnabled`] = a?.customKeyEnabled ?? null;
  };
  oauth(SETTINGS_OAUTH_PROVIDERS[0].prefix, SETTINGS_OAUTH_PROVIDERS[0].proto);
  out.includeItems = fromProtoValue(s?.includeItems);
  for (const { prefix, proto } of SETTINGS_OAUTH_PROVIDERS.slice(1)) oauth(prefix, proto);
  out.shouldLLMFilter = s?.shouldLlmFilter ?? null;
  out.chunkSize = s?.chunkSize ?? null;
  out.profileBuckets = (s?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description }));
  out.workspacePrompt = s?.workspacePrompt ?? null;
  out.allowedRedirectOrigins = [...(s?.allowedRedirectOrigins ?? [])];
  return out;
}

/** PATCH `updated`: only the fields the request set, with their stored values (client secrets null). */
export function presentUpdated(res: UpdateSettingsResponse__Output): Record<string, unknown> {
  const full = presentSettings(res.updated);
  const restName = new Map<string, string>(Object.entries(TOP_FIELDS).map(([rest, proto]) => [proto, rest]));
  for (const { prefix, provider } of SETTINGS_OAUTH_PROVIDERS) {
    for (const [suffix, name] of Object.entries(OAUTH_FIELDS)) restName.set(`oauth_apps.${provider}.${name}`, `${prefix}${suffix}`);
  }
  const out: Record<string, unknown> = {};
  for (const f of res.updatedFields) {
    const key = restName.get(f);
    if (key) out[key] = full[key];
  }
  return out;
}

/** Organisation settings: GET and PATCH /v3/settings (served by the connections service), and the organisation reset. */
export function settingsRoutes(b: Backends): Router {
  const r = Router();

  r.get("/v3/settings", async (req, res) => {
    const out = await b.settings.GetSettings({ context: callContext(req) }, req);
    res.json(presentSettings(out.settings));
  });

  r.patch("/v3/settings", async (req, res) => {
    const body = parseSettingsPatch(req.body);
    const out = await b.settings.UpdateSettings({ context: callContext(req), ...updateRequest(body) }, req);
    res.json({ orgId: out.tenantId, orgSlug: out.orgSlug, updated: presentUpdated(out), ...(out.warnings.length ? { warnings: out.warnings } : {}) });
  });

  // Suggestions from the workspace prompt and a sample of the organisation's latest memories (read here: connections
  // does not call memories): up to 50 of the busiest container tags' most recently changed memories.
  r.post("/v3/settings/suggest-buckets", async (req, res) => {
    const context = callContext(req);
    const counts = (await b.memories.CountNamespaceMemories({ context, namespaces: [] }, req)).counts;
    const tags = [...counts]
      .sort((x, y) => y.memoryCount - x.memoryCount)
      .slice(0, 20)
      .map((c) => c.namespace);
    const sample = tags.length
      ? (
          await b.memories.ListMemories(
            { context, containerTags: tags, page: { page: 1, limit: 50, sort: "updatedAt", order: "SORT_ORDER_DESC" }, includeHistory: false },
            req,
          )
        ).entries.flatMap((e) => (e.memory?.content ? [e.memory.content] : []))
      : [];
    const out = await b.settings.SuggestProfileBuckets({ context, sampleMemories: sample }, req);
    res.json({ suggestions: out.suggestions.map((s) => ({ key: s.key, description: s.description })) });
  });

  // The organisation reset, side by side: connections and settings first (they check the confirmation, so a wrong
  // one touches nothing), then documents (with their chunks and files), then memories. Each side is idempotent: a
  // reset cut short (a crash, a deadline) is finished by sending it again.
  r.post("/v3/settings/reset", async (req, res) => {
    const { confirmation } = resetBody.parse(req.body);
    const context = callContext(req);
    const connections = await b.settings.ResetOrganization({ context, confirmation }, req);
    const content = await b.containerTags.ResetTenantContent({ context }, req);
    const memories = await b.memories.PurgeTenantMemories({ context }, req);
    res.json({
      success: true,
      deletedConnections: connections.deletedConnections,
      deletedDocumentBatches: content.deletedDocumentBatches,
      deletedDocumentsApprox: content.deletedDocumentsApprox,
      deletedMemoryRows: memories.deletedMemoryRows,
      deletedExtraSpaces: content.deletedExtraSpaces,
      clearedDefaultSpaceContext: content.clearedDefaultSpaceContext,
      // Engram keeps no memory registry apart from the memories themselves: purged with them.
      clearedBrainMemoryRegistry: true,
      settingsReset: connections.settingsReset,
    });
  });

  return r;
}

/** POST /v3/settings/reset: the organisation's slug as confirmation. */
export const resetBody = z
  .object(
    { confirmation: z.string({ message: "confirmation: required, the organisation's slug (orgSlug)" }).min(1, "confirmation: must not be empty") },
    { message: "the body must be a JSON object with confirmation" },
  )
  .strict();
