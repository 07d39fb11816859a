import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/**
 * Every workspace package's entry points (`main`, `types`, `exports` with its
 * subpaths and conditions, `bin`) name files that exist: an entry that does not
 * resolve fails only when something first imports or runs the package.
 */
const root = path.resolve(__dirname, "../../..");

/** The workspace's package directories, from pnpm-workspace.yaml's globs (`dir/*` or a directory). */
function workspaceDirs(): string[] {
  const globs = (parse(fs.readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8")) as { packages: string[] }).packages;
  const dirs = [root];
  for (const g of globs) {
    if (g.endsWith("/*")) {
      const parent = path.join(root, g.slice(0, -2));
      for (const d of fs.readdirSync(parent, { withFileTypes: true })) if (d.isDirectory()) dirs.push(path.join(parent, d.name));
    } else if (!/[*?[]/.test(g)) dirs.push(path.join(root, g));
    else throw new Error(`workspace glob ${g} is not understood by this test`);
  }
  return dirs.filter((d) => fs.existsSync(path.join(d, "package.json")));
}

/** Every file an entry field names: [field path, relative file]. Export patterns with `*` are checked by their directory. */
function entries(pkg: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const walk = (where: string, v: unknown) => {
    if (typeof v === "string") out.push([where, v]);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(`${where}[${JSON.stringify(k)}]`, x);
  };
  for (const field of ["main", "types", "typings", "module", "exports", "bin"]) if (pkg[field] !== undefined) walk(field, pkg[field]);
  return out;
}

describe("workspace package entries", () => {
  const dirs = workspaceDirs();

  it("finds every workspace package", () => {
    const names = dirs.map((d) => path.relative(root, d) || ".");
    for (const expected of [".", "libs/kernel", "libs/index", "services/all-in-one", "services/gateway", "apps/cli", "tests/e2e", "bench"])
      expect(names).toContain(expected);
  });

  it.each(dirs.map((d) => [path.relative(root, d) || ".", d]))("%s: main, types, exports and bin name existing files", (_name, dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    const missing = entries(pkg).flatMap(([where, file]) => {
      const target = path.join(dir, file.includes("*") ? path.dirname(file) : file);
      return fs.existsSync(target) && (file.includes("*") || fs.statSync(target).isFile()) ? [] : [`${where}: ${file}`];
    });
    expect(missing).toEqual([]);
  });
});
