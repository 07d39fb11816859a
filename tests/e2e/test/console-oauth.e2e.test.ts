import { FakeGitHub } from "@engram/testing";
import { consoleBrowser, describeBrowser, STORED_KEY } from "./console-browser";
import { fakeProviderStack, gitHubEnv } from "./helpers";

const KEY_A = "console-oauth-key-a-0123456789abcdef";
const KEY_B = "console-oauth-key-b-0123456789abcdef";
const TAG = "console_code";

/**
 * A GitHub connection made entirely in the console, in Chromium, against a
 * local fake of GitHub (OAuth with PKCE, REST, webhooks): Connect sends the
 * tab to the provider's consent page, the gateway's callback brings it back
 * to the Connections page still signed in (the key stays in the tab's
 * session storage, never in a URL), the repositories are chosen in the
 * console, the sync runs and its history is listed, the imported documents
 * are on the Documents page; a refused consent comes back as an error; the
 * connection is deleted. Skipped with a printed reason without Chromium.
 */
describeBrowser("console: a GitHub connection through the provider's page", () => {
  const fake = new FakeGitHub();
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, gitHubEnv(fake));
  const { openTab, renders, go, signIn } = consoleBrowser();

  it("authorises on the provider's page, chooses repositories, syncs, shows the history, deletes", async () => {
    const repo = fake.addRepo("octo/handbook", {
      description: "The team handbook",
      files: { "README.md": "# Handbook\n\nThe on-call rotation changes every Monday.", "docs/guide.md": "# Guide\n\nDeploys happen from the release branch." },
    });
    fake.addRepo("octo/other", { private: true });

    const { page, errors } = await openTab();
    await signIn(page, stack.engram.url, KEY_A);
    await page.getByLabel("Container tag", { exact: true }).fill(TAG);
    await page.getByLabel("Container tag", { exact: true }).press("Enter");
    await go(page, "Connections");
    await page.getByLabel("Provider", { exact: true }).selectOption("github");
    await page.getByRole("button", { name: "Connect GitHub" }).click();

    // The tab went to GitHub's consent page (the fake consents at once) and came back through the callback.
    const back = page.getByRole("status").filter({ hasText: /^Authorised n_\w+: choose what it imports/ });
    await back.waitFor();
    const id = /Authorised (n_\w+)/.exec(await back.innerText())![1]!;
    expect(fake.oauth.tokenRequests.some((r) => r.grant_type === "authorization_code")).toBe(true);
    // Still signed in, with the outcome read once: the URL no longer carries it, and no key ever was in it.
    expect(await page.evaluate(STORED_KEY)).toBe(KEY_A);
    expect(new URL(page.url()).search).toBe("");
    const row = page.locator(`tr[data-connection-id="${id}"]`);
    await row.getByText("octo@example.com").waitFor();
    await renders(page, "connections-oauth-back");

    // Choose the repositories: the account's, listed from GitHub; one chosen.
    await row.getByRole("button", { name: "Choose repositories" }).click();
    const picker = page.getByRole("form", { name: `Repositories of ${id}` });
    await picker.getByLabel(/octo\/handbook/).waitFor();
    expect(await picker.getByText("private").count()).toBe(1);
    expect(await picker.getByRole("button", { name: "Import 0 repositories" }).isDisabled()).toBe(true);
    await picker.getByLabel(/octo\/handbook/).check();
    await renders(page, "connections-repositories");
    await picker.getByRole("button", { name: "Import 1 repository" }).click();
    await page.getByRole("status").filter({ hasText: "webhooks registered: 1" }).waitFor();
    expect(fake.hooks.map((h) => h.repo)).toEqual([repo.full_name]);

    // The sync runs and succeeds; its history lists it.
    await page.locator(`tr[data-connection-id="${id}"][data-run-status="succeeded"]`).waitFor({ timeout: 30_000 });
    expect(await row.innerText()).toMatch(/2 documents imported/);
    await row.getByRole("button", { name: "Import now" }).click();
    await page.getByRole("status").filter({ hasText: "Sync started for github" }).waitFor();
    await row.getByRole("button", { name: "History" }).click();
    const history = page.getByRole("region", { name: `Sync history of ${id}` });
    await history.locator("li").nth(1).waitFor({ timeout: 30_000 });
    await page.locator(`tr[data-connection-id="${id}"][data-run-status="succeeded"]`).waitFor({ timeout: 30_000 });
    await history.locator('li[data-run-status="succeeded"]').nth(1).waitFor({ timeout: 30_000 });
    const runs = await history.locator("li").allInnerTexts();
    expect(runs).toHaveLength(2);
    // Newest first: the second sync found nothing new.
    expect(runs[0]).toMatch(/0 documents imported/);
    expect(runs[1]).toMatch(/2 documents imported/);
    await renders(page, "connections-history");

    // The imported documents are in the container tag.
    await go(page, "Documents");
    await page.locator("tbody tr .status-done").nth(1).waitFor({ timeout: 30_000 });
    expect(await page.locator("tbody tr").allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("octo/handbook: README.md"), expect.stringContaining("octo/handbook: docs/guide.md")]),
    );

    // A refused consent comes back as an error, with nothing imported.
    await go(page, "Connections");
    fake.oauth.denyNext = true;
    await page.getByLabel("Provider", { exact: true }).selectOption("github");
    await page.getByRole("button", { name: "Connect GitHub" }).click();
    const failed = page.getByRole("alert").filter({ hasText: /did not complete: access_denied/ });
    await failed.waitFor();
    // The refused connection is listed as waiting, with what to do about it.
    const refusedId = /authorisation of (n_\w+)/.exec(await failed.innerText())![1]!;
    const refusedRow = page.locator(`tr[data-connection-id="${refusedId}"]`);
    await refusedRow.getByText("pending_authorization").waitFor();
    expect(await refusedRow.innerText()).toMatch(/delete it and connect again/);
    await renders(page, "connections-oauth-denied");
    await refusedRow.getByRole("button", { name: "Delete…" }).click();
    await refusedRow.getByRole("button", { name: "Delete connection" }).click();
    await refusedRow.waitFor({ state: "detached" });

    // Delete the authorised connection (keeping nothing): its documents go with it.
    await row.getByRole("button", { name: "Delete…" }).click();
    await row.getByRole("button", { name: "Delete connection" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Deleted the github connection ${id}` })
      .waitFor();
    expect((await stack.a("GET", `/v3/connections/${id}`)).status).toBe(404);
    expect((await stack.b("GET", `/v3/connections/${id}`)).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
