import { FakeGraph } from "@engram/testing";
import { type Api, fakeProviderStack, finishedRun, waitSearchable } from "./helpers";

const KEY_A = "tenant-a-key-onedrive-0123456789abcdef";
const KEY_B = "tenant-b-key-onedrive-0123456789abcdef";

type Doc = { id: string };

/**
 * A OneDrive connection through the gateway against a local fake of
 * Microsoft's identity platform and Graph (rotating refresh tokens, delta
 * feeds, pre-authenticated downloads, subscriptions with the validation
 * handshake), walking the scenario of connectors.md: consent and callback,
 * initial sync of the OneDrive and of a SharePoint site's library, a change
 * announced by a Graph notification, a forged notification, a deletion and a
 * lost permission with the access token expired meanwhile (refresh with
 * rotation, twice), a 429 retried without duplicates, an expired delta link
 * converging by a full resync, and revocation.
 */
describe("OneDrive connection end to end", () => {
  const fake = new FakeGraph();
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, (url) => ({
    MICROSOFT_CLIENT_ID: fake.clientId,
    MICROSOFT_CLIENT_SECRET: fake.clientSecret,
    MICROSOFT_LOGIN_URL: `${url}/common`,
    GRAPH_API_URL: `${url}/v1.0`,
  }));
  const { a, b, env } = stack;

  /** The connection's documents by filepath. */
  const documentsByPath = async (api: Api = a) => {
    const docs = (await api("POST", "/v3/connections/onedrive/documents", { containerTags: ["files"] })).body as Doc[];
    const out = new Map<string, string>();
    for (const d of docs) out.set((await api("GET", `/v3/documents/${d.id}`)).body.filepath as string, d.id);
    return out;
  };
  const paths = async () => [...(await documentsByPath()).keys()].sort();
  const searchable = (q: string, text: string) => waitSearchable(a, "files", q, text);
  const refreshGrants = () => fake.tokenRequests.filter((r) => r.grant_type === "refresh_token").length;

  it("authorizes, syncs OneDrive and SharePoint, follows notifications, refreshes rotating tokens, converges after a resync, and fails once revoked", async () => {
    fake.addFile("Handbook/oncall.md", "# On-call\n\nThe on-call rotation changes every Monday.");
    fake.addFile("Handbook/deploys.md", "# Deploys\n\nDeploys happen from the release branch.");
    fake.addFile("Budget/notes.txt", "The travel budget is frozen until March.");
    const site = fake.addSite("contoso.sharepoint.example", "/sites/eng", "Engineering");
    const library = fake.drives.get(site.driveIds[0]!)!;
    fake.addFile("Runbooks/restart.md", "# Restart\n\nRestart the queue before the workers.", { drive: library });

    expect((await a("PATCH", "/v3/settings", { allowedRedirectOrigins: ["https://app.example.com"] })).status).toBe(200);
    const created = await a("POST", "/v3/connections/onedrive", {
      containerTag: "files",
      redirectUrl: "https://app.example.com/connected",
      metadata: { sharepointSites: "contoso.sharepoint.example:/sites/eng" },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const link = new URL(created.body.authLink as string);
    expect(`${link.origin}${link.pathname}`).toBe(`${env.MICROSOFT_LOGIN_URL}/oauth2/v2.0/authorize`);
    expect(link.searchParams.get("client_id")).toBe(fake.clientId);
    expect(link.searchParams.get("redirect_uri")).toBe(`${env.ENGRAM_PUBLIC_URL}/v3/connections/auth/callback/onedrive`);
    expect(link.searchParams.get("code_challenge_method")).toBe("S256");
    expect(link.searchParams.get("state")).toBeTruthy();
    const scopes = (link.searchParams.get("scope") ?? "").split(" ");
    expect(scopes).toEqual(expect.arrayContaining(["offline_access", "Files.Read.All"]));

    // The browser: consent at the fake, back through the gateway's callback, on to redirectUrl.
    const consent = await fetch(link, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = await fetch(consent.headers.get("location")!, { redirect: "manual" });
    expect(back.status).toBe(302);
    const landed = new URL(back.headers.get("location")!);
    expect(Object.fromEntries(landed.searchParams)).toEqual({ connectionId: id, success: "true" });

    const shown = (await a("GET", `/v3/connections/${id}`)).body;
    expect(shown).toMatchObject({ id, provider: "onedrive", email: "adele@contoso.example" });
    expect(JSON.stringify(shown)).not.toMatch(/msft_(at|rt)_/);
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);

    // The initial sync: both drives, and one subscription per drive, validated through the gateway.
    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    expect(await paths()).toEqual(["/Budget/notes.txt", "/Handbook/deploys.md", "/Handbook/oncall.md", "/Runbooks/restart.md"]);
    expect(fake.validations.length).toBeGreaterThanOrEqual(2);
    expect(fake.validations.every((v) => v.ok && v.url.includes(`connection=${id}`))).toBe(true);
    const [sub] = fake.subscriptionsOf(fake.myDrive);
    expect(sub).toBeDefined();
    expect(fake.subscriptionsOf(library)).toHaveLength(1);
    await searchable("when does the on-call rotation change", "every Monday");

    // A change, announced by Graph's notification (no item named): a sync picks it up.
    fake.modifyFile("Handbook/oncall.md", "# On-call\n\nThe on-call rotation now changes every Wednesday.");
    expect((await fake.notify(sub!.id)).status).toBe(202);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    await searchable("when does the on-call rotation change", "every Wednesday");
    expect(await paths()).toHaveLength(4);

    // A forged notification (wrong clientState) is refused; one naming no connection too.
    expect((await fake.notify(sub!.id, { clientState: "forged" })).status).toBe(401);
    const post = (query: string) =>
      fetch(`${stack.engram.url}/v3/connections/webhooks/onedrive${query}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await post("")).status).toBe(400);
    expect((await post(`?connection=${id}&tenant=tenant-b`)).status).toBe(404);

    // A deletion and a lost permission, with the access token expired meanwhile: refreshed (rotation) and synced.
    const refreshes = fake.refreshCount;
    fake.expireAccessTokens();
    fake.deleteItem("Handbook/deploys.md");
    fake.removePermission("Runbooks", library);
    expect((await fake.notify(sub!.id)).status).toBe(202);
    const third = await finishedRun(a, id, second.startedAt);
    expect(third.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 1);
    expect(await paths()).toEqual(["/Budget/notes.txt", "/Handbook/oncall.md"]);

    // The old refresh token was retired; the rotated one was kept: a second expiry refreshes again.
    // Meanwhile a 429 with Retry-After on the next Graph call is waited out, and nothing is imported twice.
    fake.expireAccessTokens();
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/v1.0/drives" });
    fake.addFile("Handbook/holidays.md", "# Holidays\n\nThe office closes on the first Friday of August.");
    const before = await documentsByPath();
    expect((await a("POST", "/v3/connections/onedrive/import", { containerTags: ["files"] })).status).toBe(202);
    const fourth = await finishedRun(a, id, third.startedAt);
    expect(fourth.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 2);
    expect(refreshGrants()).toBe(fake.refreshCount);
    expect(fake.failNext).toHaveLength(0);
    // Each refresh presented the token the previous one issued; the retired one is refused now.
    const [used, rotated] = fake.refreshTokensPresented.slice(-2);
    expect(rotated).not.toBe(used);
    const replay = await fetch(`${env.MICROSOFT_LOGIN_URL}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: used!, client_id: fake.clientId, client_secret: fake.clientSecret }),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    const after = await documentsByPath();
    expect([...after.keys()].sort()).toEqual(["/Budget/notes.txt", "/Handbook/holidays.md", "/Handbook/oncall.md"]);
    for (const [p, docId] of before) expect(after.get(p)).toBe(docId);
    await searchable("when does the office close", "first Friday of August");

    // The delta links expire (410 Gone) while a file goes unannounced: a full resync converges on Graph's state.
    fake.expireDeltaTokens();
    const mark = fake.requests.length;
    fake.deleteItem("Budget/notes.txt");
    fake.modifyFile("Handbook/holidays.md", "# Holidays\n\nThe office closes on the second Friday of August.");
    expect((await a("POST", "/v3/connections/onedrive/import", {})).status).toBe(202);
    const fifth = await finishedRun(a, id, fourth.startedAt);
    expect(fifth.status).toBe("succeeded");
    // Both drives were enumerated again from scratch.
    expect(fake.requests.slice(mark).filter((r) => /^GET \/v1\.0\/drives\/[^/]+\/root\/delta$/.test(r))).toHaveLength(2);
    expect(await paths()).toEqual(["/Handbook/holidays.md", "/Handbook/oncall.md"]);
    await searchable("when does the office close", "second Friday of August");

    // The other tenant sees none of it.
    expect(await documentsByPath(b)).toEqual(new Map());

    // Revoked: the run fails as auth_expired.
    fake.revoke();
    fake.addFile("Handbook/late.md", "# Late");
    expect((await a("POST", "/v3/connections/onedrive/import", {})).status).toBe(202);
    expect(await finishedRun(a, id, fifth.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });
  }, 180_000);
});
