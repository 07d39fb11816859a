import cliProgress from "cli-progress";
import { colorsFor, type CliIo } from "./io";

export type ItemOutcome = "added" | "skipped" | "failed";

/** Progress of a run over many items. */
export interface Progress {
  start(total: number): void;
  item(outcome: ItemOutcome, label: string, detail?: string): void;
  stop(): void;
}

/**
 * A bar with count, rate and ETA when stderr is a terminal (failures are
 * printed above it); one plain line per item otherwise, and always with
 * --json (stdout then carries only the JSON document).
 */
export function createProgress(io: CliIo, opts: { json: boolean; noun: string; forcePlain?: boolean }): Progress {
  const tty = Boolean(io.stderr.isTTY) && !opts.json && !opts.forcePlain && io.env.TERM !== "dumb";
  return tty ? barProgress(io, opts.noun) : plainProgress(io);
}

function plainProgress(io: CliIo): Progress {
  let total = 0;
  let done = 0;
  return {
    start(n) {
      total = n;
    },
    item(outcome, label, detail) {
      done++;
      io.stderr.write(`[${done}/${total}] ${outcome} ${label}${detail ? ` ${outcome === "added" ? "→" : "—"} ${detail}` : ""}\n`);
    },
    stop() {},
  };
}

function barProgress(io: CliIo, noun: string): Progress {
  const counts = { added: 0, skipped: 0, failed: 0 };
  let started = 0;
  const multi = new cliProgress.MultiBar(
    {
      stream: io.stderr as NodeJS.WriteStream,
      format: `{bar} {value}/{total} ${noun}  {rate}/s  ETA {eta_formatted}  {added} added {skipped} skipped {failed} failed`,
      barCompleteChar: "█",
      barIncompleteChar: "░",
      barsize: 16,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      etaBuffer: 50,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  const rate = () => {
    const s = (Date.now() - started) / 1000;
    const done = counts.added + counts.skipped + counts.failed;
    return (done / Math.max(s, 1)).toFixed(1);
  };
  return {
    start(n) {
      started = Date.now();
      bar = multi.create(n, 0, { ...counts, rate: "0.0" });
    },
    item(outcome, label, detail) {
      counts[outcome]++;
      if (outcome === "failed") multi.log(`${colorsFor(io.stderr, io.env).red("failed")} ${label}${detail ? ` — ${detail}` : ""}\n`);
      bar?.increment(1, { ...counts, rate: rate() });
    },
    stop() {
      bar?.update({ ...counts, rate: rate() });
      multi.stop();
    },
  };
}
