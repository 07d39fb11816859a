import { FailedPreconditionError, idKindOf, InvalidArgumentError, type JsonValue } from "@engram/kernel";
import {
  ABANDONED_RUN_ERROR,
  abandonSyncRun,
  addItemFailure,
  allowedEvents,
  applyConnectionEvent,
  canSync,
  CONNECTION_EVENTS,
  CONNECTION_PROVIDERS,
  CONNECTION_STATUSES,
  CONNECTION_TRANSITIONS,
  type Connection,
  type ConnectionStatus,
  connectionView,
  emptyItemFailures,
  finishSyncRun,
  initialStatus,
  type NewConnectionInput,
  newConnection,
  newSyncRun,
  nextStatus,
  nextSyncAt,
  patchConnection,
  statusAt,
  syncIntervalMs,
  underDocumentLimit,
  validateItem,
  validateLease,
} from "../../src/domain/connection";

const NOW = "2025-01-02T03:04:05.000Z";
const LATER = "2025-01-02T04:00:00.000Z";

function problems(input: Partial<NewConnectionInput>): string {
  try {
    newConnection({ tenantId: "acme", provider: "notion", namespace: "ns", ...input }, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).message).toBe("invalid connection");
    return (err as InvalidArgumentError).details ?? "";
  }
  throw new Error("expected the connection to be refused");
}

/** Message and details of the InvalidArgumentError `fn` throws. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return `${(err as InvalidArgumentError).message}: ${(err as InvalidArgumentError).details ?? ""}`;
  }
  throw new Error("expected a refusal");
}

describe("connection lifecycle", () => {
  it("starts OAuth providers pending authorization and direct ones active", () => {
    expect(CONNECTION_PROVIDERS.filter((p) => initialStatus(p) === "active")).toEqual(["granola", "web-crawler", "s3"]);
    expect(initialStatus("google-drive")).toBe("pending_authorization");
    expect(initialStatus("github")).toBe("pending_authorization");
  });

  it("follows the transition table", () => {
    expect(nextStatus("pending_authorization", "authorized")).toBe("active");
    expect(nextStatus("active", "authorization_lost")).toBe("auth_expired");
    expect(nextStatus("auth_expired", "authorized")).toBe("active");
    expect(nextStatus("active", "expired")).toBe("expired");
    expect(nextStatus("pending_authorization", "expired")).toBe("expired");
    for (const s of CONNECTION_STATUSES) expect(nextStatus(s, "deletion_requested")).toBe("deleting");
  });

  it("repeats harmless events idempotently", () => {
    expect(nextStatus("active", "authorized")).toBe("active");
    expect(nextStatus("auth_expired", "authorization_lost")).toBe("auth_expired");
    expect(nextStatus("expired", "expired")).toBe("expired");
    expect(nextStatus("deleting", "deletion_requested")).toBe("deleting");
  });

  it("refuses every transition out of the final states but deletion, and losing an authorization never granted", () => {
    const refused: [ConnectionStatus, (typeof CONNECTION_EVENTS)[number]][] = [
      ["pending_authorization", "authorization_lost"],
      ["expired", "authorized"],
      ["expired", "authorization_lost"],
      ["deleting", "authorized"],
      ["deleting", "authorization_lost"],
      ["deleting", "expired"],
    ];
    for (const [s, e] of refused) {
      expect(() => nextStatus(s, e)).toThrow(FailedPreconditionError);
    }
    expect(() => nextStatus("expired", "authorized")).toThrow(/cannot take the event authorized/);
    expect(allowedEvents("deleting")).toEqual(["deletion_requested"]);
    // Exactly the table: every (state, event) pair is either listed or refused.
    let listed = 0;
    for (const s of CONNECTION_STATUSES) for (const e of CONNECTION_EVENTS) if (CONNECTION_TRANSITIONS[s][e]) listed++;
    expect(listed + refused.length).toBe(CONNECTION_STATUSES.length * CONNECTION_EVENTS.length);
  });

  it("applies an event with the update time and nothing else", () => {
    const c = newConnection({ tenantId: "acme", provider: "notion", namespace: "ns" }, NOW);
    const next = applyConnectionEvent(c, "authorized", LATER);
    expect(next).toEqual({ ...c, status: "active", updatedAt: LATER });
    expect(c.status).toBe("pending_authorization");
  });

  it("reads a connection past its expiresAt as expired, and syncs only active ones", () => {
    const c = newConnection({ tenantId: "acme", provider: "granola", namespace: "ns", expiresAt: LATER }, NOW);
    expect(statusAt(c, NOW)).toBe("active");
    expect(canSync(c, NOW)).toBe(true);
    expect(statusAt(c, LATER)).toBe("expired");
    expect(canSync(c, LATER)).toBe(false);
    expect(statusAt({ ...c, status: "deleting" }, LATER)).toBe("deleting");
    expect(canSync({ ...c, status: "auth_expired" }, NOW)).toBe(false);
    expect(canSync({ status: "active" }, "9999-12-31T00:00:00.000Z")).toBe(true);
  });
});

describe("new connections", () => {
  it("builds the record: kernel connection id, scope with the namespace first, revision 1", () => {
    const sealed = new Uint8Array([1, 2, 3]);
    const c = newConnection(
      {
        tenantId: "acme",
        provider: "github",
        containerTags: ["user_1", "project-x", "user_1"],
        documentLimit: 10_000,
        metadata: { team: "eng", n: 3, on: true },
        email: "a@example.com",
        expiresAt: "2026-01-01T00:00:00+02:00",
        sealedCredentials: sealed,
        config: { repositories: [] },
      },
      NOW,
    );
    expect(idKindOf(c.id)).toBe("connection");
    expect(c).toEqual({
      id: c.id,
      tenantId: "acme",
      provider: "github",
      namespace: "user_1",
      containerTags: ["user_1", "project-x"],
      documentLimit: 10_000,
      metadata: { team: "eng", n: 3, on: true },
      status: "pending_authorization",
      email: "a@example.com",
      expiresAt: "2025-12-31T22:00:00.000Z",
      sealedCredentials: sealed,
      config: { repositories: [] },
      createdAt: NOW,
      updatedAt: NOW,
      revision: 1,
    });
    const d = newConnection({ tenantId: "acme", provider: "web-crawler", namespace: "site", containerTags: ["a", "site"] }, NOW);
    expect(d.containerTags).toEqual(["site", "a"]);
    expect(Object.keys(d)).not.toContain("documentLimit");
    expect(newConnection({ tenantId: "acme", provider: "s3", namespace: "ns" }, NOW).id).not.toBe(d.id);
  });

  it("validates the namespace with the kernel's scope rule", () => {
    expect(problems({ namespace: "has space" })).toMatch(/namespace: must be 1-100 characters/);
    expect(problems({ namespace: "x".repeat(101) })).toMatch(/namespace/);
    expect(problems({ namespace: undefined, containerTags: ["ok", "bad/tag"] })).toMatch(/containerTags\[1\]/);
    expect(problems({ namespace: undefined, containerTags: [] })).toMatch(/namespace: required/);
    expect(problems({ containerTags: Array.from({ length: 20 }, (_, i) => `t${i}`) })).toMatch(/containerTags: at most 20/);
    expect(() => newConnection({ tenantId: "acme", provider: "notion", namespace: "a.b:c-d_E" }, NOW)).not.toThrow();
  });

  it("accepts documentLimit from 1 to 10000 only", () => {
    for (const ok of [1, 500, 10_000]) expect(() => newConnection({ tenantId: "t", provider: "notion", namespace: "n", documentLimit: ok }, NOW)).not.toThrow();
    for (const bad of [0, -1, 10_001, 1.5, Number.NaN]) expect(problems({ documentLimit: bad })).toMatch(/documentLimit: must be an integer from 1 to 10000/);
  });

  it("keeps metadata flat: strings, finite numbers, booleans", () => {
    expect(problems({ metadata: { nested: { a: 1 } } })).toMatch(/metadata.nested: values must be strings, numbers or booleans/);
    expect(problems({ metadata: { list: ["a"] } })).toMatch(/metadata.list/);
    expect(problems({ metadata: { n: null } })).toMatch(/metadata.n/);
    expect(problems({ metadata: { inf: Number.POSITIVE_INFINITY } })).toMatch(/metadata.inf: numbers must be finite/);
    expect(problems({ metadata: { "": "x" } })).toMatch(/keys must be 1-128/);
    expect(problems({ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) })).toMatch(/at most 50 keys/);
    expect(problems({ metadata: [] as never })).toMatch(/metadata: must be an object/);
  });

  it("reports every problem at once", () => {
    const p = problems({
      tenantId: "",
      provider: "dropbox",
      namespace: "bad ns",
      documentLimit: 0,
      email: "",
      expiresAt: "soon",
      config: [] as never,
      sealedCredentials: new Uint8Array(),
    });
    for (const f of ["tenantId", "provider: must be one of google-drive, gmail", "namespace", "documentLimit", "email", "expiresAt", "config", "credentials"])
      expect(p).toContain(f);
  });

  it("patches the mutable fields with keep / clear / set semantics", () => {
    const c = newConnection({ tenantId: "acme", provider: "notion", namespace: "ns", email: "a@x", config: { a: 1 }, documentLimit: 5 }, NOW);
    const sealed = new Uint8Array([7]);
    const p = patchConnection(c, { email: null, sealedCredentials: sealed, expiresAt: "2030-01-01T00:00:00Z", documentLimit: null }, LATER);
    expect(p).toEqual({ ...c, sealedCredentials: sealed, expiresAt: "2030-01-01T00:00:00.000Z", updatedAt: LATER, email: undefined, documentLimit: undefined });
    expect("email" in p).toBe(false);
    expect(p.config).toEqual({ a: 1 });
    expect(refusal(() => patchConnection(c, { documentLimit: 20_000 }, LATER))).toMatch(/documentLimit/);
  });

  it("leaves the credentials, cursor and revision out of the view", () => {
    const c = { ...newConnection({ tenantId: "acme", provider: "granola", namespace: "ns", sealedCredentials: new Uint8Array([1]) }, NOW), cursor: "c" };
    const v = connectionView(c);
    expect(v.credentialsSet).toBe(true);
    expect(Object.keys(v)).not.toEqual(expect.arrayContaining(["sealedCredentials"]));
    expect("cursor" in v || "revision" in v || "sealedCredentials" in v).toBe(false);
    expect(connectionView({ ...c, sealedCredentials: undefined }).credentialsSet).toBe(false);
  });

  it("checks the document limit", () => {
    expect(underDocumentLimit({}, 1_000_000)).toBe(true);
    expect(underDocumentLimit({ documentLimit: 3 }, 2)).toBe(true);
    expect(underDocumentLimit({ documentLimit: 3 }, 3)).toBe(false);
  });
});

describe("sync runs", () => {
  const run = () => newSyncRun({ tenantId: "acme", connectionId: "n_x", trigger: "scheduled" }, NOW);

  it("starts running with an r_ id and nothing imported", () => {
    const r = run();
    expect(r.id).toMatch(/^r_[0-9A-Za-z]{20}$/);
    expect(r).toEqual({
      id: r.id,
      tenantId: "acme",
      connectionId: "n_x",
      trigger: "scheduled",
      status: "running",
      startedAt: NOW,
      documentsImported: 0,
      itemFailures: { count: 0, samples: [] },
    });
    expect(() => newSyncRun({ tenantId: "acme", connectionId: "n_x", trigger: "cron" as never }, NOW)).toThrow(InvalidArgumentError);
  });

  it("derives the final status from the outcome", () => {
    expect(finishSyncRun(run(), { documentsImported: 4 }, LATER)).toMatchObject({ status: "succeeded", completedAt: LATER, documentsImported: 4 });
    const f = addItemFailure(emptyItemFailures(), "big.pdf", "over 50 MB");
    expect(finishSyncRun(run(), { documentsImported: 4, itemFailures: f }, LATER)).toMatchObject({ status: "partial", itemFailures: { count: 1 } });
    const failed = finishSyncRun(run(), { documentsImported: 1, itemFailures: f, failure: { code: "auth_expired", message: "refresh token revoked" } }, LATER);
    expect(failed).toMatchObject({ status: "failed", errorCode: "auth_expired", error: "refresh token revoked", documentsImported: 1 });
    expect("error" in finishSyncRun(run(), { documentsImported: 0, failure: { code: "internal" } }, LATER)).toBe(false);
  });

  it("finishes a run once, with a valid outcome", () => {
    const done = finishSyncRun(run(), { documentsImported: 0 }, LATER);
    expect(() => finishSyncRun(done, { documentsImported: 0 }, LATER)).toThrow(FailedPreconditionError);
    expect(() => finishSyncRun(run(), { documentsImported: -1 }, LATER)).toThrow(InvalidArgumentError);
    expect(refusal(() => finishSyncRun(run(), { documentsImported: 0, failure: { code: "boom" as never } }, LATER))).toMatch(/failure.code/);
  });

  it("counts every failed item and keeps the first ten reasons, shortened", () => {
    let f = emptyItemFailures();
    for (let i = 0; i < 25; i++) f = addItemFailure(f, `k${i}`, "r".repeat(1000));
    expect(f.count).toBe(25);
    expect(f.samples.map((s) => s.itemKey)).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
    expect(f.samples[0]!.reason).toHaveLength(500);
  });

  it("closes an abandoned run as an internal failure keeping its progress", () => {
    const r = { ...run(), documentsImported: 7 };
    expect(abandonSyncRun(r, LATER)).toMatchObject({
      status: "failed",
      errorCode: "internal",
      error: ABANDONED_RUN_ERROR,
      documentsImported: 7,
      completedAt: LATER,
    });
  });
});

describe("ledger items and leases", () => {
  const ok = { connectionId: "n_x", itemKey: "https://example.com/a", documentId: "d_1", version: "", updatedAt: NOW };

  it("validates ledger items", () => {
    expect(() => validateItem(ok)).not.toThrow();
    expect(refusal(() => validateItem({ ...ok, itemKey: "" }))).toMatch(/itemKey/);
    expect(refusal(() => validateItem({ ...ok, itemKey: "k".repeat(2049) }))).toMatch(/itemKey/);
    expect(refusal(() => validateItem({ ...ok, documentId: "" }))).toMatch(/documentId/);
    expect(refusal(() => validateItem({ ...ok, updatedAt: "yesterday" }))).toMatch(/updatedAt/);
    expect(refusal(() => validateItem({ ...ok, url: "" }))).toMatch(/url/);
    expect(() => validateItem({ ...ok, state: "" })).not.toThrow();
    expect(refusal(() => validateItem({ ...ok, state: "s".repeat(64 * 1024 + 1) }))).toMatch(/state/);
  });

  it("validates lease requests", () => {
    expect(() => validateLease("worker-1", 30_000)).not.toThrow();
    expect(refusal(() => validateLease("", 30_000))).toMatch(/holder/);
    expect(refusal(() => validateLease("w", 999))).toMatch(/ttlMs/);
    expect(refusal(() => validateLease("w", 86_400_001))).toMatch(/ttlMs/);
  });
});

describe("scheduled sync times", () => {
  const H = 3_600_000;
  const D = 24 * H;
  /** A crawler's schedule inputs; the interval as stored, including values a careless writer might store. */
  const crawler = (recrawlIntervalDays?: unknown): Pick<Connection, "provider" | "config"> => ({
    provider: "web-crawler",
    config: { startUrl: "https://x/", ...(recrawlIntervalDays === undefined ? {} : { recrawlIntervalDays: recrawlIntervalDays as JsonValue }) },
  });

  it("syncs every provider every 4 h and recrawls sites after recrawlIntervalDays, at least 7, 7 when unset or unreadable", () => {
    for (const provider of CONNECTION_PROVIDERS.filter((p) => p !== "web-crawler")) expect(syncIntervalMs({ provider })).toBe(4 * H);
    expect(syncIntervalMs({ provider: "github", config: { recrawlIntervalDays: 30 } })).toBe(4 * H);
    expect(syncIntervalMs(crawler())).toBe(7 * D);
    expect(syncIntervalMs({ provider: "web-crawler" })).toBe(7 * D);
    expect(syncIntervalMs(crawler(30))).toBe(30 * D);
    expect(syncIntervalMs(crawler(7))).toBe(7 * D);
    for (const odd of [0, 1, 6, -3]) expect(syncIntervalMs(crawler(odd))).toBe(7 * D);
    for (const odd of [7.5, "30", null, Number.NaN]) expect(syncIntervalMs(crawler(odd))).toBe(7 * D);
    expect(syncIntervalMs(crawler(1e9))).toBe(3650 * D);
  });

  it("is due at creation until a run finished, then the interval after that run's start, as toISOString text", () => {
    const c = { ...crawler(14), createdAt: "2025-01-02T03:04:05Z" };
    expect(nextSyncAt(c, undefined)).toBe("2025-01-02T03:04:05.000Z");
    expect(nextSyncAt(c, "2025-02-01T00:00:00.000Z")).toBe("2025-02-15T00:00:00.000Z");
    expect(nextSyncAt({ provider: "granola", createdAt: NOW }, "2025-02-01T22:30:00.000Z")).toBe("2025-02-02T02:30:00.000Z");
    expect(nextSyncAt({ ...crawler(1e9), createdAt: NOW }, "2025-01-01T00:00:00.000Z")).toMatch(/^\d{4}-/);
  });
});
