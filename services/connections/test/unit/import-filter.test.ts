import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ImportJudge } from "@engram/nlp";
import { SqliteSettingsRepository } from "../../src/adapters/embedded/settings.sqlite";
import { OrganizationImportPolicies } from "../../src/app/import-policy";
import { ImportFilter } from "../../src/domain/import-filter";
import { newConnection } from "../../src/domain/connection";
import { emptySettings } from "../../src/domain/settings";

describe("ImportFilter (includeItems / excludeItems)", () => {
  const names = (filepath: string, title?: string, url?: string) => ({ filepath, title, url });

  it("reads a string, a list, or patterns per provider ('*' for all), and ignores what names no pattern", () => {
    expect(ImportFilter.of({ includeItems: null, excludeItems: null }, "github").active).toBe(false);
    expect(ImportFilter.of({ includeItems: 42, excludeItems: { github: { nested: true } } }, "github").active).toBe(false);
    const byProvider = ImportFilter.of({ excludeItems: { github: ["**/drafts/**"], "*": "*.tmp", notion: "Private*" } }, "github");
    expect(byProvider.admits(names("acme/handbook/drafts/plan.md")).admit).toBe(false);
    expect(byProvider.admits(names("acme/handbook/notes.tmp")).admit).toBe(false);
    // Notion's pattern is not GitHub's.
    expect(byProvider.admits(names("acme/handbook/Private notes.md")).admit).toBe(true);
  });

  it("needs an include match when includes are given, and lets excludes win", () => {
    const f = ImportFilter.of({ includeItems: ["docs/**", "*.md"], excludeItems: "**/secret*" }, "s3");
    expect(f.admits(names("docs/guide.txt"))).toEqual({ admit: true });
    expect(f.admits(names("notes/readme.MD"))).toEqual({ admit: true });
    expect(f.admits(names("notes/todo.txt"))).toEqual({ admit: false, reason: "matches none of the organisation's includeItems patterns" });
    expect(f.admits(names("docs/secret-plan.md"))).toEqual({ admit: false, reason: 'excluded by the organisation\'s excludeItems pattern "**/secret*"' });
  });

  it("matches an item by its title and by its URL's path as well as its filepath", () => {
    const f = ImportFilter.of({ excludeItems: ["Hiring*", "/blog/**"] }, "web-crawler");
    expect(f.admits({ title: "Hiring sync" }).admit).toBe(false);
    expect(f.admits({ title: "Pricing", url: "https://example.com/blog/2026/pricing" }).admit).toBe(false);
    expect(f.admits({ title: "Pricing", url: "https://example.com/docs/pricing" }).admit).toBe(true);
  });
});

describe("OrganizationImportPolicies", () => {
  let dir: string;
  let settings: SqliteSettingsRepository;
  const conn = newConnection({ tenantId: "acme", provider: "granola", namespace: "meetings" }, "2026-01-01T00:00:00.000Z");
  const item = (itemKey: string, title: string, version = "1") => ({
    itemKey,
    version,
    title,
    content: { bytes: new TextEncoder().encode(`# ${title}\n\nnotes`), mimeType: "text/markdown" },
  });
  const set = (over: Partial<ReturnType<typeof emptySettings>>) =>
    settings.update("acme", () => ({ ...emptySettings("acme"), ...over, updatedAt: new Date().toISOString() }));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-import-policy-"));
    settings = new SqliteSettingsRepository(dir);
  });
  afterEach(async () => {
    await settings.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("has no policy without settings that filter, and the patterns without a model", async () => {
    const policies = new OrganizationImportPolicies({ settings });
    expect(await policies.forConnection(conn)).toBeUndefined();
    await set({ shouldLLMFilter: true, filterPrompt: "Engineering only" });
    // The prompt needs a model: nothing filters.
    expect(await policies.forConnection(conn)).toBeUndefined();
    await set({ excludeItems: ["Hiring*"] });
    const policy = (await policies.forConnection(conn))!;
    expect((await policy.admits(item("a", "Hiring sync"))).admit).toBe(false);
    expect((await policy.admits(item("b", "Design review"))).admit).toBe(true);
  });

  it("asks the model about what the patterns let through, once per item version and settings change", async () => {
    const asked: string[] = [];
    const judge: ImportJudge = {
      id: "test",
      judge: async (prompt, c) => {
        asked.push(`${prompt}|${c.title}|${c.text?.slice(0, 12)}`);
        return { admit: !c.title?.includes("Lunch"), reason: "not engineering" };
      },
    };
    const policies = new OrganizationImportPolicies({ settings, judge });
    await set({ shouldLLMFilter: true, filterPrompt: "Engineering only", excludeItems: "Hiring*" });
    const policy = (await policies.forConnection(conn))!;
    expect(await policy.admits(item("h", "Hiring sync"))).toMatchObject({ admit: false });
    expect(await policy.admits(item("l", "Lunch plans"))).toEqual({ admit: false, reason: "excluded by the organisation's filter prompt: not engineering" });
    expect(await policy.admits(item("d", "Design review"))).toEqual({ admit: true });
    // Patterns decide first: the model was not asked about the hiring note.
    expect(asked).toEqual(["Engineering only|Lunch plans|# Lunch plan", "Engineering only|Design review|# Design rev"]);
    // The same versions again: remembered; a new version is asked about.
    await policy.admits(item("l", "Lunch plans"));
    await (await policies.forConnection(conn))!.admits(item("d", "Design review"));
    expect(asked).toHaveLength(2);
    await policy.admits(item("l", "Lunch plans", "2"));
    expect(asked).toHaveLength(3);
    // shouldLLMFilter off: the model is not asked.
    await set({ shouldLLMFilter: false, filterPrompt: "Engineering only", excludeItems: "Hiring*" });
    expect((await (await policies.forConnection(conn))!.admits(item("z", "Lunch again"))).admit).toBe(true);
    expect(asked).toHaveLength(3);
  });
});
