import fs from "node:fs";
import path from "node:path";
import { planItems } from "../src/commands/add.command";
import { MAX_FILE_BYTES, skipReason, walkFiles } from "../src/walk";
import { tempDir } from "./helpers";

describe("folder walking", () => {
  const dir = tempDir();
  const write = (rel: string, content = "text") => {
    const p = path.join(dir(), rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  };

  it("walks recursively in name order, leaving out dot-files, dot-directories and node_modules", () => {
    for (const f of ["b.md", "a.txt", "sub/c.md", "sub/deeper/d.pdf", ".git/config", ".env", "node_modules/x/index.js", "sub/.cache/e.md"]) write(f);
    const rel = walkFiles(dir()).map((f) => path.relative(dir(), f.path));
    expect(rel).toEqual(["a.txt", "b.md", "sub/c.md", "sub/deeper/d.pdf"]);
    expect(walkFiles(path.join(dir(), "a.txt"))).toEqual([{ path: path.join(dir(), "a.txt"), size: 4 }]);
  });

  it("accepts what the server extracts and gives a reason for the rest", () => {
    expect(skipReason("notes.md", 10)).toBeUndefined();
    expect(skipReason("Report.PDF", 10)).toBeUndefined();
    expect(skipReason("main.go", 10)).toBeUndefined();
    expect(skipReason("Dockerfile", 10)).toBeUndefined();
    expect(skipReason("photo.png", 10)).toBeUndefined();
    expect(skipReason("old.doc", 10)).toMatch(/legacy Word/);
    expect(skipReason("data.bin", 10)).toBe("unsupported file type .bin");
    expect(skipReason("README", 10)).toMatch(/no file extension/);
    expect(skipReason("a.zip", 10)).toMatch(/archives/);
    expect(skipReason("empty.txt", 0)).toBe("empty file");
    expect(skipReason("big.pdf", MAX_FILE_BYTES + 1)).toMatch(/upload limit/);
  });

  it("plans files, URLs, texts and missing paths", () => {
    write("f/one.md");
    write("f/skip.exe");
    const items = planItems(["f", "https://example.com/post", "a sentence to remember", "missing.md"], ["--text value"], dir());
    expect(items.map((i) => [i.kind, i.label])).toEqual([
      ["text", 'text "--text value"'],
      ["file", "f/one.md"],
      ["skip", "f/skip.exe"],
      ["url", "https://example.com/post"],
      ["text", 'text "a sentence to remember"'],
      ["skip", "missing.md"],
    ]);
    expect(items[5]).toMatchObject({ failed: true, reason: expect.stringMatching(/no such file/) });
    expect(items[2]).toMatchObject({ failed: false, reason: "unsupported file type .exe" });
  });
});
