/**
 * Runs queued jobs in arrival order, each two event-loop turns after the one before.
 *
 * Why the gRPC server starts its handlers through it: Node's HTTP/2 session
 * sends what its streams wrote in a later turn of the event loop (a native
 * "immediate"), and a unary response needs two such turns: one sends its
 * headers and message, and the trailers that the session asks for while
 * sending them go in the next. One socket read often delivers several calls;
 * if each handler ran its synchronous part straight away, every response of
 * that batch would wait for the batch's last handler before it left the
 * process, and the caller (the gateway, on the other core) would sit idle
 * meanwhile, then get all the responses at once while this thread idled in
 * turn: a convoy in which the two threads take turns instead of working in
 * parallel (figures in bench/README.md). Spacing the starts by two turns
 * lets each response leave before the next handler's work. A turn that has
 * work queued does not wait in the poll phase, so the spacing costs
 * microseconds; each turn still polls for I/O, so nothing starves; a call
 * waits for the handlers queued before it, as it did before.
 */
export class TurnQueue {
  private jobs: (() => void)[] = [];
  private head = 0;
  private scheduled = false;
  private readonly pump = () => this.runOne();
  private readonly pumpNextTurn = () => setImmediate(this.pump);

  /** Queues a job; it starts after every job queued before it, two turns after the previous start. */
  push(job: () => void): void {
    this.jobs.push(job);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.pump);
    }
  }

  /** Jobs queued and not started yet. */
  get pending(): number {
    return this.jobs.length - this.head;
  }

  private runOne(): void {
    const job = this.jobs[this.head]!;
    this.jobs[this.head++] = undefined as unknown as () => void;
    if (this.head === this.jobs.length) {
      this.jobs = [];
      this.head = 0;
      this.scheduled = false;
    } else {
      if (this.head >= 1024 && this.head * 2 >= this.jobs.length) {
        this.jobs = this.jobs.slice(this.head);
        this.head = 0;
      }
      setImmediate(this.pumpNextTurn);
    }
    job();
  }
}
