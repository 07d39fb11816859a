import fs from "node:fs";
import path from "node:path";
function realRequire(id: string, from: string) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const M = require("node:module") as typeof import("node:module") & { _nodeModulePaths(d: string): string[] };
  const m = new (M as unknown as new (id: string) => NodeJS.Module)(from);
  m.filename = from;
  m.paths = M._nodeModulePaths(path.dirname(from));
  return m.require(id);
}
jest.mock("unpdf/pdfjs", () => realRequire(path.join(path.dirname(require.resolve("unpdf")), "pdfjs.mjs"), __filename), { virtual: true });
import { definePDFJSModule, extractText, getDocumentProxy, getMeta } from "unpdf";
const F = "/work/shared/fixtures/documents/";
it("unpdf", async () => {
  await definePDFJSModule(() => import("unpdf/pdfjs"));
  const pdf = await getDocumentProxy(new Uint8Array(fs.readFileSync(F + "pdf/multi-column-2p.pdf")));
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  const meta = await getMeta(pdf);
  console.log(totalPages, text[0]!.slice(0, 1500), meta.info);
});
