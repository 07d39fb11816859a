import { FakeNotion, waitFor } from "@engram/testing";
import { type Api, documentChunks, fakeProviderStack, finishedRun, lastRun } from "./helpers";

const KEY_A = "tenant-a-key-notion-0123456789abcdef";
const KEY_B = "tenant-b-key-notion-0123456789abcdef";

type Doc = { id: string; title: string | null };

/**
 * A Notion connection through the gateway against a local fake of Notion
 * (OAuth with Basic client auth and rotating refresh tokens, the REST API as
 * @notionhq/client v5 calls it, and its integration webhook), walking the
 * scenario of connectors.md: consent and callback, the initial sync of pages
 * and database rows (properties as filterable metadata), the webhook
 * subscription's verification, an edit announced by a signed event, tampered
 * and foreign events, a trashed page and an unshared page going, a token
 * refresh with rotation in the middle of a sync, a 429 retried without
 * duplicates, and revocation.
 */
describe("Notion connection end to end", () => {
  const fake = new FakeNotion();
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, (url) => ({
    NOTION_API_URL: url,
    NOTION_CLIENT_ID: fake.clientId,
    NOTION_CLIENT_SECRET: fake.clientSecret,
    NOTION_WEBHOOK_VERIFICATION_TOKEN: fake.verificationToken,
  }));
  const { a, b, env } = stack;

  const documents = async (api: Api = a) => (await api("POST", "/v3/connections/notion/documents", { containerTags: ["notes"] })).body as Doc[];
  /** The titles of the connection's documents, once processing has given each one its title. */
  const titles = () =>
    waitFor(
      async () => {
        const docs = await documents();
        return docs.every((d) => d.title) ? docs.map((d) => d.title).sort() : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: "the documents to be processed" },
    );
  const search = (q: string, filters?: unknown) => documentChunks(a, "notes", q, filters);
  const webhookUrl = () => `${stack.engram.url}/v3/connections/webhooks/notion`;

  it("authorizes, imports pages and rows, follows signed events, deletes trashed and unshared pages, refreshes tokens, and fails when revoked", async () => {
    const handbook = fake.addPage({
      title: "Handbook",
      blocks: [
        { type: "heading_2", text: "On-call" },
        { type: "paragraph", text: "The on-call rotation changes every Monday." },
      ],
    });
    const tasks = fake.addDatabase({ title: "Tasks" });
    const row = fake.addRow(tasks.id, {
      properties: { Name: { title: "Ship the importer" }, Status: { status: "In progress" }, Points: { number: 5 }, Tags: { multi_select: ["backend"] } },
      blocks: [{ type: "paragraph", text: "The importer reads every shared zeppelin manifest." }],
    });
    const old = fake.addPage({ title: "Old notes", blocks: [{ type: "paragraph", text: "Obsolete." }] });
    const draft = fake.addPage({ title: "Private draft", blocks: [{ type: "paragraph", text: "Not for everyone." }] });

    expect((await a("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com"] })).status).toBe(200);
    const created = await a("POST", "/v3/connections/notion", { containerTag: "notes", redirectUrl: "https://app.example.com/connected" });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const link = new URL(created.body.authLink as string);
    expect(`${link.origin}${link.pathname}`).toBe(`${env.NOTION_API_URL}/v1/oauth/authorize`);
    expect(link.searchParams.get("client_id")).toBe(fake.clientId);
    expect(link.searchParams.get("owner")).toBe("user");
    expect(link.searchParams.get("response_type")).toBe("code");
    expect(link.searchParams.get("code_challenge_method")).toBe("S256");
    expect(link.searchParams.get("state")).toBeTruthy();
    expect(link.searchParams.has("scope")).toBe(false);
    expect(link.searchParams.get("redirect_uri")).toBe(`${env.ENGRAM_PUBLIC_URL}/v3/connections/auth/callback/notion`);

    // The browser: consent at the fake, back through the gateway's callback, on to redirectUrl.
    const consent = await fetch(link, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = await fetch(consent.headers.get("location")!, { redirect: "manual" });
    expect(back.status).toBe(302);
    expect(Object.fromEntries(new URL(back.headers.get("location")!).searchParams)).toEqual({ connectionId: id, success: "true" });
    // Notion's token call: the client in an HTTP Basic header.
    expect(fake.tokenRequests.at(-1)).toMatchObject({ grant_type: "authorization_code", client_auth: "basic", client_id: fake.clientId });

    const shown = (await a("GET", `/v3/connections/${id}`)).body;
    expect(shown).toMatchObject({ id, provider: "notion", email: "ada@example.com" });
    expect(JSON.stringify(shown)).not.toMatch(/ntn_(at|rt)_/);
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);

    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    expect(await titles()).toEqual(["Handbook", "Old notes", "Private draft", "Ship the importer"]);
    expect(await documents(b)).toEqual([]);
    // The row's properties are the document's metadata, and filter searches.
    const rowDoc = (await documents()).find((d) => d.title === "Ship the importer")!;
    const detail = (await a("GET", `/v3/documents/${rowDoc.id}`)).body;
    expect(detail.metadata).toMatchObject({ Name: "Ship the importer", Status: "In progress", Points: 5, Tags: "backend", source: "notion" });
    await waitFor(async () => ((await search("zeppelin manifest", { AND: [{ key: "Status", value: "In progress" }] })).length > 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "the row to be searchable by its Status",
    });
    expect(await search("zeppelin manifest", { AND: [{ key: "Status", value: "Done" }] })).toEqual([]);
    expect((await search("zeppelin manifest", { AND: [{ key: "Points", value: "4", filterType: "numeric", numericOperator: ">" }] })).length).toBeGreaterThan(
      0,
    );

    // The webhook subscription's verification request: acknowledged (its token is logged for the operator).
    expect(await fake.sendVerification(webhookUrl())).toEqual({ status: 200, body: "" });

    // An edit, announced by a signed event (and redelivered: one sync).
    fake.editPage(handbook.id, {
      blocks: [
        { type: "heading_2", text: "On-call" },
        { type: "paragraph", text: "The on-call rotation changes every Thursday." },
      ],
    });
    fake.editPage(row.id, { properties: { Status: { status: "Done" } } });
    const event = { type: "page.content_updated", entityId: handbook.id, id: "evt-edit-1" };
    expect((await fake.sendEvent(webhookUrl(), event)).status).toBe(202);
    expect((await fake.sendEvent(webhookUrl(), event)).status).toBe(200);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    await waitFor(async () => ((await search("when does the on-call rotation change")).some((c) => c.includes("Thursday")) ? true : undefined), {
      timeoutMs: 60_000,
      what: "the handbook's new content to be searchable",
    });
    expect((await search("when does the on-call rotation change")).some((c) => c.includes("Monday"))).toBe(false);
    await waitFor(async () => ((await search("zeppelin manifest", { AND: [{ key: "Status", value: "Done" }] })).length > 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "the row's new Status to filter searches",
    });
    expect(await titles()).toHaveLength(4);

    // Tampered, unsigned and wrongly signed events are refused; an event of a workspace nobody connected is acknowledged without a sync.
    expect((await fake.sendEvent(webhookUrl(), { type: "page.created", entityId: handbook.id }, { tamper: true })).status).toBe(401);
    expect((await fake.sendEvent(webhookUrl(), { type: "page.created", entityId: handbook.id }, { signature: null })).status).toBe(401);
    expect((await fake.sendEvent(webhookUrl(), { type: "page.created", entityId: handbook.id }, { signature: "sha256=00" })).status).toBe(401);
    const quiet = (await lastRun(a, id))!.startedAt;
    const foreign = await fake.sendEvent(webhookUrl(), { type: "page.created", entityId: handbook.id, workspaceId: "00000000-0000-4000-8000-000000000000" });
    expect(foreign.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await lastRun(a, id))!.startedAt).toBe(quiet);

    // A page moved to the trash (page.deleted), and a page unshared whose last edit is announced late: both documents go.
    fake.trash(old.id);
    fake.editPage(draft.id, { blocks: [{ type: "paragraph", text: "Edited just before it was unshared." }] });
    fake.unshare(draft.id);
    expect((await fake.sendEvent(webhookUrl(), { type: "page.deleted", entityId: old.id })).status).toBe(202);
    const third = await finishedRun(a, id, quiet);
    expect(third.status).toBe("succeeded");
    // The late event may land in the same sync or start the next one.
    expect([200, 202]).toContain((await fake.sendEvent(webhookUrl(), { type: "page.content_updated", entityId: draft.id })).status);
    await waitFor(async () => ((await titles()).length === 2 ? true : undefined), {
      timeoutMs: 60_000,
      what: "the trashed and unshared pages' documents to go",
    });
    expect(await titles()).toEqual(["Handbook", "Ship the importer"]);
    // The run the late event asked for (whichever it was) has finished.
    await finishedRun(a, id, third.startedAt);

    // The access token expires meanwhile: the sync refreshes it (a rotated refresh token) and goes on; twice.
    const refreshes = fake.refreshCount;
    fake.expireAccessTokens();
    fake.addPage({ title: "Onboarding", blocks: [{ type: "paragraph", text: "New hires get a laptop on day one." }] });
    const beforeImport = (await lastRun(a, id))!.startedAt;
    expect((await a("POST", "/v3/connections/notion/import", { containerTags: ["notes"] })).status).toBe(202);
    const fourth = await finishedRun(a, id, beforeImport);
    expect(fourth.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 1);
    expect(await titles()).toEqual(["Handbook", "Onboarding", "Ship the importer"]);

    // A 429 with Retry-After on the next block read is waited out; nothing is imported twice.
    fake.expireAccessTokens();
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/v1/blocks" });
    fake.editPage(handbook.id, { blocks: [{ type: "paragraph", text: "The on-call rotation changes every Friday." }] });
    expect((await a("POST", "/v3/connections/notion/import", {})).status).toBe(202);
    const fifth = await finishedRun(a, id, fourth.startedAt);
    expect(fifth.status).toBe("succeeded");
    expect(fake.failNext).toEqual([]);
    expect(fake.refreshCount).toBe(refreshes + 2);
    expect(await titles()).toEqual(["Handbook", "Onboarding", "Ship the importer"]);

    // Revoked: the run fails as auth_expired.
    fake.revoke();
    expect((await a("POST", "/v3/connections/notion/import", {})).status).toBe(202);
    expect(await finishedRun(a, id, fifth.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });
    expect(await documents(b)).toEqual([]);
  }, 180_000);
});
