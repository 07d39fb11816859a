import { parseHTML } from "linkedom";

/*
 * The few DOM members the extractors use, typed here because the project
 * compiles without the DOM lib. The implementation is linkedom (pinned to
 * 0.18.14: 0.18.15 depends on a package missing from the registry).
 */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  parentNode: DomElement | null;
  childNodes: ArrayLike<DomNode>;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  textContent: string | null;
  remove(): void;
}

export interface DomElement extends DomNode {
  tagName: string;
  id: string;
  className: string;
  innerHTML: string;
  outerHTML: string;
  children: ArrayLike<DomElement>;
  previousElementSibling: DomElement | null;
  ownerDocument: DomDocument;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  appendChild<T extends DomNode>(node: T): T;
  insertBefore<T extends DomNode>(node: T, ref: DomNode | null): T;
  replaceWith(...nodes: DomNode[]): void;
  cloneNode(deep: boolean): DomElement;
}

export interface DomDocument {
  documentElement: DomElement;
  head: DomElement | null;
  body: DomElement | null;
  title: string;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  createElement(tag: string): DomElement;
}

/** Parses an HTML (or XHTML) document. */
export function parseDocument(html: string): DomDocument {
  // linkedom needs a root element to build a full document around a fragment.
  const source = /<html[\s>]/i.test(html.slice(0, 4096)) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(source).document as unknown as DomDocument;
}

export const all = <T>(list: ArrayLike<T>): T[] => Array.from(list);

const textLength = (el: DomElement | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim().length;

/**
 * The element holding the page's content: <body>, unless the markup confused
 * the parser (content before <head>, several bodies), then the largest body
 * or the whole document without its <head>.
 */
export function contentRoot(doc: DomDocument): DomElement {
  const root = doc.documentElement;
  const best = all(doc.querySelectorAll("body")).sort((a, b) => textLength(b) - textLength(a))[0];
  if (best && textLength(best) >= 0.5 * textLength(root)) return best;
  for (const el of all(root.querySelectorAll("head, script, style, title, noscript, template"))) el.remove();
  return best && textLength(best) >= 0.5 * textLength(root) ? best : root;
}
