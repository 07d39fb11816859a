import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { InvalidArgumentError, type Clock } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { HeadBucketCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { FakeS3 } from "@engram/testing";
import { classifyS3Error } from "../../src/adapters/connectors/s3/s3-api";
import { bucketNameProblem, parseS3Secret, s3ConfigFromMetadata } from "../../src/adapters/connectors/s3/s3-config";
import { mimeTypeOf, S3Connector, type S3ConnectorOptions, type S3Secret, versionOf } from "../../src/adapters/connectors/s3/s3-connector";
import { guardedLookup, PrivateAddressError, vetEndpoint } from "../../src/adapters/connectors/s3/s3-http";
import { SqliteConnectionRepository } from "../../src/adapters/embedded/connections.sqlite";
import { SyncEngine } from "../../src/app/sync-engine";
import type { ConnectorChange } from "../../src/app/sync-ports";
import { type Connection, newConnection } from "../../src/domain/connection";
import { MemorySink } from "./sync-helpers";

/** The S3 connector against a local fake of S3 (SigV4 checked), through the sync engine on an embedded store. */
describe("S3 connector", () => {
  const fake = new FakeS3();
  let endpoint: string;
  let key: S3Secret;
  let dir: string;
  let repo: SqliteConnectionRepository;
  let sink: MemorySink;
  const clock: Clock = { now: () => new Date() };

  beforeAll(async () => {
    endpoint = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.buckets.clear();
    fake.keys.clear();
    fake.denied.clear();
    fake.requests = [];
    fake.failures = [];
    key = fake.addKey();
    fake.createBucket("team-docs");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-s3-"));
    repo = new SqliteConnectionRepository(dir);
    sink = new MemorySink();
  });
  afterEach(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connector = (o: Partial<S3ConnectorOptions> = {}) => new S3Connector({ credentialsOf: () => key, allowPrivate: true, pageSize: 2, ...o });
  const setup = async (config: Record<string, string> = {}, o: Partial<S3ConnectorOptions> = {}, documentLimit?: number) => {
    const conn = await repo.create(
      newConnection(
        {
          tenantId: "acme",
          provider: "s3",
          namespace: "docs",
          documentLimit,
          config: { bucket: "team-docs", prefix: "handbook/", region: "us-east-1", endpoint, ...config },
        },
        clock.now().toISOString(),
      ),
    );
    const c = connector(o);
    const engine = new SyncEngine({ repo, sink, connectors: { s3: c }, clock, logger: rootLogger({ level: "silent" }) });
    return {
      conn,
      connector: c,
      sync: async () =>
        (await engine.run("acme", conn.id, "manual")) as {
          started: true;
          run: {
            status: string;
            errorCode?: string;
            error?: string;
            documentsImported: number;
            itemFailures: { count: number; samples: { itemKey: string; reason: string }[] };
          };
        },
    };
  };
  const texts = () => Object.fromEntries([...sink.docs.values()].map((d) => [d.title, d.text]));
  const check = (metadata: Record<string, string>, secret: S3Secret = key, o: Partial<S3ConnectorOptions> = {}) =>
    connector(o).check(JSON.stringify(secret), { bucket: "team-docs", endpoint, ...metadata });

  describe("settings", () => {
    it("validates the sealed secret with a schema instead of trusting it", () => {
      expect(parseS3Secret(JSON.stringify({ accessKeyId: "AKIAEXAMPLE", secretAccessKey: "s3cr3t-s3cr3t" }))).toEqual({
        accessKeyId: "AKIAEXAMPLE",
        secretAccessKey: "s3cr3t-s3cr3t",
      });
      expect(() => parseS3Secret("not json")).toThrow(InvalidArgumentError);
      expect(() => parseS3Secret(JSON.stringify({ accessKeyId: "AKIAEXAMPLE" }))).toThrow(/secretAccessKey/);
      expect(() => parseS3Secret(JSON.stringify({ accessKeyId: 42, secretAccessKey: "s3cr3t-s3cr3t" }))).toThrow(InvalidArgumentError);
      expect(() => parseS3Secret(JSON.stringify({ accessKeyId: "AKIA EXAMPLE", secretAccessKey: "s3cr3t-s3cr3t" }))).toThrow(/accessKeyId/);
    });

    it("applies S3's bucket naming rules and defaults the region", () => {
      for (const ok of ["team-docs", "a.b.c", "abc", "x".repeat(63)]) expect(bucketNameProblem(ok)).toBeUndefined();
      for (const bad of ["ab", "x".repeat(64), "Team", "team_docs", "-team", "team-", "a..b", "192.168.1.1", "xn--abc", "docs-s3alias", "b--x-s3"])
        expect(bucketNameProblem(bad)).toBeDefined();
      expect(s3ConfigFromMetadata({ bucket: "team-docs" })).toEqual({ bucket: "team-docs", prefix: "", region: "us-east-1" });
      expect(() => s3ConfigFromMetadata({})).toThrow(InvalidArgumentError);
      expect(() => s3ConfigFromMetadata({ bucket: "Team_Docs" })).toThrow(/bucket name/);
      expect(() => s3ConfigFromMetadata({ bucket: "team-docs", region: "US East" })).toThrow(/region/);
    });

    it("refuses endpoints outside the address policy", () => {
      expect(vetEndpoint("https://minio.example.com/", false)).toBe("https://minio.example.com");
      expect(() => vetEndpoint("ftp://minio.example.com", true)).toThrow(/https/);
      expect(() => vetEndpoint("file:///etc/passwd", true)).toThrow(/https/);
      expect(() => vetEndpoint("https://user:pw@minio.example.com", true)).toThrow(/credentials/);
      expect(() => vetEndpoint("http://minio.example.com", false)).toThrow(/plain http/);
      expect(() => vetEndpoint("https://127.0.0.1:9000", false)).toThrow(PrivateAddressError);
      expect(() => vetEndpoint("https://[::1]:9000", false)).toThrow(PrivateAddressError);
      expect(() => vetEndpoint("https://169.254.169.254", false)).toThrow(PrivateAddressError);
      expect(vetEndpoint("http://127.0.0.1:9000", true)).toBe("http://127.0.0.1:9000");
    });

    it("refuses host names that resolve to private addresses, and connects only to the addresses it checked", async () => {
      const resolveTo =
        (addresses: string[]) =>
        (_h: string, cb: (err: NodeJS.ErrnoException | null, a: string[]) => void): void =>
          cb(null, addresses);
      const lookup = (allowPrivate: boolean, addresses: string[]) =>
        new Promise<unknown>((resolve) =>
          guardedLookup(allowPrivate, resolveTo(addresses))("store.example.com", { all: true }, (err, result) => resolve(err ?? result)),
        );
      expect(await lookup(false, ["93.184.216.34", "10.0.0.5"])).toBeInstanceOf(PrivateAddressError);
      expect(await lookup(false, ["169.254.169.254"])).toBeInstanceOf(PrivateAddressError);
      expect(await lookup(false, ["93.184.216.34"])).toEqual([{ address: "93.184.216.34", family: 4 }]);
      expect(await lookup(true, ["10.0.0.5"])).toEqual([{ address: "10.0.0.5", family: 4 }]);
    });

    it("types objects by Content-Type, or by extension when S3 only knows octets", () => {
      expect(mimeTypeOf("a/notes.md", "text/plain; charset=utf-8")).toBe("text/plain; charset=utf-8");
      expect(mimeTypeOf("a/notes.md", "binary/octet-stream")).toBe("text/markdown");
      expect(mimeTypeOf("a/report.PDF", undefined)).toBe("application/pdf");
      expect(mimeTypeOf("a/blob", "application/octet-stream")).toBe("application/octet-stream");
      expect(versionOf('"abc"', 12)).toBe("abc:12");
      expect(versionOf("abc", 12)).toBe("abc:12");
    });
  });

  describe("creation check", () => {
    it("accepts keys that may list the bucket, and keeps the settings without the keys", async () => {
      const setup = await check({ prefix: "handbook/", team: "ops" });
      expect(setup.config).toEqual({ bucket: "team-docs", prefix: "handbook/", region: "us-east-1", endpoint });
      expect(setup.metadata).toEqual({ team: "ops", bucket: "team-docs", prefix: "handbook/", region: "us-east-1", endpoint });
      expect(JSON.stringify(setup)).not.toContain(key.secretAccessKey);
      expect(JSON.stringify(setup)).not.toContain(key.accessKeyId);
      const listed = fake.requests.find((r) => r.op === "ListObjectsV2");
      expect(listed).toMatchObject({ status: 200, accessKeyId: key.accessKeyId });
    });

    it("names the problem: wrong secret, unknown key, missing bucket, denied access, wrong region", async () => {
      await expect(check({}, { ...key, secretAccessKey: "not-the-secret" })).rejects.toThrow(/secret access key \(SignatureDoesNotMatch\)/);
      await expect(check({}, { accessKeyId: "AKIAUNKNOWN000", secretAccessKey: "whatever-secret" })).rejects.toThrow(/access key \(InvalidAccessKeyId\)/);
      await expect(check({ bucket: "no-such-bucket" })).rejects.toThrow(/bucket no-such-bucket does not exist/);
      fake.createBucket("locked");
      fake.deny("locked");
      await expect(check({ bucket: "locked" })).rejects.toThrow(/may not list bucket locked \(AccessDenied\)/);
      fake.createBucket("eu-docs", { region: "eu-west-3" });
      await expect(check({ bucket: "eu-docs" })).rejects.toThrow(/not in region us-east-1: it is in eu-west-3/);
      await expect(check({ bucket: "eu-docs", region: "eu-west-3" })).resolves.toBeDefined();
      await expect(check({}, { ...key, secretAccessKey: "not-the-secret" })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(check({ bucket: "Bad_Name" })).rejects.toBeInstanceOf(InvalidArgumentError);
    });

    it("refuses a loopback endpoint unless private addresses are allowed, without sending it anything", async () => {
      const before = fake.requests.length;
      await expect(check({}, key, { allowPrivate: false })).rejects.toThrow(/endpoint is refused/);
      await expect(check({ endpoint: endpoint.replace("http:", "https:") }, key, { allowPrivate: false })).rejects.toThrow(/private or reserved/);
      await expect(check({ endpoint: "https://localhost:1" }, key, { allowPrivate: false })).rejects.toThrow(/private or reserved/);
      expect(fake.requests.length).toBe(before);
    });

    it("says an endpoint that does not answer could not be reached (a 400: the endpoint is the user's)", async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const err = await check({ endpoint: `http://127.0.0.1:${port}` }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(/could not be reached \(ECONNREFUSED\)/);
    });
  });

  describe("sync", () => {
    it("imports the objects under the prefix over several pages, skipping folders, empty and oversized objects", async () => {
      fake.putObject("team-docs", "handbook/", "");
      fake.putObject("team-docs", "handbook/oncall.md", "# On-call\n\nRotation changes every Monday.", { contentType: "text/markdown" });
      fake.putObject("team-docs", "handbook/deploys.txt", "Deploys go out from the release branch.");
      fake.putObject("team-docs", "handbook/sub/faq.md", "# FAQ\n\nAsk in #help.");
      fake.putObject("team-docs", "handbook/empty.txt", "");
      fake.putObject("team-docs", "handbook/huge.bin", Buffer.alloc(50 * 1024 * 1024 + 1));
      fake.putObject("team-docs", "private/salaries.csv", "name,salary");
      const { conn, sync } = await setup();
      const { run } = await sync();
      expect(run).toMatchObject({ status: "partial", documentsImported: 3 });
      expect(run.itemFailures.samples).toEqual([{ itemKey: "handbook/huge.bin", reason: expect.stringMatching(/larger than 50 MB/) }]);
      expect(texts()).toEqual({
        "oncall.md": "# On-call\n\nRotation changes every Monday.",
        "deploys.txt": "Deploys go out from the release branch.",
        "faq.md": "# FAQ\n\nAsk in #help.",
      });
      expect(fake.count("ListObjectsV2")).toBe(3); // 6 keys under the prefix, 2 per page
      expect(fake.count("GetObject", "handbook/huge.bin")).toBe(0);
      expect(fake.count("GetObject", "private/salaries.csv")).toBe(0);
      const items = await repo.getItems("acme", conn.id, ["handbook/oncall.md"]);
      expect([...items.values()][0]).toMatchObject({ url: "s3://team-docs/handbook/oncall.md", version: expect.stringMatching(/^[0-9a-f]{32}:\d+$/) });
    });

    it("yields upserts with the object's facts", async () => {
      fake.putObject("team-docs", "handbook/guide.md", "# Guide", { contentType: "binary/octet-stream" });
      const { conn, connector: c } = await setup();
      const out: ConnectorChange[] = [];
      for await (const ch of c.changes(conn, new Map(), new AbortController().signal)) out.push(ch);
      expect(out).toEqual([
        {
          kind: "upsert",
          itemKey: "handbook/guide.md",
          url: "s3://team-docs/handbook/guide.md",
          title: "guide.md",
          filepath: "handbook/guide.md",
          metadata: { bucket: "team-docs", key: "handbook/guide.md" },
          content: { bytes: expect.any(Uint8Array), mimeType: "text/markdown", fileName: "guide.md" },
          version: versionOf(fake.buckets.get("team-docs")!.objects.get("handbook/guide.md")!.etag, 7),
        },
      ]);
    });

    it("downloads only changed objects, re-imports them in place, and prunes deleted ones", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A\n\nfirst");
      fake.putObject("team-docs", "handbook/b.md", "# B");
      fake.putObject("team-docs", "handbook/c.md", "# C");
      const { sync } = await setup();
      await sync();
      const ids = new Map([...sink.docs.values()].map((d) => [d.title, d.id]));
      fake.requests = [];
      expect((await sync()).run).toMatchObject({ status: "succeeded", documentsImported: 0 });
      expect(fake.count("GetObject")).toBe(0);

      fake.putObject("team-docs", "handbook/a.md", "# A\n\nsecond");
      fake.deleteObject("team-docs", "handbook/b.md");
      fake.requests = [];
      expect((await sync()).run).toMatchObject({ status: "succeeded", documentsImported: 1 });
      expect(fake.count("GetObject")).toBe(1);
      expect(texts()).toEqual({ "a.md": "# A\n\nsecond", "c.md": "# C" });
      expect(new Map([...sink.docs.values()].map((d) => [d.title, d.id]))).toEqual(new Map([...ids].filter(([t]) => t !== "b.md")));
    });

    it("converges when an object is rewritten between its listing and its download", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      fake.putObject("team-docs", "handbook/b.md", "# B\n\nold");
      const { sync } = await setup();
      const put = sink.put.bind(sink);
      sink.put = async (conn, item) => {
        // b.md is listed (old ETag), then rewritten before it is downloaded.
        if (item.title === "a.md") fake.putObject("team-docs", "handbook/b.md", "# B\n\nnew");
        return put(conn, item);
      };
      await sync();
      sink.put = put;
      expect(texts()["b.md"]).toBe("# B\n\nnew");
      fake.requests = [];
      await sync();
      expect(fake.count("GetObject")).toBe(1);
      fake.requests = [];
      expect((await sync()).run).toMatchObject({ status: "succeeded", documentsImported: 0 });
      expect(fake.count("GetObject")).toBe(0);
      expect(texts()).toEqual({ "a.md": "# A", "b.md": "# B\n\nnew" });
    });

    it("prunes nothing when the listing did not complete", async () => {
      for (const k of ["a", "b", "c", "d"]) fake.putObject("team-docs", `handbook/${k}.md`, `# ${k}`);
      const { sync } = await setup({}, { api: { maxAttempts: 1 } });
      await sync();
      fake.deleteObject("team-docs", "handbook/a.md");
      // The first page answers, the second fails: a.md is absent from what was seen, but the listing is incomplete.
      fake.failNext({ status: 500, code: "InternalError", op: "ListObjectsV2", skip: 1 });
      const listed = fake.count("ListObjectsV2");
      expect((await sync()).run).toMatchObject({ status: "failed", errorCode: "provider_unavailable" });
      expect(fake.count("ListObjectsV2")).toBe(listed + 2);
      expect(Object.keys(texts()).sort()).toEqual(["a.md", "b.md", "c.md", "d.md"]);
      expect((await sync()).run).toMatchObject({ status: "succeeded" });
      expect(Object.keys(texts()).sort()).toEqual(["b.md", "c.md", "d.md"]);
    });

    it("retries a SlowDown with Retry-After without writing twice", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      fake.putObject("team-docs", "handbook/b.md", "# B");
      const { sync } = await setup();
      fake.failNext({ status: 503, code: "SlowDown", retryAfter: "1", op: "GetObject" });
      const started = Date.now();
      const puts: string[] = [];
      const put = sink.put.bind(sink);
      sink.put = async (conn, item) => {
        puts.push(item.title ?? "");
        return put(conn, item);
      };
      expect((await sync()).run).toMatchObject({ status: "succeeded", documentsImported: 2 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(fake.count("GetObject", "handbook/a.md")).toBe(2);
      expect(puts.sort()).toEqual(["a.md", "b.md"]);
      expect(sink.docs.size).toBe(2);
    });

    it("reports throttling that outlasts the retries as rate_limited, and an outage as provider_unavailable", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      const { sync } = await setup({}, { api: { maxAttempts: 2 } });
      fake.failNext({ status: 503, code: "SlowDown", retryAfter: "0" });
      fake.failNext({ status: 503, code: "SlowDown", retryAfter: "0" });
      expect((await sync()).run).toMatchObject({ status: "failed", errorCode: "rate_limited" });
      fake.failNext({ status: 502, code: "BadGateway" });
      fake.failNext({ status: 502, code: "BadGateway" });
      expect((await sync()).run).toMatchObject({ status: "failed", errorCode: "provider_unavailable" });
      expect((await sync()).run).toMatchObject({ status: "succeeded", documentsImported: 1 });
    });

    it("fails the run as auth_expired when the key is revoked, and the connection waits for new keys", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      const { conn, sync } = await setup();
      await sync();
      fake.revokeKey(key.accessKeyId);
      const { run } = await sync();
      expect(run).toMatchObject({ status: "failed", errorCode: "auth_expired" });
      expect(run.error).toMatch(/InvalidAccessKeyId/);
      expect((await repo.get("acme", conn.id))?.status).toBe("auth_expired");
      expect(sink.docs.size).toBe(1);
    });

    it("fails as auth_expired when the keys may no longer list the bucket, but only records objects it may not read", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      fake.putObject("team-docs", "handbook/secret.md", "# S");
      fake.putObject("team-docs", "handbook/cold.md", "# C", { storageClass: "GLACIER" });
      fake.deny("team-docs", "handbook/secret.md");
      const { sync } = await setup();
      const { run } = await sync();
      expect(run).toMatchObject({ status: "partial", documentsImported: 1 });
      expect(run.itemFailures.samples.map((s) => [s.itemKey, s.reason])).toEqual([
        ["handbook/cold.md", expect.stringMatching(/archived/)],
        ["handbook/secret.md", expect.stringMatching(/AccessDenied/)],
      ]);
      fake.deny("team-docs");
      expect((await sync()).run).toMatchObject({ status: "failed", errorCode: "auth_expired" });
    });

    it("stops at the documentLimit before downloading", async () => {
      for (const k of ["a", "b", "c"]) fake.putObject("team-docs", `handbook/${k}.md`, `# ${k}`);
      const { sync } = await setup({}, {}, 2);
      const { run } = await sync();
      expect(run).toMatchObject({ status: "partial", documentsImported: 2 });
      expect(fake.count("GetObject")).toBe(2);
    });

    it("refuses at sync time an endpoint the address policy refuses", async () => {
      fake.putObject("team-docs", "handbook/a.md", "# A");
      const { sync } = await setup({}, { allowPrivate: false });
      const { run } = await sync();
      expect(run).toMatchObject({ status: "failed" });
      expect(run.error).toMatch(/plain http|private or reserved/);
      expect(fake.count("ListObjectsV2")).toBe(0);
    });
  });

  it("never lets the server's own AWS endpoint settings redirect a connection", async () => {
    process.env.AWS_ENDPOINT_URL_S3 = endpoint;
    try {
      // No endpoint: AWS itself (unreachable here), not the fake the environment names.
      const err = await connector()
        .check(JSON.stringify(key), { bucket: "team-docs" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(fake.requests).toHaveLength(0);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_S3;
    }
  });

  it("has a fake that answers HeadBucket and HeadObject as S3 does", async () => {
    fake.putObject("team-docs", "handbook/a.md", "# A", { contentType: "text/markdown" });
    const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: key, maxAttempts: 1 });
    try {
      expect((await client.send(new HeadBucketCommand({ Bucket: "team-docs" }))).BucketRegion).toBe("us-east-1");
      const head = await client.send(new HeadObjectCommand({ Bucket: "team-docs", Key: "handbook/a.md" }));
      expect(head).toMatchObject({ ContentLength: 3, ContentType: "text/markdown", ETag: fake.buckets.get("team-docs")!.objects.get("handbook/a.md")!.etag });
      await expect(client.send(new HeadObjectCommand({ Bucket: "team-docs", Key: "nope" }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
      await expect(client.send(new HeadBucketCommand({ Bucket: "nope-bucket" }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
      fake.revokeKey(key.accessKeyId);
      await expect(client.send(new HeadBucketCommand({ Bucket: "team-docs" }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    } finally {
      client.destroy();
    }
  });

  it("classifies SDK and network failures", () => {
    expect(classifyS3Error(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toMatchObject({ kind: "unavailable" });
    expect(classifyS3Error(new PrivateAddressError("10.0.0.1"))).toMatchObject({ kind: "refused_address" });
    expect(classifyS3Error(new Error("boom"))).toMatchObject({ kind: "other" });
  });

  it("fails the run of a connection whose stored config is not valid", async () => {
    const c: Connection = newConnection({ tenantId: "acme", provider: "s3", namespace: "docs", config: { bucket: 42 } }, new Date().toISOString());
    const out = (async () => {
      for await (const _ of connector().changes(c, new Map(), new AbortController().signal)) void _;
    })();
    await expect(out).rejects.toMatchObject({ code: "internal" });
  });
});
