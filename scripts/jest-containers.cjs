// Jest globalSetup/globalTeardown for the production adapters' contract suites.
//
// Starts MongoDB (replica set), Qdrant and Kafka (KRaft) once per run with
// testcontainers and hands their addresses to the test workers through the
// environment (workers are forked after globalSetup and inherit it):
//   ENGRAM_TEST_MONGO_URL, ENGRAM_TEST_QDRANT_URL, ENGRAM_TEST_KAFKA_BROKERS.
// Without a container runtime (or with ENGRAM_TEST_CONTAINERS=off), MongoDB and
// Qdrant are not started and ENGRAM_TEST_CONTAINERS_SKIP carries the reason,
// which their suites print when they skip (libs/testing/src/containers.ts).
// Kafka then runs from its own artifacts on the machine's JDK
// (scripts/kafka-broker.cjs). A JDK broker that fails to start fails the run:
// the Kafka suites run on every machine that has a JDK and Maven. Only without
// them (or with ENGRAM_TEST_KAFKA=off) do they skip, with
// ENGRAM_TEST_KAFKA_SKIP as the printed reason.
"use strict";

const IMAGES = {
  mongo: process.env.ENGRAM_TEST_MONGO_IMAGE || "mongo:8.0",
  qdrant: process.env.ENGRAM_TEST_QDRANT_IMAGE || "qdrant/qdrant:v1.16.3",
  kafka: process.env.ENGRAM_TEST_KAFKA_IMAGE || "confluentinc/cp-kafka:7.9.2",
};

const started = [];

async function setup() {
  const mode = (process.env.ENGRAM_TEST_CONTAINERS || "auto").toLowerCase();
  if (process.env.ENGRAM_TEST_MONGO_URL && process.env.ENGRAM_TEST_QDRANT_URL && process.env.ENGRAM_TEST_KAFKA_BROKERS) {
    // Engines provided from outside (a CI service block, a developer's compose stack).
    return;
  }
  if (mode === "off") {
    skip("ENGRAM_TEST_CONTAINERS=off");
    await jdkKafka();
    return;
  }
  const tc = require("../libs/testing/node_modules/testcontainers");
  try {
    await tc.getContainerRuntimeClient();
  } catch (err) {
    skip(`no container runtime found (${firstLine(err)})`);
    await jdkKafka();
    return;
  }
  const { MongoDBContainer } = require("../libs/testing/node_modules/@testcontainers/mongodb");
  const { KafkaContainer } = require("../libs/testing/node_modules/@testcontainers/kafka");
  const t0 = Date.now();
  const [mongo, qdrant, kafka] = await Promise.all([
    new MongoDBContainer(IMAGES.mongo).start(),
    new tc.GenericContainer(IMAGES.qdrant).withExposedPorts(6333).withWaitStrategy(tc.Wait.forHttp("/readyz", 6333).forStatusCode(200)).start(),
    new KafkaContainer(IMAGES.kafka).withKraft().start(),
  ]);
  started.push(mongo, qdrant, kafka);
  process.env.ENGRAM_TEST_MONGO_URL = `${mongo.getConnectionString()}?directConnection=true`;
  process.env.ENGRAM_TEST_QDRANT_URL = `http://${qdrant.getHost()}:${qdrant.getMappedPort(6333)}`;
  process.env.ENGRAM_TEST_KAFKA_BROKERS = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
  process.stdout.write(`\ncontract suites: MongoDB ${IMAGES.mongo}, Qdrant ${IMAGES.qdrant}, Kafka ${IMAGES.kafka} started in ${Date.now() - t0} ms\n`);
}

function skip(reason) {
  process.env.ENGRAM_TEST_CONTAINERS_SKIP = reason;
  process.stdout.write(`\ncontract suites: MongoDB and Qdrant adapters skipped: ${reason}\n`);
}

/** Kafka from Maven Central on the machine's JDK, unless given from outside or turned off. */
async function jdkKafka() {
  if (process.env.ENGRAM_TEST_KAFKA_BROKERS) return;
  const { startKafkaBroker, missingTools } = require("./kafka-broker.cjs");
  const off = (process.env.ENGRAM_TEST_KAFKA || "auto").toLowerCase() === "off";
  const missing = off ? "ENGRAM_TEST_KAFKA=off" : missingTools();
  if (missing) {
    process.env.ENGRAM_TEST_KAFKA_SKIP = missing;
    process.stdout.write(`contract suites: Kafka skipped: ${missing}\n`);
    return;
  }
  const broker = await startKafkaBroker({ log: (line) => process.stdout.write(`contract suites: ${line}\n`) });
  started.push(broker);
  process.env.ENGRAM_TEST_KAFKA_BROKERS = broker.brokers.join(",");
  process.env.ENGRAM_TEST_KAFKA_STARTED_MS = String(broker.startMs);
}

function firstLine(err) {
  return String((err && err.message) || err).split("\n")[0];
}

async function teardown() {
  await Promise.all(started.splice(0).map((c) => c.stop().catch(() => undefined)));
}

module.exports = { setup, teardown };
