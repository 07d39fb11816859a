import fs from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { STORAGE_PART_LABELS, type StoragePart, storageFaultOf } from "@engram/kernel";
import type { Logger } from "@engram/observability";

/**
 * What readiness says of one part's storage: `ok`; `low` (it still writes,
 * but its volume has less free space than STORAGE_MIN_FREE_MB); `full` (a
 * write got ENOSPC, EDQUOT or SQLITE_FULL); `unwritable` (read-only or not
 * writable by the server). Every state but `ok` fails readiness.
 */
export type PartState = "ok" | "low" | "full" | "unwritable";
export const PART_STATES: readonly PartState[] = ["ok", "low", "full", "unwritable"];

/** One directory a part writes to (a part may write to several: each is probed). */
export interface StoragePartDir {
  part: StoragePart;
  dir: string;
}

export interface StorageMonitorOptions {
  parts: StoragePartDir[];
  /** A volume with less free space than this is `low` (STORAGE_MIN_FREE_MB); 0 turns the free-space check off. */
  minFreeBytes: number;
  /** Time between probes (STORAGE_PROBE_INTERVAL_MS). A reported fault probes at once, at most once a second. */
  intervalMs?: number;
  logger: Logger;
}

interface Probed {
  state: PartState;
  code?: string;
  dir: string;
  freeBytes?: number;
}

const SEVERITY: Record<PartState, number> = { ok: 0, low: 1, unwritable: 2, full: 3 };
/** Reported faults re-probe at most this often (a burst of failing writes probes once). */
const MIN_REPROBE_MS = 1_000;

/**
 * Cheap write probes of the directories the process's parts write to: every
 * `intervalMs` (and at once after a write failed for lack of space) a few
 * bytes are written to a probe file in each directory and removed again, and
 * the volume's free space is read (statfs). Readiness reads the last result
 * (`states`, `health`); a part's change of state is logged once, with its
 * cause (the error code and directory), not once per failing request.
 */
export class StorageMonitor {
  private readonly intervalMs: number;
  private readonly current = new Map<StoragePart, Probed>();
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastProbeAt = 0;
  private stopped = false;

  constructor(private readonly opts: StorageMonitorOptions) {
    this.intervalMs = opts.intervalMs ?? 5_000;
    for (const { part, dir } of opts.parts) if (!this.current.has(part)) this.current.set(part, { state: "ok", dir });
  }

  /** Probes once, then every interval. */
  async start(): Promise<void> {
    await this.probe();
    if (this.stopped) return;
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
  }

  /** A write failed for lack of space or write access: probe now (at most once a second) so readiness follows at once. */
  report(): void {
    if (this.stopped || this.soon) return;
    const wait = Math.max(0, this.lastProbeAt + MIN_REPROBE_MS - Date.now());
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.probe();
    }, wait);
    this.soon.unref();
  }

  /** Each watched part's state from the last probe. */
  states(): Partial<Record<StoragePart, PartState>> {
    return Object.fromEntries([...this.current].map(([part, p]) => [part, p.state]));
  }

  /** For ProcessRuntime.watchReadiness: one problem per part that cannot (or soon cannot) write. */
  health(): { ok: boolean; problems: string[] } {
    const problems = [...this.current].filter(([, p]) => p.state !== "ok").map(([part, p]) => `${part} (${STORAGE_PART_LABELS[part]}) ${describe(p)}`);
    return { ok: problems.length === 0, problems };
  }

  /** Probes every directory now (a probe already running is joined). */
  probe(): Promise<void> {
    this.running ??= this.probeAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async probeAll(): Promise<void> {
    this.lastProbeAt = Date.now();
    const results = await Promise.all(this.opts.parts.map(async ({ part, dir }) => ({ part, probed: await probeDir(dir, this.opts.minFreeBytes) })));
    const worst = new Map<StoragePart, Probed>();
    for (const { part, probed } of results) {
      const seen = worst.get(part);
      if (!seen || SEVERITY[probed.state] > SEVERITY[seen.state]) worst.set(part, probed);
    }
    if (this.stopped) return;
    const log = this.opts.logger;
    for (const [part, now] of worst) {
      const was = this.current.get(part)?.state ?? "ok";
      this.current.set(part, now);
      if (now.state === was) continue;
      const fields = { part, state: now.state, was, dir: now.dir, code: now.code, freeBytes: now.freeBytes };
      if (now.state === "ok") log.info(fields, `storage: the ${STORAGE_PART_LABELS[part]} can write again`);
      else if (now.state === "low") log.warn({ ...fields, minFreeBytes: this.opts.minFreeBytes }, `storage: the ${STORAGE_PART_LABELS[part]} is low on space`);
      else log.error(fields, `storage: the ${STORAGE_PART_LABELS[part]} cannot write (${describe(now)})`);
    }
  }
}

function describe(p: Probed): string {
  switch (p.state) {
    case "full":
      return `is full (${p.code ?? "no space"} in ${p.dir})`;
    case "unwritable":
      return `is not writable (${p.code ?? "denied"} in ${p.dir})`;
    case "low":
      return `is low on space (${p.freeBytes ?? 0} bytes free in ${p.dir})`;
    default:
      return "is ok";
  }
}

/** A few bytes written to (and removed from) `dir`, then the free space of its volume. */
export async function probeDir(dir: string, minFreeBytes: number): Promise<Probed> {
  const file = path.join(dir, `.engram-write-probe-${process.pid}-${threadId}`);
  try {
    await fs.promises.writeFile(file, "engram write probe\n", { mode: 0o600 });
  } catch (err) {
    const fault = storageFaultOf(err, { inStorage: true });
    const code = fault?.code ?? String((err as { code?: unknown }).code ?? "write failed");
    return { state: fault?.fault ?? "unwritable", code, dir };
  } finally {
    await fs.promises.rm(file, { force: true }).catch(() => undefined);
  }
  if (minFreeBytes <= 0) return { state: "ok", dir };
  const s = await fs.promises.statfs(dir).catch(() => undefined);
  if (!s) return { state: "ok", dir };
  const freeBytes = s.bavail * s.bsize;
  return { state: freeBytes < minFreeBytes ? "low" : "ok", dir, freeBytes };
}
