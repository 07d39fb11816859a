import { GrpcServer, type ProcessSecurity, serverSecurity, type ServiceImplementation } from "@engram/grpc";
import type { Logger } from "@engram/observability";

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
  /** Called after the gRPC server drained: stop consumers, then close stores. */
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
  /** Time allowed for in-flight work after SIGTERM before forcing. */
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

/** Starts modules in dependency order and stops them in reverse; one failing start stops the process. */
export class ProcessRuntime {
  private readonly running: Running[] = [];
  private stopping: Promise<void> | undefined;
  private readonly extraStops: (() => Promise<void>)[] = [];
  private readonly checks: { name: string; check: () => { ok: boolean; problems: string[] } }[] = [];
  private failing: string[] = [];
  private watcher: NodeJS.Timeout | undefined;

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
  }

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    const deadline = this.opts.shutdownDeadlineMs ?? 8000;
    for (const r of this.running) r.server?.setServing(false);
    if (this.opts.shutdownDelayMs) await new Promise((res) => setTimeout(res, this.opts.shutdownDelayMs));
    for (const r of [...this.running].reverse()) {
      try {
        await r.server?.shutdown(deadline);
        await r.module.stop?.();
        this.log.info({ module: r.module.name }, "module stopped");
      } catch (err) {
        this.log.error({ err, module: r.module.name }, "module failed to stop cleanly");
      }
    }
    for (const fn of this.extraStops.reverse()) {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err }, "resource failed to close cleanly");
      }
    }
  }

  /**
   * SIGTERM/SIGINT: stop gracefully; exit 0 when done. A hard deadline exits
   * non-zero if shutdown hangs. Copies of the signal arriving within a second
   * (a terminal's Ctrl-C reaches the whole process group, and wrappers such as
   * npm forward it again) are ignored; a signal sent later exits at once.
   */
  installSignalHandlers(hardDeadlineMs = 10_000): void {
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
