import { XMLParser } from "fast-xml-parser";

/** A parsed XML element in document order (names keep their prefix, e.g. "w:p"). */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XChild[];
}
export type XChild = XNode | string;

type Ordered = Record<string, unknown> & { ":@"?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});

function convert(items: Ordered[]): XChild[] {
  const out: XChild[] = [];
  for (const item of items) {
    for (const key of Object.keys(item)) {
      if (key === ":@") continue;
      const value = item[key];
      if (key === "#text") out.push(String(value));
      else out.push({ name: key, attrs: item[":@"] ?? {}, children: Array.isArray(value) ? convert(value as Ordered[]) : [] });
    }
  }
  return out;
}

/** Parses XML into an ordered tree; returns a synthetic root holding the top-level nodes. */
export function parseXml(xml: string): XNode {
  return { name: "#root", attrs: {}, children: convert(parser.parse(xml) as Ordered[]) };
}

export const isNode = (c: XChild | undefined): c is XNode => typeof c === "object";

export function elements(node: XNode, name?: string): XNode[] {
  return node.children.filter((c): c is XNode => isNode(c) && (name === undefined || c.name === name));
}

export function child(node: XNode | undefined, name: string): XNode | undefined {
  return node?.children.find((c): c is XNode => isNode(c) && c.name === name);
}

/** Depth-first search for descendants named `name` (not descending into matches unless `nested`). */
export function descendants(node: XNode, name: string, nested = false): XNode[] {
  const out: XNode[] = [];
  const walk = (n: XNode) => {
    for (const c of n.children) {
      if (!isNode(c)) continue;
      if (c.name === name) {
        out.push(c);
        if (!nested) continue;
      }
      walk(c);
    }
  };
  walk(node);
  return out;
}

export function first(node: XNode | undefined, name: string): XNode | undefined {
  if (!node) return undefined;
  for (const c of node.children) {
    if (!isNode(c)) continue;
    if (c.name === name) return c;
    const found = first(c, name);
    if (found) return found;
  }
  return undefined;
}

/** Concatenated text of all text nodes below `node`. */
export function textContent(node: XNode | undefined): string {
  if (!node) return "";
  return node.children.map((c) => (isNode(c) ? textContent(c) : c)).join("");
}
