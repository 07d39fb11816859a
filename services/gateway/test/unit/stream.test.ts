import { Writable } from "node:stream";
import { writeStream } from "../../src/http/stream";

/** The download path's pump: a slow consumer must hold the source back, never let it pile up in memory. */
describe("writeStream (gRPC stream → HTTP response, with back-pressure)", () => {
  const CHUNK = 16 * 1024;

  /** A sink that accepts one chunk per `delayMs`, with a 64 KiB buffer, recording what it took. */
  function slowSink(delayMs: number) {
    const received: Buffer[] = [];
    const sink = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _enc, cb) {
        setTimeout(() => {
          received.push(chunk);
          cb();
        }, delayMs);
      },
    });
    return { sink, received };
  }

  it("pulls the next chunk only when the sink has room: a slow consumer bounds what is in flight", async () => {
    let pulled = 0;
    let maxAhead = 0;
    const total = 200;
    const { sink, received } = slowSink(1);
    async function* source() {
      for (let i = 0; i < total; i++) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - received.length);
        yield Buffer.alloc(CHUNK, i % 256);
      }
    }
    const written = await writeStream(source(), sink);
    await new Promise<void>((r) => sink.end(r));
    expect(written).toBe(total * CHUNK);
    expect(received.map((b) => b[0])).toEqual(Array.from({ length: total }, (_, i) => i % 256));
    // At most the sink's buffer (64 KiB = 4 chunks) plus the chunk being written and the one just pulled.
    expect(maxAhead).toBeLessThanOrEqual(6);
  });

  it("a sink that closes early (the client went away) stops the download and ends the source", async () => {
    let finalized = false;
    let pulled = 0;
    const { sink } = slowSink(5);
    async function* source() {
      try {
        for (;;) {
          pulled++;
          yield Buffer.alloc(CHUNK);
        }
      } finally {
        finalized = true;
      }
    }
    setTimeout(() => sink.destroy(), 30);
    await expect(writeStream(source(), sink)).rejects.toThrow(/closed/);
    expect(finalized).toBe(true);
    expect(pulled).toBeLessThan(50);
  });

  it("a failing source rejects with its error", async () => {
    const { sink } = slowSink(0);
    async function* source() {
      yield Buffer.from("a");
      throw new Error("backend failed");
    }
    await expect(writeStream(source(), sink)).rejects.toThrow("backend failed");
  });
});
