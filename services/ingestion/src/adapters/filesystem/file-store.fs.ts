import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PayloadTooLargeError } from "@engram/kernel";
import type { FileStore } from "../../app/ports";
import { assertFileKey } from "../file-key";

/**
 * Originals on the local filesystem under <dataDir>/files. A write goes to a
 * temporary file, is fsynced, then renamed into place and the directory
 * fsynced, so a crash leaves either the whole file or nothing.
 */
export class FsFileStore implements FileStore {
  private readonly root: string;
  constructor(dataDir: string) {
    this.root = path.join(dataDir, "files");
    // Partial writes a crash left behind are garbage: no document points at them.
    fs.rmSync(path.join(this.root, ".tmp"), { recursive: true, force: true });
    fs.mkdirSync(path.join(this.root, ".tmp"), { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string): string {
    assertFileKey(key);
    return path.join(this.root, key);
  }

  async write(key: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ sizeBytes: number; sha256: string }> {
    const target = this.pathOf(key);
    const tmp = path.join(this.root, ".tmp", `${randomBytes(8).toString("hex")}.part`);
    const hash = createHash("sha256");
    let size = 0;
    const fh = await fs.promises.open(tmp, "wx", 0o600);
    try {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new PayloadTooLargeError("file too large", `at most ${maxBytes} bytes`);
        hash.update(chunk);
        await fh.write(chunk);
      }
      await fh.sync();
      await fh.close();
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fs.promises.rename(tmp, target);
      const dir = await fs.promises.open(path.dirname(target), "r");
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
      return { sizeBytes: size, sha256: hash.digest("hex") };
    } catch (err) {
      await fh.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async *read(key: string): AsyncIterable<Uint8Array> {
    const stream = fs.createReadStream(this.pathOf(key), { highWaterMark: 256 * 1024 });
    for await (const chunk of stream) yield chunk as Buffer;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {}
}
