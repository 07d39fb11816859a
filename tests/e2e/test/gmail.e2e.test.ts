import { FakeGmail } from "@engram/testing";
import { type Api, expectErrorBody, fakeProviderStack, finishedRun, lastRun, waitSearchable } from "./helpers";

const KEY_A = "tenant-a-key-gmail-0123456789abcdefgh";
const KEY_B = "tenant-b-key-gmail-0123456789abcdefgh";
const TOPIC = "projects/engram-test/topics/gmail";

type Doc = { id: string };

/**
 * A Gmail connection through the gateway against a local fake of Google
 * (OAuth, the Gmail API, Pub/Sub's authenticated push and Google's signing
 * certificates), walking the scenario of connectors.md: consent and
 * callback, the initial sync (threads and an attachment, a watch on the
 * topic), a reply announced by push (and redelivered: one sync), a deleted
 * thread, refused pushes (tampered, unsigned, not an envelope, named
 * connection), a push for an unknown mailbox, another tenant's connection of
 * another mailbox left alone, an access token expired mid-sync, a 429, an
 * expired history, revocation, and deletion (the watch stopped).
 */
describe("Gmail connection end to end", () => {
  const fake = new FakeGmail();
  let pushUrl = "";
  const stack = fakeProviderStack(fake, KEY_A, KEY_B, (url, port) => {
    pushUrl = `http://127.0.0.1:${port}/v3/connections/webhooks/gmail`;
    return {
      GOOGLE_CLIENT_ID: fake.clientId,
      GOOGLE_CLIENT_SECRET: fake.clientSecret,
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GMAIL_API_URL: `${url}/`,
      GMAIL_PUBSUB_TOPIC: TOPIC,
      GMAIL_PUSH_SERVICE_ACCOUNT: fake.serviceAccountEmail,
      GOOGLE_CERTS_URL: `${url}/oauth2/v1/certs`,
    };
  });
  const { a, b, env } = stack;

  const documents = async (api: Api = a) => (await api("POST", "/v3/connections/gmail/documents", { containerTags: ["mail"] })).body as Doc[];
  /** The connection's documents by their metadata: a thread's subject, an attachment's "file (subject)". */
  const titles = async (api: Api = a) => {
    const out: string[] = [];
    for (const d of await documents(api)) {
      const m = (await api("GET", `/v3/documents/${d.id}`)).body.metadata as { subject: string; filename?: string };
      out.push(m.filename ? `${m.filename} (${m.subject})` : m.subject);
    }
    return out.sort();
  };
  const searchable = (q: string, phrase: string) => waitSearchable(a, "mail", q, phrase);
  /** Consent at the fake, then the gateway's callback; answers the connection id. */
  const connect = async (api: Api) => {
    const created = await api("POST", "/v3/connections/gmail", { containerTag: "mail" });
    expect(created.status).toBe(200);
    const consent = await fetch(created.body.authLink as string, { redirect: "manual" });
    expect(consent.status).toBe(302);
    expect((await fetch(consent.headers.get("location")!, { redirect: "manual" })).status).toBeLessThan(400);
    return { id: created.body.id as string, authLink: new URL(created.body.authLink as string) };
  };

  it("authorizes, imports threads and attachments, follows Pub/Sub pushes, refreshes tokens, converges after expired history, and deletes", async () => {
    const plan = fake.addThread("Quarterly planning", {
      from: "Grace Hopper <grace@example.com>",
      to: [fake.account.emailAddress],
      text: "The offsite is in Lisbon; budget review happens on Monday.",
    });
    fake.reply(plan.threadId, { from: `Ada Lovelace <${fake.account.emailAddress}>`, text: "Monday suits me. I will prepare the hiring numbers." });
    fake.addAttachment(plan.threadId, { filename: "agenda.txt", mimeType: "text/plain", data: Buffer.from("Agenda: punch cards, difference engine, lunch.") });
    const old = fake.addThread("Parking permits", { text: "Parking permits are renewed in January." });

    // Consent link: Engram's Google client, offline access, gmail.readonly, PKCE S256, the callback URL.
    const { id, authLink: link } = await (async () => {
      const created = await a("POST", "/v3/connections/gmail", { containerTag: "mail" });
      expect(created.status).toBe(200);
      return { id: created.body.id as string, authLink: new URL(created.body.authLink as string) };
    })();
    expect(`${link.origin}${link.pathname}`).toBe(env.GOOGLE_AUTH_URL);
    expect(link.searchParams.get("client_id")).toBe(fake.clientId);
    expect(link.searchParams.get("redirect_uri")).toBe(`${env.ENGRAM_PUBLIC_URL}/v3/connections/auth/callback/gmail`);
    expect(link.searchParams.get("access_type")).toBe("offline");
    expect(link.searchParams.get("scope")!.split(" ")).toContain("https://www.googleapis.com/auth/gmail.readonly");
    expect(link.searchParams.get("code_challenge_method")).toBe("S256");
    expect(link.searchParams.get("code_challenge")).toBeTruthy();
    expect(link.searchParams.get("state")).toBeTruthy();
    const consent = await fetch(link, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = await fetch(consent.headers.get("location")!, { redirect: "manual" });
    expect(back.status).toBe(200);

    const shown = (await a("GET", `/v3/connections/${id}`)).body;
    expect(shown).toMatchObject({ id, provider: "gmail", email: fake.account.emailAddress });
    expect(JSON.stringify(shown)).not.toMatch(/ya29_/);
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);

    // The initial sync: two threads and the attachment; a watch on the topic.
    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });
    expect(await titles()).toEqual(["Parking permits", "Quarterly planning", "agenda.txt (Quarterly planning)"]);
    expect(fake.watches.map((w) => w.topicName)).toEqual([TOPIC]);
    await searchable("where is the offsite", "Lisbon");

    // Tenant b connects another mailbox: synced on its own, never by pushes for a's mailbox.
    fake.consentAs("other.person@example.org");
    const other = await connect(b);
    fake.consentAs(undefined);
    expect((await b("GET", `/v3/connections/${other.id}`)).body).toMatchObject({ email: "other.person@example.org" });
    const otherFirst = await finishedRun(b, other.id);
    expect(otherFirst.status).toBe("succeeded");
    expect(await documents(b)).toEqual([]);

    // A reply, announced by Pub/Sub (and redelivered: one sync).
    fake.reply(plan.threadId, { from: "Grace Hopper <grace@example.com>", text: "Update: the offsite moves to Porto, every Thursday a planning call." });
    const pushed = await fake.push(pushUrl, { messageId: "9001" });
    expect(pushed.status).toBe(202);
    expect((await fake.push(pushUrl, { messageId: "9001" })).status).toBe(200);
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    expect(await titles()).toHaveLength(3);
    await searchable("where does the offsite move", "Porto");
    // The thread is one document, each message's text once (quoted history left out), with its metadata.
    const chunks = new Set(
      (
        (await a("POST", "/v4/search", { q: "offsite budget review Lisbon Porto", containerTag: "mail", searchMode: "documents", threshold: 0 })).body
          .results as { chunk: string }[]
      ).map((r) => r.chunk),
    );
    const all = [...chunks].join("\n");
    expect(all).toContain("Porto");
    expect(all.match(/budget review happens on Monday/g)).toHaveLength(1);
    expect(all).not.toContain("wrote:");
    const metadata = await Promise.all(
      (await documents()).map(async (d) => (await a("GET", `/v3/documents/${d.id}`)).body.metadata as Record<string, unknown>),
    );
    expect(metadata.find((m) => m.subject === "Quarterly planning" && !m.filename)).toMatchObject({
      messageCount: 4,
      participants: expect.stringContaining("grace@example.com"),
      source: "gmail",
    });

    // Refused pushes: tampered, unsigned, not an envelope; a connection-addressed URL; an unknown mailbox is acknowledged, not synced.
    const tampered = await fake.push(pushUrl, { tamper: true });
    expect(tampered.status).toBe(401);
    expectErrorBody(JSON.parse(tampered.body));
    expect((await fake.push(pushUrl, { unsigned: true })).status).toBe(401);
    expect((await fake.push(pushUrl, { email: "intruder@evil.iam.gserviceaccount.com" })).status).toBe(401);
    expect((await fake.push(pushUrl, { body: JSON.stringify({ hello: "world" }) })).status).toBe(400);
    expect((await fake.push(`${pushUrl}?connection=${id}&tenant=default`, {})).status).toBeGreaterThanOrEqual(400);
    const unknown = await fake.push(pushUrl, { emailAddress: "nobody@example.com" });
    expect(unknown.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await lastRun(a, id))!.startedAt).toBe(second.startedAt);
    // b's connection (another mailbox) was never synced by a's pushes.
    expect((await lastRun(b, other.id))!.startedAt).toBe(otherFirst.startedAt);

    // A deleted thread, with the access token expired meanwhile: refreshed (Google keeps the refresh token) and synced.
    fake.expireAccessTokens();
    const refreshes = fake.refreshCount;
    fake.deleteThread(old.threadId);
    expect((await fake.push(pushUrl)).status).toBe(202);
    const third = await finishedRun(a, id, second.startedAt);
    expect(third.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 1);
    expect(await titles()).toEqual(["Quarterly planning", "agenda.txt (Quarterly planning)"]);
    // The same refresh token works again.
    fake.expireAccessTokens();

    // A 429 with Retry-After on the thread read is waited out; no document twice.
    const before = (await documents()).map((d) => d.id).sort();
    fake.failNext.push({ status: 429, headers: { "retry-after": "1" }, pathPrefix: "/gmail/v1/users/me/threads/" });
    fake.reply(plan.threadId, { from: "Grace Hopper <grace@example.com>", text: "Final answer: the budget is approved." });
    expect((await fake.push(pushUrl)).status).toBe(202);
    const fourth = await finishedRun(a, id, third.startedAt);
    expect(fourth.status).toBe("succeeded");
    expect(fake.refreshCount).toBe(refreshes + 2);
    expect(fake.failNext).toEqual([]);
    expect((await documents()).map((d) => d.id).sort()).toEqual(before);
    await searchable("was the budget approved", "approved");

    // Changes nobody announced, then the history expires: the next sync lists everything and converges.
    fake.deleteThread(plan.threadId);
    fake.addThread("Security review", { text: "Rotate the deploy keys before Friday." });
    fake.expireHistory();
    const calls = fake.requests.length;
    expect((await a("POST", "/v3/connections/gmail/import", { containerTags: ["mail"] })).status).toBe(202);
    const fifth = await finishedRun(a, id, fourth.startedAt);
    expect(fifth.status).toBe("succeeded");
    expect(fake.requests.slice(calls).map((r) => r.split("?")[0])).toEqual(
      expect.arrayContaining(["GET /gmail/v1/users/me/history", "GET /gmail/v1/users/me/profile", "GET /gmail/v1/users/me/threads"]),
    );
    expect(await titles()).toEqual(["Security review"]);
    const kept = (await documents()).map((d) => d.id);

    // Tenant b saw none of it; deleting b's connection stops its mailbox's watch.
    expect(await documents(b)).toEqual([]);
    const stops = fake.stops;
    expect((await b("DELETE", `/v3/connections/${other.id}`)).status).toBe(200);
    expect(fake.stops).toBe(stops + 1);

    // Revoked: the run fails as auth_expired.
    fake.revoke();
    fake.addThread("After revocation", { text: "never imported" });
    expect((await a("POST", "/v3/connections/gmail/import", { containerTags: ["mail"] })).status).toBe(202);
    expect(await finishedRun(a, id, fifth.startedAt)).toMatchObject({ status: "failed", errorCode: "auth_expired" });

    // a's grant is revoked: stopping its watch fails, the deletion goes on and takes the documents.
    expect((await a("DELETE", `/v3/connections/${id}`)).status).toBe(200);
    expect((await a("GET", `/v3/connections/${id}`)).status).toBe(404);
    for (const docId of kept) expect((await a("GET", `/v3/documents/${docId}`)).status).toBe(404);
  }, 180_000);
});
