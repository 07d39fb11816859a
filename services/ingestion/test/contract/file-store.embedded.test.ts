import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FsFileStore } from "../../src/adapters/filesystem/file-store.fs";
import { fileStoreContract } from "./file-store.contract";

/** Every file under dir, relative, recursively (directories themselves are not content). */
function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

describe("FsFileStore (file store contract)", () => {
  fileStoreContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-files-"));
    let store = new FsFileStore(dir);
    return {
      get store() {
        return store;
      },
      reopen: async () => {
        await store.close();
        store = new FsFileStore(dir);
        return store;
      },
      stored: async () => listFiles(path.join(dir, "files")),
      crashMidWrite: async () => {
        fs.writeFileSync(path.join(dir, "files", ".tmp", "0123456789abcdef.part"), Buffer.alloc(4096, 1));
      },
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
