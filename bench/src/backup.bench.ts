/**
 * Online backup and restore (issue #34): an all-in-one data directory grown to about 100,000 chunks (offline
 * default, hashing embedder, through the REST gateway like the scale bench), then:
 *
 *   - `takeBackup` while the stack serves and a write load of --load adds/s (documents and memories) goes on;
 *   - `restoreBackup` into a fresh directory (every checksum verified first), the stack started on it, and the
 *     restored chunk count compared with the count before the backup began.
 *
 * Prints the data directory's and the backup's sizes, the backup and restore times, and the restored stack's time
 * to ready. Tests never assert on these figures.
 *
 *   pnpm bench:backup                                      # 100k chunks (the ingest dominates: tens of minutes here)
 *   pnpm bench:backup -- --chunks 2000 --memories 100      # a small run that proves the bench works
 *   pnpm bench:backup -- --chunks 100000 --json bench/results/backup-100k.json
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { restoreBackup, takeBackup } from "@engram/all-in-one/backup";
import { type EngramProcess, startEngram, tempDataDir } from "@engram/testing";
import { batchAdd, sentenceCorpus, benchDataDir, dirBytes, jsonClient, type JsonClient, machineFacts, round, waitIdle } from "./lib";
import { datasetText } from "./quality/datasets";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
}
const CHUNKS = Number(arg("chunks", "100000"));
const MEMORIES = Number(arg("memories", "5000"));
const FILES = Number(arg("files", "200"));
const LOAD = Number(arg("load", "20"));
const JSON_OUT = arg("json", "");
const DOC_CHARS = 3_600;
const NS = "bench-backup";
const ENV = { LOG_LEVEL: "warn", EMBEDDER: "hashing", CHUNK_MAX_TOKENS: "128", CHUNK_OVERLAP_TOKENS: "16" };
if (![CHUNKS, MEMORIES, FILES, LOAD].every((n) => Number.isInteger(n) && n >= 0) || CHUNKS < 1) {
  console.error("usage: pnpm bench:backup -- [--chunks N (≥ 1, default 100000)] [--memories N] [--files N] [--load adds/s] [--json file]");
  process.exit(2);
}

const started = performance.now();
const progress = (msg: string) => process.stderr.write(`[backup ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

async function countChunks(api: JsonClient): Promise<number> {
  const res = await api("POST", `/ns/${NS}/list/chunks?limit=1`, {});
  if (res.status !== 200) throw new Error(`chunk listing answered ${res.status}`);
  return res.body.pagination.totalItems as number;
}

/** Adds at `perSecond` (documents and memories alternately) until stopped; resolves with the count acknowledged. */
function writeLoad(api: JsonClient, perSecond: number): { stop: () => Promise<{ sent: number; acknowledged: number }> } {
  let sent = 0;
  let acknowledged = 0;
  const inFlight = new Set<Promise<void>>();
  const timer =
    perSecond > 0
      ? setInterval(() => {
          const n = sent++;
          const p = (
            n % 2
              ? api("POST", "/v4/memories", { containerTag: `${NS}-load`, memories: [{ content: `load memory ${n}: the tern nests on pier ${n}` }] })
              : api("POST", "/v3/documents", { containerTag: `${NS}-load`, content: `load document ${n}: the ferry left berth ${n} at dawn.` })
          ).then((r) => {
            if (r.status === 200 || r.status === 201) acknowledged++;
          });
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
        }, 1000 / perSecond)
      : undefined;
  return {
    async stop() {
      if (timer) clearInterval(timer);
      await Promise.all([...inFlight]);
      return { sent, acknowledged };
    },
  };
}

async function main(): Promise<void> {
  const { sentences } = datasetText();
  const { pick, doc } = sentenceCorpus(sentences, 11, "backup-", DOC_CHARS);
  let engram: EngramProcess | undefined;
  const { dataDir, cleanUp } = benchDataDir("engram-bench-backup-", () => engram);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "engram-bench-backup-out-"));
  const backupDir = path.join(work, "backup");
  const restoredDir = tempDataDir("engram-bench-backup-restored-");
  try {
    engram = await startEngram({ dataDir, timeoutMs: 120_000, env: ENV });
    const apiKey = engram.apiKey;
    let api = jsonClient(engram.url, apiKey);

    progress(`memories: writing ${MEMORIES}`);
    for (let i = 0; i < MEMORIES; i += 100) {
      const memories = Array.from({ length: Math.min(100, MEMORIES - i) }, (_, j) => ({ content: `${pick()} (memory ${i + j})` }));
      const res = await api("POST", "/v4/memories", { containerTag: `${NS}-memories`, memories });
      if (res.status !== 201) throw new Error(`memories answered ${res.status}`);
    }
    progress(`files: uploading ${FILES}`);
    for (let i = 0; i < FILES; i++) {
      const form = new FormData();
      form.append("containerTags", JSON.stringify([`${NS}-files`]));
      form.append("file", new Blob([doc(1_000_000 + i).content], { type: "text/plain" }), `upload-${i}.txt`);
      const res = await fetch(`${engram.url}/v3/documents/file`, { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: form });
      if (res.status !== 200) throw new Error(`upload answered ${res.status}`);
    }
    // Chunks per document measured on a first batch, then the rest sized to land on --chunks.
    const first = Math.min(600, Math.max(1, Math.ceil(CHUNKS / 30)));
    await batchAdd(
      api,
      NS,
      Array.from({ length: first }, (_, i) => doc(i)),
      "superrag",
    );
    await waitIdle(api, progress, "first batch");
    let docs = first;
    const perDoc = (await countChunks(api)) / docs;
    const more = Math.max(0, Math.round((CHUNKS - docs * perDoc) / perDoc));
    progress(`${perDoc.toFixed(2)} chunks per document; adding ${more} documents`);
    for (let from = 0; from < more; from += 6000) {
      const n = Math.min(6000, more - from);
      await batchAdd(
        api,
        NS,
        Array.from({ length: n }, (_, i) => doc(docs + i)),
        "superrag",
      );
      docs += n;
    }
    await waitIdle(api, progress, "documents");
    const chunks = await countChunks(api);
    progress(`${chunks} chunks in ${docs} documents; backing up under ${LOAD} adds/s`);

    const load = writeLoad(api, LOAD);
    await new Promise((r) => setTimeout(r, 1000));
    const backup = await takeBackup({ dataDir, target: backupDir });
    const during = await load.stop();
    const dataDirBytes = dirBytes(dataDir);
    progress(`backup: ${round(backup.seconds, 2)} s, ${mb(backup.bytes)} MB (data directory ${mb(dataDirBytes)} MB)`);
    api.close();
    await engram.stop("SIGTERM");
    engram = undefined;

    const restore = await restoreBackup({ source: backupDir, dataDir: restoredDir, secretKeyFile: path.join(dataDir, "secret.key") });
    progress(`restore: ${round(restore.seconds, 2)} s`);
    const s0 = performance.now();
    engram = await startEngram({ dataDir: restoredDir, apiKey, timeoutMs: 300_000, env: ENV });
    const readySeconds = (performance.now() - s0) / 1000;
    api = jsonClient(engram.url, apiKey);
    const restoredChunks = await countChunks(api);
    api.close();

    const result = {
      machine: machineFacts(),
      chunks,
      documents: docs,
      memories: MEMORIES,
      files: FILES,
      dataDirMb: mb(dataDirBytes),
      backup: {
        seconds: round(backup.seconds, 2),
        mb: mb(backup.bytes),
        databases: backup.manifest.databases.map((d) => ({ name: d.name, mb: mb(d.sizeBytes) })),
        files: backup.manifest.files.length,
        loadDuring: during,
      },
      restore: { seconds: round(restore.seconds, 2), readySeconds: round(readySeconds, 1), chunks: restoredChunks },
    };
    console.log(`Online backup and restore, all-in-one offline default (${result.machine.cpus} cores), ${LOAD} adds/s during the backup`);
    console.log("| chunks | documents | data dir MB | backup MB | backup s | restore s | restored ready s | restored chunks |");
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| ${chunks} | ${docs} | ${result.dataDirMb} | ${result.backup.mb} | ${result.backup.seconds} | ${result.restore.seconds} | ${result.restore.readySeconds} | ${restoredChunks} |`,
    );
    console.log(`databases: ${result.backup.databases.map((d) => `${d.name} ${d.mb} MB`).join(", ")}; files: ${result.backup.files}`);
    console.log(`adds during the backup: ${during.acknowledged} of ${during.sent} acknowledged`);
    if (restoredChunks < chunks) console.log(`MISS: the restored stack has ${restoredChunks} chunks, ${chunks} before the backup began`);
    if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(result, null, 2));
  } finally {
    if (engram && engram.child.exitCode === null) engram.child.kill("SIGKILL");
    cleanUp();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(restoredDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
