import { FakeS3, waitFor } from "@engram/testing";
import { documentChunks, expectErrorBody, finishedRun, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-s3-0123456789abcdef";
const KEY_B = "tenant-b-key-s3-0123456789abcdef";

type Doc = { id: string; title: string | null };

/**
 * An S3 connection through the gateway against a local S3-compatible fake
 * (path-style, SigV4 verified): the keys and bucket are checked at creation
 * (refused keys and a missing bucket are 400s with the API's error body),
 * never shown again; the objects under the prefix become searchable
 * documents; a changed object is re-imported in place, a deleted one
 * pruned; a SlowDown with Retry-After is retried without duplicates; a
 * revoked key fails the next run as auth_expired; the other tenant sees
 * nothing. S3 has no OAuth: no consent, no token refresh, no webhooks.
 */
describe("S3 connection end to end", () => {
  const fake = new FakeS3();
  let endpoint = "";
  // The fake listens on loopback: private addresses (and plain http) are allowed for this stack.
  const env: Record<string, string> = { ENGRAM_ALLOW_PRIVATE_URLS: "true", WEBHOOK_DEBOUNCE_MS: "0", SYNC_SCHEDULER_INTERVAL_MS: "200" };
  beforeAll(async () => {
    endpoint = await fake.start();
  });
  const stack = twoTenantStack(KEY_A, KEY_B, env);
  const { a, b } = stack;
  afterAll(() => fake.stop());

  const documents = async () => (await a("POST", "/v3/connections/s3/documents", { containerTags: ["handbook"] })).body as Doc[];
  /** The connection's documents by filepath (the object key). */
  const byKey = async () => {
    const out = new Map<string, string>();
    for (const d of await documents()) out.set((await a("GET", `/v3/documents/${d.id}`)).body.filepath as string, d.id);
    return out;
  };
  const searchChunks = (q: string) => documentChunks(a, "handbook", q);
  const importNow = async () => expect((await a("POST", "/v3/connections/s3/import", { containerTags: ["handbook"] })).status).toBe(202);

  it("checks the keys and bucket, imports the prefix, follows changes and deletions, retries throttling, and reports a revoked key", async () => {
    const key = fake.addKey();
    fake.createBucket("team-handbook");
    fake.putObject("team-handbook", "handbook/oncall.md", "# On-call\n\nThe on-call rotation changes every Monday at noon.", { contentType: "text/markdown" });
    fake.putObject("team-handbook", "handbook/deploys/process.txt", "Deploys go out from the release branch after the QA sign-off.");
    fake.putObject("team-handbook", "handbook/", "");
    fake.putObject("team-handbook", "private/salaries.csv", "name,salary\nana,100");
    const metadata = { bucket: "team-handbook", prefix: "handbook/", endpoint, accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey };
    const create = (m: Record<string, unknown>) => a("POST", "/v3/connections/s3", { containerTag: "handbook", metadata: m });

    // Refused at creation, each with the API's error body naming the problem.
    const wrongSecret = await create({ ...metadata, secretAccessKey: "definitely-not-the-secret" });
    expect(wrongSecret.status).toBe(400);
    expectErrorBody(wrongSecret.body);
    expect(wrongSecret.body.error).toMatch(/SignatureDoesNotMatch/);
    const unknownKey = await create({ ...metadata, accessKeyId: "AKIAUNKNOWNKEY0000" });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.error).toMatch(/InvalidAccessKeyId/);
    const noBucket = await create({ ...metadata, bucket: "no-such-bucket" });
    expect(noBucket.status).toBe(400);
    expectErrorBody(noBucket.body);
    expect(noBucket.body.error).toMatch(/no-such-bucket does not exist/);
    for (const bad of [
      { ...metadata, bucket: "Not_A_Bucket" },
      { ...metadata, accessKeyId: undefined },
      { ...metadata, endpoint: endpoint.replace("http:", "ftp:") },
      { ...metadata, endpoint: endpoint.replace("http://", "http://user:pw@") },
    ]) {
      const refused = await create(bad);
      expect(refused.status).toBe(400);
      expectErrorBody(refused.body);
    }
    expect(fake.requests.filter((r) => r.op === "GetObject")).toHaveLength(0);

    const created = await create({ ...metadata, team: "ops" });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const first = await finishedRun(a, id);
    expect(first).toMatchObject({ status: "succeeded", errorCode: null });

    // What the connection shows: the bucket's settings, never the keys.
    const shown = await a("GET", `/v3/connections/${id}`);
    expect(shown.body).toMatchObject({
      id,
      provider: "s3",
      containerTags: ["handbook"],
      metadata: { team: "ops", bucket: "team-handbook", prefix: "handbook/", region: "us-east-1", endpoint },
    });
    expect(JSON.stringify(shown.body)).not.toContain(key.secretAccessKey);
    expect(JSON.stringify(shown.body)).not.toContain(key.accessKeyId);
    expect(JSON.stringify((await a("POST", "/v3/connections/list", {})).body)).not.toContain(key.secretAccessKey);

    // Only the objects under the prefix; the other tenant sees nothing.
    expect([...(await byKey()).keys()].sort()).toEqual(["handbook/deploys/process.txt", "handbook/oncall.md"]);
    const doc = (await a("GET", `/v3/documents/${(await byKey()).get("handbook/oncall.md")}`)).body;
    expect(doc).toMatchObject({
      // The connector's title (the file name) is kept over the one extraction finds.
      title: "oncall.md",
      filepath: "handbook/oncall.md",
      connectionId: id,
      metadata: { source: "s3", url: "s3://team-handbook/handbook/oncall.md", bucket: "team-handbook", key: "handbook/oncall.md" },
    });
    expect((await b("GET", `/v3/connections/${id}`)).status).toBe(404);
    expect((await b("POST", "/v3/connections/s3/documents", { containerTags: ["handbook"] })).body).toEqual([]);
    await waitFor(async () => ((await searchChunks("when does the on-call rotation change")).some((c) => c.includes("every Monday")) ? true : undefined), {
      timeoutMs: 60_000,
      what: "the imported objects to be searchable",
    });
    expect((await b("POST", "/v4/search", { q: "on-call rotation", containerTag: "handbook", searchMode: "documents", threshold: 0 })).body.results).toEqual(
      [],
    );

    // A changed object: imported again in place; the new content is searchable, the old is gone.
    const ids = await byKey();
    fake.putObject("team-handbook", "handbook/oncall.md", "# On-call\n\nThe on-call rotation now changes every Thursday morning.", {
      contentType: "text/markdown",
    });
    fake.requests = [];
    await importNow();
    const second = await finishedRun(a, id, first.startedAt);
    expect(second.status).toBe("succeeded");
    expect(fake.count("GetObject", "handbook/oncall.md")).toBe(1);
    expect(fake.count("GetObject", "handbook/deploys/process.txt")).toBe(0);
    expect(await byKey()).toEqual(ids);
    await waitFor(async () => ((await searchChunks("when does the on-call rotation change")).some((c) => c.includes("every Thursday")) ? true : undefined), {
      timeoutMs: 60_000,
      what: "the changed object to be searchable",
    });
    expect((await searchChunks("when does the on-call rotation change")).some((c) => c.includes("every Monday"))).toBe(false);

    // A deleted object: its document goes (the complete listing no longer holds it).
    fake.deleteObject("team-handbook", "handbook/deploys/process.txt");
    await importNow();
    const third = await finishedRun(a, id, second.startedAt);
    expect(third.status).toBe("succeeded");
    expect([...(await byKey()).keys()]).toEqual(["handbook/oncall.md"]);
    expect((await a("GET", `/v3/documents/${ids.get("handbook/deploys/process.txt")}`)).status).toBe(404);

    // A SlowDown (503, Retry-After: 1) in the middle of a sync: retried, nothing imported twice.
    fake.putObject("team-handbook", "handbook/a-incidents.md", "# Incidents\n\nPage the incident commander first.");
    fake.putObject("team-handbook", "handbook/z-runbook.md", "# Runbook\n\nRestart the queue workers before the database.");
    fake.failNext({ status: 503, code: "SlowDown", retryAfter: "1", op: "GetObject", skip: 1 });
    fake.requests = [];
    await importNow();
    const fourth = await finishedRun(a, id, third.startedAt);
    expect(fourth.status).toBe("succeeded");
    expect(fake.requests.filter((r) => r.op === "GetObject" && r.status === 503)).toHaveLength(1);
    expect(fake.count("GetObject", "handbook/z-runbook.md")).toBe(2);
    const after = await byKey();
    expect([...after.keys()].sort()).toEqual(["handbook/a-incidents.md", "handbook/oncall.md", "handbook/z-runbook.md"]);
    expect(await documents()).toHaveLength(3);
    expect(after.get("handbook/oncall.md")).toBe(ids.get("handbook/oncall.md"));

    // The key is revoked: the next run fails as auth_expired, and the documents stay.
    fake.revokeKey(key.accessKeyId);
    await importNow();
    const revoked = await finishedRun(a, id, fourth.startedAt);
    expect(revoked).toMatchObject({ status: "failed", errorCode: "auth_expired" });
    expect(revoked.error).toMatch(/InvalidAccessKeyId/);
    expect(await documents()).toHaveLength(3);
    const end = JSON.stringify((await a("GET", `/v3/connections/${id}`)).body);
    expect(end).not.toContain(key.secretAccessKey);
    expect((await b("POST", "/v3/connections/s3/documents", {})).body).toEqual([]);

    // Deleted with its documents.
    expect((await a("DELETE", `/v3/connections/${id}`)).body).toEqual({ id, provider: "s3" });
    expect((await a("POST", "/v3/connections/s3/documents", {})).body).toEqual([]);
  }, 180_000);
});
