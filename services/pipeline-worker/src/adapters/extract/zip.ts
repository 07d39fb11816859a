import type JSZip from "jszip";
import { UnprocessableDocumentError } from "../../domain/errors";
import { child, first, parseXml, textContent, type XNode } from "./xml";

/** Largest uncompressed part read from an archive (guards against ZIP bombs). */
const MAX_PART_BYTES = 200 * 1024 * 1024;

function uncompressedSize(file: JSZip.JSZipObject): number | undefined {
  // JSZip keeps the central directory's sizes on a private field.
  return (file as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize;
}

/** A part of the archive as text, or undefined when it does not exist. */
export async function readText(zip: JSZip, path: string): Promise<string | undefined> {
  const file = zip.file(path);
  if (!file) return undefined;
  if ((uncompressedSize(file) ?? 0) > MAX_PART_BYTES)
    throw new UnprocessableDocumentError(`the document is too large to extract (part ${path} exceeds ${MAX_PART_BYTES / 1024 / 1024} MB uncompressed)`);
  return file.async("string");
}

export async function readXml(zip: JSZip, path: string): Promise<XNode | undefined> {
  const text = await readText(zip, path);
  return text === undefined ? undefined : parseXml(text);
}

/** Resolves a relative part name against the folder of `from` ("ppt/slides/slide1.xml" + "../media/x.png"). */
export function resolvePart(from: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = from.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== "." && seg !== "") parts.push(seg);
  }
  return parts.join("/");
}

export interface Relationship {
  target: string;
  type: string;
  external: boolean;
}

/** The relationships of a part (its _rels/<name>.rels), by id, with targets resolved to part names. */
export async function relationships(zip: JSZip, part: string): Promise<Map<string, Relationship>> {
  const slash = part.lastIndexOf("/");
  const relsPath = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const xml = await readXml(zip, relsPath);
  const out = new Map<string, Relationship>();
  const root = child(xml, "Relationships");
  for (const r of root?.children ?? []) {
    if (typeof r === "string" || r.name !== "Relationship") continue;
    const external = r.attrs.TargetMode === "External";
    const target = r.attrs.Target ?? "";
    out.set(r.attrs.Id ?? "", { target: external ? target : resolvePart(part, target), type: r.attrs.Type ?? "", external });
  }
  return out;
}

/** dc:title of an OOXML package (docProps/core.xml). */
export async function coreTitle(zip: JSZip): Promise<string | undefined> {
  const xml = await readXml(zip, "docProps/core.xml").catch(() => undefined);
  const t = textContent(first(xml, "dc:title")).trim();
  // Template defaults are not titles.
  if (!t || /^(slide \d+|powerpoint presentation|presentation\d*|document\d*|book\d*|untitled|title)$/i.test(t)) return undefined;
  return t;
}

/** Part names matching a pattern, in natural order (slide2 before slide10). */
export function partNames(zip: JSZip, pattern: RegExp): string[] {
  return Object.keys(zip.files)
    .filter((n) => pattern.test(n))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}
