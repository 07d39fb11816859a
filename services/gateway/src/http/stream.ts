import { once } from "node:events";
import type { Writable } from "node:stream";

/** What `writeStream` writes to: an HTTP response, or any writable. */
type Sink = Pick<Writable, "write" | "once" | "off" | "writableEnded" | "destroyed">;

/**
 * Writes byte chunks to `out` as `chunks` yields them, with back-pressure:
 * when `out.write` returns false (its buffer is full: a slow client), the next
 * chunk is pulled only after `drain`, so the source (a gRPC server stream) is
 * paused too and memory stays bounded by one chunk plus the sink's buffer.
 * Resolves with the bytes written once the source ends; rejects when the
 * source fails or the sink closes first (the client went away), after ending
 * the iteration so the source is cancelled.
 */
export async function writeStream(chunks: AsyncIterable<Uint8Array>, out: Sink): Promise<number> {
  let written = 0;
  let closed = false;
  const onClose = () => (closed = true);
  out.once("close", onClose);
  try {
    for await (const chunk of chunks) {
      if (closed || out.destroyed) throw new Error("the client closed the connection");
      written += chunk.length;
      if (!out.write(chunk)) {
        // Wait for room, or for the client to go away (then the loop's check above ends the download).
        await Promise.race([once(out as Writable, "drain"), once(out as Writable, "close")]);
      }
    }
    if (closed) throw new Error("the client closed the connection");
    return written;
  } finally {
    out.off("close", onClose);
  }
}
