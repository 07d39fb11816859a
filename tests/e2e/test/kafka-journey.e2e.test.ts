import { Kafka, logLevel } from "kafkajs";
import { apiClient, describeWithEngines, type EngramProcess, startEngram, tempDataDir, waitFor } from "@engram/testing";
import { type Api, stopQuietly, waitDone } from "./helpers";

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

/**
 * The all-in-one process with its events on a real Kafka broker (BUS=kafka,
 * started by jest's globalSetup from Maven Central's artifacts on the JDK): the
 * main journey — add → done → search in every mode → memory → update → forget →
 * delete — and a restart in the middle of processing that loses nothing.
 * Storage stays embedded (SQLite), so only the bus differs from the default run.
 */
describeWithEngines(["kafka"], "the all-in-one process on a real Kafka broker (BUS=kafka)", ({ kafkaBrokers }) => {
  const KEY = "kafka-journey-key-0123456789abcdef";
  // Its own client id and consumer groups on the shared test broker; the topics are Engram's own names.
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const env = { BUS: "kafka", KAFKA_BROKERS: kafkaBrokers.join(","), KAFKA_TOPIC_PARTITIONS: "3", KAFKA_CLIENT_ID: `engram-e2e-${run}` };
  const dataDir = tempDataDir("engram-kafka-e2e-");
  let engram: EngramProcess | undefined;
  let api: Api;

  const start = async () => {
    engram = await startEngram({ dataDir, apiKey: KEY, timeoutMs: 120_000, env });
    api = apiClient(engram.url, KEY);
  };
  beforeAll(start, 180_000);
  afterAll(() => stopQuietly(engram), 60_000);

  const search = async (q: string, containerTag: string, extra: Body = {}): Promise<Body[]> => {
    const res = await api("POST", "/v4/search", { q, containerTag, ...extra });
    expect(res.status).toBe(200);
    return res.body.results;
  };

  it("creates Engram's topics and their dead-letter topics on the broker", async () => {
    const admin = new Kafka({ clientId: `engram-e2e-admin-${run}`, brokers: kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      for (const t of ["engram.documents.v1", "engram.document-state.v1"]) {
        expect(topics).toContain(t);
        expect(topics).toContain(`${t}.dlq`);
      }
    } finally {
      await admin.disconnect();
    }
  }, 60_000);

  it("adds a document, forms its memories and finds it in every search mode", async () => {
    const add = await api("POST", "/ns/kafka_user/document", { id: "allergy", content: "user: I am allergic to peanuts and I live in Porto." });
    expect(add.status).toBe(200);
    const done = await waitDone(api, "kafka_user", "allergy", 120_000);
    expect(done.system.status).toBe("done");
    const docs = await search("peanuts allergy", "kafka_user", { searchMode: "documents", threshold: 0 });
    expect(docs[0]!.chunk).toContain("allergic to peanuts");
    const memories = await search("is the user allergic to anything", "kafka_user", { threshold: 0 });
    expect(memories.some((m) => /peanut/i.test(m.memory))).toBe(true);
    const hybrid = await search("peanuts", "kafka_user", { searchMode: "hybrid", threshold: 0 });
    expect(hybrid.some((r) => "memory" in r)).toBe(true);
    expect(hybrid.some((r) => "chunk" in r)).toBe(true);
  }, 180_000);

  it("writes, updates and forgets a memory", async () => {
    const created = await api("POST", "/v4/memories", { containerTag: "kafka_user", memories: [{ content: "Ines works at Acme" }] });
    expect(created.status).toBe(201);
    const v1 = created.body.memories[0];
    const v2 = await api("PATCH", "/v4/memories", { id: v1.id, containerTag: "kafka_user", newContent: "Ines works at Globex" });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ version: 2, parentMemoryId: v1.id });
    expect((await search("where does Ines work", "kafka_user", { threshold: 0 }))[0]!.memory).toBe("Ines works at Globex");
    const forgot = await api("DELETE", "/v4/memories", { id: v2.body.id, containerTag: "kafka_user" });
    expect(forgot.body).toEqual({ id: v2.body.id, forgotten: true });
    expect((await search("where does Ines work", "kafka_user", { threshold: 0 })).some((m) => /Ines/.test(m.memory ?? ""))).toBe(false);
  }, 60_000);

  it("deletes the document: it is gone and the memories it alone supported are retired", async () => {
    const del = await api("DELETE", "/ns/kafka_user/document", { ids: ["allergy"] });
    expect(del.status).toBe(200);
    expect((await api("GET", "/ns/kafka_user/document/allergy")).status).toBe(404);
    await waitFor(async () => ((await search("peanuts allergy", "kafka_user", { threshold: 0 })).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "memories retired through the Kafka bus",
    });
    expect(await search("peanuts allergy", "kafka_user", { searchMode: "documents", threshold: 0 })).toEqual([]);
  }, 120_000);

  it("loses nothing across a restart while documents are queued: every accepted document reaches done", async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `queued-${i}`);
    for (const id of ids) {
      const res = await api("POST", "/ns/kafka_restart/document", {
        id,
        content: `Note ${id}: the harbour crane number ${id.length} lifts containers at dawn.`,
      });
      expect(res.status).toBe(200);
    }
    // Stop at once, whatever is still in flight: the events are in Kafka, the offsets not yet committed.
    await engram!.stop("SIGTERM");
    await start();
    for (const id of ids) expect((await waitDone(api, "kafka_restart", id, 120_000)).system.status).toBe("done");
    const hits = await search("harbour crane", "kafka_restart", { searchMode: "documents", threshold: 0, limit: 20 });
    expect(new Set(hits.map((h) => h.documentId)).size).toBe(ids.length);
  }, 300_000);
});
