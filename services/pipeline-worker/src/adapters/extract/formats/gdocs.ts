import { all, type DomDocument, type DomElement } from "../dom";

/*
 * Google Docs "Download as HTML" exports (body class "doc-content") carry
 * their structure in generated CSS classes: bold/italic/strike-through spans,
 * paragraph alignment, and lists that are flat <ul>/<ol> siblings whose
 * nesting level is the suffix of a "lst-kix_<id>-<level>" class. This turns
 * them into plain semantic HTML before the shared Markdown conversion.
 */

interface Style {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  mono?: boolean;
  align?: "left" | "center" | "right";
}

export function isGoogleDocsExport(doc: DomDocument): boolean {
  return /(^|\s)doc-content(\s|$)/.test(doc.body?.className ?? "");
}

function classStyles(doc: DomDocument): Map<string, Style> {
  const css = all(doc.querySelectorAll("style"))
    .map((s) => s.textContent ?? "")
    .join("\n");
  const styles = new Map<string, Style>();
  for (const m of css.matchAll(/(^|[}\s,])\.([\w-]+)\s*\{([^}]*)\}/g)) {
    const decl = m[3]!;
    const s: Style = {};
    const weight = /font-weight\s*:\s*(\w+)/.exec(decl)?.[1];
    if (weight && (weight === "bold" || Number(weight) >= 600)) s.bold = true;
    if (/font-style\s*:\s*italic/.test(decl)) s.italic = true;
    if (/text-decoration[^;]*line-through/.test(decl)) s.strike = true;
    if (/font-family\s*:[^;]*(courier|consolas|mono)/i.test(decl)) s.mono = true;
    const align = /text-align\s*:\s*(left|center|right)/.exec(decl)?.[1];
    if (align) s.align = align as Style["align"];
    styles.set(m[2]!, { ...styles.get(m[2]!), ...s });
  }
  return styles;
}

function styleOf(el: DomElement, styles: Map<string, Style>): Style {
  const out: Style = {};
  for (const c of (el.getAttribute("class") ?? "").split(/\s+/)) Object.assign(out, styles.get(c));
  return out;
}

/** Wraps an element's children in a new inline element (e.g. <strong>). */
function wrapChildren(doc: DomDocument, el: DomElement, tag: string): void {
  const wrapper = doc.createElement(tag);
  while (el.firstChild) wrapper.appendChild(el.firstChild);
  el.appendChild(wrapper);
}

const LIST_CLASS = /lst-kix_([\w]+)-(\d+)/;

/** Rebuilds nested lists from Google's flat sibling lists (one per nesting level). */
function nestLists(doc: DomDocument): void {
  const body = doc.body;
  if (!body) return;
  let stack: { level: number; list: DomElement }[] = [];
  for (const node of all(body.children)) {
    const m = node.nodeName === "UL" || node.nodeName === "OL" ? LIST_CLASS.exec(node.getAttribute("class") ?? "") : null;
    if (!m) {
      stack = [];
      continue;
    }
    const level = Number(m[2]);
    while (stack.length && stack[stack.length - 1]!.level > level) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.level === level) {
      if (top.list.nodeName === node.nodeName) {
        // The same list continued after deeper items: move the items over.
        for (const li of all(node.children)) top.list.appendChild(li);
        node.remove();
        continue;
      }
      stack.pop();
      top = stack[stack.length - 1];
    }
    if (top && top.level < level) {
      const items = all(top.list.children).filter((c) => c.nodeName === "LI");
      const parentItem = items[items.length - 1];
      if (parentItem) {
        parentItem.appendChild(node);
        stack.push({ level, list: node });
      } else stack = [{ level, list: node }];
    } else {
      stack = [{ level, list: node }];
    }
  }
}

/** Prepares a Google Docs export for Markdown conversion (in place). */
export function prepareGoogleDoc(doc: DomDocument): void {
  const styles = classStyles(doc);
  const body = doc.body;
  if (!body) return;
  // Comment anchors and the comment threads at the end.
  for (const a of all(body.querySelectorAll('a[href^="#cmnt"]'))) (a.parentNode?.nodeName === "SUP" ? a.parentNode : a).remove();
  for (const a of all(body.querySelectorAll('a[id^="cmnt"]'))) {
    let block: DomElement | null = a;
    while (block && block.parentNode && block.parentNode !== body) block = block.parentNode;
    block?.remove();
  }
  for (const span of all(body.querySelectorAll("span"))) {
    const s = styleOf(span, styles);
    if (!span.textContent?.trim()) continue;
    if (s.mono) wrapChildren(doc, span, "code");
    if (s.bold) wrapChildren(doc, span, "strong");
    if (s.italic) wrapChildren(doc, span, "em");
    if (s.strike) wrapChildren(doc, span, "del");
  }
  for (const li of all(body.querySelectorAll("li"))) if (styleOf(li, styles).strike) wrapChildren(doc, li, "del");
  for (const p of all(body.querySelectorAll("p"))) {
    const cls = p.getAttribute("class") ?? "";
    if (/(^|\s)title(\s|$)/.test(cls)) {
      const h = doc.createElement("h1");
      while (p.firstChild) h.appendChild(p.firstChild);
      p.replaceWith(h);
      continue;
    }
    const align = styleOf(p, styles).align;
    const cell = p.parentNode;
    if (align && align !== "left" && cell && (cell.nodeName === "TD" || cell.nodeName === "TH") && !cell.getAttribute("align"))
      cell.setAttribute("align", align);
  }
  nestLists(doc);
}
