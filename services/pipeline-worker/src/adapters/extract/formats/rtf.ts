import iconv from "iconv-lite";
import { UnprocessableDocumentError } from "../../../domain/errors";
import { cleanTitle, firstHeading, pipeTable, tidy } from "../normalize";
import type { Extracted } from "../types";

/*
 * RTF: a small reader of our own. The maintained-looking packages were tried:
 * @iarna/rtf-to-html (on rtf-parser, both unreleased since 2018) crashes the
 * process with an uncaught exception on a plain \f0 without a font table (the
 * fixture fake-doc.rtf) and drops tables. This reader tokenises control words,
 * skips non-text destinations (font/colour/style tables, pictures, field
 * instructions, {\*...} groups), decodes \'hh bytes in the document's code page
 * and \uN characters (honouring \ucN), and keeps structure: paragraphs,
 * headings (\outlinelevel or "heading N" styles), list items (\ls/\ilvl) and
 * tables (\intbl ... \cell ... \row) as pipe tables.
 */

const SKIP_DESTINATIONS = new Set([
  "fonttbl",
  "colortbl",
  "stylesheet",
  "info",
  "pict",
  "object",
  "themedata",
  "colorschememapping",
  "datastore",
  "latentstyles",
  "listtable",
  "listoverridetable",
  "rsidtbl",
  "xmlnstbl",
  "generator",
  "fldinst",
  "bkmkstart",
  "bkmkend",
  "listtext",
  "pntext",
  "pntxta",
  "pntxtb",
  "mmathPr",
  "wgrffmtfilter",
  "pgdsctbl",
  "filetbl",
  "revtbl",
  "userprops",
  "docvar",
  "xe",
  "tc",
  "nonshppict",
  "shppict",
  "blipuid",
  "passwordhash",
]);

const SYMBOLS: Record<string, string> = {
  emdash: "—",
  endash: "–",
  bullet: "•",
  lquote: "‘",
  rquote: "’",
  ldblquote: "“",
  rdblquote: "”",
  emspace: " ",
  enspace: " ",
  qmspace: " ",
  tab: "\t",
  line: "\n",
};

interface Group {
  skip: boolean;
  uc: number;
  /** Inside \stylesheet: collecting a style's name. */
  style?: boolean;
  /** Inside \info\title. */
  title?: boolean;
}

interface Paragraph {
  text: string;
  heading: number;
  list: number;
  inTable: boolean;
}

type Block = { kind: "p"; p: Paragraph } | { kind: "table"; rows: string[][] };

const CODE_PAGES: Record<number, string> = { 437: "cp437", 850: "cp850", 10000: "macintosh", 65001: "utf-8" };

export function extractRtf(bytes: Uint8Array): Extracted {
  const src = Buffer.from(bytes).toString("latin1");
  if (!src.trimStart().startsWith("{\\rtf")) throw new UnprocessableDocumentError("the file is not a valid RTF document (it does not start with {\\rtf)");
  let codepage = "windows-1252";
  const stack: Group[] = [];
  let group: Group = { skip: false, uc: 1 };
  const blocks: Block[] = [];
  const styles = new Map<number, string>();
  let styleNumber = -1;
  let styleName = "";
  let title = "";
  let para: Paragraph = { text: "", heading: 0, list: 0, inTable: false };
  let table: string[][] | undefined;
  let row: string[] = [];
  let cell = "";
  let bytesRun: number[] = [];
  let skipChars = 0;
  let paraStyle = -1;

  const flushBytes = () => {
    if (!bytesRun.length) return;
    const text = iconv.decode(Buffer.from(bytesRun), codepage);
    bytesRun = [];
    emit(text);
  };
  function emit(text: string) {
    if (group.style) styleName += text;
    else if (group.title) title += text;
    else if (!group.skip) para.text += text;
  }
  const closeTable = () => {
    if (table) {
      if (row.length) table.push(row);
      blocks.push({ kind: "table", rows: table });
    }
    table = undefined;
    row = [];
    cell = "";
  };
  const endParagraph = () => {
    flushBytes();
    const styleHeading = /heading\s*(\d)/i.exec(styles.get(paraStyle) ?? "")?.[1];
    const heading = para.heading || (styleHeading ? Number(styleHeading) : 0);
    if (para.inTable) {
      cell += (cell && para.text.trim() ? " " : "") + para.text.trim();
    } else {
      closeTable();
      if (para.text.trim()) blocks.push({ kind: "p", p: { ...para, heading } });
    }
    para = { text: "", heading: para.heading, list: para.list, inTable: para.inTable };
  };

  let i = src.indexOf("{");
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "{") {
      flushBytes();
      stack.push(group);
      group = { ...group };
      i++;
      continue;
    }
    if (ch === "}") {
      flushBytes();
      if (group.style && styleNumber >= 0) styles.set(styleNumber, styleName.replace(/;\s*$/, "").trim());
      group = stack.pop() ?? { skip: false, uc: 1 };
      i++;
      continue;
    }
    if (ch === "\r" || ch === "\n") {
      i++;
      continue;
    }
    if (ch !== "\\") {
      if (skipChars > 0) skipChars--;
      else {
        const code = ch.charCodeAt(0);
        if (code > 0x7f) bytesRun.push(code);
        else {
          flushBytes();
          emit(ch);
        }
      }
      i++;
      continue;
    }
    // A control word or symbol.
    const word = /^\\([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(src.slice(i, i + 48));
    if (!word) {
      const sym = src[i + 1] ?? "";
      if (sym === "'") {
        const hex = src.slice(i + 2, i + 4);
        i += 4;
        if (skipChars > 0) skipChars--;
        else bytesRun.push(parseInt(hex, 16) || 0x3f);
        continue;
      }
      i += 2;
      if (skipChars > 0) {
        skipChars--;
        continue;
      }
      if (sym === "*") Object.assign(group, { skip: true, style: undefined, title: false });
      else if (sym === "~") emit("\u00A0");
      else if (sym === "_") emit("-");
      else if (sym === "\\" || sym === "{" || sym === "}") emit(sym);
      else if (sym === "\n" || sym === "\r") endParagraph();
      continue;
    }
    i += word[0].length;
    const name = word[1]!;
    const param = word[2] === undefined ? undefined : Number(word[2]);
    if (name === "bin") {
      i += Math.max(0, param ?? 0);
      continue;
    }
    if (skipChars > 0 && name !== "u") {
      skipChars--;
      continue;
    }
    if (SKIP_DESTINATIONS.has(name)) {
      flushBytes();
      group.skip = true;
      group.title = false;
      // Inside the style sheet, style names are collected to find headings.
      group.style = name === "stylesheet" ? false : undefined;
      continue;
    }
    switch (name) {
      case "ansicpg":
        codepage = CODE_PAGES[param ?? 1252] ?? (iconv.encodingExists(`cp${param}`) ? `cp${param}` : "windows-1252");
        break;
      case "mac":
        codepage = "macintosh";
        break;
      case "title":
        title = "";
        group.title = true;
        group.skip = false;
        break;
      case "author":
      case "operator":
      case "company":
      case "subject":
      case "keywords":
      case "comment":
      case "doccomm":
      case "category":
      case "manager":
      case "hlinkbase":
        group.skip = true;
        break;
      case "s":
        if (group.style === false) {
          group.style = true;
          styleNumber = param ?? 0;
          styleName = "";
        } else paraStyle = param ?? 0;
        break;
      case "u": {
        flushBytes();
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        emit(String.fromCharCode(code));
        skipChars = group.uc;
        break;
      }
      case "uc":
        group.uc = param ?? 1;
        break;
      case "par":
      case "sect":
      case "page":
        endParagraph();
        break;
      case "pard":
        flushBytes();
        para.heading = 0;
        para.list = 0;
        para.inTable = false;
        paraStyle = -1;
        break;
      case "outlinelevel":
        para.heading = Math.min(6, (param ?? 0) + 1);
        break;
      case "ls":
        para.list = Math.max(para.list, 1);
        break;
      case "ilvl":
        para.list = (param ?? 0) + 1;
        break;
      case "intbl":
        para.inTable = true;
        break;
      case "cell":
      case "nestcell":
        if (para.text.trim() || !para.inTable) {
          para.inTable = true;
          endParagraph();
        }
        flushBytes();
        table ??= [];
        row.push(cell);
        cell = "";
        break;
      case "row":
      case "nestrow":
        flushBytes();
        table ??= [];
        if (row.length) table.push(row);
        row = [];
        break;
      default:
        if (SYMBOLS[name] !== undefined) {
          flushBytes();
          emit(SYMBOLS[name]);
        }
    }
  }
  flushBytes();
  if (para.text.trim()) endParagraph();
  closeTable();

  const parts: string[] = [];
  blocks.forEach((b, n) => {
    if (b.kind === "table") {
      parts.push(pipeTable(b.rows));
      return;
    }
    const text = b.p.text
      .replace(/[ \t]+/g, " ")
      .replace(/ *\n */g, "\n")
      .trim();
    const line = b.p.heading ? `${"#".repeat(b.p.heading)} ${text}` : b.p.list ? `${"  ".repeat(b.p.list - 1)}- ${text}` : text;
    const prev = blocks[n - 1];
    parts.push(prev?.kind === "p" && prev.p.list && b.p.list ? `\n${line}` : `\n\n${line}`);
  });
  const markdown = tidy(parts.map((p, n) => (n === 0 ? p.trimStart() : p.startsWith("\n") ? p : `\n\n${p}`)).join(""));
  const docTitle = cleanTitle(title) ?? firstHeading(markdown) ?? cleanTitle(markdown.split("\n")[0]);
  return { text: markdown, title: docTitle, contentType: "rtf" };
}
