import { randomBytes } from "node:crypto";
import { AlreadyExistsError, ConflictError, FailedPreconditionError, InvalidArgumentError, NotFoundError } from "@engram/kernel";
import { prng } from "@engram/testing";
import { SecretBox } from "../../src/adapters/crypto/secret-box";
import { type ConnectionRepository, connectionCredentialsContext, DELIVERY_MEMORY_MS } from "../../src/app/connection-ports";
import {
  addItemFailure,
  applyConnectionEvent,
  type Connection,
  type ConnectionItem,
  type ConnectionProvider,
  emptyItemFailures,
  finishSyncRun,
  type NewConnectionInput,
  newConnection,
  newSyncRun,
  patchConnection,
  type SyncErrorCode,
  type SyncRun,
  type SyncTrigger,
} from "../../src/domain/connection";

/** One ConnectionRepository adapter under test, fresh and empty. */
export interface ConnectionRepositoryHarness {
  repo: ConnectionRepository;
  /** Closes the store and opens it again on the same data. */
  reopen(): Promise<ConnectionRepository>;
  /** The adapter's start-up binding of the secret key (see SqliteConnectionRepository.bindSecretKey). */
  bindSecretKey(fingerprints: string | readonly string[], o?: { resealed?: boolean }): Promise<void>;
  boundKeyId(): Promise<string | undefined>;
  /** Every byte the store holds (database files, or the documents as BSON), to look for secrets in clear. */
  rawStored(): Promise<Buffer>;
  close(): Promise<void>;
}

const T0 = "2025-03-01T10:00:00.000Z";
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();

export function conn(input: Partial<NewConnectionInput> = {}, now = T0): Connection {
  return newConnection({ tenantId: "acme", provider: "notion", namespace: "team", ...input }, now);
}

export function item(connectionId: string, itemKey: string, over: Partial<ConnectionItem> = {}): ConnectionItem {
  return { connectionId, itemKey, documentId: `doc-${itemKey}`, version: "v1", updatedAt: T0, ...over };
}

/** UTF-8 byte order, the order both engines compare strings in. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The behaviour every ConnectionRepository adapter shares. `open` is called
 * once per test and must return an empty store.
 */
export function connectionRepositoryContract(open: () => Promise<ConnectionRepositoryHarness>): void {
  let h: ConnectionRepositoryHarness;
  let repo: ConnectionRepository;

  beforeEach(async () => {
    h = await open();
    repo = h.repo;
  });

  afterEach(async () => {
    await h.close();
  });

  async function started(c: Connection, startedAt: string, trigger: SyncTrigger = "manual", id?: string): Promise<SyncRun> {
    return repo.startRun(newSyncRun({ tenantId: c.tenantId, connectionId: c.id, trigger }, startedAt, id));
  }

  describe("connections", () => {
    it("stores every field and reads it back after a reopen, sealed credentials as the same bytes", async () => {
      const sealed = new Uint8Array(randomBytes(48));
      const c = conn({
        provider: "github",
        namespace: "eng",
        containerTags: ["eng", "legacy:1", "eng"],
        documentLimit: 250,
        metadata: { "a.b": "dotted", $dollar: 1.5, flag: false, empty: "" },
        email: "dev@example.com",
        expiresAt: "2026-01-01T00:00:00Z",
        sealedCredentials: sealed,
        config: { repositories: [{ id: 1, name: "o/r", defaultBranch: "main" }], "x.y": { $z: null } },
      });
      expect(await repo.create(c)).toEqual(c);
      repo = await h.reopen();
      const back = await repo.get("acme", c.id);
      expect(back).toEqual({
        id: c.id,
        tenantId: "acme",
        provider: "github",
        namespace: "eng",
        containerTags: ["eng", "legacy:1"],
        documentLimit: 250,
        metadata: { "a.b": "dotted", $dollar: 1.5, flag: false, empty: "" },
        status: "pending_authorization",
        email: "dev@example.com",
        expiresAt: "2026-01-01T00:00:00.000Z",
        sealedCredentials: sealed,
        config: { repositories: [{ id: 1, name: "o/r", defaultBranch: "main" }], "x.y": { $z: null } },
        createdAt: T0,
        updatedAt: T0,
        revision: 1,
      });
      expect(back!.sealedCredentials).toBeInstanceOf(Uint8Array);
    });

    it("reads a minimal connection back with no field added (absent stays absent)", async () => {
      const c = conn({ provider: "web-crawler" });
      await repo.create(c);
      const back = await repo.get("acme", c.id);
      expect(back).toEqual(c);
      expect(Object.keys(back!).sort()).toEqual([
        "containerTags",
        "createdAt",
        "id",
        "metadata",
        "namespace",
        "provider",
        "revision",
        "status",
        "tenantId",
        "updatedAt",
      ]);
      expect(back!.status).toBe("active");
    });

    it("refuses a second connection with the same id, and answers undefined / false for unknown ids", async () => {
      const c = conn();
      await repo.create(c);
      await expect(repo.create({ ...c, namespace: "other" })).rejects.toThrow(AlreadyExistsError);
      await expect(repo.create({ ...c, tenantId: "other-tenant" })).rejects.toThrow(AlreadyExistsError);
      expect(await repo.get("other-tenant", c.id)).toBeUndefined();
      expect(await repo.get("acme", "n_doesnotexist00000000")).toBeUndefined();
      expect(await repo.delete("acme", "n_doesnotexist00000000")).toBe(false);
    });

    it("updates the mutable fields with a revision check; scope, metadata and creation are fixed", async () => {
      const c = await repo.create(conn({ email: "old@example.com", config: { a: 1 } }));
      const sealed = new Uint8Array(randomBytes(32));
      let next = applyConnectionEvent(c, "authorized", iso(1));
      next = patchConnection(next, { sealedCredentials: sealed, email: null, expiresAt: iso(60 * 24), documentLimit: 10, config: null }, iso(1));
      const stored = await repo.update({ ...next, namespace: "moved", containerTags: ["moved"], metadata: { sneaky: true }, createdAt: iso(5) });
      expect(stored).toEqual({ ...next, revision: 2 });
      expect(stored.email).toBeUndefined();
      expect(stored.config).toBeUndefined();
      expect(await repo.get("acme", c.id)).toEqual(stored);

      // A writer that read revision 1 loses; nothing of its change is stored.
      await expect(repo.update({ ...applyConnectionEvent(c, "deletion_requested", iso(2)) })).rejects.toThrow(ConflictError);
      expect((await repo.get("acme", c.id))!.status).toBe("active");
      await expect(repo.update({ ...stored, id: "n_doesnotexist00000000" })).rejects.toThrow(NotFoundError);
    });

    it("lets exactly one of two concurrent updates from the same revision win", async () => {
      const c = await repo.create(conn());
      const results = await Promise.allSettled([
        repo.update(patchConnection(c, { email: "one@example.com" }, iso(1))),
        repo.update(patchConnection(c, { email: "two@example.com" }, iso(1))),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected).toHaveLength(1);
      expect(rejected[0]!.reason).toBeInstanceOf(ConflictError);
      expect((await repo.get("acme", c.id))!.revision).toBe(2);
    });

    it("lists a tenant's connections newest first, filtered by provider, namespace and container tags", async () => {
      const a = await repo.create(conn({ provider: "notion", namespace: "ns1", containerTags: ["t1", "t2"] }, iso(1)));
      const b = await repo.create(conn({ provider: "github", namespace: "ns1", containerTags: ["t2"] }, iso(2)));
      const c = await repo.create(conn({ provider: "notion", namespace: "ns2", containerTags: ["t3"] }, iso(3)));
      const d = await repo.create(conn({ tenantId: "other", provider: "notion", namespace: "ns1" }, iso(4)));
      const ids = (cs: Connection[]) => cs.map((x) => x.id);
      expect(ids(await repo.list("acme"))).toEqual([c.id, b.id, a.id]);
      expect(ids(await repo.list("acme", {}))).toEqual([c.id, b.id, a.id]);
      expect(ids(await repo.list("acme", { provider: "notion" }))).toEqual([c.id, a.id]);
      expect(ids(await repo.list("acme", { namespace: "ns1" }))).toEqual([b.id, a.id]);
      expect(ids(await repo.list("acme", { containerTags: ["t2"] }))).toEqual([b.id, a.id]);
      expect(ids(await repo.list("acme", { containerTags: ["ns2", "t1"] }))).toEqual([c.id, a.id]);
      expect(ids(await repo.list("acme", { containerTags: [] }))).toEqual([c.id, b.id, a.id]);
      expect(ids(await repo.list("acme", { provider: "notion", namespace: "ns1", containerTags: ["t1"] }))).toEqual([a.id]);
      expect(ids(await repo.list("acme", { provider: "gmail" }))).toEqual([]);
      expect(ids(await repo.list("other"))).toEqual([d.id]);
      // Same creation time: the id breaks the tie, descending.
      const e = await repo.create(conn({ namespace: "tie" }, iso(9)));
      const f = await repo.create(conn({ namespace: "tie" }, iso(9)));
      expect(ids(await repo.list("acme", { namespace: "tie" }))).toEqual([e.id, f.id].sort().reverse());
    });

    it("finds a provider's connections carrying every given container tag", async () => {
      const a = await repo.create(conn({ provider: "notion", namespace: "ns1", containerTags: ["u1", "p1"] }, iso(1)));
      const b = await repo.create(conn({ provider: "notion", namespace: "ns2", containerTags: ["u1"] }, iso(2)));
      await repo.create(conn({ provider: "github", namespace: "ns1", containerTags: ["u1", "p1"] }, iso(3)));
      const ids = (cs: Connection[]) => cs.map((x) => x.id);
      expect(ids(await repo.findByProviderAndTags("acme", "notion", ["u1"]))).toEqual([b.id, a.id]);
      expect(ids(await repo.findByProviderAndTags("acme", "notion", ["u1", "p1"]))).toEqual([a.id]);
      expect(ids(await repo.findByProviderAndTags("acme", "notion", ["ns1"]))).toEqual([a.id]);
      expect(ids(await repo.findByProviderAndTags("acme", "notion", ["p1", "missing"]))).toEqual([]);
      expect(ids(await repo.findByProviderAndTags("acme", "notion", []))).toEqual([]);
      expect(ids(await repo.findByProviderAndTags("other", "notion", ["u1"]))).toEqual([]);
    });

    it("stores credentials only as the sealed bytes it is given", async () => {
      const box = new SecretBox(randomBytes(32));
      const token = "ya29.very-recognisable-access-token-0123456789";
      const c = conn({ provider: "granola" });
      const sealed = box.seal(JSON.stringify({ apiKey: token }), connectionCredentialsContext("acme", c.id));
      await repo.create({ ...c, sealedCredentials: sealed });
      const raw = await h.rawStored();
      repo = h.repo;
      expect(raw.includes(Buffer.from(token))).toBe(false);
      expect(raw.includes(Buffer.from(sealed))).toBe(true);
      const back = (await repo.get("acme", c.id))!.sealedCredentials!;
      expect(JSON.parse(box.openString(back, connectionCredentialsContext("acme", c.id)))).toEqual({ apiKey: token });
      expect(() => box.openString(back, connectionCredentialsContext("other", c.id))).toThrow();
    });
  });

  describe("tenant isolation", () => {
    it("lets 200 cross-tenant attempts read nothing and change nothing", async () => {
      const c = await repo.create(
        conn({ provider: "github", namespace: "secret-ns", containerTags: ["secret-tag"], sealedCredentials: new Uint8Array([1, 2, 3]) }),
      );
      const run = await started(c, iso(1));
      await repo.upsertItem("acme", item(c.id, "k1"));
      expect(await repo.tryAcquireLease("acme", c.id, "w1", 3_600_000, at(1))).toBeDefined();
      const before = await repo.get("acme", c.id);

      const rnd = prng(42);
      const near = ["ACME", "acme ", " acme", "acm", "acme2", "acme\u0000", "", "acme/..", "%", "other"];
      const writes: ((t: string) => Promise<unknown>)[] = [
        (t) => expect(repo.update({ ...c, tenantId: t })).rejects.toThrow(NotFoundError),
        async (t) => expect(await repo.delete(t, c.id)).toBe(false),
        (t) => expect(repo.upsertItem(t, item(c.id, "evil"))).rejects.toThrow(NotFoundError),
        async (t) => expect(await repo.removeItem(t, c.id, "k1")).toBeUndefined(),
        (t) =>
          expect(repo.applySyncPage(t, c.id, { holder: "w1", now: at(2), upserts: [item(c.id, "evil")], removals: ["k1"], cursor: "evil" })).rejects.toThrow(
            NotFoundError,
          ),
        (t) => expect(repo.tryAcquireLease(t, c.id, "evil", 60_000, at(600))).rejects.toThrow(NotFoundError),
        async (t) => expect(await repo.renewLease(t, c.id, "w1", 60_000, at(2))).toBeUndefined(),
        async (t) => expect(await repo.releaseLease(t, c.id, "w1")).toBe(false),
        (t) => expect(repo.startRun(newSyncRun({ tenantId: t, connectionId: c.id, trigger: "manual" }, iso(3)))).rejects.toThrow(NotFoundError),
        (t) => expect(repo.finishRun(finishSyncRun({ ...run, tenantId: t }, { documentsImported: 9 }, iso(3)))).rejects.toThrow(NotFoundError),
        async (t) => expect(await repo.pruneRuns(t, c.id, 0)).toBe(0),
      ];
      for (let i = 0; i < 200; i++) {
        const t = i < near.length ? near[i]! : `tenant-${Math.floor(rnd() * 1e9).toString(36)}`;
        expect(await repo.get(t, c.id)).toBeUndefined();
        expect(await repo.list(t)).toEqual([]);
        expect(await repo.list(t, { containerTags: ["secret-tag"] })).toEqual([]);
        expect(await repo.findByProviderAndTags(t, "github", ["secret-tag"])).toEqual([]);
        expect(await repo.getRun(t, run.id)).toBeUndefined();
        expect(await repo.lastRun(t, c.id)).toBeUndefined();
        expect((await repo.lastRuns(t, [c.id])).size).toBe(0);
        expect(await repo.listRuns(t, c.id, 10)).toEqual([]);
        expect((await repo.getItems(t, c.id, ["k1"])).size).toBe(0);
        expect(await repo.listItemKeys(t, c.id, { limit: 10 })).toEqual({ items: [] });
        expect(await repo.documentIds(t, c.id)).toEqual([]);
        expect(await repo.countItems(t, c.id)).toBe(0);
        await writes[i % writes.length]!(t);
      }

      expect(await repo.get("acme", c.id)).toEqual(before);
      expect(await repo.getRun("acme", run.id)).toEqual(run);
      expect(await repo.listItemKeys("acme", c.id, { limit: 10 })).toEqual({ items: ["k1"] });
      expect(await repo.tryAcquireLease("acme", c.id, "w2", 60_000, at(2))).toBeUndefined();
      expect(await repo.renewLease("acme", c.id, "w1", 60_000, at(2))).toBeDefined();
    });
  });

  describe("sync runs", () => {
    it("starts, finishes once, and answers the last run of each connection", async () => {
      const c = await repo.create(conn());
      expect(await repo.lastRun("acme", c.id)).toBeUndefined();
      const r1 = await started(c, iso(1), "initial");
      expect(r1).toMatchObject({ status: "running", trigger: "initial", startedAt: iso(1), documentsImported: 0, itemFailures: { count: 0, samples: [] } });
      expect(await repo.getRun("acme", r1.id)).toEqual(r1);
      expect(await repo.lastRun("acme", c.id)).toEqual(r1);

      const done = finishSyncRun(r1, { documentsImported: 12 }, iso(2));
      expect(await repo.finishRun(done)).toEqual(done);
      expect(done).toMatchObject({ status: "succeeded", completedAt: iso(2), documentsImported: 12 });
      expect(await repo.getRun("acme", r1.id)).toEqual(done);
      await expect(repo.finishRun(finishSyncRun(r1, { documentsImported: 1, failure: { code: "internal" } }, iso(3)))).rejects.toThrow(FailedPreconditionError);
      expect((await repo.getRun("acme", r1.id))!.status).toBe("succeeded");
      await expect(repo.finishRun({ ...done, id: "r_doesnotexist00000000" })).rejects.toThrow(NotFoundError);
      await expect(repo.finishRun(r1)).rejects.toThrow(InvalidArgumentError);

      let failures = emptyItemFailures();
      for (let i = 0; i < 14; i++) failures = addItemFailure(failures, `item-${i}`, `too large (${i})`);
      const r2 = await started(c, iso(10), "scheduled");
      const partial = await repo.finishRun(finishSyncRun(r2, { documentsImported: 3, itemFailures: failures }, iso(11)));
      expect(partial).toMatchObject({ status: "partial", itemFailures: { count: 14 } });
      expect(partial.itemFailures.samples).toHaveLength(10);
      expect(partial.itemFailures.samples[0]).toEqual({ itemKey: "item-0", reason: "too large (0)" });
      const r3 = await started(c, iso(20), "webhook");
      const failed = await repo.finishRun(
        finishSyncRun(r3, { documentsImported: 0, failure: { code: "rate_limited", message: "429 from the provider" } }, iso(21)),
      );
      expect(failed).toMatchObject({ status: "failed", errorCode: "rate_limited", error: "429 from the provider" });

      expect(await repo.lastRun("acme", c.id)).toEqual(failed);
      const other = await repo.create(conn({ namespace: "other" }));
      const o1 = await started(other, iso(5));
      const none = await repo.create(conn({ namespace: "none" }));
      const last = await repo.lastRuns("acme", [c.id, other.id, none.id, c.id]);
      expect([...last.keys()].sort()).toEqual([c.id, other.id].sort());
      expect(last.get(c.id)).toEqual(failed);
      expect(last.get(other.id)).toEqual(o1);
      expect((await repo.lastRuns("acme", [])).size).toBe(0);
      expect((await repo.listRuns("acme", c.id, 2)).map((r) => r.id)).toEqual([r3.id, r2.id]);
      await expect(repo.startRun({ ...newSyncRun({ tenantId: "acme", connectionId: c.id, trigger: "manual" }, iso(30)), id: r1.id })).rejects.toThrow(
        AlreadyExistsError,
      );
    });

    it("orders runs that started at the same time by id, and refuses runs of unknown connections", async () => {
      const c = await repo.create(conn());
      await started(c, iso(1), "manual", "r_00000000000000000001");
      await started(c, iso(1), "manual", "r_00000000000000000002");
      expect((await repo.lastRun("acme", c.id))!.id).toBe("r_00000000000000000002");
      expect((await repo.lastRuns("acme", [c.id])).get(c.id)!.id).toBe("r_00000000000000000002");
      await expect(repo.startRun(newSyncRun({ tenantId: "acme", connectionId: "n_doesnotexist00000000", trigger: "manual" }, iso(2)))).rejects.toThrow(
        NotFoundError,
      );
    });

    it("closes a run left running when the next one starts (its worker is gone)", async () => {
      const c = await repo.create(conn());
      const stale = await started(c, iso(1));
      const fresh = await started(c, iso(30));
      expect(await repo.getRun("acme", stale.id)).toMatchObject({ status: "failed", errorCode: "internal", completedAt: iso(30) });
      expect(await repo.getRun("acme", fresh.id)).toMatchObject({ status: "running" });
      await expect(repo.finishRun(finishSyncRun(stale, { documentsImported: 1 }, iso(31)))).rejects.toThrow(FailedPreconditionError);
    });

    it("prunes all but the newest runs of one connection", async () => {
      const c = await repo.create(conn());
      const other = await repo.create(conn({ namespace: "other" }));
      const runs: SyncRun[] = [];
      for (let i = 0; i < 6; i++) runs.push(await repo.finishRun(finishSyncRun(await started(c, iso(i)), { documentsImported: i }, iso(i))));
      const kept = await started(other, iso(0));
      expect(await repo.pruneRuns("acme", c.id, 2)).toBe(4);
      expect((await repo.listRuns("acme", c.id, 10)).map((r) => r.id)).toEqual([runs[5]!.id, runs[4]!.id]);
      expect(await repo.pruneRuns("acme", c.id, 2)).toBe(0);
      expect(await repo.getRun("acme", kept.id)).toEqual(kept);
      expect(await repo.pruneRuns("acme", c.id, 0)).toBe(2);
      expect(await repo.lastRun("acme", c.id)).toBeUndefined();
    });
  });

  describe("item ledger", () => {
    it("upserts, replaces, reads, removes and counts items", async () => {
      const c = await repo.create(conn());
      const state = JSON.stringify({ etag: '"abc"', links: ["https://x/2"], "$odd.key": true });
      await repo.upsertItem("acme", item(c.id, "page-1", { url: "https://x/1", state }));
      expect((await repo.getItems("acme", c.id, ["page-1"])).get("page-1")).toEqual(item(c.id, "page-1", { url: "https://x/1", state }));
      await repo.upsertItem("acme", item(c.id, "page-2"));
      expect(await repo.countItems("acme", c.id)).toBe(2);
      await repo.upsertItem("acme", item(c.id, "page-1", { version: "v2", documentId: "doc-new", updatedAt: iso(5) }));
      expect(await repo.countItems("acme", c.id)).toBe(2);
      const got = await repo.getItems("acme", c.id, ["page-1", "page-2", "missing"]);
      expect([...got.keys()].sort()).toEqual(["page-1", "page-2"]);
      // Replaced whole: the url and state it no longer has are gone.
      expect(got.get("page-1")).toEqual({ connectionId: c.id, itemKey: "page-1", documentId: "doc-new", version: "v2", updatedAt: iso(5) });
      expect(got.get("page-2")).toEqual(item(c.id, "page-2"));
      expect(await repo.removeItem("acme", c.id, "page-2")).toEqual(item(c.id, "page-2"));
      expect(await repo.removeItem("acme", c.id, "page-2")).toBeUndefined();
      expect(await repo.countItems("acme", c.id)).toBe(1);
      expect((await repo.getItems("acme", c.id, [])).size).toBe(0);
      await expect(repo.upsertItem("acme", item("n_doesnotexist00000000", "k"))).rejects.toThrow(NotFoundError);
      await expect(repo.upsertItem("acme", item(c.id, ""))).rejects.toThrow(InvalidArgumentError);
    });

    it("pages through every item key in byte order and lists distinct document ids", async () => {
      const c = await repo.create(conn());
      const other = await repo.create(conn({ namespace: "other" }));
      const keys = [
        ...Array.from({ length: 23 }, (_, i) => `https://site/p/${String(i).padStart(3, "0")}`),
        "Zeta",
        "ärger",
        "日本",
        "emoji-😀",
        "a b",
        "-dash",
      ];
      for (const k of keys) await repo.upsertItem("acme", item(c.id, k, { documentId: `doc-${keys.indexOf(k) % 7}` }));
      await repo.upsertItem("acme", item(other.id, "https://site/p/000"));
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await repo.listItemKeys("acme", c.id, { after, limit: 10 });
        seen.push(...page.items);
        pages++;
        if (!page.next) break;
        expect(page.items).toHaveLength(10);
        after = page.next;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual([...keys].sort(byteOrder));
      expect(await repo.listItemKeys("acme", c.id, { after: seen[seen.length - 1], limit: 10 })).toEqual({ items: [] });
      const exact = await repo.listItemKeys("acme", c.id, { limit: keys.length });
      expect(exact.items).toHaveLength(keys.length);
      expect(exact.next).toBeUndefined();
      expect(await repo.documentIds("acme", c.id)).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4", "doc-5", "doc-6"]);
      expect(await repo.countItems("acme", c.id)).toBe(keys.length);
      expect(await repo.countItems("acme", other.id)).toBe(1);
      await expect(repo.listItemKeys("acme", c.id, { limit: 0 })).rejects.toThrow(InvalidArgumentError);
    });

    it("applies a sync page's items and cursor together, only for the lease holder", async () => {
      const c = await repo.create(conn({ provider: "granola" }));
      await repo.upsertItem("acme", item(c.id, "old"));
      await expect(repo.applySyncPage("acme", c.id, { holder: "w1", now: at(1), upserts: [item(c.id, "a")], cursor: "page-2" })).rejects.toThrow(
        FailedPreconditionError,
      );
      expect(await repo.tryAcquireLease("acme", c.id, "w1", 60_000, at(1))).toBeDefined();

      await repo.applySyncPage("acme", c.id, {
        holder: "w1",
        now: at(1),
        upserts: [item(c.id, "a"), item(c.id, "b")],
        removals: ["old", "never-there"],
        cursor: "page-2",
      });
      expect(await repo.listItemKeys("acme", c.id, { limit: 10 })).toEqual({ items: ["a", "b"] });
      expect((await repo.get("acme", c.id))!.cursor).toBe("page-2");

      // No cursor given: it stays. null: it is cleared (a full resync follows).
      await repo.applySyncPage("acme", c.id, { holder: "w1", now: at(1.5), upserts: [item(c.id, "c")] });
      expect((await repo.get("acme", c.id))!.cursor).toBe("page-2");
      await repo.applySyncPage("acme", c.id, { holder: "w1", now: at(1.5), cursor: null });
      expect((await repo.get("acme", c.id))!.cursor).toBeUndefined();
      await repo.applySyncPage("acme", c.id, { holder: "w1", now: at(1.5), cursor: "page-3" });

      // Another holder, an expired lease, a foreign item or an unknown connection: nothing is applied.
      const refused = [
        repo.applySyncPage("acme", c.id, { holder: "w2", now: at(1.5), upserts: [item(c.id, "x")], removals: ["a"], cursor: "evil" }),
        repo.applySyncPage("acme", c.id, { holder: "w1", now: at(2), upserts: [item(c.id, "x")], removals: ["a"], cursor: "late" }),
      ];
      for (const p of refused) await expect(p).rejects.toThrow(FailedPreconditionError);
      await expect(
        repo.applySyncPage("acme", c.id, { holder: "w1", now: at(1.5), upserts: [item(c.id, "x"), item("n_other000000000000000", "y")], cursor: "bad" }),
      ).rejects.toThrow(InvalidArgumentError);
      await expect(repo.applySyncPage("acme", "n_doesnotexist00000000", { holder: "w1", now: at(1.5), cursor: "x" })).rejects.toThrow(NotFoundError);
      expect(await repo.listItemKeys("acme", c.id, { limit: 10 })).toEqual({ items: ["a", "b", "c"] });
      expect((await repo.get("acme", c.id))!.cursor).toBe("page-3");
    });

    it("keeps the cursor and the lease out of update: an update never moves them", async () => {
      const c = await repo.create(conn({ provider: "s3" }));
      await repo.tryAcquireLease("acme", c.id, "w1", 60_000, at(0));
      await repo.applySyncPage("acme", c.id, { holder: "w1", now: at(0), cursor: "c-1" });
      const read = (await repo.get("acme", c.id))!;
      const updated = await repo.update({ ...patchConnection(read, { email: "x@example.com" }, iso(0.5)), cursor: "stale-cursor-from-the-caller" });
      expect(updated.cursor).toBe("c-1");
      expect(await repo.tryAcquireLease("acme", c.id, "w2", 60_000, at(0.5))).toBeUndefined();
      expect((await repo.get("acme", c.id))!.revision).toBe(2);
    });
  });

  describe("sync lease", () => {
    it("has one holder at a time, re-entrant, renewable until it lapses, then free for another", async () => {
      const c = await repo.create(conn());
      const a = await repo.tryAcquireLease("acme", c.id, "worker-a", 60_000, at(0));
      expect(a).toEqual({ connectionId: c.id, holder: "worker-a", expiresAt: iso(1) });
      expect(await repo.tryAcquireLease("acme", c.id, "worker-b", 60_000, at(0.5))).toBeUndefined();
      // The holder acquiring again extends it.
      expect(await repo.tryAcquireLease("acme", c.id, "worker-a", 60_000, at(0.5))).toEqual({ connectionId: c.id, holder: "worker-a", expiresAt: iso(1.5) });
      expect(await repo.renewLease("acme", c.id, "worker-b", 60_000, at(1))).toBeUndefined();
      expect(await repo.renewLease("acme", c.id, "worker-a", 60_000, at(1))).toEqual({ connectionId: c.id, holder: "worker-a", expiresAt: iso(2) });
      expect(await repo.tryAcquireLease("acme", c.id, "worker-b", 60_000, at(1.99))).toBeUndefined();
      // Lapsed: renewal fails, another worker takes it, and the former holder can neither renew nor release it.
      expect(await repo.renewLease("acme", c.id, "worker-a", 60_000, at(2))).toBeUndefined();
      expect(await repo.tryAcquireLease("acme", c.id, "worker-b", 60_000, at(2))).toEqual({ connectionId: c.id, holder: "worker-b", expiresAt: iso(3) });
      expect(await repo.renewLease("acme", c.id, "worker-a", 60_000, at(2.5))).toBeUndefined();
      expect(await repo.releaseLease("acme", c.id, "worker-a")).toBe(false);
      expect(await repo.tryAcquireLease("acme", c.id, "worker-a", 60_000, at(2.5))).toBeUndefined();
      expect(await repo.releaseLease("acme", c.id, "worker-b")).toBe(true);
      expect(await repo.releaseLease("acme", c.id, "worker-b")).toBe(false);
      expect(await repo.renewLease("acme", c.id, "worker-b", 60_000, at(2.5))).toBeUndefined();
      expect(await repo.tryAcquireLease("acme", c.id, "worker-a", 60_000, at(2.5))).toBeDefined();
    });

    it("gives a contended lease to exactly one of many concurrent workers, per connection", async () => {
      const c1 = await repo.create(conn());
      const c2 = await repo.create(conn({ namespace: "two" }));
      const attempts = Array.from({ length: 20 }, (_, i) => [
        repo.tryAcquireLease("acme", c1.id, `w${i}`, 60_000, at(0)),
        repo.tryAcquireLease("acme", c2.id, `w${i}`, 60_000, at(0)),
      ]).flat();
      const results = await Promise.all(attempts);
      const winners = results.filter((r) => r !== undefined);
      expect(winners).toHaveLength(2);
      expect(new Set(winners.map((w) => w!.connectionId))).toEqual(new Set([c1.id, c2.id]));
    });

    it("refuses leases of unknown connections and bad holders or times to live", async () => {
      const c = await repo.create(conn());
      await expect(repo.tryAcquireLease("acme", "n_doesnotexist00000000", "w", 60_000, at(0))).rejects.toThrow(NotFoundError);
      await expect(repo.tryAcquireLease("acme", c.id, "", 60_000, at(0))).rejects.toThrow(InvalidArgumentError);
      await expect(repo.tryAcquireLease("acme", c.id, "w", 0, at(0))).rejects.toThrow(InvalidArgumentError);
      await expect(repo.renewLease("acme", c.id, "w", 1.5, at(0))).rejects.toThrow(InvalidArgumentError);
      expect(await repo.renewLease("acme", "n_doesnotexist00000000", "w", 60_000, at(0))).toBeUndefined();
      expect(await repo.releaseLease("acme", "n_doesnotexist00000000", "w")).toBe(false);
    });
  });

  describe("scheduled syncs (dueForSync)", () => {
    const H = 60;
    const D = 24 * H;
    const crawl = (over: Record<string, string | number> = {}) => ({ startUrl: "https://docs.example.com/", ...over });

    /** An active connection created `createdAtMin` minutes after T0 (authorized when its provider needs consent). */
    async function active(input: Partial<NewConnectionInput>, createdAtMin = 0): Promise<Connection> {
      const c = await repo.create(conn(input, iso(createdAtMin)));
      return c.status === "active" ? c : repo.update(applyConnectionEvent(c, "authorized", iso(createdAtMin)));
    }

    /** A run of `c` that started at `startMin` and finished (failed when `failure` is given) at `endMin`. */
    async function ran(c: Connection, startMin: number, endMin = startMin + 1, failure?: SyncErrorCode): Promise<SyncRun> {
      const run = await started(c, iso(startMin), "scheduled");
      return repo.finishRun(finishSyncRun(run, { documentsImported: 0, failure: failure && { code: failure } }, iso(endMin)));
    }

    const dueIds = async (atMin: number, opts: { limit?: number; providers?: ConnectionProvider[] } = {}) =>
      (await repo.dueForSync(at(atMin), { limit: opts.limit ?? 100, providers: opts.providers })).map((d) => d.connectionId);

    it("answers a connection that never synced as due from its creation, with what it takes to start its sync", async () => {
      const c = await active({ tenantId: "t1", provider: "web-crawler", config: crawl() }, 5);
      expect(await repo.dueForSync(at(4.99), { limit: 10 })).toEqual([]);
      expect(await repo.dueForSync(at(5), { limit: 10 })).toEqual([
        { tenantId: "t1", connectionId: c.id, provider: "web-crawler", dueAt: iso(5), requested: false },
      ]);
      // A run that started and never finished (its worker died) leaves it due: once its lease lapses it is retried.
      await started(c, iso(6));
      expect(await dueIds(7)).toEqual([c.id]);
      repo = await h.reopen();
      expect(await dueIds(7)).toEqual([c.id]);
    });

    it("is due 4 h after the start of the last finished run, failed or not, for every provider but the web crawler", async () => {
      const gh = await active({ provider: "github", namespace: "gh" });
      const gr = await active({ provider: "granola", namespace: "gr" });
      // Counted from the start, not the end; a failed run is retried on the schedule, not sooner.
      await ran(gh, 10, 70);
      await ran(gr, 20, 21, "provider_unavailable");
      expect(await dueIds(10 + 4 * H - 0.01)).toEqual([]);
      expect(await repo.dueForSync(at(10 + 4 * H), { limit: 10 })).toEqual([
        { tenantId: "acme", connectionId: gh.id, provider: "github", dueAt: iso(10 + 4 * H), requested: false },
      ]);
      expect(await dueIds(20 + 4 * H)).toEqual([gh.id, gr.id]);
      // The next run moves it on again.
      await ran(gh, 20 + 4 * H);
      expect(await dueIds(20 + 4 * H)).toEqual([gr.id]);
      repo = await h.reopen();
      expect(await dueIds(20 + 8 * H)).toEqual([gr.id, gh.id]);
    });

    it("recrawls a site 7 days after its last run started, or after its recrawlIntervalDays (at least 7)", async () => {
      const weekly = await active({ provider: "web-crawler", namespace: "weekly", config: crawl() });
      const monthly = await active({ provider: "web-crawler", namespace: "monthly", config: crawl({ recrawlIntervalDays: 30 }) });
      const tooOften = await active({ provider: "web-crawler", namespace: "too-often", config: crawl({ recrawlIntervalDays: 1 }) });
      const zero = await active({ provider: "web-crawler", namespace: "zero", config: crawl({ recrawlIntervalDays: 0 }) });
      for (const c of [weekly, monthly, tooOften, zero]) await ran(c, 0, 45);
      const sevenDays = [weekly.id, tooOften.id, zero.id].sort();
      expect(await dueIds(4 * H)).toEqual([]);
      expect(await dueIds(7 * D - 0.01)).toEqual([]);
      expect(await dueIds(7 * D)).toEqual(sevenDays);
      expect(await dueIds(30 * D - 0.01)).toEqual(sevenDays);
      expect(await dueIds(30 * D)).toEqual([...sevenDays, monthly.id]);
    });

    it("follows a change of config: the new interval counts from the same last run", async () => {
      const c = await active({ provider: "web-crawler", config: crawl() });
      await ran(c, 0);
      const read = (await repo.get("acme", c.id))!;
      await repo.update(patchConnection(read, { config: crawl({ recrawlIntervalDays: 14 }) }, iso(2)));
      expect(await dueIds(7 * D)).toEqual([]);
      expect(await repo.dueForSync(at(14 * D), { limit: 1 })).toEqual([
        { tenantId: "acme", connectionId: c.id, provider: "web-crawler", dueAt: iso(14 * D), requested: false },
      ]);
      // Another change (no config) keeps it.
      const again = (await repo.get("acme", c.id))!;
      await repo.update(patchConnection(again, { email: "ops@example.com" }, iso(3)));
      expect(await dueIds(14 * D - 0.01)).toEqual([]);
      expect(await dueIds(14 * D)).toEqual([c.id]);
      // Never synced: due from its creation, whatever the interval.
      const fresh = await active({ provider: "web-crawler", namespace: "fresh", config: crawl() }, 100);
      await repo.update(patchConnection(fresh, { config: crawl({ recrawlIntervalDays: 30 }) }, iso(101)));
      expect(await dueIds(100)).toEqual([fresh.id]);
    });

    it("never moves the due time back for a run that started before the last finished one", async () => {
      const c = await active({ provider: "github" });
      await ran(c, 100);
      await ran(c, 50, 200);
      expect(await dueIds(100 + 4 * H - 0.01)).toEqual([]);
      expect(await dueIds(100 + 4 * H)).toEqual([c.id]);
    });

    it("leaves out connections that are not active, have expired, are being synced, are deleted, or are of other providers", async () => {
      const ok = await active({ provider: "web-crawler", namespace: "ok", config: crawl() });
      const expiring = await active({ provider: "github", namespace: "expiring", expiresAt: iso(60) });
      const leased = await active({ provider: "granola", namespace: "leased" });
      const excluded = [
        await repo.create(conn({ provider: "notion", namespace: "pending" })),
        await repo.update(applyConnectionEvent(await active({ provider: "github", namespace: "revoked" }), "authorization_lost", iso(0))),
        await repo.update(applyConnectionEvent(await active({ provider: "granola", namespace: "ended" }), "expired", iso(0))),
        await repo.update(applyConnectionEvent(await active({ provider: "granola", namespace: "deleting" }), "deletion_requested", iso(0))),
        await active({ provider: "granola", namespace: "expired-before", expiresAt: iso(-1) }),
      ];
      expect(excluded.map((c) => c.status)).toEqual(["pending_authorization", "auth_expired", "expired", "deleting", "active"]);
      const gone = await active({ provider: "granola", namespace: "gone" });
      await repo.delete("acme", gone.id);
      // Leased until minute 60: being synced (here or by another replica).
      expect(await repo.tryAcquireLease("acme", leased.id, "w1", 60 * 60_000, at(0))).toBeDefined();

      expect(await dueIds(30)).toEqual([ok.id, expiring.id].sort());
      // At minute 60 expiresAt is reached (left out before any sweep marks it expired) and the lease lapses.
      expect(await dueIds(60)).toEqual([ok.id, leased.id].sort());
      // A lease taken again (its sync started) keeps it out; released, it is back at once.
      expect(await repo.tryAcquireLease("acme", leased.id, "w2", 60_000, at(61))).toBeDefined();
      expect(await dueIds(61)).toEqual([ok.id]);
      expect(await repo.releaseLease("acme", leased.id, "w2")).toBe(true);
      expect(await dueIds(61)).toEqual([ok.id, leased.id].sort());

      // Only the providers asked for (those with a connector); an empty list matches nothing.
      expect(await dueIds(61, { providers: ["web-crawler"] })).toEqual([ok.id]);
      expect(await dueIds(61, { providers: ["granola", "github", "notion"] })).toEqual([leased.id]);
      expect(await dueIds(61, { providers: [] })).toEqual([]);
    });

    it("orders every tenant's due connections by due time, then id, and answers at most `limit`", async () => {
      const mk = (tenantId: string, createdAtMin: number) => active({ tenantId, provider: "granola", namespace: `ns-${createdAtMin}` }, createdAtMin);
      const c3 = await mk("tenant-b", 3);
      const c1 = await mk("tenant-a", 1);
      const c2a = await mk("tenant-c", 2);
      const c2b = await mk("tenant-a", 2);
      const later = await mk("tenant-b", 9);
      const tie = [c2a, c2b].sort((x, y) => (x.id < y.id ? -1 : 1));
      const due = await repo.dueForSync(at(5), { limit: 10 });
      expect(due.map((d) => [d.tenantId, d.connectionId, d.dueAt])).toEqual([
        ["tenant-a", c1.id, iso(1)],
        [tie[0]!.tenantId, tie[0]!.id, iso(2)],
        [tie[1]!.tenantId, tie[1]!.id, iso(2)],
        ["tenant-b", c3.id, iso(3)],
      ]);
      expect(await dueIds(5, { limit: 2 })).toEqual([c1.id, tie[0]!.id]);
      expect(await dueIds(5, { limit: 1, providers: ["granola"] })).toEqual([c1.id]);
      // Synced, the oldest goes to the back.
      await ran(c1, 4);
      expect(await dueIds(4 * H + 4)).toEqual([tie[0]!.id, tie[1]!.id, c3.id, later.id, c1.id]);
      await expect(repo.dueForSync(at(5), { limit: 0 })).rejects.toThrow(InvalidArgumentError);
      await expect(repo.dueForSync(at(5), { limit: 1.5 })).rejects.toThrow(InvalidArgumentError);
    });

    describe("sync requests (requestSync)", () => {
      const due = (c: Connection, dueAtMin: number, requested: boolean, requestedBy = "webhook") => ({
        tenantId: c.tenantId,
        connectionId: c.id,
        provider: c.provider,
        dueAt: iso(dueAtMin),
        requested,
        ...(requested ? { requestedBy } : {}),
      });

      it("names what made the request (the latest one): the follow-up run carries it as its trigger; an unknown trigger is refused", async () => {
        const c = await active({ provider: "web-crawler", config: crawl() });
        await ran(c, 0);
        const run = await started(c, iso(10), "manual");
        // A manual import while the run lists the site: one more run must follow, as a manual one.
        await repo.requestSync("acme", c.id, at(12), at(12), "manual");
        await repo.finishRun(finishSyncRun(run, { documentsImported: 1 }, iso(20)));
        expect(await repo.dueForSync(at(20), { limit: 10 })).toEqual([due(c, 20, true, "manual")]);
        await repo.requestSync("acme", c.id, at(21), at(21), "scheduled");
        expect(await repo.dueForSync(at(21), { limit: 10 })).toEqual([due(c, 20, true, "scheduled")]);
        await expect(repo.requestSync("acme", c.id, at(22), at(22), "initial" as never)).rejects.toThrow(/trigger/);
        // Settled by a run that covers it: no request, no trigger.
        await ran(c, 23, 24);
        expect(await dueIds(24)).toEqual([]);
      });

      it("makes a connection due at the request's due time, not before, as requested, and keeps it through a reopen", async () => {
        const c = await active({ provider: "github" });
        await ran(c, 0);
        expect(await dueIds(10)).toEqual([]);
        expect(await repo.requestSync("acme", c.id, at(10), at(15))).toBe(true);
        expect(await repo.dueForSync(at(14.99), { limit: 10 })).toEqual([]);
        expect(await repo.dueForSync(at(15), { limit: 10 })).toEqual([due(c, 15, true)]);
        repo = await h.reopen();
        expect(await repo.dueForSync(at(14.99), { limit: 10 })).toEqual([]);
        expect(await repo.dueForSync(at(15), { limit: 10 })).toEqual([due(c, 15, true)]);
      });

      it("folds a burst into one request, due at its earliest due time", async () => {
        const c = await active({ provider: "github" });
        await ran(c, 0);
        expect(await repo.requestSync("acme", c.id, at(11), at(16))).toBe(true);
        expect(await repo.requestSync("acme", c.id, at(10), at(15))).toBe(true);
        expect(await repo.requestSync("acme", c.id, at(12), at(17))).toBe(true);
        expect(await repo.dueForSync(at(14.99), { limit: 10 })).toEqual([]);
        expect(await repo.dueForSync(at(15), { limit: 10 })).toEqual([due(c, 15, true)]);
        expect(await repo.dueForSync(at(17), { limit: 10 })).toEqual([due(c, 15, true)]);
      });

      it("never delays a sync already due, and answers requested only once the request is due", async () => {
        const c = await active({ provider: "github" });
        // Never synced: due from its creation (minute 0); the request, due at minute 5, does not move that back.
        expect(await repo.requestSync("acme", c.id, at(1), at(5))).toBe(true);
        expect(await repo.dueForSync(at(2), { limit: 10 })).toEqual([due(c, 0, false)]);
        expect(await repo.dueForSync(at(5), { limit: 10 })).toEqual([due(c, 0, true)]);
        // A request due after the schedule leaves the schedule's due time.
        const later = await active({ provider: "github", namespace: "later" });
        await ran(later, 0);
        expect(await repo.requestSync("acme", later.id, at(4 * H - 5), at(4 * H + 30))).toBe(true);
        expect(await repo.dueForSync(at(4 * H), { limit: 10, providers: ["github"] })).toEqual([due(c, 0, true), due(later, 4 * H, false)]);
        expect((await repo.dueForSync(at(4 * H + 30), { limit: 10 }))[1]).toEqual(due(later, 4 * H, true));
      });

      it("is cleared by a run that started at or after its latest event: due on the schedule again", async () => {
        const c = await active({ provider: "github" });
        await ran(c, 0);
        await repo.requestSync("acme", c.id, at(10), at(15));
        await repo.requestSync("acme", c.id, at(12), at(17));
        // A run that started before the request was even due still covered every event.
        await ran(c, 13, 14);
        expect(await dueIds(15)).toEqual([]);
        expect(await dueIds(13 + 4 * H - 0.01)).toEqual([]);
        expect(await repo.dueForSync(at(13 + 4 * H), { limit: 10 })).toEqual([due(c, 13 + 4 * H, false)]);
        // An event at the very start of the run counts as seen by it.
        await repo.requestSync("acme", c.id, at(20), at(25));
        await ran(c, 20, 21);
        expect(await dueIds(30)).toEqual([]);
        repo = await h.reopen();
        expect(await dueIds(30)).toEqual([]);
        expect(await repo.dueForSync(at(20 + 4 * H), { limit: 10 })).toEqual([due(c, 20 + 4 * H, false)]);
      });

      it("stays when an event came during the run, due at the run's completion, until a later run covers it", async () => {
        const c = await active({ provider: "github" });
        await ran(c, 0);
        await repo.requestSync("acme", c.id, at(10), at(15));
        const run = await started(c, iso(15), "webhook");
        // Notified while the run lists the provider: the run may have missed it.
        await repo.requestSync("acme", c.id, at(17), at(22));
        await repo.finishRun(finishSyncRun(run, { documentsImported: 1 }, iso(20)));
        expect(await repo.dueForSync(at(19.99), { limit: 10 })).toEqual([]);
        expect(await repo.dueForSync(at(20), { limit: 10 })).toEqual([due(c, 20, true)]);
        repo = await h.reopen();
        expect(await repo.dueForSync(at(20), { limit: 10 })).toEqual([due(c, 20, true)]);
        // The next run started after the event: cleared, due on the schedule from that run.
        await ran(c, 21, 22);
        expect(await dueIds(22)).toEqual([]);
        expect(await repo.dueForSync(at(21 + 4 * H), { limit: 10 })).toEqual([due(c, 21 + 4 * H, false)]);
      });

      it("keeps a pending request's due time through a change of config", async () => {
        const c = await active({ provider: "web-crawler", config: crawl() });
        await ran(c, 0);
        await repo.requestSync("acme", c.id, at(10), at(15));
        const read = (await repo.get("acme", c.id))!;
        await repo.update(patchConnection(read, { config: crawl({ recrawlIntervalDays: 14 }) }, iso(11)));
        expect(await repo.dueForSync(at(15), { limit: 10 })).toEqual([due(c, 15, true)]);
        // Settled by a run, the new interval applies.
        await ran(c, 16);
        expect(await dueIds(14 * D + 15)).toEqual([]);
        expect(await dueIds(14 * D + 16)).toEqual([c.id]);
      });

      it("answers false for another tenant's or an unknown connection, and changes nothing", async () => {
        const c = await active({ provider: "github" });
        await ran(c, 0);
        const before = await repo.get("acme", c.id);
        for (const t of ["other", "ACME", "acme ", ""]) expect(await repo.requestSync(t, c.id, at(10), at(15))).toBe(false);
        expect(await repo.requestSync("acme", "n_doesnotexist00000000", at(10), at(15))).toBe(false);
        expect(await dueIds(4 * H - 0.01)).toEqual([]);
        expect(await repo.get("acme", c.id)).toEqual(before);
        // And a run of the owner still finds no request to keep.
        await ran(c, 20);
        expect(await dueIds(20 + 4 * H - 0.01)).toEqual([]);
      });
    });
  });

  describe("connections by provider account (findByAccount)", () => {
    it("finds the connections of an account across tenants, only for that provider, and follows account changes through a reopen", async () => {
      const a = await repo.create(conn({ provider: "gmail" }));
      const b = await repo.create(conn({ tenantId: "other", provider: "gmail" }));
      const n = await repo.create(conn({ provider: "notion" }));
      expect(await repo.findByAccount("gmail", "me@example.com")).toEqual([]);
      const a2 = await repo.update(patchConnection(a, { account: "me@example.com" }, iso(1)));
      expect(a2.account).toBe("me@example.com");
      await repo.update(patchConnection(b, { account: "me@example.com" }, iso(2)));
      await repo.update(patchConnection(n, { account: "me@example.com" }, iso(3)));
      expect((await repo.findByAccount("gmail", "me@example.com")).map((c) => [c.tenantId, c.id]).sort()).toEqual(
        [
          ["acme", a.id],
          ["other", b.id],
        ].sort(),
      );
      expect((await repo.findByAccount("notion", "me@example.com")).map((c) => c.id)).toEqual([n.id]);
      expect(await repo.findByAccount("gmail", "ME@example.com")).toEqual([]);
      repo = await h.reopen();
      const again = (await repo.get("acme", a.id))!;
      await repo.update(patchConnection(again, { account: null }, iso(4)));
      expect((await repo.findByAccount("gmail", "me@example.com")).map((c) => c.id)).toEqual([b.id]);
      expect((await repo.get("acme", a.id))!.account).toBeUndefined();
    });
  });

  describe("webhook deliveries (recordDelivery)", () => {
    // Around the real clock, not T0: a store may forget expired ids on its own (MongoDB's TTL monitor) at any moment.
    const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
    const after = (ms: number) => new Date(NOW.getTime() + ms);

    it("answers true the first time an id is recorded for a connection and false for a redelivery, through a reopen", async () => {
      const c = await repo.create(conn());
      const c2 = await repo.create(conn({ namespace: "two" }));
      expect(await repo.recordDelivery("acme", c.id, "d1", NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c.id, "d1", NOW)).toBe(false);
      expect(await repo.recordDelivery("acme", c.id, "d1", after(3_600_000))).toBe(false);
      expect(await repo.recordDelivery("acme", c.id, "d2", NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c.id, "D1", NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c2.id, "d1", NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c2.id, "d1", NOW)).toBe(false);
      repo = await h.reopen();
      expect(await repo.recordDelivery("acme", c.id, "d1", NOW)).toBe(false);
      expect(await repo.recordDelivery("acme", c2.id, "d2", NOW)).toBe(true);
    });

    it("remembers an id DELIVERY_MEMORY_MS, and takes it as new once forgotten", async () => {
      const c = await repo.create(conn());
      expect(await repo.recordDelivery("acme", c.id, "d1", NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c.id, "d1", after(DELIVERY_MEMORY_MS))).toBe(false);
      expect(await repo.recordDelivery("acme", c.id, "d1", after(DELIVERY_MEMORY_MS + 60_000))).toBe(true);
      // Recorded again then: remembered from that time.
      expect(await repo.recordDelivery("acme", c.id, "d1", after(DELIVERY_MEMORY_MS + 120_000))).toBe(false);
    });

    it("refuses another tenant's or an unknown connection, recording nothing, and bad delivery ids", async () => {
      const c = await repo.create(conn());
      for (const t of ["other", "ACME", "acme ", ""]) await expect(repo.recordDelivery(t, c.id, "d1", NOW)).rejects.toThrow(NotFoundError);
      await expect(repo.recordDelivery("acme", "n_doesnotexist00000000", "d1", NOW)).rejects.toThrow(NotFoundError);
      expect(await repo.recordDelivery("acme", c.id, "d1", NOW)).toBe(true);
      await expect(repo.recordDelivery("acme", c.id, "", NOW)).rejects.toThrow(InvalidArgumentError);
      await expect(repo.recordDelivery("acme", c.id, "x".repeat(201), NOW)).rejects.toThrow(InvalidArgumentError);
      expect(await repo.recordDelivery("acme", c.id, "x".repeat(200), NOW)).toBe(true);
      expect(await repo.recordDelivery("acme", c.id, "x".repeat(200), NOW)).toBe(false);
    });

    it("answers true to exactly one of concurrent calls with the same id", async () => {
      const c = await repo.create(conn());
      const pair = await Promise.all([repo.recordDelivery("acme", c.id, "race", NOW), repo.recordDelivery("acme", c.id, "race", NOW)]);
      expect(pair.filter(Boolean)).toHaveLength(1);
      const many = await Promise.all(Array.from({ length: 8 }, () => repo.recordDelivery("acme", c.id, "race-2", NOW)));
      expect(many.filter(Boolean)).toHaveLength(1);
      // Once its memory passed, still one winner.
      const later = await Promise.all(Array.from({ length: 4 }, () => repo.recordDelivery("acme", c.id, "race", after(DELIVERY_MEMORY_MS + 60_000))));
      expect(later.filter(Boolean)).toHaveLength(1);
    });

    it("is removed with its connection, and nothing of another connection's", async () => {
      const c = await repo.create(conn());
      const keep = await repo.create(conn({ namespace: "keep" }));
      for (const x of [c, keep]) for (const id of ["d1", "d2"]) expect(await repo.recordDelivery("acme", x.id, id, NOW)).toBe(true);
      expect(await repo.delete("acme", c.id)).toBe(true);
      await expect(repo.recordDelivery("acme", c.id, "d1", NOW)).rejects.toThrow(NotFoundError);
      expect(await repo.delete("acme", c.id)).toBe(false);
      expect(await repo.recordDelivery("acme", keep.id, "d1", NOW)).toBe(false);
      expect(await repo.recordDelivery("acme", keep.id, "d3", NOW)).toBe(true);
    });
  });

  describe("delete", () => {
    it("removes the connection with its items, runs and lease, and nothing of another connection", async () => {
      const c = await repo.create(conn());
      const keep = await repo.create(conn({ namespace: "keep" }));
      for (const x of [c, keep]) {
        for (let i = 0; i < 5; i++) await repo.upsertItem("acme", item(x.id, `k${i}`));
        await repo.finishRun(finishSyncRun(await started(x, iso(1)), { documentsImported: 5 }, iso(2)));
        await started(x, iso(3));
        await repo.tryAcquireLease("acme", x.id, "w1", 60_000, at(3));
      }
      const runs = await repo.listRuns("acme", c.id, 10);
      expect(await repo.delete("acme", c.id)).toBe(true);
      expect(await repo.get("acme", c.id)).toBeUndefined();
      expect(await repo.countItems("acme", c.id)).toBe(0);
      expect(await repo.documentIds("acme", c.id)).toEqual([]);
      expect(await repo.listItemKeys("acme", c.id, { limit: 10 })).toEqual({ items: [] });
      expect(await repo.lastRun("acme", c.id)).toBeUndefined();
      for (const r of runs) expect(await repo.getRun("acme", r.id)).toBeUndefined();
      expect(await repo.delete("acme", c.id)).toBe(false);
      await expect(repo.tryAcquireLease("acme", c.id, "w2", 60_000, at(3))).rejects.toThrow(NotFoundError);

      expect(await repo.countItems("acme", keep.id)).toBe(5);
      expect(await repo.listRuns("acme", keep.id, 10)).toHaveLength(2);
      expect(await repo.tryAcquireLease("acme", keep.id, "w2", 60_000, at(3))).toBeUndefined();
    });
  });

  describe("secret key binding", () => {
    it("adopts a new key while no credentials are stored and refuses one once they are", async () => {
      const box = new SecretBox(randomBytes(32));
      await h.bindSecretKey(box.keyId);
      await h.bindSecretKey(box.keyId);
      expect(await h.boundKeyId()).toBe(box.keyId);
      const other = new SecretBox(randomBytes(32));
      await repo.create(conn({ provider: "github" }));
      await h.bindSecretKey(other.keyId);
      expect(await h.boundKeyId()).toBe(other.keyId);
      await repo.create(conn({ provider: "granola", sealedCredentials: other.seal("k", "ctx") }));
      await repo.create(conn({ provider: "s3", tenantId: "b", sealedCredentials: other.seal("k", "ctx") }));
      await expect(h.bindSecretKey(box.keyId)).rejects.toThrow(/differs from the one that sealed the credentials of 2 connection/);
      expect(await h.boundKeyId()).toBe(other.keyId);
    });

    it("with a keyring: keeps the stored key while it is in the ring, refuses a ring without it, records the newest after a reseal", async () => {
      const old = new SecretBox(randomBytes(32));
      const newer = new SecretBox(randomBytes(32));
      await h.bindSecretKey(old.keyId);
      await repo.create(conn({ provider: "granola", sealedCredentials: old.seal("k", "ctx") }));
      // a new key prepended: accepted, and the old one stays recorded (values sealed with it remain)
      await h.bindSecretKey([newer.keyId, old.keyId]);
      expect(await h.boundKeyId()).toBe(old.keyId);
      // the old key removed before a reseal: refused
      await expect(h.bindSecretKey([newer.keyId])).rejects.toThrow(/differs from the one that sealed the credentials of 1 connection/);
      // after the reseal the newest is recorded, and the old key can leave the ring
      await h.bindSecretKey([newer.keyId, old.keyId], { resealed: true });
      expect(await h.boundKeyId()).toBe(newer.keyId);
      await h.bindSecretKey([newer.keyId]);
      expect(await h.boundKeyId()).toBe(newer.keyId);
    });
  });
}
