/*
 * jest runs the tests as CommonJS in its own module registry, which cannot
 * load ES modules (jest supports require(esm) only on Node 24.9+). Two
 * dependencies are ES modules: css-select 7 (linkedom's selector engine) and
 * the PDF.js bundle of unpdf. At run time Node 20.19+ require()s them natively;
 * here the mocks hand jest the same modules loaded by Node's own loader.
 * Import this file before the code under test.
 */
import path from "node:path";

type NodeModule = { filename: string; paths: string[]; require(id: string): unknown };

/** require() by Node itself (not jest), resolving `id` from the file `from`. */
function nodeRequire(id: string, from: string): unknown {
  // jest's "module" is a subclass of Node's Module: its instances' require() is Node's.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const M = require("node:module") as { new (id: string): NodeModule; _nodeModulePaths(dir: string): string[] };
  const m = new M(from);
  m.filename = from;
  m.paths = M._nodeModulePaths(path.dirname(from));
  return m.require(id);
}

jest.mock("css-select", () => nodeRequire("css-select", require.resolve("linkedom")));
jest.mock("unpdf/pdfjs", () => nodeRequire(path.join(path.dirname(require.resolve("unpdf")), "pdfjs.mjs"), require.resolve("unpdf")), { virtual: true });
