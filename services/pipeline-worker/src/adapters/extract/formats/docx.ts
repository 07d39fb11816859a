import JSZip from "jszip";
import mammoth from "mammoth";
import { htmlToMarkdown } from "../html-to-markdown";
import { cleanTitle, firstHeading, flattenCell, pipeTable, tidy } from "../normalize";
import { child, descendants, elements, isNode, type XNode } from "../xml";
import { coreTitle, partNames, readText, readXml } from "../zip";
import type { Extracted } from "../types";

const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

const SKIPPED = new Set(["w:instrText", "w:delText", "mc:Fallback", "w:txbxContent", "w:p"]);

/** Text of one paragraph's runs (tabs and breaks kept; field codes, deletions and nested text boxes skipped). */
function runText(node: XNode): string {
  let s = "";
  for (const c of node.children) {
    if (!isNode(c) || SKIPPED.has(c.name)) continue;
    if (c.name === "w:t") s += c.children.filter((t): t is string => typeof t === "string").join("");
    else if (c.name === "w:tab") s += "\t";
    else if (c.name === "w:br" || c.name === "w:cr") s += " ";
    else if (c.name === "w:noBreakHyphen") s += "-";
    else s += runText(c);
  }
  return s;
}

/** The continuation of a vertically merged cell: its content is hidden in Word. */
const mergedAway = (tc: XNode) => {
  const v = child(child(tc, "w:tcPr"), "w:vMerge");
  return !!v && v.attrs["w:val"] !== "restart";
};

/** Blocks of a WordprocessingML part: one per paragraph, tables as pipe tables, text boxes after their paragraph. */
function blocksOf(node: XNode, out: string[] = []): string[] {
  for (const c of node.children) {
    if (!isNode(c) || c.name === "mc:Fallback" || c.name === "w:instrText" || c.name === "w:delText") continue;
    if (c.name === "w:p") {
      const line = runText(c)
        .replace(/[ \t]+/g, " ")
        .trim();
      if (line) out.push(line);
      for (const box of descendants(c, "w:txbxContent")) blocksOf(box, out);
    } else if (c.name === "w:tbl") {
      const rows = descendants(c, "w:tr").map((tr) => elements(tr, "w:tc").map((tc) => (mergedAway(tc) ? "" : flattenCell(blocksOf(tc).join("\n")))));
      const table = rows.length > 1 && Math.max(...rows.map((r) => r.length)) > 1 ? pipeTable(rows) : rows.flat().filter(Boolean).join("\n\n");
      if (table) out.push(table);
    } else blocksOf(c, out);
  }
  return out;
}

/** Header or footer texts of the document, in part order, each distinct text once. */
async function marginalia(zip: JSZip, kind: "header" | "footer"): Promise<string[]> {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of partNames(zip, new RegExp(`^word/${kind}\\d*\\.xml$`))) {
    const xml = await readXml(zip, name);
    if (!xml) continue;
    const text = blocksOf(elements(xml)[0] ?? xml).join("\n\n");
    if (text && !seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  return out;
}

/**
 * mammoth drops non-breaking and soft hyphens (w:noBreakHyphen, w:softHyphen), gluing
 * "day-to-day" into "daytoday": rewrite them as a plain "-" (and nothing) first.
 */
async function withPlainHyphens(bytes: Uint8Array, zip: JSZip): Promise<Buffer> {
  const original = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const xml = await readText(zip, "word/document.xml");
  if (!xml || !/<w:(noBreakHyphen|softHyphen)\b/.test(xml)) return original;
  const fixed = xml.replace(/<w:noBreakHyphen\s*\/>/g, "<w:t>-</w:t>").replace(/<w:softHyphen\s*\/>/g, "");
  const copy = await JSZip.loadAsync(original);
  copy.file("word/document.xml", fixed);
  return copy.generateAsync({ type: "nodebuffer", compression: "STORE" });
}

/**
 * DOCX: the body through mammoth (HTML with headings, lists and tables, then
 * Markdown), plus the page headers and footers mammoth ignores, read from
 * word/header*.xml and word/footer*.xml (identical ones once): headers open
 * the text, footers close it. Images keep only their alt text. The title is
 * the document property dc:title, else the first heading.
 */
export async function extractDocx(bytes: Uint8Array, zip: JSZip): Promise<Extracted> {
  const result = await mammoth.convertToHtml(
    { buffer: await withPlainHyphens(bytes, zip) },
    { styleMap: STYLE_MAP, externalFileAccess: false, convertImage: mammoth.images.imgElement(async () => ({ src: "" })) },
  );
  const body = htmlToMarkdown(result.value);
  const [headers, footers] = await Promise.all([marginalia(zip, "header"), marginalia(zip, "footer")]);
  const text = tidy([...headers, body, ...footers].filter(Boolean).join("\n\n"));
  const title = cleanTitle(await coreTitle(zip)) ?? firstHeading(body);
  return { text, title, contentType: "docx" };
}
