#!/usr/bin/env node
// A real Apache Kafka broker (single node, KRaft, combined broker and
// controller) on the machine's JDK, for the tests and for development.
//
// The broker's artifacts come from Maven Central through scripts/kafka/pom.xml
// (`mvn dependency:build-classpath`); Maven's local repository caches them, and
// the resolved classpath is remembered under node_modules/.cache so a second
// start does not run Maven at all. The storage is formatted in a fresh
// directory, then `kafka.Kafka` runs with a small heap. A watchdog ends the
// broker when the process that started it is gone, so a killed test run does
// not leave a JVM behind.
//
// As a module: `startKafkaBroker(opts)` → { brokers, stop(), startMs, logFile }.
// As a command (`npm run engines`): starts one on KAFKA_PORT (default 9092)
// and keeps it until Ctrl-C, printing the KAFKA_BROKERS to use.
//
// Written here because no npm package runs a real broker without a container
// runtime; it only drives Kafka's own tools.
"use strict";

const { spawn, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const POM = path.join(__dirname, "kafka", "pom.xml");
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "engram-kafka");

class BrokerUnavailable extends Error {}

/** Why a broker cannot run here (no JDK, no Maven), or undefined when it can. */
function missingTools() {
  for (const [cmd, args] of [
    ["java", ["-version"]],
    ["mvn", ["-v"]],
  ]) {
    const probe = spawnSync(cmd, args, { encoding: "utf8" });
    if (probe.error || probe.status !== 0) return `${cmd} not found (a JDK 17+ and Maven are needed for the Kafka broker)`;
  }
  return undefined;
}

/** The broker's classpath: jars in Maven's local repository, fetched on first use. */
function classpath(log) {
  const pom = fs.readFileSync(POM);
  const key = crypto.createHash("sha256").update(pom).digest("hex").slice(0, 16);
  const cached = path.join(CACHE_DIR, `classpath-${key}.txt`);
  if (fs.existsSync(cached)) {
    const jars = fs.readFileSync(cached, "utf8").trim().split(path.delimiter);
    if (jars.length > 0 && jars.every((j) => fs.existsSync(j))) return jars;
  }
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const t0 = Date.now();
  const out = `${cached}.${process.pid}.tmp`;
  const mvn = spawnSync("mvn", ["-q", "-B", "-f", POM, "dependency:build-classpath", `-Dmdep.outputFile=${out}`, "-Dmdep.includeScope=runtime"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (mvn.status !== 0 || !fs.existsSync(out)) {
    const detail = `${mvn.stdout || ""}${mvn.stderr || ""}`.trim().split("\n").slice(-15).join("\n");
    throw new BrokerUnavailable(`Maven could not resolve the Kafka broker's artifacts (${POM}):\n${detail}`);
  }
  fs.renameSync(out, cached);
  log(`kafka: resolved the broker's artifacts with Maven in ${Date.now() - t0} ms`);
  return fs.readFileSync(cached, "utf8").trim().split(path.delimiter);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

function serverProperties({ port, controllerPort, logDir, extra }) {
  const props = {
    "process.roles": "broker,controller",
    "node.id": "1",
    "controller.quorum.voters": `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "inter.broker.listener.name": "PLAINTEXT",
    "log.dirs": logDir,
    "num.partitions": "1",
    "offsets.topic.replication.factor": "1",
    "offsets.topic.num.partitions": "10",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    // Tests join groups constantly: no initial delay.
    "group.initial.rebalance.delay.ms": "0",
    // Engram creates its topics itself, with explicit settings.
    "auto.create.topics.enable": "false",
    "delete.topic.enable": "true",
    ...extra,
  };
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join("\n")}\n`;
}

const LOG4J = (file) =>
  [
    "log4j.rootLogger=INFO, file",
    "log4j.appender.file=org.apache.log4j.FileAppender",
    `log4j.appender.file.File=${file}`,
    "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
    "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n",
    "log4j.logger.kafka=INFO",
    "log4j.logger.org.apache.kafka=INFO",
    "",
  ].join("\n");

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Starts a broker and resolves once it accepts connections.
 * opts: port (default: a free one), dataDir (default: a new temp dir, removed
 * on stop), heap (default 512m), timeoutMs (default 120 s), log (a line
 * printer), properties (extra server.properties), persistent (keep dataDir).
 */
async function startKafkaBroker(opts = {}) {
  const log = opts.log || (() => undefined);
  const missing = missingTools();
  if (missing) throw new BrokerUnavailable(missing);
  const t0 = Date.now();
  const cp = classpath(log);
  const port = opts.port || (await freePort());
  const controllerPort = opts.controllerPort || (await freePort());
  const dataDir = opts.dataDir || fs.mkdtempSync(path.join(os.tmpdir(), "engram-kafka-"));
  const logDir = path.join(dataDir, "data");
  const logFile = path.join(dataDir, "server.log");
  fs.mkdirSync(logDir, { recursive: true });
  const propsFile = path.join(dataDir, "server.properties");
  fs.writeFileSync(propsFile, serverProperties({ port, controllerPort, logDir, extra: opts.properties || {} }));
  fs.writeFileSync(path.join(dataDir, "log4j.properties"), LOG4J(logFile));
  const jvm = [
    `-Xms128m`,
    `-Xmx${opts.heap || "512m"}`,
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    `-Dlog4j.configuration=file:${path.join(dataDir, "log4j.properties")}`,
    "-Djava.awt.headless=true",
    "-cp",
    cp.join(path.delimiter),
  ];

  if (!fs.existsSync(path.join(logDir, "meta.properties"))) {
    const format = spawnSync("java", [...jvm, "kafka.tools.StorageTool", "format", `--cluster-id=${clusterId()}`, "-c", propsFile, "--ignore-formatted"], {
      encoding: "utf8",
    });
    if (format.status !== 0) throw new BrokerUnavailable(`kafka-storage format failed:\n${(format.stdout + format.stderr).trim()}`);
  }

  // The watchdog: the broker dies with its parent, however the parent ends.
  const script = `java "$@" & J=$!; trap 'kill $J 2>/dev/null; wait $J; exit 0' TERM INT; while kill -0 ${process.pid} 2>/dev/null && kill -0 $J 2>/dev/null; do sleep 1; done; kill $J 2>/dev/null; wait $J`;
  const child = spawn("bash", ["-c", script, "kafka", ...jvm, "kafka.Kafka", propsFile], { stdio: ["ignore", "ignore", "pipe"], detached: false });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });

  const deadline = Date.now() + (opts.timeoutMs || 120_000);
  while (!(await portOpen(port)) || !fs.existsSync(logFile) || !/Kafka Server started|KafkaRaftServer.*started/.test(fs.readFileSync(logFile, "utf8"))) {
    if (exited) throw new BrokerUnavailable(`the Kafka broker exited during start-up:\n${stderr.trim()}\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new BrokerUnavailable(`the Kafka broker did not start within ${opts.timeoutMs || 120_000} ms:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const startMs = Date.now() - t0;
  log(`kafka: broker 3.9 (KRaft) on 127.0.0.1:${port}, started in ${startMs} ms (log ${logFile})`);

  let stopped;
  const stop = () => {
    if (!stopped) {
      stopped = new Promise((resolve) => {
        if (exited) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      }).then(() => {
        if (!opts.dataDir && !opts.persistent) fs.rmSync(dataDir, { recursive: true, force: true });
      });
    }
    return stopped;
  };
  return { brokers: [`127.0.0.1:${port}`], port, dataDir, logFile, startMs, stop, pid: child.pid };
}

/**
 * A Kafka cluster id: 16 random bytes, URL-safe base64 without padding (what `kafka-storage random-uuid` prints).
 * Never one that starts with "-" (1 in 64 would): the storage tool's argument parser reads that as an option, and
 * the format fails with "argument --cluster-id/-t: expected one argument" (Kafka's own generator skips them too).
 */
function clusterId() {
  for (;;) {
    const id = crypto.randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

module.exports = { startKafkaBroker, missingTools, BrokerUnavailable };

if (require.main === module) {
  const port = Number(process.env.KAFKA_PORT || 9092);
  const dataDir = process.env.KAFKA_DATA_DIR ? path.resolve(process.env.KAFKA_DATA_DIR) : path.join(ROOT, ".data", "kafka");
  fs.mkdirSync(dataDir, { recursive: true });
  startKafkaBroker({ port, dataDir, persistent: true, log: (l) => console.log(l) })
    .then((b) => {
      console.log(
        `\nKafka is running. Use it with:\n  BUS=kafka KAFKA_BROKERS=${b.brokers.join(",")}\nor for the test suites:\n  ENGRAM_TEST_KAFKA_BROKERS=${b.brokers.join(",")}\nData: ${dataDir}. Ctrl-C stops it.`,
      );
      const end = () => b.stop().then(() => process.exit(0));
      process.on("SIGINT", end);
      process.on("SIGTERM", end);
    })
    .catch((err) => {
      console.error(`kafka: ${err.message}`);
      process.exit(1);
    });
}
