import type { IdempotencyStore } from "../../src/guards/idempotency";

/** One IdempotencyStore adapter under test, fresh and empty. */
export interface IdempotencyStoreHarness {
  store: IdempotencyStore;
  /** Closes the store and opens it again on the same data (a gateway restart, or another replica). */
  reopen(): Promise<IdempotencyStore>;
  close(): Promise<void>;
}

const T0 = new Date("2026-11-29T05:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const opts = { leaseMs: 60_000, retentionMs: 24 * 3600_000 };
const ok = { status: 200, body: '{"id":"d1","status":"queued"}' };

/** The behaviour every IdempotencyStore adapter shares. `open` is called once per test and must return an empty store. */
export function idempotencyStoreContract(open: () => Promise<IdempotencyStoreHarness>): void {
  let h: IdempotencyStoreHarness;
  let store: IdempotencyStore;

  beforeEach(async () => {
    h = await open();
    store = h.store;
  });
  afterEach(async () => {
    await h.close();
  });

  it("a first request claims the key; a repeat while it runs is in flight", async () => {
    expect(await store.begin("acme", "k1", "fp", T0, opts)).toEqual({ kind: "started" });
    const again = await store.begin("acme", "k1", "fp", at(10), opts);
    expect(again.kind).toBe("in_flight");
    expect(again.kind === "in_flight" && again.retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it("a completed request's answer is replayed to the same fingerprint, across a restart", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.complete("acme", "k1", "fp", ok, at(5), opts.retentionMs);
    expect(await store.begin("acme", "k1", "fp", at(10), opts)).toEqual({ kind: "replay", answer: ok });
    store = await h.reopen();
    expect(await store.begin("acme", "k1", "fp", at(20), opts)).toEqual({ kind: "replay", answer: ok });
  });

  it("the same key with another fingerprint is a mismatch, in flight or completed", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    expect(await store.begin("acme", "k1", "other", at(1), opts)).toEqual({ kind: "mismatch" });
    await store.complete("acme", "k1", "fp", ok, at(2), opts.retentionMs);
    expect(await store.begin("acme", "k1", "other", at(3), opts)).toEqual({ kind: "mismatch" });
  });

  it("keys are per tenant: another tenant's same key is its own", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.complete("acme", "k1", "fp", ok, at(1), opts.retentionMs);
    expect(await store.begin("beta", "k1", "fp", at(2), opts)).toEqual({ kind: "started" });
    expect(await store.begin("beta", "k1", "fp2", at(3), opts)).toEqual({ kind: "mismatch" });
  });

  it("a released key can be claimed again at once", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.release("acme", "k1", "fp");
    expect(await store.begin("acme", "k1", "fp2", at(1), opts)).toEqual({ kind: "started" });
  });

  it("an answer is replayed until the retention ends, then the key is free", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.complete("acme", "k1", "fp", ok, T0, opts.retentionMs);
    expect((await store.begin("acme", "k1", "fp", at(opts.retentionMs - 1), opts)).kind).toBe("replay");
    expect(await store.begin("acme", "k1", "fp", at(opts.retentionMs + 1), opts)).toEqual({ kind: "started" });
  });

  it("an in-flight record whose lease ended (its gateway died) can be claimed again", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    expect(await store.begin("acme", "k1", "fp", at(opts.leaseMs + 1), opts)).toEqual({ kind: "started" });
  });

  it("complete and release act only for the fingerprint holding the key", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.complete("acme", "k1", "intruder", ok, at(1), opts.retentionMs);
    await store.release("acme", "k1", "intruder");
    expect((await store.begin("acme", "k1", "fp", at(2), opts)).kind).toBe("in_flight");
  });

  it("a recorded answer is not overwritten by a late second completion", async () => {
    await store.begin("acme", "k1", "fp", T0, opts);
    await store.complete("acme", "k1", "fp", ok, at(1), opts.retentionMs);
    await store.complete("acme", "k1", "fp", { status: 500, body: "{}" }, at(2), opts.retentionMs);
    await store.release("acme", "k1", "fp");
    expect(await store.begin("acme", "k1", "fp", at(3), opts)).toEqual({ kind: "replay", answer: ok });
  });

  it("concurrent first requests: exactly one claims the key", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => store.begin("acme", "race", "fp", T0, opts)));
    expect(results.filter((r) => r.kind === "started")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "in_flight")).toHaveLength(7);
  });
}
