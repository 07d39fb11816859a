import { FakeGoogleDrive, waitFor } from "@engram/testing";
import { type Api, documentChunks, fakeProviderStack, finishedRun, waitSearchable } from "./helpers";

const KEY_A = "tenant-a-key-gdrive-0123456789abcdef";
const KEY_B = "tenant-b-key-gdrive-0123456789abcdef";

type Doc = { id: string };

/**
 * A Google Drive connection through the gateway against a local fake of
 * Google (OAuth with PKCE, offline access and non-rotating refresh tokens;
 * Drive v3 with a change log and watch channels), walking the scenario of
 * connectors.md: consent and callback, the initial sync (Docs as Markdown,
 * Sheets as xlsx with every sheet, a shared drive), a change announced on the
 * watch channel, forged notifications, a deletion with the access token
 * expired meanwhile, a 429 retried without duplicates, an expired page token
 * converging by a full listing, and revocation.
 */
describe("Google Drive connection end to end", () => {
  const fake = new FakeGoogleDrive();
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, (url) => ({
    GOOGLE_CLIENT_ID: fake.clientId,
    GOOGLE_CLIENT_SECRET: fake.clientSecret,
    GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${url}/token`,
    GOOGLE_DRIVE_API_URL: `${url}/`,
  }));
  const { a, b, env } = stack;

  /** The connection's documents by filepath (the file's name). */
  const documentsByName = async (api: Api = a) => {
    const docs = (await api("POST", "/v3/connections/google-drive/documents", { containerTags: ["drive"] })).body as Doc[];
    const out = new Map<string, string>();
    for (const d of docs) out.set((await api("GET", `/v3/documents/${d.id}`)).body.filepath as string, d.id);
    return out;
  };
  const names = async () => [...(await documentsByName()).keys()].sort();
  const searchChunks = (q: string) => documentChunks(a, "drive", q);
  const searchable = (q: string, text: string) => waitSearchable(a, "drive", q, text);

  it("authorizes, imports, follows the watch channel, refreshes tokens, survives 429s and expired page tokens, and stops when revoked", async () => {
    const runbook = fake.addDoc("Runbook", "# Runbook\n\nThe on-call rotation changes every Monday.");
    fake.addSheet("Budget", {
      Costs: [
        ["Item", "Cost"],
        ["Espresso machine", "1200"],
      ],
      Hiring: [
        ["Role", "City"],
        ["Staff designer", "Lisbon"],
      ],
    });
    const notes = fake.addFile({ name: "notes.txt", content: "Deploys happen from the release branch." });
    fake.addDoc("Team charter", "# Charter\n\nThe platform team owns the message queue.", { driveId: "0AplatformDrive" });
    fake.addFolder("Projects");

    expect((await a("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com"] })).status).toBe(200);
    const created = await a("POST", "/v3/connections/google-drive", { containerTag: "drive", redirectUrl: "https://app.example.com/connected" });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const link = new URL(created.body.authLink as string);
    expect(`${link.origin}${link.pathname}`).toBe(env.GOOGLE_AUTH_URL);
    expect(
      Object.fromEntries(
        ["client_id", "redirect_uri", "code_challenge_method", "access_type", "prompt", "response_type"].map((k) => [k, link.searchParams.get(k)]),
      ),
    ).toEqual({
      client_id: fake.clientId,
      redirect_uri: `${env.ENGRAM_PUBLIC_URL}/v3/connections/auth/callback/google-drive`,
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "consent",
      response_type: "code",
    });
    expect(link.searchParams.get("scope")!.split(" ")).toContain("https://www.googleapis.com/auth/drive.readonly");
    expect(link.searchParams.get("state")).toBeTruthy();
    expect(link.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);

    // The browser: consent at the fake, back through the gateway's callback, on to redirectUrl.
    const consent = await fetch(link, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = await fetch(consent.headers.get("location")!, { redirect: "manual" });
    expect(back.status).toBe(302);
    expect(Object.fromEntries(new URL(back.headers.get("location")!).searchParams)).toEqual({ connectionId: id, success: "true" });
    expect(fake.oauth.tokenRequests.at(-1)).toMatchObject({ grant_type: "authorization_code", code_verifier: true });

    const shown = (await a("GET", `/v3/connections/${id}`)).body;
    expect(shown).toMatchObject({ id, provider: "google-drive", email: "ada@example.com" });
    expect(JSON.stringify(shown)).not.toMatch(/ya29_/);
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);

    // The initial sync: everything listed, shared drive included, the folder skipped; a watch channel opened.
    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    expect(await names()).toEqual(["Budget", "Runbook", "Team charter", "notes.txt"]);
    const channel = fake.activeChannel()!;
    expect(channel.address.startsWith(`${env.ENGRAM_PUBLIC_URL}/v3/connections/webhooks/google-drive?connection=${id}&tenant=`)).toBe(true);
    // Google's first message on the channel (sync) is acknowledged.
    await waitFor(async () => (fake.notifications.some((n) => n.channelId === channel.id && n.state === "sync" && n.status === 200) ? true : undefined), {
      timeoutMs: 10_000,
      what: "the channel's sync message to be acknowledged",
    });
    await searchable("when does the on-call rotation change", "every Monday");
    // Every sheet of the workbook is imported.
    await searchable("which city is the staff designer role in", "Lisbon");

    // An edit announced on the channel: synced, the new content searchable, the old one gone.
    fake.modifyFile(runbook.id, { content: "# Runbook\n\nThe on-call rotation now changes every Thursday." });
    expect((await fake.notify(channel)).status).toBe(202);
    // The same message delivered again (same channel and message number): one sync only.
    const again = await fetch(channel.address, {
      method: "POST",
      headers: {
        "x-goog-channel-id": channel.id,
        "x-goog-channel-token": channel.token!,
        "x-goog-resource-id": channel.resourceId,
        "x-goog-resource-state": "change",
        "x-goog-message-number": String(channel.messageNumber),
      },
    });
    expect(again.status).toBe(200);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    expect(await names()).toHaveLength(4);
    await searchable("when does the on-call rotation change", "every Thursday");
    expect((await searchChunks("when does the on-call rotation change")).some((c) => c.includes("every Monday"))).toBe(false);

    // Forged notifications are refused: a wrong channel token, another channel, none at all.
    expect((await fake.notify(channel, { token: "forged-token" })).status).toBe(401);
    expect((await fake.notify(channel, { channelId: "00000000-0000-4000-8000-000000000000" })).status).toBe(401);
    const bare = await fetch(channel.address, { method: "POST", headers: { "x-goog-resource-state": "change", "x-goog-channel-id": channel.id } });
    expect(bare.status).toBe(401);

    // A deletion, with the access token expired meanwhile: refreshed (Google keeps the refresh token) and synced.
    fake.expireAccessTokens();
    const refreshes = fake.oauth.refreshCount;
    fake.deleteFile(notes.id);
    expect((await fake.notify(channel)).status).toBe(202);
    const third = await finishedRun(a, id, second.startedAt);
    expect(third.status).toBe("succeeded");
    expect(fake.oauth.refreshCount).toBe(refreshes + 1);
    expect(await names()).toEqual(["Budget", "Runbook", "Team charter"]);

    // A 429 with Retry-After on the change feed, after a second expiry (the same refresh token works again): no duplicates.
    fake.expireAccessTokens();
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/drive/v3/changes" });
    fake.addFile({ name: "limits.md", mimeType: "text/markdown", content: "# Limits\n\nRate limits are retried after the advertised wait." });
    const docsBefore = await documentsByName();
    expect((await a("POST", "/v3/connections/google-drive/import", { containerTags: ["drive"] })).status).toBe(202);
    const fourth = await finishedRun(a, id, third.startedAt);
    expect(fourth.status).toBe("succeeded");
    expect(fake.oauth.refreshCount).toBe(refreshes + 2);
    const docsAfter = await documentsByName();
    expect([...docsAfter.keys()].sort()).toEqual(["Budget", "Runbook", "Team charter", "limits.md"]);
    for (const [name, docId] of docsBefore) expect(docsAfter.get(name)).toBe(docId);

    // The page token expires while a file vanishes unannounced and another appears: a full listing converges.
    const charter = [...fake.files.values()].find((f) => f.name === "Team charter")!;
    fake.files.delete(charter.id);
    fake.addDoc("Postmortem", "# Postmortem\n\nThe queue filled up because of a retry storm.");
    fake.expirePageTokens();
    expect((await a("POST", "/v3/connections/google-drive/import", {})).status).toBe(202);
    const fifth = await finishedRun(a, id, fourth.startedAt);
    expect(fifth.status).toBe("succeeded");
    expect(await names()).toEqual(["Budget", "Postmortem", "Runbook", "limits.md"]);

    // The other tenant sees none of it.
    expect((await b("POST", "/v3/connections/google-drive/documents", { containerTags: ["drive"] })).body).toEqual([]);
    expect((await b("POST", "/v4/search", { q: "on-call rotation", containerTag: "drive", searchMode: "documents", threshold: 0 })).body.results).toEqual([]);

    // Revoked: the next run fails as auth_expired and the connection waits for a new consent.
    fake.revoke();
    fake.addFile({ name: "after-revoke.txt", content: "never imported" });
    expect((await a("POST", "/v3/connections/google-drive/import", {})).status).toBe(202);
    expect(await finishedRun(a, id, fifth.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });
    expect(await names()).not.toContain("after-revoke.txt");
  }, 180_000);
});
