/**
 * Where the embedded chunk index keeps the saved copies of its large partitions (engine/snapshot.ts):
 * one file per partition in a directory of the data directory, named by a hash of the partition key
 * (tenant and namespace never appear in a file name). A copy is only a cache: the rows in SQLite
 * stay the record, a copy saved at another version of its partition is ignored, and removing the
 * directory only makes the next start read the rows. Writes go to a temporary file, synced, then
 * renamed over the old copy, so a crash leaves the old copy or the new one.
 *
 * A file: "ENGCOPY" + format byte, u32 header length, the header (JSON: the partition's version and
 * the length of each section), then the sections, each starting at a multiple of 8 bytes (the engine's
 * arrays are read as views in place).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { constants as bufferConstants } from "node:buffer";

const SUFFIX = ".snap";
const MAGIC = "ENGCOPY";
const FORMAT = 1;

/** A saved copy: the version of the partition it was saved at, and its sections (the caller's layout). */
export interface SavedCopy {
  version: number;
  sections: Uint8Array[];
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;
/** Bytes per read or write call (Node's calls take at most 2 GiB). */
const IO_CHUNK = 1 << 30;

export class SnapshotFiles {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, createHash("sha256").update(key).digest("hex").slice(0, 40) + SUFFIX);
  }

  /** The partition's saved copy, or undefined when there is none (or it cannot be read whole, or is not one). */
  read(key: string): SavedCopy | undefined {
    const bytes = this.readFile(key);
    if (!bytes || bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 7)) !== MAGIC || bytes[7] !== FORMAT) return undefined;
    const headerLen = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
    if (12 + headerLen > bytes.length) return undefined;
    let header: { version: number; sections: number[] };
    try {
      header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLen))) as typeof header;
    } catch {
      return undefined;
    }
    if (typeof header.version !== "number" || !Array.isArray(header.sections)) return undefined;
    const sections: Uint8Array[] = [];
    let at = 12 + headerLen + pad8(12 + headerLen);
    for (const len of header.sections) {
      if (!(Number.isInteger(len) && len >= 0) || at + len > bytes.length) return undefined;
      sections.push(bytes.subarray(at, at + len));
      at += len + pad8(len);
    }
    return { version: header.version, sections };
  }

  private readFile(key: string): Uint8Array | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file(key), "r");
    } catch {
      return undefined;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size > bufferConstants.MAX_LENGTH) return undefined;
      // A buffer of its own (offset 0), so the typed-array views over it are aligned.
      const bytes = Buffer.allocUnsafeSlow(size);
      for (let at = 0; at < size;) {
        const n = fs.readSync(fd, bytes, at, Math.min(IO_CHUNK, size - at), at);
        if (n === 0) return undefined;
        at += n;
      }
      return bytes;
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Replaces the partition's saved copy; each section is given as chunks written back to back. Returns the bytes written. */
  write(key: string, version: number, sections: readonly (readonly Uint8Array[])[]): number {
    const lengths = sections.map((parts) => parts.reduce((n, p) => n + p.length, 0));
    const header = new TextEncoder().encode(JSON.stringify({ version, sections: lengths }));
    const lead = new Uint8Array(12);
    lead.set(new TextEncoder().encode(MAGIC), 0);
    lead[7] = FORMAT;
    new DataView(lead.buffer).setUint32(8, header.length, true);
    const chunks: Uint8Array[] = [lead, header, new Uint8Array(pad8(12 + header.length))];
    sections.forEach((parts, i) => chunks.push(...parts, new Uint8Array(pad8(lengths[i]!))));
    return this.writeFile(key, chunks);
  }

  private writeFile(key: string, chunks: readonly Uint8Array[]): number {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(key);
    const tmp = `${file}.tmp-${process.pid}`;
    const fd = fs.openSync(tmp, "w", 0o600);
    let total = 0;
    try {
      for (const c of chunks)
        for (let at = 0; at < c.length;) {
          at += fs.writeSync(fd, c, at, Math.min(IO_CHUNK, c.length - at));
        }
      for (const c of chunks) total += c.length;
      fs.fsyncSync(fd);
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    fs.closeSync(fd);
    fs.renameSync(tmp, file);
    syncDir(this.dir);
    return total;
  }

  /** Removes every saved copy (the rows they were made from changed in bulk). */
  clear(): void {
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) if (name.includes(SUFFIX)) fs.rmSync(path.join(this.dir, name), { force: true });
  }
}

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
