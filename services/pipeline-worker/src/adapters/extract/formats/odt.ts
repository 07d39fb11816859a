import type JSZip from "jszip";
import { UnprocessableDocumentError } from "../../../domain/errors";
import { cleanTitle, firstHeading, pipeTable, tidy } from "../normalize";
import { child, descendants, first, isNode, textContent, type XNode } from "../xml";
import { readXml } from "../zip";
import type { Extracted } from "../types";

interface Context {
  /** List style name -> numbered per level (1-based). */
  numbered: Map<string, Set<number>>;
  notes: string[];
}

/** Inline text of a paragraph or heading: spans, links, spaces (text:s), tabs, line breaks; notes go to the end. */
function inline(node: XNode, ctx: Context): string {
  let s = "";
  for (const c of node.children) {
    if (!isNode(c)) {
      s += c.replace(/\s+/g, " ");
      continue;
    }
    switch (c.name) {
      case "text:s":
        s += " ".repeat(Math.min(100, Number(c.attrs["text:c"] ?? 1) || 1));
        break;
      case "text:tab":
        s += "\t";
        break;
      case "text:line-break":
        s += "\n";
        break;
      case "text:note": {
        const body = child(c, "text:note-body");
        if (body) ctx.notes.push(blocks(body, ctx).join(" "));
        break;
      }
      case "office:annotation":
      case "text:bookmark":
      case "text:bookmark-start":
      case "text:bookmark-end":
        break;
      case "draw:frame":
        s += ` ${blocks(c, ctx).join(" ")} `;
        break;
      default:
        s += inline(c, ctx);
    }
  }
  return s;
}

function table(node: XNode, ctx: Context): string {
  const rows: string[][] = [];
  for (const row of descendants(node, "table:table-row")) {
    const cells: string[] = [];
    for (const cell of row.children) {
      if (!isNode(cell) || (cell.name !== "table:table-cell" && cell.name !== "table:covered-table-cell")) continue;
      const text = cell.name === "table:covered-table-cell" ? "" : blocks(cell, ctx).join(" ");
      const repeat = Math.min(50, Number(cell.attrs["table:number-columns-repeated"] ?? 1) || 1);
      for (let i = 0; i < repeat; i++) cells.push(text);
    }
    rows.push(cells);
  }
  return pipeTable(rows.filter((r) => r.some((c) => c.trim())));
}

function list(node: XNode, ctx: Context, level: number, styleName: string | undefined, out: string[]): void {
  const style = node.attrs["text:style-name"] ?? styleName;
  const numbered = style ? ctx.numbered.get(style)?.has(level + 1) : false;
  let n = Number(node.attrs["text:start-value"] ?? 1) || 1;
  for (const item of node.children) {
    if (!isNode(item) || (item.name !== "text:list-item" && item.name !== "text:list-header")) continue;
    let marked = false;
    for (const c of item.children) {
      if (!isNode(c)) continue;
      if (c.name === "text:list") list(c, ctx, level + 1, style, out);
      else {
        for (const text of blocks({ name: "#", attrs: {}, children: [c] }, ctx)) {
          const marker = numbered ? `${n}. ` : "- ";
          const indent = "  ".repeat(level);
          out.push(marked ? `${indent}  ${text}` : `${indent}${marker}${text}`);
          marked = true;
        }
      }
    }
    if (marked) n++;
  }
}

/** Block-level content: headings, paragraphs, lists, tables, sections and frames. */
function blocks(node: XNode, ctx: Context): string[] {
  const out: string[] = [];
  for (const c of node.children) {
    if (!isNode(c)) continue;
    switch (c.name) {
      case "text:h": {
        const text = inline(c, ctx).trim();
        const level = Math.min(6, Math.max(1, Number(c.attrs["text:outline-level"] ?? 1) || 1));
        if (text) out.push(`${"#".repeat(level)} ${text}`);
        break;
      }
      case "text:p": {
        const text = inline(c, ctx).trim();
        if (text) out.push(text);
        break;
      }
      case "text:list": {
        const lines: string[] = [];
        list(c, ctx, 0, undefined, lines);
        if (lines.length) out.push(lines.join("\n"));
        break;
      }
      case "table:table": {
        const t = table(c, ctx);
        if (t) out.push(t);
        break;
      }
      case "text:sequence-decls":
      case "text:tracked-changes":
      case "office:forms":
      case "office:annotation":
        break;
      default:
        out.push(...blocks(c, ctx));
    }
  }
  return out;
}

/** Which list styles number which levels (text:list-level-style-number). */
function numberedLists(...docs: (XNode | undefined)[]): Map<string, Set<number>> {
  const map = new Map<string, Set<number>>();
  for (const doc of docs) {
    if (!doc) continue;
    for (const style of descendants(doc, "text:list-style")) {
      const levels = new Set<number>();
      for (const l of descendants(style, "text:list-level-style-number")) levels.add(Number(l.attrs["text:level"] ?? 1));
      map.set(style.attrs["style:name"] ?? "", levels);
    }
  }
  return map;
}

/**
 * ODT (OpenDocument text) with JSZip + XML: content.xml's headings (by
 * outline level), paragraphs, nested lists (numbered where the list style
 * numbers the level), tables (repeated and covered cells handled), sections
 * and text frames; footnotes are appended at the end. The title is meta.xml's
 * dc:title, else the first heading.
 */
export async function extractOdt(zip: JSZip): Promise<Extracted> {
  const [content, styles, meta] = await Promise.all([readXml(zip, "content.xml"), readXml(zip, "styles.xml"), readXml(zip, "meta.xml")]);
  const body = first(content, "office:text");
  if (!content || !body) throw new UnprocessableDocumentError("the file is not a valid OpenDocument text (.odt) (content.xml is missing or empty)");
  const ctx: Context = { numbered: numberedLists(content, styles), notes: [] };
  const parts = blocks(body, ctx);
  if (ctx.notes.length) parts.push(...ctx.notes.map((n, i) => `[${i + 1}] ${n}`));
  const text = tidy(parts.join("\n\n"));
  const title = cleanTitle(textContent(first(meta, "dc:title"))) ?? firstHeading(text);
  return { text, title, contentType: "odt" };
}
