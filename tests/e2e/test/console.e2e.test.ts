import type { Page } from "playwright-core";
import { consoleBrowser, describeBrowser, STORED_KEY } from "./console-browser";
import { twoTenantStack, waitDone } from "./helpers";

/**
 * The web console (apps/console, served by the gateway at /console) driven
 * in Debian's Chromium (headless) against an all-in-one stack: the main
 * journey (sign in, add a document, see it reach done, search it in every
 * mode, open a memory, its source document and the very chunk it came from,
 * forget it with a dry run first, see it gone); a wrong key refused with the
 * API's error; sign-in and navigation by keyboard alone; relations (extends,
 * derives) formed by the default formation and drawn; metadata given on add
 * and search narrowed by metadata filters; then the management pages: an API
 * key created (its secret works) and revoked (then refused), a memory's
 * versions drawn as a graph, a web-crawler connection with an unreachable
 * start URL showing its runs and their history, then deleted, the settings
 * form and the profile's buckets. A tenant whose data sits under its own
 * container tags opens on the most recently active one; the tag picker lists
 * the tags with their counts (a tag-limited key only its own, an HTML-like
 * display name inert, many tags filtered and shown in steps); the overview
 * shows a failed document with its reason. Every page rendered is checked (its main
 * landmark has text, the stylesheet applies, axe-core finds no WCAG A/AA
 * violation, in the light and the dark scheme) with no console error, and
 * screenshotted to tests/e2e/artifacts/console/. The OAuth round trip is in
 * console-oauth.e2e.test.ts. Skipped with a printed reason when Chromium is
 * not installed (CHROMIUM_PATH, default /usr/bin/chromium; `.ci/run` installs it).
 */

const KEY_A = "console-key-a-0123456789abcdef0123";
const KEY_B = "console-key-b-0123456789abcdef0123";
const TAG = "console_journey";
const TEXT = "user: I am Sarah and I was just promoted to VP of Product.\nuser: I live in Seattle and I go hiking in the Cascades every weekend.";

describeBrowser("web console in Chromium", () => {
  const stack = twoTenantStack(KEY_A, KEY_B);
  const browser = consoleBrowser();
  const { openTab, renders, go } = browser;
  const signIn = (page: Page, key: string) => browser.signIn(page, stack.engram.url, key);

  it("serves the console without a key, with a CSP that allows no inline script", async () => {
    for (const p of ["/console", "/console/", "/console/memories"]) {
      const res = await fetch(`${stack.engram.url}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
      expect(res.headers.get("content-security-policy")).not.toMatch(/unsafe-inline/);
      expect(await res.text()).toContain('<div id="root">');
    }
    const missing = await fetch(`${stack.engram.url}/console/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(expect.objectContaining({ error: expect.any(String) }));
    // The API itself still wants a key.
    expect((await fetch(`${stack.engram.url}/v3/settings`)).status).toBe(401);
  });

  it("refuses a wrong key with the API's error and keeps the key out of the URL", async () => {
    const { page, errors } = await openTab();
    await page.goto(`${stack.engram.url}/console`);
    await page.getByLabel("API key", { exact: true }).fill("sk_wrong_key_000000000000000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Unauthorized|invalid|unknown/i);
    expect(page.url()).not.toContain("sk_wrong");
    expect(await page.evaluate(STORED_KEY)).toBeNull();
    await renders(page, "signin-refused");
    // The one error: the browser's own report of the refused call.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it("signs in and moves between pages with the keyboard alone", async () => {
    const { page, errors } = await openTab();
    await page.goto(`${stack.engram.url}/console`);
    await page.getByLabel("API key", { exact: true }).waitFor();
    // The key field is the first stop; Enter submits.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe(
      await page.getByLabel("API key", { exact: true }).getAttribute("id"),
    );
    await page.keyboard.type(KEY_A);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    // Each page moves the focus to its heading (screen readers announce it).
    const focused = "document.activeElement && document.activeElement.tagName + ':' + document.activeElement.textContent";
    expect(await page.evaluate(focused)).toBe("H1:Documents");
    // Back (Shift+Tab) into the navigation, to its Search link; Enter follows it; the focus is visible on the way.
    for (let i = 0; i < 20 && (await page.evaluate(focused)) !== "A:Search"; i++) await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(focused)).toBe("A:Search");
    expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).not.toBe("none");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Search" }).waitFor();
    expect(await page.evaluate(focused)).toBe("H1:Search");
    // The skip link is the first stop of the page and leads to the content.
    for (let i = 0; i < 20 && (await page.evaluate(focused)) !== "A:Skip to content"; i++) await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(focused)).toBe("A:Skip to content");
    await page.keyboard.press("Enter");
    expect(page.url()).toMatch(/#main$/);
    expect(errors).toEqual([]);
  });

  it("pages through a long document list", async () => {
    const PAGES_TAG = "console_pages";
    const batch = await stack.a("POST", "/v3/documents/batch", {
      containerTag: PAGES_TAG,
      documents: Array.from({ length: 51 }, (_, i) => ({ content: `Page test note number ${i + 1}.`, customId: `note-${i + 1}` })),
    });
    expect(batch.status).toBe(200);
    const { page, errors } = await openTab();
    await signIn(page, KEY_A);
    await useTag(page, PAGES_TAG);
    const pager = page.getByRole("navigation", { name: "Document pages" });
    await pager.getByText("Page 1 of 2 (51 in all)").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(50);
    const notes = async () => (await page.locator("tbody tr td:first-child").allInnerTexts()).map((t) => /note-\d+/.exec(t)?.[0]);
    const first = await notes();
    expect(await pager.getByRole("button", { name: "Previous page" }).isDisabled()).toBe(true);
    await pager.getByRole("button", { name: "Next page" }).click();
    await pager.getByText("Page 2 of 2 (51 in all)").waitFor();
    await page.locator("tbody tr").first().waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    // The two pages hold every note once.
    const all = [...first, ...(await notes())];
    expect(new Set(all).size).toBe(51);
    expect(all.every((n) => n !== undefined)).toBe(true);
    await renders(page, "documents-page-2");
    // The status filter asks the server: a state nobody is in shows the empty state, "all" the whole list again.
    await page.getByLabel("Status", { exact: true }).selectOption("failed");
    await page.getByText("No document is failed.").waitFor();
    expect(await pager.count()).toBe(0);
    await page.getByLabel("Status", { exact: true }).selectOption("all");
    await pager.getByText("Page 1 of 2 (51 in all)").waitFor();
    expect(errors).toEqual([]);
  });

  it("walks the main journey: sign in, add, done, search every mode, memory and source, forget, gone", async () => {
    const { page, errors } = await openTab();
    await page.goto(`${stack.engram.url}/console`);
    await renders(page, "signin");

    // Sign in: the key lands in session storage, never in the URL.
    await page.getByLabel("API key", { exact: true }).fill(KEY_A);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    expect(page.url()).not.toContain(KEY_A);
    expect(await page.evaluate(STORED_KEY)).toBe(KEY_A);

    // Work in a container tag of our own: the empty state first.
    await page.getByLabel("Container tag", { exact: true }).fill(TAG);
    await page.getByLabel("Container tag", { exact: true }).press("Enter");
    await page.getByRole("heading", { name: `In ${TAG}` }).waitFor();
    await page.getByText("No documents yet").waitFor();

    // Add a document and watch it reach done (the list polls while it is processed).
    await page.locator("#doc-text").fill(TEXT);
    await page.getByRole("button", { name: "Add document" }).click();
    const added = page.getByRole("status").filter({ hasText: "Added" });
    await added.waitFor();
    const docId = /Added (d_\w+)/.exec(await added.innerText())![1]!;
    await page.locator(`tr[data-document-id="${docId}"] .status-done`).waitFor({ timeout: 30_000 });

    // A file, uploaded with a progress bar, processed too.
    await page.getByRole("radio", { name: "File" }).check();
    await page.locator("#doc-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("The quarterly review is on Friday.\n") });
    await page.getByRole("button", { name: "Add document" }).click();
    await page.getByRole("status").filter({ hasText: "Added" }).waitFor();
    const progress = page.getByRole("progressbar", { name: "Upload progress" });
    expect(await progress.getAttribute("value")).toBe(await progress.getAttribute("max"));
    await page.locator("tbody tr .status-done").nth(1).waitFor({ timeout: 30_000 });
    await renders(page, "documents");

    // Its detail: its summary, chunks and the memories formed from it.
    await page.locator(`tr[data-document-id="${docId}"] a`).click();
    await page.getByRole("heading", { name: "Chunks" }).waitFor();
    const summary = page.locator("dl.facts dt", { hasText: "Summary" }).locator("xpath=following-sibling::dd[1]");
    expect(await summary.textContent()).toContain("promoted to VP of Product");
    await page.getByRole("region", { name: "Chunks" }).locator("pre").filter({ hasText: "Seattle" }).first().waitFor();
    const formed = page.getByRole("region", { name: "Memories formed from it" }).locator("li");
    await formed.first().waitFor();
    await renders(page, "document");

    // Search in every mode: each finds the document's text.
    await go(page, "Search");
    await page.getByLabel("Query", { exact: true }).fill("where does Sarah live? Seattle");
    await page.getByLabel("Threshold", { exact: true }).fill("0");
    for (const mode of ["memories", "documents", "hybrid"]) {
      await page.getByLabel("Mode", { exact: true }).selectOption(mode);
      await page.getByRole("button", { name: /^Search/ }).click();
      const results = page.locator(`section[data-mode="${mode}"] li.result`);
      await results.first().waitFor();
      expect(await results.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Seattle/)]));
      expect(await results.first().innerText()).toMatch(/similarity \d\.\d{3}/);
      await renders(page, `search-${mode}`);
    }

    // A memory, its versions and its source document.
    await go(page, "Memories");
    const memory = page.locator("ul.memories li button").filter({ hasText: "Seattle" }).first();
    const memoryText = (await memory.innerText()).trim();
    await memory.click();
    const detail = page.getByRole("region", { name: "Memory", exact: true });
    await detail.getByRole("heading", { name: "Source documents" }).waitFor();
    // Provenance down to the chunk: the source document, and the text of the chunk the memory came from.
    const source = detail.getByRole("list", { name: "Provenance" }).locator(`li[data-document-id="${docId}"]`);
    const quoted = source.locator("blockquote.source-chunk");
    await quoted.filter({ hasText: "Seattle" }).first().waitFor();
    const position = await quoted.first().getAttribute("data-chunk-position");
    await renders(page, "memories");
    await source.locator("a.mono").click();
    await page.getByRole("heading", { name: "Chunks" }).waitFor();
    await page.getByRole("region", { name: "Chunks" }).locator("pre").filter({ hasText: "Seattle" }).first().waitFor();
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Memories" }).waitFor();
    // The chunk link opens the document at that chunk, highlighted.
    await page.locator("ul.memories li button").filter({ hasText: memoryText }).click();
    await detail
      .getByRole("link", { name: `Open chunk #${position} in its document` })
      .first()
      .click();
    const highlighted = page.locator(`li.highlight[data-chunk-position="${position}"][aria-current="location"]`);
    await highlighted.waitFor();
    expect(await highlighted.innerText()).toContain("Seattle");
    expect(page.url()).toContain(`/console/documents/${docId}?chunk=${position}`);
    await renders(page, "document-chunk");
    // And the document's memories lead back to the memory.
    await page.getByRole("region", { name: "Memories formed from it" }).getByRole("link", { name: memoryText }).click();
    await page.getByRole("heading", { level: 1, name: "Memories" }).waitFor();
    await detail.getByText(memoryText, { exact: true }).waitFor();

    // Forget by topic: the dry run lists it and changes nothing, the confirmation forgets exactly that.
    await page.getByLabel("Topic", { exact: true }).fill("Seattle");
    await page.getByLabel("Threshold", { exact: true }).fill("0.3");
    await page.getByRole("button", { name: "Preview (dry run)" }).click();
    const confirm = page.getByRole("button", { name: /^Forget these \d+$/ });
    await confirm.waitFor();
    expect(await page.locator(".preview li").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(memoryText)]));
    expect(await page.locator("ul.memories li button").filter({ hasText: memoryText }).count()).toBe(1);
    await renders(page, "forget-preview");
    await confirm.click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Forgot \d+ memor/ })
      .waitFor();
    await page.locator("ul.memories li button").filter({ hasText: memoryText }).waitFor({ state: "detached" });
    await renders(page, "memories-after-forget");

    // Gone for the API too.
    const listed = await stack.a("POST", "/v4/memories/list", { containerTags: [TAG], limit: 100 });
    expect((listed.body.memoryEntries as { memory: string }[]).map((m) => m.memory)).not.toContain(memoryText);

    // The remaining pages render.
    await go(page, "Profile");
    await page.getByRole("heading", { name: "Dynamic" }).waitFor();
    // A question asked with the profile: the memories that answer it come back with it.
    await page.getByLabel("Question", { exact: true }).fill("was Sarah promoted to VP of Product?");
    await page.getByRole("button", { name: "Ask" }).click();
    const answers = page.getByRole("list", { name: "Memories answering was Sarah promoted to VP of Product?" });
    await answers.locator("li").first().waitFor();
    expect(await answers.innerText()).toMatch(/VP of Product/);
    await renders(page, "profile");
    await go(page, "Settings");
    await page.getByLabel("Chunk size (tokens)", { exact: true }).waitFor();
    await renders(page, "settings");
    await go(page, "Connections");
    await page.getByText("No connections yet").waitFor();
    await renders(page, "connections");

    // A client route loaded directly (the gateway answers the page for every /console path), still signed in.
    await page.goto(`${stack.engram.url}/console/search`);
    await page.getByRole("heading", { level: 1, name: "Search" }).waitFor();

    // Responsive: a phone-sized window scrolls only vertically.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const label of ["Search", "Memories", "Profile", "Settings", "Connections", "API keys", "Documents"]) {
      await go(page, label);
      expect({ label, fits: await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth") }).toEqual({ label, fits: true });
    }
    await renders(page, "documents-narrow");
    // The dark scheme passes the same audit (contrast included).
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await go(page, "Search");
    await renders(page, "search-dark");

    expect(errors).toEqual([]);
  });

  /** Adds a text document from the Documents page (with metadata when given) and waits for it to be done; its id. */
  async function addText(page: Page, text: string, metadata?: string): Promise<string> {
    await page.locator("#doc-text").fill(text);
    if (metadata) await page.getByLabel("Metadata (optional JSON object)", { exact: true }).fill(metadata);
    await page.getByRole("button", { name: "Add document" }).click();
    const added = page.getByRole("status").filter({ hasText: "Added" });
    await added.waitFor();
    const id = /Added (d_\w+)/.exec(await added.innerText())![1]!;
    await page.locator(`tr[data-document-id="${id}"] .status-done`).waitFor({ timeout: 30_000 });
    return id;
  }

  async function useTag(page: Page, tag: string): Promise<void> {
    await page.getByLabel("Container tag", { exact: true }).fill(tag);
    await page.getByLabel("Container tag", { exact: true }).press("Enter");
  }

  it("draws extends and derives relations, and filters search by metadata", async () => {
    const { page, errors } = await openTab();
    await signIn(page, KEY_A);

    // Relations formed by the default (offline) formation: a later document's facts extend and derive from earlier ones.
    await useTag(page, "console_relations");
    await page.getByRole("heading", { name: "In console_relations" }).waitFor();
    await addText(page, "user: Jamie is my best friend.");
    await addText(page, "user: I got married to Jamie in June.");
    await go(page, "Memories");
    await page.locator("ul.memories li button").filter({ hasText: "is married to Jamie" }).click();
    const graphList = page.getByRole("list", { name: "Graph as a list" }).locator("li");
    await graphList.first().waitFor();
    const drawn = (await graphList.allInnerTexts()).join("\n");
    expect(drawn).toMatch(/derives .*best friend/);
    expect(drawn).toMatch(/got married to Jamie.*· extends/);
    expect(await page.locator(".graph-canvas").getAttribute("data-edge-count")).toBe("2");
    await renders(page, "memory-relations");

    // Metadata typed as JSON in the add form; anything but an object is refused before a request is sent.
    await go(page, "Documents");
    await useTag(page, "console_filters");
    await page.locator("#doc-text").fill("This text is never added.");
    await page.getByLabel("Metadata (optional JSON object)", { exact: true }).fill('["not", "an object"]');
    await page.getByRole("button", { name: "Add document" }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid metadata" }).waitFor();
    await page.getByLabel("Metadata (optional JSON object)", { exact: true }).fill("");
    const alpha = await addText(page, "The launch checklist for the alpha team lives in the wiki.", '{"team": "alpha", "priority": 1}');
    const beta = await addText(page, "The launch checklist for the beta team lives in the shared drive.", '{"team": "beta", "priority": 3}');
    expect(await page.locator("tbody tr").count()).toBe(2);
    await page.locator(`tr[data-document-id="${beta}"] a`).click();
    await page.getByText('{"team":"beta","priority":3}').waitFor();

    // The search playground: no filter finds both; each filter narrows to the documents it names.
    await go(page, "Search");
    await page.getByLabel("Query", { exact: true }).fill("launch checklist");
    await page.getByLabel("Mode", { exact: true }).selectOption("documents");
    await page.getByLabel("Threshold", { exact: true }).fill("0");
    // Each answer is numbered: wait for the next one, not the one on the page.
    let answers = 0;
    const nextAnswer = async () => {
      await page.getByRole("button", { name: /^Search/ }).click();
      const section = page.locator(`section[data-mode="documents"][data-run="${++answers}"]`);
      await section.waitFor();
      return section;
    };
    const searchFor = async () => (await (await nextAnswer()).locator("li.result").allInnerTexts()).join("\n");
    const both = await searchFor();
    expect(both).toContain("alpha team");
    expect(both).toContain("beta team");
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByLabel("Key 1", { exact: true }).fill("team");
    await page.getByLabel("Value 1", { exact: true }).fill("beta");
    let found = await searchFor();
    expect(found).toContain("beta team");
    expect(found).not.toContain("alpha team");
    expect(found).toContain('"team":"beta"');
    await renders(page, "search-filters");
    await page.getByLabel("Operator 1", { exact: true }).selectOption("not-equals");
    found = await searchFor();
    expect(found).toContain("alpha team");
    expect(found).not.toContain("beta team");
    // Two conditions, any of them: priority < 2 or team = beta, so both again; all of them: none.
    await page.getByLabel("Operator 1", { exact: true }).selectOption("equals");
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByLabel("Key 2", { exact: true }).fill("priority");
    await page.getByLabel("Operator 2", { exact: true }).selectOption("<");
    await page.getByLabel("Value 2", { exact: true }).fill("2");
    await page.getByLabel("Match", { exact: true }).selectOption("OR");
    found = await searchFor();
    expect(found).toContain("alpha team");
    expect(found).toContain("beta team");
    await page.getByLabel("Match", { exact: true }).selectOption("AND");
    await (await nextAnswer()).getByText("Nothing at or above the threshold").waitFor();
    // A numeric filter given a word: the API's refusal is shown.
    await page.getByLabel("Value 2", { exact: true }).fill("two");
    await page.getByRole("button", { name: /^Search/ }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /number/ })
      .waitFor();
    // Delete a document from its page, confirmed: it leaves the list and search.
    await go(page, "Documents");
    await page.locator(`tr[data-document-id="${alpha}"] a`).click();
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("group", { name: "Confirm deleting the document" }).getByRole("button", { name: "Delete document" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Deleted ${alpha}.` })
      .waitFor();
    await page.locator(`tr[data-document-id="${beta}"]`).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect((await stack.a("GET", `/v3/documents/${alpha}`)).status).toBe(404);
    await renders(page, "documents-after-delete");
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it("manages keys, draws a memory's versions, runs and deletes a connection, changes settings", async () => {
    const { page, errors } = await openTab();
    await signIn(page, KEY_A);

    // API keys: the console's own key is listed (and cannot be revoked here); a new key's secret is shown once and works.
    await go(page, "API keys");
    const own = page.locator("tbody tr").filter({ hasText: "this console's key" });
    await own.waitFor();
    expect(await own.getByRole("button").count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill("browser-test");
    await page.getByRole("button", { name: "Create key" }).click();
    const secretBox = page.getByLabel("New API key", { exact: true });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^sk_engram_[0-9A-Za-z]{32}$/);
    const withSecret = (key: string) => fetch(`${stack.engram.url}/v3/keys`, { headers: { authorization: `Bearer ${key}` } });
    expect((await withSecret(secret)).status).toBe(200);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await page.getByText(/Copied to the clipboard|select the key and copy it/).waitFor();
    const row = page.locator("tbody tr").filter({ hasText: "browser-test" });
    await row.getByText("active").waitFor();
    await renders(page, "keys-created");
    // Tenant b never sees it.
    expect(JSON.stringify((await stack.b("GET", "/v3/keys")).body)).not.toContain("browser-test");
    // Another tab signed in with the new key, to see what revocation does to it.
    const other = await openTab();
    await signIn(other.page, secret);
    // Revoke, confirmed: the secret is refused from then on, and the secret is no longer on the page.
    await row.getByRole("button", { name: "Revoke browser-test…" }).click();
    await row.getByRole("button", { name: "Revoke browser-test", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Revoked browser-test" }).waitFor();
    await row.getByText(/^revoked/).waitFor();
    expect(await page.getByLabel("New API key", { exact: true }).count()).toBe(0);
    expect((await withSecret(secret)).status).toBe(401);
    await renders(page, "keys-revoked");
    // Scoped keys: a read-only key limited to one container tag, shown with its rights; it cannot manage keys.
    await page.getByLabel("Name", { exact: true }).fill("reader-test");
    await page.getByRole("checkbox", { name: "write" }).uncheck();
    await page.getByRole("checkbox", { name: "admin" }).uncheck();
    await page.getByLabel("Container tags", { exact: true }).fill("alice");
    await page.getByRole("button", { name: "Create key" }).click();
    const readerRow = page.locator("tbody tr").filter({ hasText: "reader-test" });
    await readerRow.getByText("tags: alice").waitFor();
    expect(await readerRow.textContent()).toContain("read");
    expect(await readerRow.textContent()).not.toContain("admin");
    const readerSecret = await page.getByLabel("New API key", { exact: true }).inputValue();
    expect((await withSecret(readerSecret)).status).toBe(403);
    await renders(page, "keys-scoped");
    // The other tab's next call is refused: it signs out by itself and says why, keeping the page it was on.
    await go(other.page, "Memories").catch(() => undefined);
    await other.page.getByRole("alert").filter({ hasText: "no longer accepts this API key" }).waitFor();
    expect(await other.page.evaluate(STORED_KEY)).toBeNull();
    expect(other.page.url()).toMatch(/\/console\/memories$/);
    await other.page.getByLabel("API key", { exact: true }).fill(KEY_A);
    await other.page.getByRole("button", { name: "Sign in" }).click();
    await other.page.getByRole("heading", { level: 1, name: "Memories" }).waitFor();
    expect(other.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);

    // A memory with three versions: the graph has a node per version, and its list equivalent an item per node.
    const GRAPH_TAG = "console_graph";
    const created = await stack.a("POST", "/v4/memories", { containerTag: GRAPH_TAG, memories: [{ content: "Alice works at Acme" }] });
    const v1 = (created.body.memories as { id: string }[])[0]!;
    const v2 = await stack.a("PATCH", "/v4/memories", { id: v1.id, containerTag: GRAPH_TAG, newContent: "Alice works at Globex" });
    expect((await stack.a("PATCH", "/v4/memories", { id: v2.body.id, containerTag: GRAPH_TAG, newContent: "Alice works at Initech" })).status).toBe(200);
    await page.getByLabel("Container tag", { exact: true }).fill(GRAPH_TAG);
    await page.getByLabel("Container tag", { exact: true }).press("Enter");
    await go(page, "Memories");
    await page.locator("ul.memories li button").filter({ hasText: "Initech" }).click();
    const graph = page.locator('.graph-canvas[data-node-count="3"]');
    await graph.waitFor();
    await graph.locator("canvas").first().waitFor();
    const items = page.getByRole("list", { name: "Graph as a list" }).locator("li");
    expect(await items.allInnerTexts()).toEqual([
      expect.stringMatching(/^v1: Alice works at Acme/),
      expect.stringMatching(/^v2: Alice works at Globex · updates v1/),
      expect.stringMatching(/^v3 \(this\): Alice works at Initech · updates v2$/),
    ]);
    expect(await page.locator(".graph-canvas").getAttribute("data-edge-count")).toBe("2");
    // Selecting a node from the keyboard list.
    await items.first().getByRole("button").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Selected v1: Alice works at Acme" }).waitFor();
    await renders(page, "memory-graph");

    // A memory written in the console, then corrected: the correction is a new version, the old text in its history.
    await page.getByLabel("New memory", { exact: true }).fill("Bob plays chess on Sundays");
    await page.getByLabel("static (a lasting fact)").check();
    await page.getByRole("button", { name: "Add memory" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Added m_/ })
      .waitFor();
    const memoryDetail = page.getByRole("region", { name: "Memory", exact: true });
    await memoryDetail.getByText("Bob plays chess on Sundays", { exact: true }).waitFor();
    await memoryDetail.getByRole("button", { name: "Edit (new version)…" }).click();
    await page.getByLabel("New content", { exact: true }).fill("Bob plays go on Sundays");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await memoryDetail.getByText("Bob plays go on Sundays", { exact: true }).waitFor();
    const versions = page.getByRole("list", { name: "Graph as a list" }).locator("li");
    await versions.nth(1).waitFor();
    expect(await versions.allInnerTexts()).toEqual([
      expect.stringMatching(/^v1: Bob plays chess on Sundays/),
      expect.stringMatching(/^v2 \(this\): Bob plays go on Sundays · updates v1/),
    ]);

    // A web-crawler connection whose start URL cannot be fetched (loopback, refused by the address guard): its run
    // fails with the reason, shown in the list; then it is deleted.
    await go(page, "Connections");
    await page.getByText("No connections yet").waitFor();
    await page.getByLabel("Provider", { exact: true }).selectOption("web-crawler");
    await page.getByLabel("Start URL", { exact: true }).fill("http://127.0.0.1:9/");
    await page.getByRole("button", { name: "Create connection" }).click();
    const createdMsg = page.getByRole("status").filter({ hasText: /^Created n_/ });
    await createdMsg.waitFor();
    const connectionId = /Created (n_\w+)/.exec(await createdMsg.innerText())![1]!;
    const connRow = page.locator(`tr[data-connection-id="${connectionId}"]`);
    await page.locator(`tr[data-connection-id="${connectionId}"][data-run-status="failed"]`).waitFor({ timeout: 30_000 });
    const run = (await stack.a("GET", `/v3/connections/${connectionId}`)).body.lastSyncRun as { status: string; errorCode: string | null };
    expect(run).toMatchObject({ status: "failed", errorCode: "provider_unavailable" });
    const rowText = await connRow.innerText();
    expect(rowText).toContain("provider_unavailable");
    expect(rowText).toMatch(/robots\.txt is unreachable/);
    expect(rowText).toMatch(/0 documents imported/);
    await renders(page, "connections-run");
    // A second run (Import now); the history lists both, newest first, each with its reason.
    await connRow.getByRole("button", { name: "Import now" }).click();
    await connRow.getByRole("button", { name: "History" }).click();
    const history = page.getByRole("region", { name: `Sync history of ${connectionId}` });
    await history.locator('li[data-run-status="failed"]').nth(1).waitFor({ timeout: 30_000 });
    const runs = await history.locator("li").allInnerTexts();
    expect(runs).toHaveLength(2);
    for (const r of runs) expect(r).toMatch(/provider_unavailable[\s\S]*robots\.txt is unreachable/);
    expect(await connRow.getByRole("button", { name: "History" }).getAttribute("aria-expanded")).toBe("true");
    await renders(page, "connections-history-failed");
    await connRow.getByRole("button", { name: "Delete…" }).click();
    await connRow.getByRole("button", { name: "Delete connection" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Deleted the web-crawler connection ${connectionId}` })
      .waitFor();
    await page.getByText("No connections yet").waitFor();
    expect((await stack.a("GET", `/v3/connections/${connectionId}`)).status).toBe(404);
    // An OAuth provider with no OAuth application configured: the API's refusal is shown, nothing is created.
    const errorsBefore = errors.length;
    await page.getByLabel("Provider", { exact: true }).selectOption("github");
    await page.getByRole("button", { name: "Connect GitHub" }).click();
    const refusal = page.getByRole("region", { name: "New connection" }).getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/no OAuth application is configured|public address/);
    await renders(page, "connections-oauth-refused");
    // The one error: the browser's own report of the refused call.
    expect(errors.splice(errorsBefore).filter((e) => !/status of 400/.test(e))).toEqual([]);

    // Settings: the chunk size changed in the form is stored.
    await go(page, "Settings");
    await page.getByLabel("Chunk size (tokens)", { exact: true }).fill("512");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("status").filter({ hasText: "Saved chunkSize" }).waitFor();
    expect((await stack.a("GET", "/v3/settings")).body.chunkSize).toBe(512);
    expect(await page.getByLabel("Chunk size (tokens)", { exact: true }).inputValue()).toBe("512");
    // A profile bucket and the LLM filter in one save: the answer's warning (no filter prompt, or no model) is shown.
    await page.getByRole("button", { name: "Add bucket" }).click();
    await page.getByLabel("Key 1", { exact: true }).fill("work");
    await page.getByLabel("Description 1", { exact: true }).fill("job, employer, colleagues");
    await page.getByLabel("Filter with the LLM", { exact: true }).selectOption("true");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved (?=.*shouldLLMFilter)(?=.*profileBuckets)/ })
      .waitFor();
    await page
      .getByRole("status", { name: "Warnings" })
      .getByText(/shouldLLMFilter/)
      .waitFor();
    expect((await stack.a("GET", "/v3/settings")).body).toMatchObject({
      chunkSize: 512,
      shouldLLMFilter: true,
      profileBuckets: [{ key: "work", description: "job, employer, colleagues" }],
    });
    await renders(page, "settings-saved");
    // The profile shows the new bucket (of the container tag in use).
    await go(page, "Profile");
    const bucket = page.getByRole("region", { name: "Buckets" });
    await bucket.getByRole("heading", { level: 3, name: "work" }).waitFor();
    await renders(page, "profile-buckets");

    expect(errors).toEqual([]);
  });
  /** The tag picker's rows (opened first when closed): tag → [documents, memories]. */
  async function pickerRows(page: Page): Promise<Record<string, [string, string]>> {
    const browse = page.getByRole("button", { name: "Browse tags" });
    if ((await browse.getAttribute("aria-expanded")) !== "true") await browse.click();
    const rows = page.getByRole("table", { name: "Container tags" }).locator("tbody tr");
    await rows.first().waitFor();
    const out: Record<string, [string, string]> = {};
    for (const r of await rows.all()) {
      out[(await r.getAttribute("data-container-tag"))!] = [
        await r.locator('[data-count="documents"]').innerText(),
        await r.locator('[data-count="memories"]').innerText(),
      ];
    }
    return out;
  }

  it("opens on the tenant's most recently active tag, lists its tags with counts, switches tags, shows failures", async () => {
    // Tenant B: a tag with an HTML-like display name, then alice (a note, a memory, a link that fails), then bob, last.
    const XSS = "<img src=x onerror=alert(1)>";
    expect((await stack.b("PATCH", "/v3/container-tags/xss_tag", { name: XSS })).status).toBe(200);
    expect((await stack.b("POST", "/ns/alice/document", { content: "Alice keeps the lighthouse logbook in a red binder.", id: "alice-notes" })).status).toBe(
      200,
    );
    expect((await stack.b("POST", "/v4/memories", { containerTag: "alice", memories: [{ content: "Alice prefers tea to coffee" }] })).status).toBe(201);
    // A URL on a private address is refused by the guarded fetcher: the document fails, with the reason.
    expect((await stack.b("POST", "/ns/alice/document", { content: `${stack.engram.url}/healthz`, id: "alice-broken-link" })).status).toBe(200);
    expect((await waitDone(stack.b, "alice", "alice-notes", 60_000)).system.status).toBe("done");
    const broken = await waitDone(stack.b, "alice", "alice-broken-link", 60_000);
    expect(broken.system.status).toBe("failed");
    expect((await stack.b("POST", "/ns/bob/document", { content: "Bob sails to the island every summer.", id: "bob-notes" })).status).toBe(200);
    expect((await waitDone(stack.b, "bob", "bob-notes", 60_000)).system.status).toBe("done");
    const listed = (await stack.b("POST", "/v3/documents/list", { containerTags: ["alice"], statuses: ["failed"] })).body.memories as { id: string }[];
    const brokenId = listed[0]!.id;
    const bobId = ((await stack.b("POST", "/v3/documents/list", { containerTags: ["bob"] })).body.memories as { id: string }[])[0]!.id;
    const tagsNow = (await stack.b("GET", "/v3/container-tags/list")).body as { containerTag: string; lastActivityAt: string }[];
    const activity = Object.fromEntries(tagsNow.map((t) => [t.containerTag, t.lastActivityAt]));
    expect(activity.bob! > activity.alice!).toBe(true);

    const { page, errors } = await openTab();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, KEY_B);
    // It opens on bob, the most recently active tag, with bob's document.
    await page.getByRole("heading", { name: "In bob" }).waitFor();
    expect(await page.getByLabel("Container tag", { exact: true }).inputValue()).toBe("bob");
    await page.locator(`tr[data-document-id="${bobId}"]`).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);

    // The picker: every tag with its counts, the current one marked, most recently active first.
    const rows = await pickerRows(page);
    expect(rows).toEqual({ bob: ["1", expect.any(String)], alice: ["2", expect.any(String)], xss_tag: ["0", "0"] });
    expect(Number(rows.alice![1])).toBeGreaterThanOrEqual(1);
    const table = page.getByRole("table", { name: "Container tags" });
    expect(await table.locator("tbody tr").first().getAttribute("data-container-tag")).toBe("bob");
    expect(await table.locator('tr[aria-current="true"]').getAttribute("data-container-tag")).toBe("bob");
    // The display name is text: shown as typed, no element made of it, nothing run.
    const xssRow = table.locator('tr[data-container-tag="xss_tag"]');
    expect(await xssRow.locator(".tag-name").innerText()).toBe(XSS);
    expect(await page.locator("header img").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await renders(page, "tag-picker");

    // Filtered, then alice chosen: every page works in alice.
    await page.getByLabel("Filter tags", { exact: true }).fill("ALI");
    expect(await table.locator("tbody tr").count()).toBe(1);
    await table.getByRole("button", { name: "alice", exact: true }).click();
    await page.getByRole("heading", { name: "In alice" }).waitFor();
    expect(await page.getByRole("button", { name: "Browse tags" }).getAttribute("aria-expanded")).toBe("false");
    await page.locator(`tr[data-document-id="${brokenId}"] .status-failed`).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(2);
    await go(page, "Memories");
    await page.locator("ul.memories li button").filter({ hasText: "Alice prefers tea to coffee" }).waitFor();
    await go(page, "Profile");
    await page.getByRole("heading", { level: 1, name: "Profile of alice" }).waitFor();

    // The overview: alice's failed document with its reason, in alice and in every tag; it links to the document.
    await go(page, "Overview");
    const counts = page.getByRole("table", { name: "Documents by state" });
    await counts.locator('tr[data-scope="tag"] [data-count="failed"]').filter({ hasText: "1" }).waitFor();
    expect(await counts.locator('tr[data-scope="tag"] th').innerText()).toBe("In alice");
    expect(await counts.locator('tr[data-scope="all"] [data-count="failed"]').innerText()).toBe("1");
    const failed = page.getByRole("list", { name: "Failed documents" }).locator(`li[data-document-id="${brokenId}"]`);
    expect(await failed.innerText()).toMatch(/in alice[\s\S]*(private|loopback|not allowed|refused)/i);
    await renders(page, "overview");
    await failed.getByRole("link").click();
    const why = page.locator("dl.facts dt", { hasText: "Why it failed" }).locator("xpath=following-sibling::dd[1]");
    expect(await why.innerText()).toBe(broken.system.failureReason);
    expect(page.url()).toContain(`/console/documents/${brokenId}`);

    // The choice is remembered: a reload stays on alice, and so does another tab of this browser (bob is still the latest).
    await page.reload();
    await why.waitFor();
    expect(await page.getByLabel("Container tag", { exact: true }).inputValue()).toBe("alice");
    const second = await page.context().newPage();
    await signIn(second, KEY_B);
    await second.getByRole("heading", { name: "In alice" }).waitFor();
    await second.close();

    // A key limited to alice sees alice only, and opens on it.
    const minted = await stack.b("POST", "/v3/keys", { name: "alice-console", scopes: ["read"], containerTags: ["alice"] });
    expect(minted.status).toBe(201);
    const scoped = await openTab();
    await signIn(scoped.page, minted.body.key as string);
    await scoped.page.getByRole("heading", { name: "In alice" }).waitFor();
    expect(Object.keys(await pickerRows(scoped.page))).toEqual(["alice"]);
    await go(scoped.page, "Overview");
    await scoped.page.getByRole("list", { name: "Failed documents" }).locator(`li[data-document-id="${brokenId}"]`).waitFor();
    expect(await scoped.page.getByRole("table", { name: "Documents by state" }).locator('tr[data-scope="all"] [data-count="failed"]').innerText()).toBe("1");

    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(scoped.errors).toEqual([]);
  });

  it("narrows many container tags with the filter and shows them in steps", async () => {
    const MANY = 120;
    for (let i = 0; i < MANY; i++) {
      const tag = `many_${String(i).padStart(3, "0")}`;
      expect((await stack.a("PATCH", `/v3/container-tags/${tag}`, { name: `Project ${i}` })).status).toBe(200);
    }
    const { page, errors } = await openTab();
    await signIn(page, KEY_A);
    await page.getByRole("button", { name: "Browse tags" }).click();
    const filter = page.getByLabel("Filter tags", { exact: true });
    // The filter has the focus: typing narrows at once.
    await page.keyboard.type("many_");
    expect(await filter.inputValue()).toBe("many_");
    const table = page.getByRole("table", { name: "Container tags" });
    await page.getByText(`Showing 50 of ${MANY} container tags matching “many_”`).waitFor();
    expect(await table.locator("tbody tr").count()).toBe(50);
    await page.getByRole("button", { name: "Show 50 more" }).click();
    expect(await table.locator("tbody tr").count()).toBe(100);
    await page.getByRole("button", { name: "Show 20 more" }).click();
    expect(await table.locator("tbody tr").count()).toBe(MANY);
    expect(await page.getByRole("button", { name: /^Show \d+ more$/ }).count()).toBe(0);
    // By display name too; a filter nothing matches says so.
    await filter.fill("project 10");
    expect((await table.locator("tbody tr").evaluateAll((rs) => rs.map((r) => r.getAttribute("data-container-tag")))).sort()).toEqual([
      "many_010",
      "many_100",
      "many_101",
      "many_102",
      "many_103",
      "many_104",
      "many_105",
      "many_106",
      "many_107",
      "many_108",
      "many_109",
    ]);
    await filter.fill("no_such_tag");
    await page.getByText("No container tag matches “no_such_tag”.").waitFor();
    // Escape closes the picker and gives the focus back to its button.
    await page.keyboard.press("Escape");
    expect(await page.getByRole("button", { name: "Browse tags" }).getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate("document.activeElement && document.activeElement.textContent")).toBe("Browse tags");
    expect(errors).toEqual([]);
  });
});
