import type JSZip from "jszip";
import { cleanTitle, pipeTable, tidy } from "../normalize";
import { child, descendants, first, isNode, type XNode } from "../xml";
import { coreTitle, partNames, readXml, relationships } from "../zip";
import type { Extracted } from "../types";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

interface Block {
  text: string;
  title?: boolean;
  /** Bullet lines join with single newlines. */
  list?: boolean;
}

/** Text of a run container: runs, fields and line breaks of one paragraph. */
function paragraphText(p: XNode): string {
  let s = "";
  for (const c of p.children) {
    if (!isNode(c)) continue;
    if (c.name === "a:r" || c.name === "a:fld") s += descendants(c, "a:t").map(textOf).join("");
    else if (c.name === "a:br") s += " ";
  }
  return s.replace(/\s+/g, " ").trim();
}

const textOf = (n: XNode): string => n.children.map((c) => (isNode(c) ? textOf(c) : c)).join("");

/** Paragraphs of a text body; bullets come from a:buChar/a:buAutoNum, or by default in content placeholders. */
function textBody(body: XNode, bulletsByDefault: boolean): Block[] {
  const blocks: Block[] = [];
  const counters: number[] = [];
  for (const p of descendants(body, "a:p")) {
    const text = paragraphText(p);
    if (!text) continue;
    const pPr = child(p, "a:pPr");
    const level = Math.min(8, Number(pPr?.attrs.lvl ?? 0) || 0);
    const none = !!child(pPr, "a:buNone");
    const numbered = !!child(pPr, "a:buAutoNum");
    const bullet = !none && (numbered || !!child(pPr, "a:buChar") || !!child(pPr, "a:buBlip") || bulletsByDefault);
    counters.length = level + 1;
    if (!bullet) {
      blocks.push({ text });
      continue;
    }
    counters[level] = (counters[level] ?? 0) + 1;
    const marker = numbered ? `${counters[level]}. ` : "- ";
    blocks.push({ text: `${"  ".repeat(level)}${marker}${text}`, list: true });
  }
  return blocks;
}

function table(tbl: XNode): Block | undefined {
  const rows = descendants(tbl, "a:tr").map((tr) =>
    descendants(tr, "a:tc").map((tc) =>
      tc.attrs.hMerge === "1" || tc.attrs.vMerge === "1" ? "" : descendants(tc, "a:p").map(paragraphText).filter(Boolean).join(" "),
    ),
  );
  const text = pipeTable(rows);
  return text ? { text } : undefined;
}

async function diagramText(zip: JSZip, rels: Awaited<ReturnType<typeof relationships>>, frame: XNode): Promise<Block[]> {
  const ids = first(frame, "dgm:relIds");
  const data = ids ? rels.get(ids.attrs["r:dm"] ?? "") : undefined;
  const xml = data && !data.external ? await readXml(zip, data.target) : undefined;
  if (!xml) return [];
  return descendants(xml, "dgm:pt")
    .map((pt) => {
      const t = child(pt, "dgm:t");
      return t ? descendants(t, "a:p").map(paragraphText).filter(Boolean).join(" ") : "";
    })
    .filter(Boolean)
    .map((text) => ({ text: `- ${text}`, list: true }));
}

async function chartText(zip: JSZip, rels: Awaited<ReturnType<typeof relationships>>, frame: XNode): Promise<Block[]> {
  const ref = first(frame, "c:chart");
  const part = ref ? rels.get(ref.attrs["r:id"] ?? "") : undefined;
  const xml = part && !part.external ? await readXml(zip, part.target) : undefined;
  const title = first(xml, "c:title");
  const text = title ? descendants(title, "a:p").map(paragraphText).filter(Boolean).join(" ") : "";
  return text ? [{ text: `Chart: ${text}` }] : [];
}

/** Shapes of a shape tree in document order: text boxes, placeholders, tables, groups, diagrams, charts. */
async function shapes(zip: JSZip, rels: Awaited<ReturnType<typeof relationships>>, tree: XNode, notes = false): Promise<Block[]> {
  const out: Block[] = [];
  for (const c of tree.children) {
    if (!isNode(c)) continue;
    if (c.name === "p:sp") {
      const ph = first(child(c, "p:nvSpPr"), "p:ph");
      const type = ph?.attrs.type;
      if (type === "sldNum" || type === "dt" || type === "ftr" || type === "sldImg") continue;
      const body = child(c, "p:txBody");
      if (!body) continue;
      const isTitle = type === "title" || type === "ctrTitle";
      const contentPlaceholder = !notes && !!ph && !isTitle && (type === undefined || type === "body" || type === "obj");
      const blocks = textBody(body, contentPlaceholder);
      if (isTitle && blocks.length) out.push({ text: blocks.map((b) => b.text).join(" "), title: true });
      else out.push(...blocks);
    } else if (c.name === "p:grpSp") {
      out.push(...(await shapes(zip, rels, c, notes)));
    } else if (c.name === "p:graphicFrame") {
      const tbl = first(c, "a:tbl");
      if (tbl) {
        const t = table(tbl);
        if (t) out.push(t);
      } else if (first(c, "dgm:relIds")) out.push(...(await diagramText(zip, rels, c)));
      else if (first(c, "c:chart")) out.push(...(await chartText(zip, rels, c)));
    } else if (c.name === "mc:AlternateContent") {
      const choice = child(c, "mc:Choice");
      if (choice) out.push(...(await shapes(zip, rels, choice, notes)));
    }
  }
  return out;
}

function render(blocks: Block[]): string {
  let s = "";
  blocks.forEach((b, i) => {
    if (i > 0) s += b.list && blocks[i - 1]!.list ? "\n" : "\n\n";
    s += b.text;
  });
  return s;
}

async function slideOrder(zip: JSZip): Promise<string[]> {
  const pres = await readXml(zip, "ppt/presentation.xml");
  const rels = await relationships(zip, "ppt/presentation.xml");
  const ordered = (pres ? descendants(pres, "p:sldId") : [])
    .map((s) => rels.get(s.attrs["r:id"] ?? "")?.target)
    .filter((t): t is string => !!t && !!zip.file(t));
  return ordered.length ? ordered : partNames(zip, /^ppt\/slides\/slide\d+\.xml$/);
}

/**
 * PPTX with JSZip + XML (no office suite): slides in presentation order, each
 * as "## Slide N: <title>" followed by its text boxes (bullets nested by
 * level), tables as pipe tables, SmartArt text and chart titles, then the
 * speaker notes. The title is dc:title, else the first slide's title.
 */
export async function extractPptx(zip: JSZip): Promise<Extracted> {
  const slides = await slideOrder(zip);
  const sections: string[] = [];
  let firstTitle: string | undefined;
  for (const [i, part] of slides.entries()) {
    const xml = await readXml(zip, part);
    const tree = xml && first(xml, "p:spTree");
    const rels = await relationships(zip, part);
    const blocks = tree ? await shapes(zip, rels, tree) : [];
    const titleBlock = blocks.find((b) => b.title);
    firstTitle ??= titleBlock?.text;
    const body = render(blocks.filter((b) => b !== titleBlock));
    let notes = "";
    const notesPart = [...rels.values()].find((r) => r.type === `${REL}notesSlide` && !r.external);
    const notesXml = notesPart ? await readXml(zip, notesPart.target) : undefined;
    const notesTree = notesXml && first(notesXml, "p:spTree");
    if (notesTree) notes = render((await shapes(zip, new Map(), notesTree, true)).filter((b) => !b.title));
    const heading = `## Slide ${i + 1}${titleBlock ? `: ${titleBlock.text}` : ""}`;
    sections.push([heading, body, notes ? `Notes: ${notes}` : ""].filter(Boolean).join("\n\n"));
  }
  const title = cleanTitle(await coreTitle(zip)) ?? cleanTitle(firstTitle);
  return { text: tidy(sections.join("\n\n")), title, contentType: "pptx", pages: slides.length };
}
