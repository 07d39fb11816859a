import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT, startStaticSite, type StaticSite, waitFor } from "@engram/testing";
import { freePort, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-cli-0123456789abcdef0123456";
const KEY_B = "tenant-b-key-cli-0123456789abcdef0123456";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `engram` CLI as a user runs it: a child process on the sources, configured by the environment. */
function engram(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "apps/cli/src/main.ts"), ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ENGRAM_MAX_RETRIES: "0", ...env }, timeout: 50_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI's --json output is checked field by field
const json = (r: Run): any => {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
};

describe("engram CLI against a running stack", () => {
  // The web crawler may reach the static site on 127.0.0.1 (connections commands), at full speed.
  const stack = twoTenantStack(KEY_A, KEY_B, { ENGRAM_ALLOW_PRIVATE_URLS: "true", CRAWL_DEFAULT_DELAY_MS: "0" });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "engram-cli-e2e-"));
  const folder = path.join(tmp, "notes");
  let env: Record<string, string>;
  let site: StaticSite | undefined;
  afterAll(async () => {
    await site?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  beforeAll(() => {
    env = { ENGRAM_URL: stack.engram.url, ENGRAM_API_KEY: KEY_A, ENGRAM_CONFIG: path.join(tmp, "config", "config.json") };
    const files: Record<string, string> = {
      "lighthouse.md": "# Lighthouse\n\nThe lighthouse keeper logs every passing ship in a leather notebook.\n",
      "limits.txt": "Our API rate limit is 100 requests per minute.\n",
      "sub/orchard.md": "# Orchard\n\nThe orchard behind the mill grows twelve varieties of heritage apples.\n",
      "sub/data.bin": "\u0000\u0001\u0002",
      ".hidden/secret.md": "never uploaded",
      "node_modules/pkg/readme.md": "never uploaded",
    };
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
      fs.writeFileSync(path.join(folder, rel), content);
    }
  });

  const ids: Record<string, string> = {};

  it("add ./folder imports the accepted files, waits for them, and reports counts as JSON", async () => {
    const r = await engram(["add", folder, "--container-tag", "cli_e2e", "--wait", "--json"], env);
    expect(r.code).toBe(0);
    const out = json(r);
    expect(out).toMatchObject({ added: 3, skipped: 1, failed: 0 });
    const bySource = Object.fromEntries(out.documents.map((d: { source: string }) => [path.basename(d.source), d]));
    expect(bySource["data.bin"]).toMatchObject({ result: "skipped", reason: "unsupported file type .bin" });
    for (const f of ["lighthouse.md", "limits.txt", "orchard.md"]) {
      expect(bySource[f]).toMatchObject({ result: "added", status: "done", id: expect.stringMatching(/^d_/), customId: expect.stringMatching(/^file:/) });
      ids[f] = bySource[f].id;
    }
    expect(out.documents.some((d: { source: string }) => /secret|readme/.test(d.source))).toBe(false);
    // not a terminal: one plain progress line per item on stderr
    expect(r.stderr).toMatch(/\[\d\/4\] added .*lighthouse\.md → d_/);
  });

  it("a second run skips every file; a changed file is sent again into the same document", async () => {
    const again = json(await engram(["add", folder, "-t", "cli_e2e", "--json"], env));
    expect(again).toMatchObject({ added: 0, skipped: 4, failed: 0 });
    expect(again.documents.filter((d: { reason?: string }) => d.reason === "unchanged since it was added")).toHaveLength(3);

    fs.appendFileSync(path.join(folder, "limits.txt"), "Bursts of 20 requests per second are allowed.\n");
    const changed = await engram(["add", folder, "-t", "cli_e2e", "--json"], env);
    expect(changed.code).toBe(0);
    const out = json(changed);
    expect(out).toMatchObject({ added: 1, skipped: 3, failed: 0 });
    const sent = out.documents.find((d: { result: string }) => d.result === "added");
    expect(path.basename(sent.source)).toBe("limits.txt");
    expect(sent.id).toBe(ids["limits.txt"]);
  });

  it("search finds the added content (human and JSON)", async () => {
    const r = await engram(["search", "who", "logs", "passing", "ships?", "-t", "cli_e2e", "--mode", "documents", "--json"], env);
    expect(r.code).toBe(0);
    const out = json(r);
    expect(out.results[0]).toMatchObject({ documentId: ids["lighthouse.md"], chunk: expect.stringContaining("lighthouse keeper") });

    const human = await engram(["search", "heritage apples", "-t", "cli_e2e", "--mode", "hybrid"], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("heritage apples");
  });

  it("memories add, then memories list and profile show it", async () => {
    const added = await engram(["memories", "add", "--static", "Ravi", "prefers", "window", "seats", "-t", "cli_mem", "--json"], env);
    expect(added.code).toBe(0);
    const id = json(added).memories[0].id as string;
    expect(id).toMatch(/^m_/);

    const list = json(await engram(["memories", "list", "-t", "cli_mem", "--json"], env));
    expect(list.memoryEntries).toEqual([expect.objectContaining({ id, memory: "Ravi prefers window seats", isStatic: true })]);
    const human = await engram(["memories", "list", "-t", "cli_mem"], env);
    expect(human.stdout).toContain("Ravi prefers window seats");

    const profile = json(await engram(["profile", "-t", "cli_mem", "--query", "seats", "--json"], env));
    expect(profile.profile.static).toEqual(["Ravi prefers window seats"]);
    expect(profile.searchResults.results.length).toBeGreaterThan(0);

    const dry = json(await engram(["memories", "forget", "--query", "window seats", "-t", "cli_mem", "--json"], env));
    expect(dry).toMatchObject({ dryRun: true, count: 1 });
    expect((await engram(["memories", "forget", id, "-t", "cli_mem"], env)).code).toBe(0);
  });

  it("documents list and get", async () => {
    const list = json(await engram(["documents", "list", "-t", "cli_e2e", "--json"], env));
    expect(list.memories.map((d: { id: string }) => d.id).sort()).toEqual(Object.values(ids).sort());
    const get = await engram(["documents", "get", ids["orchard.md"]!], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toContain("Orchard");
    // another tenant sees none of them
    const other = json(await engram(["documents", "list", "--json"], { ...env, ENGRAM_API_KEY: KEY_B }));
    expect(other.memories).toEqual([]);
  });

  it("import reads JSON Lines, reports bad lines by number, and skips what it imported before", async () => {
    const file = path.join(tmp, "records.jsonl");
    fs.writeFileSync(
      file,
      [
        '{"content":"Lena runs the Thursday design review","customId":"lena-1"}',
        "not json",
        '{"content":"Omar maintains billing","containerTag":"cli_billing"}',
      ].join("\n"),
    );
    const first = await engram(["import", file, "-t", "cli_import", "--json"], env);
    expect(first.code).toBe(1);
    expect(json(first)).toMatchObject({
      added: 2,
      skipped: 0,
      failed: 1,
      documents: expect.arrayContaining([expect.objectContaining({ source: expect.stringMatching(/records\.jsonl:2$/), result: "failed" })]),
    });
    const again = await engram(["import", file, "-t", "cli_import", "--json"], env);
    expect(json(again)).toMatchObject({ added: 0, skipped: 2, failed: 1 });
    const lena = json(await engram(["documents", "get", "lena-1", "--json"], env));
    expect(lena).toMatchObject({ customId: "lena-1", containerTags: ["cli_import"] });
  });

  it("connections: create a web-crawler connection, list it, follow its runs, sync it again, and delete it", async () => {
    // A three-page site on loopback (no robots.txt: a 404 allows everything).
    const siteDir = path.join(tmp, "site");
    const page = (title: string, body: string, links: string[] = []) =>
      `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</main></body></html>`;
    fs.mkdirSync(path.join(siteDir, "ferries"), { recursive: true });
    fs.mkdirSync(path.join(siteDir, "tides"), { recursive: true });
    fs.writeFileSync(
      path.join(siteDir, "index.html"),
      page("Harbour guide", "The harbour master publishes the ferry and tide tables every morning.", ["/ferries/", "/tides/"]),
    );
    fs.writeFileSync(path.join(siteDir, "ferries/index.html"), page("Ferries", "The first ferry to the island leaves at 06:40 from pier three.", ["/"]));
    fs.writeFileSync(path.join(siteDir, "tides/index.html"), page("Tides", "Spring tides flood the lower quay twice a month.", ["/"]));
    site = await startStaticSite(siteDir);

    const created = await engram(
      ["connections", "create", "web-crawler", "--tag", "cli_conn", "--metadata", JSON.stringify({ startUrl: `${site.origin}/` }), "--json"],
      env,
    );
    expect(created.code).toBe(0);
    const id = json(created).id as string;
    expect(id).toMatch(/^n_[A-Za-z0-9]{20}$/);

    const list = await engram(["connections", "list", "--tag", "cli_conn"], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+web-crawler\\s+active\\s+cli_conn\\s`, "m"));
    expect(json(await engram(["connections", "list", "--json"], env))).toEqual([
      expect.objectContaining({ id, provider: "web-crawler", containerTags: ["cli_conn"] }),
    ]);
    // another tenant sees none of it
    expect(json(await engram(["connections", "list", "--json"], { ...env, ENGRAM_API_KEY: KEY_B }))).toEqual([]);

    // Polls `connections get --json` until a run that started after `after` has finished.
    const finished = (after = "") =>
      waitFor(
        async () => {
          const run = json(await engram(["connections", "get", id, "--json"], env)).lastSyncRun;
          return run && run.startedAt > after && run.status !== "running" && run.status !== "queued" ? run : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: "the sync run to finish" },
      );
    const first = await finished();
    expect(first).toMatchObject({ status: "succeeded", errorCode: null, trigger: "initial" });

    const runs = await engram(["connections", "runs", id], env);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/\ssucceeded\s+initial\s+3\s/);
    expect(runs.stdout).toContain(`1 run(s) of ${id}`);
    const one = json(await engram(["connections", "runs", id, "--json"], env)).runs;
    expect(one).toEqual([first]);
    expect(one[0].documentsImported).toBeGreaterThan(0);

    const sync = await engram(["connections", "sync", "web-crawler", "--tag", "cli_conn"], env);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toContain("started a sync of the web-crawler connections of cli_conn");
    const second = await finished(first.startedAt);
    expect(second).toMatchObject({ status: "succeeded", trigger: "manual" });
    const two = json(await engram(["connections", "runs", id, "--json"], env)).runs;
    expect(two).toEqual([second, first]);
    expect(json(await engram(["connections", "runs", id, "--limit", "1", "--json"], env)).runs).toEqual([second]);

    const human = await engram(["connections", "get", id], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/last sync:\n\s+status\s+succeeded\n\s+trigger\s+manual/);

    const badLimit = await engram(["connections", "runs", id, "--limit", "0"], env);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain("--limit must be an integer from 1 to 100");
    const unknown = await engram(["connections", "get", "n_doesnotexist00000000"], env);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toMatch(/error: 404 /);
    const badProvider = await engram(["connections", "sync", "dropbox"], env);
    expect(badProvider.code).toBe(5);
    expect(badProvider.stderr).toMatch(/error: 400 /);

    const deleted = await engram(["connections", "delete", id, "--json"], env);
    expect(deleted.code).toBe(0);
    expect(json(deleted)).toEqual({ id, provider: "web-crawler", deleteDocuments: true });
    expect((await engram(["connections", "get", id], env)).code).toBe(5);
    expect(json(await engram(["documents", "list", "-t", "cli_conn", "--json"], env)).memories).toEqual([]);
  }, 120_000);

  it("exit codes: 3 for a refused key, 4 for an unreachable server, 2 for a usage error, 1 for a partial failure", async () => {
    const refused = await engram(["documents", "list"], { ...env, ENGRAM_API_KEY: "wrong-key-0000000000000000000000" });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/401/);

    const port = await freePort();
    const down = await engram(["search", "anything", "--json"], { ...env, ENGRAM_URL: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(4);
    expect(down.stderr).toMatch(/server unreachable \(ECONNREFUSED\)/);

    expect((await engram(["search", "x", "--mode", "nope"], env)).code).toBe(2);

    const partial = await engram(["documents", "delete", ids["orchard.md"]!, "no-such-document", "--json"], env);
    expect(partial.code).toBe(1);
    expect(json(partial)).toMatchObject({ deleted: [ids["orchard.md"]], failed: [{ id: "no-such-document" }] });
  });
});
