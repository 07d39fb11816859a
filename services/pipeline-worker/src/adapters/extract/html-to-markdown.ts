import TurndownService from "turndown";
import { highlightedCodeBlock, strikethrough, taskListItems } from "turndown-plugin-gfm";
import { all, type DomDocument, type DomElement, type DomNode, parseDocument } from "./dom";
import { type Align, flattenCell, pipeTable, tidy } from "./normalize";

/*
 * HTML -> Markdown shared by HTML pages, DOCX (through mammoth), EPUB and
 * ODT-like sources: turndown with ATX headings, fenced code, "-" bullets,
 * GFM strikethrough / task lists / highlighted code (turndown-plugin-gfm) and
 * two rules of our own:
 * - lists: "- " / "N. " markers with continuation lines indented by the marker
 *   width, so nesting survives (turndown's default uses "-   ");
 * - tables: every table becomes a pipe table (the gfm plugin keeps tables
 *   without a header row as raw HTML). The first row is the header, colspan and
 *   rowspan leave empty cells, column alignment comes from align/text-align, a
 *   table of one column (a layout table) is unwrapped into its paragraphs.
 * Text is escaped only where it would start a heading or a code fence.
 */

// Private-use markers carry table structure from the cell/row rules to the table rule.
const CELL = "\uE000";
const CELL_END = "\uE001";
const ROW = "\uE002";
const ROW_END = "\uE003";
const ATTR_END = "\uE004";

// turndown types its nodes with the DOM lib (absent here); they are linkedom elements.
type El = DomElement;
const el = (n: unknown) => n as El;

function alignOf(node: El): Align {
  const raw = (node.getAttribute("align") || /text-align\s*:\s*(\w+)/i.exec(node.getAttribute("style") ?? "")?.[1] || "").toLowerCase();
  return raw === "center" || raw === "right" || raw === "left" ? raw : undefined;
}

function insideTableCell(node: El): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === "TD" || p.nodeName === "TH") return true;
  return false;
}

function insideTable(node: El): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === "TABLE") return true;
  return false;
}

interface Cell {
  text: string;
  colspan: number;
  rowspan: number;
  align: Align;
}

function parseRows(content: string): Cell[][] {
  const rows: Cell[][] = [];
  for (const rowMatch of content.matchAll(new RegExp(`${ROW}([\\s\\S]*?)${ROW_END}`, "g"))) {
    const cells: Cell[] = [];
    for (const m of rowMatch[1]!.matchAll(new RegExp(`${CELL}([^${ATTR_END}]*)${ATTR_END}([\\s\\S]*?)${CELL_END}`, "g"))) {
      const [colspan, rowspan, align] = m[1]!.split(",");
      cells.push({
        text: m[2]!.trim(),
        colspan: Math.max(1, Math.min(100, Number(colspan) || 1)),
        rowspan: Math.max(1, Math.min(1000, Number(rowspan) || 1)),
        align: (align || undefined) as Align,
      });
    }
    rows.push(cells);
  }
  return rows;
}

/** Places cells on a grid: spanned positions stay empty. */
function toGrid(rows: Cell[][]): { grid: string[][]; align: Align[]; raw: string[][] } {
  const grid: string[][] = [];
  const raw: string[][] = [];
  const align: Align[] = [];
  const taken = new Set<string>();
  rows.forEach((cells, r) => {
    grid[r] ??= [];
    raw[r] ??= [];
    let c = 0;
    for (const cell of cells) {
      while (taken.has(`${r},${c}`)) c++;
      const rowspan = Math.min(cell.rowspan, rows.length - r);
      for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < cell.colspan; dc++) taken.add(`${r + dr},${c + dc}`);
      grid[r]![c] = flattenCell(cell.text);
      raw[r]![c] = cell.text;
      if (align[c] === undefined && cell.align) align[c] = cell.align;
      c += cell.colspan;
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  return {
    grid: grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? "")),
    raw: raw.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? "")),
    align,
  };
}

function renderTable(content: string, node: El): string {
  // Content that is not in a row (stray text or blocks inside <table>) is kept before the table.
  const loose = content
    .split(new RegExp(`${ROW}[\\s\\S]*?${ROW_END}`, "g"))
    .map((s) => s.trim())
    .filter(Boolean)
    .join("\n\n");
  const prefix = loose && !insideTableCell(node) ? `\n\n${loose}\n\n` : loose ? `${loose} ` : "";
  const rows = parseRows(content).filter((r) => r.length);
  if (!rows.length) return prefix;
  const { grid, raw, align } = toGrid(rows);
  const nonEmpty = grid.filter((r) => r.some((c) => c));
  if (!nonEmpty.length) return prefix;
  const columns = grid[0]!.map((_, i) => i).filter((i) => grid.some((r) => r[i]));
  // One column (or one cell per row): a layout table; keep its content as blocks.
  if (columns.length <= 1 || grid.every((r) => r.filter((c) => c).length <= 1)) {
    const blocks = raw.flatMap((r) => r.filter((c) => c.trim()));
    return `${prefix}\n\n${blocks.join("\n\n")}\n\n`;
  }
  const caption = Array.from(node.children)
    .find((c) => c.nodeName === "CAPTION")
    ?.textContent?.trim();
  const table = pipeTable(
    grid.filter((r) => r.some((c) => c)),
    align,
  );
  if (insideTableCell(node)) return prefix + table;
  return `${prefix}\n\n${caption ? `${caption}\n\n` : ""}${table}\n\n`;
}

function cellMarker(content: string, node: El): string {
  const attrs = [node.getAttribute("colspan") ?? "1", node.getAttribute("rowspan") ?? "1", alignOf(node) ?? ""].join(",");
  return `${CELL}${attrs}${ATTR_END}${content}${CELL_END}`;
}

/**
 * Escapes only text that would become a heading or a code fence at the start
 * of a line (they change how the text is chunked). Words keep their
 * underscores and asterisks; a paragraph that starts with "- " may read as a
 * list item, which loses nothing.
 */
function escapeLineStarts(text: string): string {
  return text.replace(/^(\s*)(#{1,6}(?=\s)|`{3,}|~{3,})/gm, "$1\\$2");
}

function unwrapGoogleRedirect(href: string): string {
  const m = /^https?:\/\/(?:www\.)?google\.com\/url\?(.*)$/.exec(href);
  if (!m) return href;
  const q = new URLSearchParams(m[1]).get("q");
  return q || href;
}

export interface MarkdownOptions {
  /** Resolves relative links; without it relative links keep only their text. */
  baseUrl?: string;
}

function createService(opts: MarkdownOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
    strongDelimiter: "**",
    hr: "---",
    br: "\\",
    blankReplacement: (content, node) => {
      const n = el(node);
      if ((n.nodeName === "TD" || n.nodeName === "TH") && insideTable(n)) return cellMarker("", n);
      if (n.nodeName === "TR" && insideTable(n)) return `${ROW}${content}${ROW_END}`;
      return (node as unknown as { isBlock: boolean }).isBlock ? "\n\n" : "";
    },
  });
  service.escape = escapeLineStarts;
  service.use([strikethrough, taskListItems, highlightedCodeBlock]);
  service.remove(["script", "style", "noscript", "template", "iframe", "object", "embed", "canvas", "select", "button", "head", "title", "meta", "link"]);
  // The gfm plugin's strikethrough uses a single "~"; GFM proper uses "~~".
  service.addRule("strikethrough", { filter: ["del", "s", "strike"], replacement: (content) => (content.trim() ? `~~${content}~~` : "") });
  service.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      const n = el(node);
      const parent = n.parentNode;
      let prefix = "- ";
      if (parent?.nodeName === "OL") {
        const start = Number(parent.getAttribute("start") ?? "1") || 1;
        const index = Array.prototype.filter.call(parent.children, (c: El) => c.nodeName === "LI").indexOf(n);
        prefix = `${start + Math.max(0, index)}. `;
      }
      const body = content
        .replace(/^\n+/, "")
        .replace(/\n+$/, "\n")
        .replace(/\n(?=.)/g, `\n${" ".repeat(prefix.length)}`);
      return `${prefix}${body}${(node as unknown as { nextSibling: unknown }).nextSibling && !body.endsWith("\n") ? "\n" : ""}`;
    },
  });
  service.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (el(node).getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
      return alt ? ` ${alt} ` : "";
    },
  });
  service.addRule("link", {
    filter: (node) => node.nodeName === "A" && !!node.getAttribute("href"),
    replacement: (content, node) => {
      const text = content.trim();
      if (!text) return "";
      let href = unwrapGoogleRedirect(el(node).getAttribute("href") ?? "");
      if (opts.baseUrl && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("#")) {
        try {
          href = new URL(href, opts.baseUrl).toString();
        } catch {
          href = "";
        }
      }
      if (!/^(https?|mailto):/i.test(href)) return content;
      if (text === href || `mailto:${text}` === href) return `<${href}>`;
      return `[${text}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });
  // Cells and rows outside a table (left over by Readability, or broken markup) are plain blocks.
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content, node) => (insideTable(el(node)) ? cellMarker(content, el(node)) : `\n\n${content}\n\n`),
  });
  service.addRule("tableRow", { filter: "tr", replacement: (content, node) => (insideTable(el(node)) ? `${ROW}${content}${ROW_END}` : `\n\n${content}\n\n`) });
  service.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });
  service.addRule("tableCaption", { filter: "caption", replacement: () => "" });
  service.addRule("table", { filter: "table", replacement: (content, node) => renderTable(content, el(node)) });
  return service;
}

/** Lists nested directly in a list (<ul><li/><ul>...</ul></ul>, common in hand-written HTML) move into the item before them. */
function fixNestedLists(root: DomElement): void {
  for (const list of all(root.querySelectorAll("ul > ul, ul > ol, ol > ul, ol > ol"))) {
    let prev = list.previousElementSibling;
    while (prev && prev.nodeName !== "LI") prev = prev.previousElementSibling;
    if (prev) prev.appendChild(list);
  }
}

/** Readability turns a table that is a sibling of its top candidate into a <div>, leaving its rows orphaned: make it a table again. */
function repairTables(root: DomElement, doc: DomDocument): void {
  const rename = (e: DomElement, tag: string) => {
    const t = doc.createElement(tag);
    for (const name of ["colspan", "rowspan", "align", "style"]) if (e.hasAttribute(name)) t.setAttribute(name, e.getAttribute(name)!);
    while (e.firstChild) t.appendChild(e.firstChild);
    e.replaceWith(t);
  };
  const SECTIONS = ["TABLE", "THEAD", "TBODY", "TFOOT"];
  for (const e of all(root.querySelectorAll("*"))) {
    if (SECTIONS.includes(e.nodeName)) continue;
    const kids = all(e.children);
    if (e.nodeName !== "TR" && kids.some((k) => k.nodeName === "TD" || k.nodeName === "TH") && e.parentNode && SECTIONS.includes(e.parentNode.nodeName)) {
      rename(e, "tr");
      continue;
    }
    // Runs of rows among other content: each run becomes a table of its own.
    let table: DomElement | undefined;
    for (const k of kids) {
      if (k.nodeName === "TR" || k.nodeName === "TBODY" || k.nodeName === "THEAD" || k.nodeName === "TFOOT") {
        if (!table) {
          table = doc.createElement("table");
          e.insertBefore(table, k);
        }
        table.appendChild(k);
      } else table = undefined;
    }
  }
}

/** Non-breaking spaces become spaces (outside code) so that indentation made of them cannot turn text into a code block. */
function plainSpaces(node: DomNode): void {
  for (const c of all(node.childNodes)) {
    if (c.nodeType === 3) {
      if (c.textContent?.includes("\u00A0")) c.textContent = c.textContent.replace(/\u00A0/g, " ");
    } else if (c.nodeType === 1 && c.nodeName !== "PRE" && c.nodeName !== "CODE") plainSpaces(c);
  }
}

/** Removes what a reader never sees: hidden elements. */
function removeHidden(root: DomElement): void {
  for (const e of all(root.querySelectorAll("[hidden], [style]"))) {
    if (e.hasAttribute("hidden") || /display\s*:\s*none|visibility\s*:\s*hidden/i.test(e.getAttribute("style") ?? "")) e.remove();
  }
}

/** Hard line breaks ("\\" + newline) that end a block or sit in a heading are dropped. */
function cleanBreaks(markdown: string): string {
  return markdown
    .replace(/(\\\n[ \t]*){2,}/g, "\n\n")
    .replace(/^(#{1,6} .*?)\\\n(?!\n)/gm, "$1 ")
    .replace(/\\\n(?=[ \t]*(\n|$))/g, "\n")
    .replace(/^(#{1,6} )(.*)$/gm, (_m, hashes: string, text: string) => hashes + text.replace(/\*\*|__/g, "").trim())
    .replace(/^[ \t]*\\[ \t]*$/gm, "")
    .replace(/\\$/g, "");
}

/** Converts an HTML string or a DOM element (linkedom) to clean Markdown. */
export function htmlToMarkdown(html: string | DomElement, opts: MarkdownOptions = {}): string {
  const root = typeof html === "string" ? parseDocument(html).body : html.cloneNode(true);
  if (!root) return "";
  const doc = root.ownerDocument;
  repairTables(root, doc);
  fixNestedLists(root);
  removeHidden(root);
  plainSpaces(root);
  const service = createService(opts);
  const markdown = service.turndown(root as unknown as TurndownService.Node);
  return tidy(cleanBreaks(markdown.replace(/\uE000[^\uE004]*\uE004/g, "").replace(/[\uE000-\uE004]/g, " ")));
}
