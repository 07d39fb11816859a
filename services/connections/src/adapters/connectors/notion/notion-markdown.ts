import type { BlockObjectResponse, PageObjectResponse, RichTextItemResponse } from "@notionhq/client";
import type { ItemMetadata } from "../../../app/sync-ports";

/**
 * Notion → Markdown: a page's block tree (blocks fetched with their nested
 * children) as Markdown, rich text with its annotations and links, and a
 * page's properties as flat metadata and as a `Property: value` header.
 * Pure: the blocks are fetched by the connector.
 *
 * Written by hand rather than with `notion-to-md` (3.1.9, the latest stable
 * release; 4.x is alpha). Checked offline against the fake Notion with
 * client v5: it does read v5 block responses (the blocks API did not change
 * with the data-source version), but it fetches children itself through the
 * client it is given (its own pagination and recursion, so a 404 of an
 * unshared page or a 401 in the middle of a page is its failure, not an
 * item this connector can delete or a token it can refresh), it renders
 * child pages inline as `## Title` with their whole content by default (here
 * a child page is its own document: the parent would index it twice), it
 * puts link markers around the text's white space (`[ now](…)`), and it is
 * not a dependency of this service (adding it needs a shared package.json
 * change and an install, with node-fetch@2 and markdown-table). The
 * conversion is a switch over the block types, small enough to own and
 * tested against the client's v5 response shapes.
 *
 * Rendering choices: toggles are list items with their content nested
 * (plain Markdown, no <details>); callouts and quotes are block quotes;
 * tables are GFM tables (the first row is the header, as Markdown needs
 * one); images and files are links (Notion-hosted file URLs are signed and
 * expire after an hour: the link is a pointer, the text is what is
 * indexed); child pages, child databases and links to pages are links to
 * notion.so; breadcrumbs, tables of contents and unsupported blocks are left
 * out.
 */

/** A block and, when it has some, its children (fetched). */
export interface BlockNode {
  block: BlockObjectResponse;
  children: BlockNode[];
}

type Content = Record<string, unknown>;

/** A Notion id as a notion.so link (Notion resolves any object id there). */
export const notionUrl = (id: string) => `https://www.notion.so/${id.replace(/-/g, "")}`;

const contentOf = (b: BlockObjectResponse): Content => ((b as unknown as Record<string, unknown>)[b.type] ?? {}) as Content;
const richOf = (c: Content, key = "rich_text"): RichTextItemResponse[] => (Array.isArray(c[key]) ? (c[key] as RichTextItemResponse[]) : []);

/** Wraps text in a marker, keeping the surrounding white space outside it (`** x**` is not bold). */
function mark(text: string, open: string, close = open): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return m[2] ? `${m[1]}${open}${m[2]}${close}${m[3]}` : text;
}

/** Rich text as inline Markdown: code, bold, italic, strikethrough, links; equations as $…$. */
export function richTextToMarkdown(items: readonly RichTextItemResponse[]): string {
  return items
    .map((t) => {
      if (t.type === "equation") return `$${t.equation.expression}$`;
      let s = t.plain_text;
      if (!s) return "";
      const a = t.annotations;
      if (a.code) s = mark(s, "`");
      if (a.bold) s = mark(s, "**");
      if (a.italic) s = mark(s, "_");
      if (a.strikethrough) s = mark(s, "~~");
      if (t.href) s = mark(s, "[", `](${t.href})`);
      return s;
    })
    .join("");
}

export const plainText = (items: readonly RichTextItemResponse[]) => items.map((t) => t.plain_text).join("");

/** The URL of a file object (Notion-hosted or external). */
function fileUrl(c: Content): string | undefined {
  const f = c[c.type as string] as { url?: unknown } | undefined;
  return typeof f?.url === "string" ? f.url : undefined;
}

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((l) => (l ? prefix + l : l))
    .join("\n");

/** The blocks as Markdown, one block after another (list items of a run stay together). */
export function blocksToMarkdown(nodes: readonly BlockNode[]): string {
  const out: string[] = [];
  let number = 0;
  let previousList = false;
  for (const node of nodes) {
    const type = node.block.type;
    number = type === "numbered_list_item" ? number + 1 : 0;
    const md = blockToMarkdown(node, number);
    if (md === undefined || md === "") continue;
    const isList = type === "bulleted_list_item" || type === "numbered_list_item" || type === "to_do" || type === "toggle";
    // Items of one list are separated by a line break only, anything else by a blank line.
    if (out.length) out.push(isList && previousList ? "\n" : "\n\n");
    out.push(md);
    previousList = isList;
  }
  return out.join("");
}

function blockToMarkdown(node: BlockNode, number: number): string | undefined {
  const b = node.block;
  const c = contentOf(b);
  const text = richTextToMarkdown(richOf(c));
  const children = node.children.length ? blocksToMarkdown(node.children) : "";
  const nested = (prefix: string) => (children ? `\n${indent(children, prefix)}` : "");
  const after = children ? `\n\n${children}` : "";
  switch (b.type) {
    case "paragraph":
      return text + (children ? `\n\n${indent(children, "  ")}` : "");
    case "heading_1":
    case "heading_2":
    case "heading_3":
    case "heading_4": {
      const level = Number(b.type.slice(-1));
      return `${"#".repeat(level)} ${text}${after}`;
    }
    case "bulleted_list_item":
      return `- ${text}${nested("  ")}`;
    case "numbered_list_item":
      return `${number}. ${text}${nested("   ")}`;
    case "to_do":
      return `- [${c.checked === true ? "x" : " "}] ${text}${nested("  ")}`;
    case "toggle":
      return `- ${text}${nested("  ")}`;
    case "quote":
      return indent(`${text}${after}`, "> ").replace(/^$/gm, ">");
    case "callout": {
      const icon = c.icon as { type?: string; emoji?: string } | null | undefined;
      const emoji = icon?.type === "emoji" && icon.emoji ? `${icon.emoji} ` : "";
      return indent(`${emoji}${text}${after}`, "> ").replace(/^$/gm, ">");
    }
    case "code": {
      const code = plainText(richOf(c));
      const fence = code.includes("```") ? "~~~~" : "```";
      const language = typeof c.language === "string" && c.language !== "plain text" ? c.language.replace(/\s+/g, "-") : "";
      return `${fence}${language}\n${code}\n${fence}`;
    }
    case "equation":
      return `$$\n${String(c.expression ?? "")}\n$$`;
    case "divider":
      return "---";
    case "table":
      return tableToMarkdown(node, c.has_column_header === true);
    case "image": {
      const url = fileUrl(c);
      const caption = plainText(richOf(c, "caption")) || "image";
      return url ? `![${caption}](${url})` : undefined;
    }
    case "file":
    case "pdf":
    case "video":
    case "audio": {
      const url = fileUrl(c);
      const name = plainText(richOf(c, "caption")) || (typeof c.name === "string" && c.name) || b.type;
      return url ? `[${name}](${url})` : undefined;
    }
    case "bookmark":
    case "embed":
    case "link_preview": {
      const url = typeof c.url === "string" ? c.url : undefined;
      const caption = plainText(richOf(c, "caption"));
      return url ? `[${caption || url}](${url})` : undefined;
    }
    case "child_page":
      return `[${String(c.title ?? "") || "Untitled"}](${notionUrl(b.id)})`;
    case "child_database":
      return `[${String(c.title ?? "") || "Untitled database"}](${notionUrl(b.id)})`;
    case "link_to_page": {
      const id = (c.page_id ?? c.database_id) as string | undefined;
      return id ? `[Linked page](${notionUrl(id)})` : undefined;
    }
    case "column_list":
    case "column":
    case "synced_block":
    case "template":
    case "tab":
      return children;
    default:
      // breadcrumb, table_of_contents, meeting notes, unsupported: nothing to index.
      return children || undefined;
  }
}

function tableToMarkdown(node: BlockNode, _hasHeader: boolean): string | undefined {
  const rows = node.children
    .filter((r) => r.block.type === "table_row")
    .map((r) => ((contentOf(r.block).cells as RichTextItemResponse[][] | undefined) ?? []).map((cell) => cellText(cell)));
  if (!rows.length) return undefined;
  const width = Math.max(...rows.map((r) => r.length), 1);
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  const [head, ...body] = rows;
  return [line(head!), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}

const cellText = (cell: readonly RichTextItemResponse[]) => richTextToMarkdown(cell).replace(/\|/g, "\\|").replace(/\n/g, "<br>");

// ---------------------------------------------------------------------------
// Page properties
// ---------------------------------------------------------------------------

type PropertyValue = PageObjectResponse["properties"][string];

/** The page's title (its title property), or "Untitled". */
export function pageTitle(page: Pick<PageObjectResponse, "properties">): string {
  for (const p of Object.values(page.properties)) if (p.type === "title") return plainText(p.title).trim() || "Untitled";
  return "Untitled";
}

const userName = (u: unknown): string | undefined => {
  const o = u as { name?: unknown; person?: { email?: unknown }; id?: unknown } | null;
  if (!o) return undefined;
  if (typeof o.name === "string" && o.name) return o.name;
  if (typeof o.person?.email === "string") return o.person.email;
  return typeof o.id === "string" ? o.id : undefined;
};

/** One property value as a flat metadata value; undefined when it is empty or has no flat form. */
export function propertyValue(p: PropertyValue): string | number | boolean | undefined {
  const str = (s: string | null | undefined) => (s ? s : undefined);
  switch (p.type) {
    case "title":
      return str(plainText(p.title).trim());
    case "rich_text":
      return str(plainText(p.rich_text).trim());
    case "number":
      return typeof p.number === "number" && Number.isFinite(p.number) ? p.number : undefined;
    case "select":
      return str(p.select?.name);
    case "status":
      return str(p.status?.name);
    case "multi_select":
      return str(p.multi_select.map((o) => o.name).join(", "));
    case "checkbox":
      return p.checkbox;
    case "date":
      return str(p.date?.start);
    case "people":
      return str(
        p.people
          .map(userName)
          .filter((n): n is string => !!n)
          .join(", "),
      );
    case "url":
      return str(p.url);
    case "email":
      return str(p.email);
    case "phone_number":
      return str(p.phone_number);
    case "relation":
      return p.relation.length;
    case "files":
      return str(p.files.map((f) => f.name).join(", "));
    case "created_time":
      return str(p.created_time);
    case "last_edited_time":
      return str(p.last_edited_time);
    case "created_by":
      return userName(p.created_by);
    case "last_edited_by":
      return userName(p.last_edited_by);
    case "unique_id":
      return p.unique_id.number === null ? undefined : `${p.unique_id.prefix ? `${p.unique_id.prefix}-` : ""}${p.unique_id.number}`;
    case "formula": {
      const f = p.formula as { type: string; string?: string | null; number?: number | null; boolean?: boolean | null; date?: { start: string } | null };
      if (f.type === "string") return str(f.string);
      if (f.type === "number") return typeof f.number === "number" && Number.isFinite(f.number) ? f.number : undefined;
      if (f.type === "boolean") return typeof f.boolean === "boolean" ? f.boolean : undefined;
      if (f.type === "date") return str(f.date?.start);
      return undefined;
    }
    case "rollup": {
      const r = p.rollup as { type: string; number?: number | null; date?: { start: string } | null; array?: PropertyValue[] };
      if (r.type === "number") return typeof r.number === "number" && Number.isFinite(r.number) ? r.number : undefined;
      if (r.type === "date") return str(r.date?.start);
      if (r.type === "array")
        return str(
          (r.array ?? [])
            .map((v) => propertyValue(v))
            .filter((v) => v !== undefined)
            .join(", "),
        );
      return undefined;
    }
    case "verification":
      return str((p.verification as { state?: string } | null)?.state);
    default:
      return undefined;
  }
}

/** Metadata keys are at most 128 characters (the filter language's limit); metadata strings at most 2048. */
const MAX_KEY = 128;
const MAX_STRING = 2048;

/** The page's properties as flat metadata, keyed by property name. */
export function propertiesMetadata(page: Pick<PageObjectResponse, "properties">): ItemMetadata {
  const out: ItemMetadata = {};
  for (const [name, p] of Object.entries(page.properties)) {
    const v = propertyValue(p);
    if (v === undefined) continue;
    const key = name.slice(0, MAX_KEY);
    if (key) out[key] = typeof v === "string" && v.length > MAX_STRING ? v.slice(0, MAX_STRING) : v;
  }
  return out;
}

/** The page as a Markdown document: its title, a `Property: value` line per non-title property (database rows), then its content. */
export function pageToMarkdown(page: Pick<PageObjectResponse, "properties">, content: string): string {
  const title = pageTitle(page);
  const header: string[] = [];
  for (const [name, p] of Object.entries(page.properties)) {
    if (p.type === "title") continue;
    const v = propertyValue(p);
    if (v !== undefined) header.push(`${name}: ${typeof v === "boolean" ? (v ? "Yes" : "No") : String(v)}`);
  }
  const parts = [`# ${title}`];
  if (header.length) parts.push(header.join("\n"));
  if (content.trim()) parts.push(content.trim());
  return `${parts.join("\n\n")}\n`;
}
