import type JSZip from "jszip";
import { UnprocessableDocumentError } from "../../../domain/errors";
import { parseDocument } from "../dom";
import { htmlToMarkdown } from "../html-to-markdown";
import { cleanTitle, tidy } from "../normalize";
import { descendants, first, textContent } from "../xml";
import { readText, readXml, resolvePart } from "../zip";
import type { Extracted } from "../types";

const INVALID = "the file is not a valid EPUB book (META-INF/container.xml or its package document is missing)";

/**
 * EPUB with JSZip: META-INF/container.xml names the package (OPF); its spine
 * gives the reading order of the XHTML chapters, each converted to Markdown
 * with the shared HTML converter. The title is the package's dc:title.
 */
export async function extractEpub(zip: JSZip): Promise<Extracted> {
  const container = await readXml(zip, "META-INF/container.xml");
  const opfPath = container ? first(container, "rootfile")?.attrs["full-path"] : undefined;
  const opf = opfPath ? await readXml(zip, opfPath) : undefined;
  if (!opfPath || !opf) throw new UnprocessableDocumentError(INVALID);
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of descendants(opf, "item").concat(descendants(opf, "opf:item"))) {
    manifest.set(item.attrs.id ?? "", { href: item.attrs.href ?? "", type: item.attrs["media-type"] ?? "" });
  }
  const spine = descendants(opf, "itemref").concat(descendants(opf, "opf:itemref"));
  const chapters: string[] = [];
  for (const ref of spine) {
    const item = manifest.get(ref.attrs.idref ?? "");
    if (!item || !/html|xml/.test(item.type)) continue;
    const path = resolvePart(opfPath, decodeURIComponent(item.href.split("#")[0]!));
    const html = await readText(zip, path);
    if (!html) continue;
    const doc = parseDocument(html);
    const markdown = doc.body ? htmlToMarkdown(doc.body) : "";
    if (markdown.trim()) chapters.push(markdown);
  }
  const title = cleanTitle(textContent(first(opf, "dc:title")));
  const text = tidy(chapters.join("\n\n"));
  return { text, title, contentType: "epub" };
}
