import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What a run remembers of one added item. */
export interface StateEntry {
  /** sha256 of the content sent. */
  sha256: string;
  /** The server's document id. */
  documentId: string;
  /** The caller id the document was added under. */
  customId?: string;
  addedAt: string;
}

interface StateData {
  version: 1;
  url: string;
  containerTag: string;
  entries: Record<string, StateEntry>;
}

export function sha256(data: string | Uint8Array): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** The sha256 of a file's bytes, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const h = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/**
 * The caller id of a file's document: a stable hash of its absolute path, so
 * a changed file replaces the same document instead of adding a second one.
 */
export function fileCustomId(absPath: string): string {
  return `file:${sha256(path.resolve(absPath)).slice(0, 40)}`;
}

/**
 * The state file of a server, API key and container tag:
 * `<config dir>/state/<hash>.json`. The key enters only as a hash, so two
 * tenants of one server keep separate states and no key is written.
 */
export function defaultStatePath(configFile: string, url: string, apiKey: string, containerTag: string): string {
  const id = sha256(`${url}\n${sha256(apiKey)}\n${containerTag}`).slice(0, 24);
  return path.join(path.dirname(configFile), "state", `${id}.json`);
}

/**
 * Which items were added before, by key (a file's absolute path, or a JSON
 * Lines record's file and content hash), with the hash of what was sent. A run
 * records each item as soon as the server accepted it and writes the file at
 * most once a second (and at the end), atomically: an interrupted run leaves a
 * usable state, and the next one resumes where it stopped.
 */
export class StateStore {
  private dirty = false;
  private lastFlush = 0;

  private constructor(
    readonly file: string,
    private readonly data: StateData,
    private readonly flushEveryMs: number,
  ) {}

  static load(file: string, url: string, containerTag: string, flushEveryMs = 1000): StateStore {
    let data: StateData = { version: 1, url, containerTag, entries: {} };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<StateData>;
      if (parsed && parsed.version === 1 && parsed.entries && typeof parsed.entries === "object")
        data = { version: 1, url, containerTag, entries: parsed.entries };
    } catch {
      // missing or unreadable: start afresh (items are re-sent under the same caller ids, which the server deduplicates)
    }
    return new StateStore(file, data, flushEveryMs);
  }

  get size(): number {
    return Object.keys(this.data.entries).length;
  }

  get(key: string): StateEntry | undefined {
    return this.data.entries[key];
  }

  /** True when `key` was added before with exactly this content. */
  unchanged(key: string, contentSha256: string): boolean {
    return this.data.entries[key]?.sha256 === contentSha256;
  }

  record(key: string, entry: Omit<StateEntry, "addedAt"> & { addedAt?: string }): void {
    this.data.entries[key] = { ...entry, addedAt: entry.addedAt ?? new Date().toISOString() };
    this.dirty = true;
    if (Date.now() - this.lastFlush >= this.flushEveryMs) this.flush();
  }

  forget(key: string): void {
    if (this.data.entries[key]) {
      delete this.data.entries[key];
      this.dirty = true;
    }
  }

  /** Writes the file now when something changed (temporary file + rename, mode 0600). */
  flush(): void {
    this.lastFlush = Date.now();
    if (!this.dirty) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.data), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.dirty = false;
  }
}
