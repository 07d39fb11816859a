/*
 * Shutdown under load: SIGTERM while large documents are being processed,
 * again and again on one data directory, then every document must end in a
 * final state.
 *   node --import tsx bench/src/shutdown.bench.ts [--rounds 10] [--sizes 1,3,5] [--delay-ms 1500] [--skip-final]
 * Each round starts the all-in-one stack, adds one document per size (MB of
 * generated prose), waits `--delay-ms` (the pipeline and formation are then
 * at work on them and on what earlier rounds left), sends SIGTERM and times
 * the exit. Prints one line per round and a summary; the exit budget is
 * SHUTDOWN_GRACE_MS (default 8 s). `--skip-final` leaves out the last
 * restart's wait for every document to be final (forming the memories of
 * megabyte documents takes many minutes).
 */
import { apiClient, type EngramProcess, largeDocument, startEngram, tempDataDir, waitFor } from "@engram/testing";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const FINAL = new Set(["done", "failed"]);

async function main() {
  const rounds = Number(arg("rounds", "10"));
  const sizes = arg("sizes", "1,3,5").split(",").map(Number);
  const delayMs = Number(arg("delay-ms", "1500"));
  const dataDir = tempDataDir("engram-shutdown-bench-");
  const key = "shutdown-bench-key-0123456789";
  const times: number[] = [];
  let engram: EngramProcess | undefined;
  try {
    for (let round = 1; round <= rounds; round++) {
      engram = await startEngram({ dataDir, apiKey: key, timeoutMs: 120_000 });
      const api = apiClient(engram.url, key);
      for (const [i, mb] of sizes.entries()) {
        const res = await api("POST", "/ns/load/document", { id: `r${round}-d${i}`, content: largeDocument(mb * 1024 * 1024, round * 10 + i) });
        if (res.status !== 200) throw new Error(`adding a ${mb} MB document answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
      await new Promise((r) => setTimeout(r, delayMs));
      // The count is informative only: a list the loaded stack could not answer is reported, not fatal.
      const list = await api("POST", "/ns/load/list/documents?limit=200").catch((err: Error) => ({ status: 0, body: { error: err.message } }));
      const docs = (list.body as { documents?: { system: { status: string } }[] }).documents;
      const busy = docs ? String(docs.filter((d) => !FINAL.has(d.system.status)).length) : `? (list answered ${list.status})`;
      const exit = await engram.stop("SIGTERM");
      engram = undefined;
      times.push(exit.ms);
      console.log(`round ${String(round).padStart(2)}: exit code ${exit.code} after ${exit.ms} ms (${busy} documents in flight at SIGTERM)`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `\n${times.length} SIGTERMs: min ${sorted[0]} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted[sorted.length - 1]} ms; ` +
        `over 10 s: ${times.filter((t) => t > 10_000).length}`,
    );
    if (process.argv.includes("--skip-final")) return;
    engram = await startEngram({ dataDir, apiKey: key, timeoutMs: 120_000 });
    const api = apiClient(engram.url, key);
    const started = Date.now();
    const statuses = await waitFor(
      async () => {
        const list = await api("POST", "/ns/load/list/documents?limit=200");
        const s = (list.body.documents as { customId?: string; system: { status: string } }[]).map((d) => d.system.status);
        return s.length === rounds * sizes.length && s.every((x) => FINAL.has(x)) ? s : undefined;
      },
      { timeoutMs: 30 * 60_000, intervalMs: 2_000, what: "every document to reach a final state" },
    );
    const counts = statuses.reduce<Record<string, number>>((acc, s) => ((acc[s] = (acc[s] ?? 0) + 1), acc), {});
    console.log(`after the last restart, in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}`);
  } finally {
    await engram?.stop("SIGKILL");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
