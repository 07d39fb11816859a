import ExcelJS from "exceljs";
import type JSZip from "jszip";
import { cleanTitle, dropEmptyRows, leadingTitleRows, pipeTable, tidy } from "../normalize";
import { coreTitle } from "../zip";
import type { Extracted } from "../types";

const pad = (n: number) => String(n).padStart(2, "0");

function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return "";
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return h || m || s ? `${date} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ""}` : date;
}

/** A number as its format shows it, for the common formats: decimals, thousands separators, percentages, currency signs. */
export function formatNumber(v: number, numFmt: string | undefined): string {
  const fmt = (numFmt ?? "General").split(";")[0]!.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  if (!/[0#?]/.test(fmt)) return String(Number(v.toPrecision(15)));
  const decimals = /\.([0#?]+)/.exec(fmt)?.[1]?.length ?? 0;
  const percent = fmt.includes("%");
  const value = percent ? v * 100 : v;
  const grouped = /#,##|0,0/.test(fmt);
  const body = value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped });
  const currency = /[$€£¥]/.exec(fmt)?.[0] ?? "";
  return `${currency}${body}${percent ? "%" : ""}`;
}

function valueText(value: ExcelJS.CellValue, numFmt: string | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return formatNumber(value, numFmt);
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return formatDate(value);
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("formula" in value || "sharedFormula" in value) {
    const result = (value as ExcelJS.CellFormulaValue).result;
    if (result === undefined || result === null) return "";
    if (typeof result === "object" && !(result instanceof Date) && "error" in result) return String(result.error);
    return valueText(result as ExcelJS.CellValue, numFmt);
  }
  if ("hyperlink" in value) return typeof value.text === "string" ? value.text : valueText(value.text as ExcelJS.CellValue, numFmt);
  if ("error" in value) return String(value.error);
  return "";
}

function sheetRows(ws: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) {
      const cell = row.getCell(c);
      if (cell.isMerged && cell.master !== cell) {
        // Merged: the value stays in the top-left cell; a vertical merge repeats it down its column.
        cells.push(cell.master.col === cell.col ? valueText(cell.master.value, cell.master.numFmt) : "");
        continue;
      }
      cells.push(valueText(cell.value, cell.numFmt).trim());
    }
    rows.push(cells);
  }
  return dropEmptyRows(rows);
}

/**
 * XLSX through exceljs: every worksheet as "## <sheet name>" and a pipe table
 * of its used range with the cached results of formulas, numbers shown with
 * their format's decimals, grouping, percent and currency sign, dates as ISO
 * dates. Merged cells keep their value in the first cell (and down a column for
 * vertical merges); empty rows and columns are dropped; single-value rows above
 * the table (sheet titles) are kept as lines before it.
 */
export async function extractXlsx(bytes: Uint8Array, zip: JSZip): Promise<Extracted> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  const sections: string[] = [];
  for (const ws of wb.worksheets) {
    if (ws.state === "veryHidden") continue;
    const { lines, rows } = leadingTitleRows(sheetRows(ws));
    const heading = `## ${ws.name}${ws.state === "hidden" ? " (hidden)" : ""}`;
    sections.push([heading, ...lines, pipeTable(rows)].filter(Boolean).join("\n\n"));
  }
  const title = cleanTitle(await coreTitle(zip));
  return { text: tidy(sections.join("\n\n")), title, contentType: "xlsx" };
}
