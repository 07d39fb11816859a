jest.mock("css-select", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const M = require("node:module") as typeof import("node:module") & { _nodeModulePaths(d: string): string[] };
  const m = new (M as unknown as new (id: string) => NodeJS.Module)(__filename);
  m.filename = require.resolve("linkedom");
  m.paths = M._nodeModulePaths(require("node:path").dirname(m.filename));
  return m.require("css-select");
});
import fs from "node:fs";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import mammoth from "mammoth";
import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { parseHTML } from "linkedom";
import { Readability } from "@mozilla/readability";
import TurndownService from "turndown";
import chardet from "chardet";

const F = "/work/shared/fixtures/documents/";
it("unpdf", async () => {
  const pdf = await getDocumentProxy(new Uint8Array(fs.readFileSync(F + "pdf/fake-memo.pdf")));
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  const meta = await getMeta(pdf);
  console.log(totalPages, text, meta.info);
});
it("others", async () => {
  const r = await mammoth.convertToHtml({ buffer: fs.readFileSync(F + "docx/fake.docx") });
  console.log(r.value.slice(0, 200));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(F + "xlsx/stanley-cups.xlsx") as never);
  console.log(wb.worksheets.map((w) => w.name));
  console.log(parse("a,b\n1,2"));
  const { document } = parseHTML("<html><head><title>x</title></head><body><article><p>hello world</p></article></body></html>");
  console.log(new Readability(document as never).parse()?.title);
  console.log(new TurndownService().turndown("<h1>Hi</h1>"));
  console.log(chardet.detect(Buffer.from("héllo wörld", "latin1")));
});
