import { GrpcServer, type ProcessSecurity, serverSecurity, type ServiceImplementation, storageHealthName } from "@engram/grpc";
import type { Logger } from "@engram/observability";
import { PART_STATES, type StorageMonitor } from "./storage-monitor";

export * from "./storage-monitor";

/**
 * One bounded context's runnable unit. `module.ts` of every service returns
 * one; `main.ts` (one service per process) and services/all-in-one (every
 * service in one process) run them the same way through ProcessRuntime.
 */
export interface ServiceModule {
  name: string;
  /** gRPC services this module serves: `implement(Service, handlers)` each. */
  grpcServices?: ServiceImplementation[];
  /** Called after the gRPC server is bound (start consumers, relays, timers). */
  start?(ctx: { grpcPort?: number }): Promise<void>;
  /**
   * The first step of a shutdown, called on every module at once before any
   * module stops: stop taking work (consumers stop fetching, timers start
   * nothing more) and tell the work in flight to stop (abort its signal:
   * extraction, formation and crawling give up, and their messages stay
   * unacknowledged for redelivery). Synchronous: it does not wait.
   */
  abort?(reason: Error): void;
  /** Called after the gRPC server drained: stop consumers, then close stores. Bounded by the shutdown budget. */
  stop?(): Promise<void>;
  /** Liveness of dependencies beyond the process itself. */
  ready?(): boolean;
}

interface Running {
  module: ServiceModule;
  server?: GrpcServer;
  port?: number;
}

export interface RuntimeOptions {
  /**
   * The whole shutdown's budget (SHUTDOWN_GRACE_MS, default 8 000): modules
   * get until it less a margin to stop, then what still runs is abandoned
   * (gRPC calls cancelled) and the shared stores are closed; the signal
   * handler exits the process when it runs out whatever is left.
   */
  graceMs?: number;
  /** Longest drain of one gRPC server's in-flight calls (within the budget) before they are cancelled. */
  shutdownDeadlineMs?: number;
  /** Time between "not serving" and closing listeners (load balancers notice). */
  shutdownDelayMs?: number;
  /**
   * Service-to-service trust and TLS of the gRPC servers (docs/api-decisions.md §19): each module's server accepts
   * only calls with a valid assertion for it (the module's name is its identity). The composition roots always set
   * it; without it (tests of the runtime itself) the servers trust their callers.
   */
  security?: ProcessSecurity;
}

/** SHUTDOWN_GRACE_MS's default: the process exits within 8 s of SIGTERM. */
export const DEFAULT_GRACE_MS = 8_000;

const sleep = (ms: number) => new Promise<void>((res) => setTimeout(res, ms));

/** Whether `p` settled within `ms` (its rejection is thrown); false when the time ran out first. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((res) => {
    timer = setTimeout(() => res(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts modules in dependency order and stops them in reverse; one failing start stops the process. */
export class ProcessRuntime {
  private readonly running: Running[] = [];
  private stopping: Promise<void> | undefined;
  private readonly extraStops: (() => Promise<void>)[] = [];
  private readonly checks: { name: string; check: () => { ok: boolean; problems: string[] } }[] = [];
  private failing: string[] = [];
  private watcher: NodeJS.Timeout | undefined;
  private storage: StorageMonitor | undefined;

  constructor(
    private readonly log: Logger,
    private readonly opts: RuntimeOptions = {},
  ) {}

  /** Adds a module: binds its gRPC server on `grpcAddress` (port 0 = any), then starts it. Returns the bound port. */
  async add(module: ServiceModule, grpcAddress?: string): Promise<number | undefined> {
    const entry: Running = { module };
    this.running.push(entry);
    if (module.grpcServices) {
      if (!grpcAddress) throw new Error(`module ${module.name} serves gRPC but has no address`);
      const security = this.opts.security ? serverSecurity(this.opts.security, module.name) : {};
      entry.server = new GrpcServer(this.log.child({ component: module.name, layer: "grpc" }), security);
      for (const impl of module.grpcServices) entry.server.add(impl);
      entry.port = await entry.server.bind(grpcAddress);
    }
    await module.start?.({ grpcPort: entry.port });
    entry.server?.setServing(this.failing.length === 0);
    if (entry.server) this.publishStorage(entry.server);
    this.log.info({ module: module.name, grpcPort: entry.port }, "module started");
    return entry.port;
  }

  /** Registers a resource closed after every module stopped (shared bus, shared stores). */
  onStopped(fn: () => Promise<void>): void {
    this.extraStops.push(fn);
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  ready(): boolean {
    return !this.stopping && this.failing.length === 0 && this.running.every((r) => r.module.ready?.() ?? true);
  }

  /**
   * A shared dependency this process cannot work without (the event bus's
   * consumers): checked every `intervalMs`; while it fails, every gRPC server
   * of the process answers grpc.health.v1 NOT_SERVING (so probes, and a
   * gateway in front, see the process as not ready) and the problems are
   * logged once; when it recovers, SERVING again.
   */
  watchReadiness(name: string, check: () => { ok: boolean; problems: string[] }, intervalMs = 1_000): void {
    this.checks.push({ name, check });
    this.watcher ??= setInterval(() => this.evaluateReadiness(), intervalMs);
    this.watcher.unref();
  }

  /**
   * The storage of the process's parts (store, file store, index, event log): probed by `monitor`
   * (started here, stopped with the process). A part that cannot write fails readiness like any
   * watched dependency, and every gRPC server of the process tells each part's state in
   * grpc.health.v1 under `engram.storage.<part>` (SERVING while it writes) and
   * `engram.storage.<part>.<state>` (SERVING for the state it is in), which the gateway's /readyz reads.
   */
  async watchStorage(monitor: StorageMonitor, intervalMs = 1_000): Promise<void> {
    this.storage = monitor;
    await monitor.start();
    this.onStopped(async () => monitor.stop());
    this.watchReadiness("storage", () => monitor.health(), intervalMs);
    this.evaluateReadiness();
  }

  private publishStorage(server: GrpcServer): void {
    if (!this.storage) return;
    for (const [part, state] of Object.entries(this.storage.states())) {
      server.setHealth(storageHealthName(part), state === "ok");
      for (const s of PART_STATES) if (s !== "ok") server.setHealth(storageHealthName(part, s), state === s);
    }
  }

  /** Problems of the watched dependencies right now (empty when ready). */
  readinessProblems(): string[] {
    return this.failing;
  }

  private evaluateReadiness(): void {
    if (this.stopping) return;
    const problems = this.checks.flatMap(({ name, check }) => {
      const h = check();
      return h.ok ? [] : h.problems.map((p) => `${name}: ${p}`);
    });
    const was = this.failing.length > 0;
    this.failing = problems;
    if (problems.length > 0 && !was) this.log.error({ problems }, "not ready: a dependency failed");
    if (problems.length === 0 && was) this.log.info("ready again: the failed dependency recovered");
    if (problems.length > 0 !== was) for (const r of this.running) r.server?.setServing(problems.length === 0);
    for (const r of this.running) if (r.server) this.publishStorage(r.server);
  }

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  /** The shutdown budget (SHUTDOWN_GRACE_MS). */
  get graceMs(): number {
    return this.opts.graceMs ?? DEFAULT_GRACE_MS;
  }

  /**
   * Within the budget: not serving; after SHUTDOWN_DELAY_MS every module stops
   * taking work and aborts its work in flight (abort, all at once); then each
   * module, in reverse start order, drains its gRPC server and stops; then the
   * shared resources close (stores last, so SQLite ends with a clean WAL).
   * Modules get until the budget less a margin: one that has not stopped by
   * then is left behind (logged) so the stores still close in time.
   */
  private async doStop(): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    const started = Date.now();
    const grace = this.graceMs;
    // Kept for closing the shared stores and exiting after the modules' time is up.
    const margin = Math.min(1_000, Math.round(grace / 5));
    const modulesUntil = started + grace - margin;
    const left = (until: number) => Math.max(0, until - Date.now());
    const drainCap = this.opts.shutdownDeadlineMs ?? grace;
    for (const r of this.running) r.server?.setServing(false);
    if (this.opts.shutdownDelayMs) await sleep(Math.min(this.opts.shutdownDelayMs, left(modulesUntil)));
    const reason = new Error("the process is stopping");
    for (const r of this.running) {
      try {
        r.module.abort?.(reason);
      } catch (err) {
        this.log.error({ err, module: r.module.name }, "module failed to abort its work");
      }
    }
    for (const r of [...this.running].reverse()) {
      const t0 = Date.now();
      try {
        await r.server?.shutdown(Math.min(drainCap, left(modulesUntil)));
        const stopped = await within(r.module.stop?.() ?? Promise.resolve(), left(modulesUntil));
        if (stopped) this.log.info({ module: r.module.name, stopMs: Date.now() - t0 }, "module stopped");
        else this.log.error({ module: r.module.name, graceMs: grace }, "module did not stop within the shutdown budget; left behind");
      } catch (err) {
        this.log.error({ err, module: r.module.name }, "module failed to stop cleanly");
      }
    }
    for (const fn of this.extraStops.reverse()) {
      try {
        // What is left of the whole budget (less a moment for the exit itself).
        if (!(await within(fn(), left(started + grace - 100)))) this.log.error({ graceMs: grace }, "a resource did not close within the shutdown budget");
      } catch (err) {
        this.log.error({ err }, "resource failed to close cleanly");
      }
    }
    this.log.info({ shutdownMs: Date.now() - started }, "stopped");
  }

  /**
   * SIGTERM/SIGINT: stop within the budget; exit 0 when done. When the budget
   * (SHUTDOWN_GRACE_MS unless given) runs out first, the process exits 1
   * whatever still runs: nothing unacknowledged is lost, it is redelivered at
   * the next start. Copies of the signal arriving within a second (a
   * terminal's Ctrl-C reaches the whole process group, and wrappers such as
   * npm forward it again) are ignored; a signal sent later exits at once.
   */
  installSignalHandlers(hardDeadlineMs = this.graceMs): void {
    let firstAt: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (firstAt !== undefined) {
        if (Date.now() - firstAt < 1000) return;
        this.log.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      firstAt = Date.now();
      this.log.info({ signal }, "shutting down");
      const timer = setTimeout(() => {
        this.log.error({ hardDeadlineMs }, "shutdown did not finish in time; exiting");
        process.exit(1);
      }, hardDeadlineMs);
      timer.unref();
      this.stop().then(
        () => {
          this.log.info("shutdown complete");
          process.exit(0);
        },
        (err) => {
          this.log.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }
}
