import { InvalidArgumentError } from "@engram/kernel";
import {
  applySettingsPatch,
  changedFields,
  emptySettings,
  type OrgSettings,
  type SealSecret,
  type SettingsPatch,
  settingsView,
  TOP_LEVEL_FIELDS,
  validateSettingsPatch,
} from "../../src/domain/settings";

const NOW = "2025-01-02T03:04:05.000Z";
const seal: SealSecret = (provider, plaintext) => new TextEncoder().encode(`sealed(${provider}):${plaintext.length}`);

function problems(patch: SettingsPatch): string {
  try {
    validateSettingsPatch(patch);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).message).toBe("invalid settings");
    return (err as InvalidArgumentError).details ?? "";
  }
  throw new Error("expected the patch to be refused");
}

const bucket = (key: string, description?: string) => ({ key, ...(description !== undefined ? { description } : {}) });

describe("settings validation", () => {
  it("accepts the OpenAPI shapes, nulls included", () => {
    expect(() =>
      validateSettingsPatch({
        excludeItems: ["a", { b: [1, 2, { c: null }] }],
        includeItems: "everything",
        filterPrompt: "",
        shouldLLMFilter: true,
        chunkSize: -1,
        profileBuckets: Array.from({ length: 50 }, (_, i) => bucket(`b${i}`, "d".repeat(2000))),
        workspacePrompt: "w".repeat(1500),
        oauthApps: { notion: { clientId: "id", clientSecret: "secret", customKeyEnabled: false }, github: { clientId: null, clientSecret: null } },
      }),
    ).not.toThrow();
    expect(() =>
      validateSettingsPatch({ excludeItems: null, includeItems: null, filterPrompt: null, shouldLLMFilter: null, chunkSize: null, workspacePrompt: null }),
    ).not.toThrow();
    expect(() => validateSettingsPatch({ profileBuckets: [bucket("a"), bucket("0-x_y"), bucket("z".repeat(64))] })).not.toThrow();
  });

  it("refuses bucket keys outside the pattern or 1-64 characters", () => {
    for (const key of ["", "Upper", "-lead", "_lead", "has space", "dot.s", "ü", "z".repeat(65)]) {
      expect(problems({ profileBuckets: [bucket(key)] })).toMatch(/^profileBuckets\[0\]\.key: must be 1-64 characters/);
    }
  });

  it("refuses duplicate keys, more than 50 buckets and long descriptions", () => {
    expect(problems({ profileBuckets: [bucket("work"), bucket("home"), bucket("work")] })).toBe("profileBuckets[2].key: duplicate bucket key 'work'");
    expect(problems({ profileBuckets: Array.from({ length: 51 }, (_, i) => bucket(`b${i}`)) })).toBe("profileBuckets: at most 50 buckets (got 51)");
    expect(problems({ profileBuckets: [bucket("a", "d".repeat(2001))] })).toMatch(/profileBuckets\[0\]\.description: must be at most 2000 characters/);
  });

  it("limits the workspace prompt to 1500 characters and chunkSize to a 32-bit integer", () => {
    expect(problems({ workspacePrompt: "w".repeat(1501) })).toBe("workspacePrompt: must be at most 1500 characters (got 1501)");
    expect(problems({ chunkSize: 1.5 })).toMatch(/chunkSize: must be a 32-bit integer/);
    expect(problems({ chunkSize: 2 ** 31 })).toMatch(/chunkSize/);
    expect(() => validateSettingsPatch({ chunkSize: -(2 ** 31) })).not.toThrow();
  });

  it("bounds include/excludeItems by depth, size and finite numbers", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(problems({ includeItems: deep as never })).toMatch(/includeItems: must be nested at most 32 levels/);
    expect(problems({ excludeItems: "x".repeat(70_000) })).toMatch(/excludeItems: must be at most 65536 bytes/);
    expect(problems({ excludeItems: { n: Number.NaN } })).toMatch(/excludeItems: must be JSON/);
  });

  it("refuses unsupported providers and empty client ids or secrets, never echoing a secret", () => {
    expect(problems({ oauthApps: { gmail: { clientId: "x" } } as never })).toMatch(/supported for google-drive, notion, onedrive, github, not 'gmail'/);
    expect(problems({ oauthApps: { notion: { clientId: "" } } })).toBe("oauthApps.notion.clientId: must not be empty; send null to remove it");
    expect(problems({ oauthApps: { notion: { clientSecret: "" } } })).toMatch(/clientSecret: must not be empty/);
    const longSecret = "S".repeat(5000);
    const msg = problems({ oauthApps: { github: { clientSecret: longSecret } } });
    expect(msg).toBe("oauthApps.github.clientSecret: must be at most 4096 characters");
    expect(msg).not.toContain("SSSS");
  });

  it("refuses wrong types arriving from a loosely typed caller", () => {
    expect(problems({ filterPrompt: 5 as never, shouldLLMFilter: "yes" as never, oauthApps: { onedrive: { customKeyEnabled: 1 as never } } })).toBe(
      "filterPrompt: must be a string or null; shouldLLMFilter: must be a boolean or null; oauthApps.onedrive.customKeyEnabled: must be a boolean or null",
    );
  });

  it("reports every problem at once", () => {
    const d = problems({ workspacePrompt: "w".repeat(1501), profileBuckets: [bucket("BAD"), bucket("ok"), bucket("ok")] });
    expect(d.split("; ")).toHaveLength(3);
  });
});

describe("update-mask semantics", () => {
  const base = (): OrgSettings =>
    applySettingsPatch(
      emptySettings("acme"),
      {
        excludeItems: { folders: ["tmp"] },
        includeItems: ["docs"],
        filterPrompt: "only engineering",
        shouldLLMFilter: true,
        chunkSize: 800,
        profileBuckets: [bucket("work", "job stuff"), bucket("home")],
        workspacePrompt: "We build robots.",
        oauthApps: { notion: { clientId: "notion-id", clientSecret: "notion-secret", customKeyEnabled: true } },
      },
      seal,
      "2025-01-01T00:00:00.000Z",
    );

  it("sets what is sent and defaults bucket descriptions to ''", () => {
    const s = base();
    expect(s.profileBuckets).toEqual([
      { key: "work", description: "job stuff" },
      { key: "home", description: "" },
    ]);
    expect(s.oauthApps.notion).toEqual({ clientId: "notion-id", sealedClientSecret: seal("notion", "notion-secret"), customKeyEnabled: true });
  });

  it("keeps every field that is not sent", () => {
    const before = base();
    const after = applySettingsPatch(before, { chunkSize: 1000 }, seal, NOW);
    expect(after).toEqual({ ...before, chunkSize: 1000, updatedAt: NOW });
  });

  it("clears a field sent as null, and only that field", () => {
    const before = base();
    const after = applySettingsPatch(
      before,
      { filterPrompt: null, excludeItems: null, profileBuckets: null, oauthApps: { notion: { clientSecret: null } } },
      seal,
      NOW,
    );
    expect(after.filterPrompt).toBeNull();
    expect(after.excludeItems).toBeNull();
    expect(after.profileBuckets).toEqual([]);
    expect(after.oauthApps.notion).toEqual({ clientId: "notion-id", sealedClientSecret: null, customKeyEnabled: true });
    expect(after.includeItems).toEqual(["docs"]);
    expect(after.workspacePrompt).toBe("We build robots.");
  });

  it("removes an OAuth app once nothing of it is left", () => {
    const after = applySettingsPatch(base(), { oauthApps: { notion: { clientId: null, clientSecret: null, customKeyEnabled: null } } }, seal, NOW);
    expect(after.oauthApps).toEqual({});
  });

  it("replaces the bucket list as a whole", () => {
    expect(applySettingsPatch(base(), { profileBuckets: [bucket("solo")] }, seal, NOW).profileBuckets).toEqual([{ key: "solo", description: "" }]);
  });

  it("does not modify the state it was given", () => {
    const before = base();
    const copy = structuredClone(before);
    applySettingsPatch(before, { oauthApps: { notion: { clientId: "other" } }, workspacePrompt: null }, seal, NOW);
    expect(before).toEqual(copy);
  });

  it("names the changed fields: sent ones, null included, top-level first", () => {
    expect(changedFields({ oauthApps: { github: { clientSecret: "x", clientId: null } }, chunkSize: null, workspacePrompt: "w" })).toEqual([
      { field: "chunkSize" },
      { field: "workspacePrompt" },
      { provider: "github", field: "clientId" },
      { provider: "github", field: "clientSecret" },
    ]);
    expect(changedFields({})).toEqual([]);
  });
});

describe(settingsView.name, () => {
  it("lists every provider, says whether a secret is stored and never carries it", () => {
    const s = applySettingsPatch(emptySettings("acme"), { oauthApps: { github: { clientSecret: "gh-secret" } } }, seal, NOW);
    const v = settingsView(s);
    expect(v.oauthApps).toEqual([
      { provider: "google-drive", clientId: null, clientSecretSet: false, customKeyEnabled: null },
      { provider: "notion", clientId: null, clientSecretSet: false, customKeyEnabled: null },
      { provider: "onedrive", clientId: null, clientSecretSet: false, customKeyEnabled: null },
      { provider: "github", clientId: null, clientSecretSet: true, customKeyEnabled: null },
    ]);
    expect(JSON.stringify(v)).not.toContain("sealed");
  });

  it("shows defaults as null and empty bucket and redirect origin lists", () => {
    const v = settingsView(emptySettings("acme"));
    expect(v).toEqual(
      expect.objectContaining(Object.fromEntries(TOP_LEVEL_FIELDS.map((f) => [f, f === "profileBuckets" || f === "allowedRedirectOrigins" ? [] : null]))),
    );
  });

  it("allowedRedirectOrigins: validated as https origins (http on loopback), normalised, de-duplicated; null clears", () => {
    const problemsOf = (v: unknown) => {
      try {
        validateSettingsPatch({ allowedRedirectOrigins: v as string[] });
        return "";
      } catch (e) {
        return (e as InvalidArgumentError).details ?? "";
      }
    };
    expect(problemsOf(["https://app.example.com", "http://localhost:3000"])).toBe("");
    expect(problemsOf(["javascript:alert(1)"])).toMatch(/allowedRedirectOrigins\[0\]/);
    expect(problemsOf(["https://ok.example.com", "http://app.example.com"])).toMatch(/allowedRedirectOrigins\[1\]: must use https/);
    expect(problemsOf(["https://app.example.com/path"])).toMatch(/without a path/);
    expect(problemsOf("https://app.example.com")).toMatch(/must be a list/);
    expect(problemsOf(Array.from({ length: 51 }, (_, i) => `https://a${i}.example.com`))).toMatch(/at most 50/);
    const seal = () => new Uint8Array();
    const set = applySettingsPatch(emptySettings("acme"), { allowedRedirectOrigins: ["https://App.example.com/", "https://app.example.com"] }, seal, "t");
    expect(set.allowedRedirectOrigins).toEqual(["https://app.example.com"]);
    expect(applySettingsPatch(set, { allowedRedirectOrigins: null }, seal, "t").allowedRedirectOrigins).toEqual([]);
    expect(applySettingsPatch(set, { chunkSize: 5 }, seal, "t").allowedRedirectOrigins).toEqual(["https://app.example.com"]);
  });
});
