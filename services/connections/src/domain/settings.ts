import { checkProfileBuckets, InvalidArgumentError, type JsonValue, normalizeProfileBuckets, type ProfileBucket } from "@engram/kernel";
import { MAX_REDIRECT_ORIGINS, parseRedirectOrigin, REDIRECT_ORIGINS_SETTING } from "./redirect";

/** Providers that accept a custom OAuth application (OpenAPI: <provider>ClientId, ...). */
export const OAUTH_PROVIDERS = ["google-drive", "notion", "onedrive", "github"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export function isOAuthProvider(p: string): p is OAuthProvider {
  return (OAUTH_PROVIDERS as readonly string[]).includes(p);
}

/**
 * Limits. Buckets and the workspace prompt follow OpenAPI; the others are
 * Engram's (OpenAPI is silent) and keep one tenant's settings small enough to
 * read on every request. Lengths are counted in UTF-16 code units, as the
 * gateway's validation counts them.
 */
export const SETTINGS_LIMITS = {
  workspacePrompt: 1500,
  filterPrompt: 20_000,
  clientId: 1024,
  clientSecret: 4096,
  /** include/excludeItems: serialised JSON size and nesting depth. */
  itemsBytes: 64 * 1024,
  itemsDepth: 32,
  chunkSizeMin: -2_147_483_648,
  chunkSizeMax: 2_147_483_647,
} as const;

export type { ProfileBucket };

/** A stored custom OAuth application. The client secret is sealed (encrypted): opaque bytes here. */
export interface OAuthAppRecord {
  clientId: string | null;
  sealedClientSecret: Uint8Array | null;
  customKeyEnabled: boolean | null;
}

/** One tenant's organisation settings as stored. Unset values are null. */
export interface OrgSettings {
  tenantId: string;
  excludeItems: JsonValue | null;
  includeItems: JsonValue | null;
  filterPrompt: string | null;
  shouldLLMFilter: boolean | null;
  chunkSize: number | null;
  profileBuckets: ProfileBucket[];
  workspacePrompt: string | null;
  /** Origins (https://app.example.com) the tenant's connections may redirect the browser to after OAuth consent. */
  allowedRedirectOrigins: string[];
  /** Only providers with something stored. */
  oauthApps: Partial<Record<OAuthProvider, OAuthAppRecord>>;
  /** ISO time of the last change; null for a tenant that never changed anything. */
  updatedAt: string | null;
}

/** A custom OAuth application as it may leave the service: never the secret, only whether one is stored. */
export interface OAuthAppView {
  provider: OAuthProvider;
  clientId: string | null;
  clientSecretSet: boolean;
  customKeyEnabled: boolean | null;
}

export interface SettingsView extends Omit<OrgSettings, "tenantId" | "oauthApps" | "updatedAt"> {
  /** Every provider of OAUTH_PROVIDERS, in that order. */
  oauthApps: OAuthAppView[];
}

/**
 * A change to a provider's OAuth application. Per field: undefined = keep,
 * null = clear, a value = set. The client secret arrives in clear here and is
 * sealed before it is stored.
 */
export interface OAuthAppPatch {
  clientId?: string | null;
  clientSecret?: string | null;
  customKeyEnabled?: boolean | null;
}

/** A settings change with update-mask semantics: undefined = keep, null = clear, a value = set. */
export interface SettingsPatch {
  excludeItems?: JsonValue | null;
  includeItems?: JsonValue | null;
  filterPrompt?: string | null;
  shouldLLMFilter?: boolean | null;
  chunkSize?: number | null;
  /** Replaces the whole list; null or [] clears it. Descriptions default to "". */
  profileBuckets?: { key: string; description?: string | null }[] | null;
  workspacePrompt?: string | null;
  /** Replaces the whole list; null or [] clears it. Normalised to origins. */
  allowedRedirectOrigins?: string[] | null;
  oauthApps?: Partial<Record<OAuthProvider, OAuthAppPatch>>;
}

export const TOP_LEVEL_FIELDS = [
  "excludeItems",
  "includeItems",
  "filterPrompt",
  "shouldLLMFilter",
  "chunkSize",
  "profileBuckets",
  "workspacePrompt",
  "allowedRedirectOrigins",
] as const satisfies readonly (keyof SettingsPatch)[];
export type TopLevelField = (typeof TOP_LEVEL_FIELDS)[number];

export const OAUTH_FIELDS = ["clientId", "clientSecret", "customKeyEnabled"] as const satisfies readonly (keyof OAuthAppPatch)[];
export type OAuthField = (typeof OAUTH_FIELDS)[number];

/** A field a patch changed: a top-level setting, or one field of a provider's OAuth app. */
export type ChangedField = { field: TopLevelField } | { provider: OAuthProvider; field: OAuthField };

export function emptySettings(tenantId: string): OrgSettings {
  return {
    tenantId,
    excludeItems: null,
    includeItems: null,
    filterPrompt: null,
    shouldLLMFilter: null,
    chunkSize: null,
    profileBuckets: [],
    workspacePrompt: null,
    allowedRedirectOrigins: [],
    oauthApps: {},
    updatedAt: null,
  };
}

/** The fields a patch sets or clears, in a stable order (top-level first, then providers). */
export function changedFields(patch: SettingsPatch): ChangedField[] {
  const out: ChangedField[] = TOP_LEVEL_FIELDS.filter((f) => patch[f] !== undefined).map((field) => ({ field }));
  for (const provider of OAUTH_PROVIDERS) {
    const app = patch.oauthApps?.[provider];
    if (app) for (const field of OAUTH_FIELDS) if (app[field] !== undefined) out.push({ provider, field });
  }
  return out;
}

/** Nesting depth of a JSON value (a scalar is 0); stops descending past `limit`. */
function jsonDepth(v: unknown, limit: number, depth = 0): number {
  if (depth > limit) return depth;
  if (Array.isArray(v)) return v.reduce<number>((m, x) => Math.max(m, jsonDepth(x, limit, depth + 1)), depth + 1);
  if (v !== null && typeof v === "object") return Object.values(v).reduce<number>((m, x) => Math.max(m, jsonDepth(x, limit, depth + 1)), depth + 1);
  return depth;
}

function hasNonFiniteNumber(v: unknown): boolean {
  if (typeof v === "number") return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasNonFiniteNumber);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasNonFiniteNumber);
  return false;
}

/** Problems of a JSON items value (include/excludeItems), or undefined when it is acceptable. */
export function itemsProblem(v: unknown): string | undefined {
  if (v === null) return undefined;
  if (hasNonFiniteNumber(v)) return "must be JSON (numbers must be finite)";
  if (jsonDepth(v, SETTINGS_LIMITS.itemsDepth) > SETTINGS_LIMITS.itemsDepth) return `must be nested at most ${SETTINGS_LIMITS.itemsDepth} levels deep`;
  if (Buffer.byteLength(JSON.stringify(v), "utf8") > SETTINGS_LIMITS.itemsBytes) return `must be at most ${SETTINGS_LIMITS.itemsBytes} bytes of JSON`;
  return undefined;
}

function checkString(problems: string[], field: string, v: unknown, max: number, opts: { nonEmpty?: boolean } = {}): void {
  if (v === undefined || v === null) return;
  if (typeof v !== "string") problems.push(`${field}: must be a string or null`);
  else if (v.length > max) problems.push(`${field}: must be at most ${max} characters (got ${v.length})`);
  else if (opts.nonEmpty && v.length === 0) problems.push(`${field}: must not be empty; send null to remove it`);
}

function checkBoolean(problems: string[], field: string, v: unknown): void {
  if (v !== undefined && v !== null && typeof v !== "boolean") problems.push(`${field}: must be a boolean or null`);
}

/**
 * Validates a patch and reports every problem at once (InvalidArgumentError
 * with the problems as details). Never echoes a client secret.
 */
export function validateSettingsPatch(patch: SettingsPatch): void {
  const problems: string[] = [];
  const L = SETTINGS_LIMITS;
  for (const f of ["excludeItems", "includeItems"] as const) {
    const p = patch[f] === undefined ? undefined : itemsProblem(patch[f]);
    if (p) problems.push(`${f}: ${p}`);
  }
  checkString(problems, "filterPrompt", patch.filterPrompt, L.filterPrompt);
  checkBoolean(problems, "shouldLLMFilter", patch.shouldLLMFilter);
  const cs = patch.chunkSize;
  if (cs !== undefined && cs !== null && (typeof cs !== "number" || !Number.isInteger(cs) || cs < L.chunkSizeMin || cs > L.chunkSizeMax)) {
    problems.push("chunkSize: must be a 32-bit integer or null");
  }
  checkString(problems, "workspacePrompt", patch.workspacePrompt, L.workspacePrompt);

  checkProfileBuckets(problems, patch.profileBuckets);
  checkRedirectOrigins(problems, patch.allowedRedirectOrigins);

  for (const [provider, app] of Object.entries(patch.oauthApps ?? {})) {
    if (!isOAuthProvider(provider)) {
      problems.push(`oauthApps: custom OAuth apps are supported for ${OAUTH_PROVIDERS.join(", ")}, not '${provider}'`);
      continue;
    }
    if (!app) continue;
    checkString(problems, `oauthApps.${provider}.clientId`, app.clientId, L.clientId, { nonEmpty: true });
    // The value itself never appears in a message.
    if (app.clientSecret !== undefined && app.clientSecret !== null) {
      if (typeof app.clientSecret !== "string") problems.push(`oauthApps.${provider}.clientSecret: must be a string or null`);
      else if (app.clientSecret.length === 0) problems.push(`oauthApps.${provider}.clientSecret: must not be empty; send null to remove it`);
      else if (app.clientSecret.length > L.clientSecret) problems.push(`oauthApps.${provider}.clientSecret: must be at most ${L.clientSecret} characters`);
    }
    checkBoolean(problems, `oauthApps.${provider}.customKeyEnabled`, app.customKeyEnabled);
  }

  if (problems.length) throw new InvalidArgumentError("invalid settings", problems.join("; "));
}

function checkRedirectOrigins(problems: string[], v: unknown): void {
  if (v === undefined || v === null) return;
  if (!Array.isArray(v)) return void problems.push(`${REDIRECT_ORIGINS_SETTING}: must be a list of origins or null`);
  if (v.length > MAX_REDIRECT_ORIGINS) problems.push(`${REDIRECT_ORIGINS_SETTING}: at most ${MAX_REDIRECT_ORIGINS} origins (got ${v.length})`);
  v.forEach((o: unknown, i) => {
    if (typeof o !== "string" || o.length > 2048) return void problems.push(`${REDIRECT_ORIGINS_SETTING}[${i}]: must be a string of at most 2048 characters`);
    const parsed = parseRedirectOrigin(o);
    if ("problem" in parsed) problems.push(`${REDIRECT_ORIGINS_SETTING}[${i}]: ${parsed.problem}`);
  });
}

/** The allowed origins as stored: normalised, de-duplicated, in the order given. */
function normalizeRedirectOrigins(v: string[]): string[] {
  return [...new Set(v.map((o) => parseRedirectOrigin(o)).flatMap((p) => ("origin" in p ? [p.origin] : [])))];
}

/** Seals a client secret for one provider of the tenant (encryption lives in an adapter). */
export type SealSecret = (provider: OAuthProvider, plaintext: string) => Uint8Array;

const isEmptyApp = (a: OAuthAppRecord) => a.clientId === null && a.sealedClientSecret === null && a.customKeyEnabled === null;

/**
 * Applies a validated patch: fields sent as null are cleared, fields not sent
 * are kept, client secrets are sealed. An OAuth app left with nothing set is
 * removed. Pure: returns the next state.
 */
export function applySettingsPatch(current: OrgSettings, patch: SettingsPatch, seal: SealSecret, now: string): OrgSettings {
  const next: OrgSettings = { ...current, oauthApps: { ...current.oauthApps }, updatedAt: now };
  if (patch.excludeItems !== undefined) next.excludeItems = patch.excludeItems;
  if (patch.includeItems !== undefined) next.includeItems = patch.includeItems;
  if (patch.filterPrompt !== undefined) next.filterPrompt = patch.filterPrompt;
  if (patch.shouldLLMFilter !== undefined) next.shouldLLMFilter = patch.shouldLLMFilter;
  if (patch.chunkSize !== undefined) next.chunkSize = patch.chunkSize;
  if (patch.workspacePrompt !== undefined) next.workspacePrompt = patch.workspacePrompt;
  if (patch.profileBuckets !== undefined) next.profileBuckets = normalizeProfileBuckets(patch.profileBuckets ?? []);
  if (patch.allowedRedirectOrigins !== undefined) next.allowedRedirectOrigins = normalizeRedirectOrigins(patch.allowedRedirectOrigins ?? []);
  for (const provider of OAUTH_PROVIDERS) {
    const change = patch.oauthApps?.[provider];
    if (!change) continue;
    const app: OAuthAppRecord = { ...(current.oauthApps[provider] ?? { clientId: null, sealedClientSecret: null, customKeyEnabled: null }) };
    if (change.clientId !== undefined) app.clientId = change.clientId;
    if (change.customKeyEnabled !== undefined) app.customKeyEnabled = change.customKeyEnabled;
    if (change.clientSecret !== undefined) app.sealedClientSecret = change.clientSecret === null ? null : seal(provider, change.clientSecret);
    if (isEmptyApp(app)) delete next.oauthApps[provider];
    else next.oauthApps[provider] = app;
  }
  return next;
}

/** What may leave the service: everything but the secrets. */
export function settingsView(s: OrgSettings): SettingsView {
  return {
    excludeItems: s.excludeItems,
    includeItems: s.includeItems,
    filterPrompt: s.filterPrompt,
    shouldLLMFilter: s.shouldLLMFilter,
    chunkSize: s.chunkSize,
    profileBuckets: s.profileBuckets.map((b) => ({ ...b })),
    workspacePrompt: s.workspacePrompt,
    allowedRedirectOrigins: [...s.allowedRedirectOrigins],
    oauthApps: OAUTH_PROVIDERS.map((provider) => {
      const a = s.oauthApps[provider];
      return { provider, clientId: a?.clientId ?? null, clientSecretSet: Boolean(a?.sealedClientSecret), customKeyEnabled: a?.customKeyEnabled ?? null };
    }),
  };
}
