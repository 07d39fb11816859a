import fs from "node:fs";
import path from "node:path";
import { StateStore, defaultStatePath, fileCustomId, fileSha256, sha256 } from "../src/state-file";
import { tempDir } from "./helpers";

describe("StateStore (resume)", () => {
  const dir = tempDir();

  it("skips what was added with the same content, re-sends what changed, and survives a reload", () => {
    const file = path.join(dir(), "state", "s.json");
    const s = StateStore.load(file, "http://x", "t", 0);
    expect(s.unchanged("/a.md", "h1")).toBe(false);
    s.record("/a.md", { sha256: "h1", documentId: "d_1", customId: "file:1" });
    expect(s.unchanged("/a.md", "h1")).toBe(true);
    expect(s.unchanged("/a.md", "h2")).toBe(false);

    const again = StateStore.load(file, "http://x", "t");
    expect(again.get("/a.md")).toMatchObject({ sha256: "h1", documentId: "d_1", customId: "file:1" });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    again.forget("/a.md");
    again.flush();
    expect(StateStore.load(file, "http://x", "t").size).toBe(0);
  });

  it("writes at most once per interval until flushed (an interrupted run keeps what was flushed)", () => {
    const file = path.join(dir(), "s.json");
    const s = StateStore.load(file, "http://x", "t", 60_000);
    s.record("/a", { sha256: "1", documentId: "d_a" }); // first record writes at once
    s.record("/b", { sha256: "2", documentId: "d_b" }); // within the interval: kept in memory
    expect(StateStore.load(file, "http://x", "t").size).toBe(1);
    s.flush();
    expect(StateStore.load(file, "http://x", "t").size).toBe(2);
  });

  it("starts afresh from a missing or corrupt file", () => {
    const file = path.join(dir(), "s.json");
    fs.writeFileSync(file, "{garbage");
    expect(StateStore.load(file, "http://x", "t").size).toBe(0);
  });

  it("keys documents by a stable hash of the path and states by server, key and tag", async () => {
    const id = fileCustomId("/docs/a.md");
    expect(id).toMatch(/^file:[0-9a-f]{40}$/);
    expect(id).toMatch(/^[A-Za-z0-9._:-]{1,100}$/);
    expect(fileCustomId("/docs/a.md")).toBe(id);
    expect(fileCustomId("/docs/b.md")).not.toBe(id);

    const base = defaultStatePath("/cfg/config.json", "http://x", "key1", "t");
    expect(base).toMatch(/^\/cfg\/state\/[0-9a-f]{24}\.json$/);
    expect(defaultStatePath("/cfg/config.json", "http://x", "key2", "t")).not.toBe(base);
    expect(defaultStatePath("/cfg/config.json", "http://x", "key1", "u")).not.toBe(base);
    expect(defaultStatePath("/cfg/config.json", "http://y", "key1", "t")).not.toBe(base);
    expect(base).not.toContain("key1");

    const f = path.join(dir(), "x.txt");
    fs.writeFileSync(f, "hello");
    expect(await fileSha256(f)).toBe(sha256("hello"));
  });
});
