import { createHash } from "node:crypto";
import type { gmail_v1 } from "@googleapis/gmail";
import { Parser } from "htmlparser2";
import type { ItemMetadata } from "../../../app/sync-ports";

/**
 * A Gmail thread as one document: its messages (those not trashed, spam or
 * drafts) read from the MIME trees `threads.get(format=full)` answers, each
 * message's own text without the history it quotes, and the thread's
 * participants; plus the files attached to those messages. Pure: no I/O.
 *
 * Written here because no library does this job: the Gmail client hands back
 * MIME parts (base64url bodies in their own charsets); choosing the text
 * alternative, turning HTML into text (on htmlparser2, already used by the
 * crawler), and cutting quoted history (Gmail's `gmail_quote` blocks,
 * `>`-quoted lines, "On <date>, <someone> wrote:" and what follows, Outlook's
 * "Original Message" separators) is what the document needs and what mail
 * parsers (mailparser, postal-mime) do not do: they parse raw RFC 822
 * messages, which the connector never sees.
 */

type Part = gmail_v1.Schema$MessagePart;
type Message = gmail_v1.Schema$Message;

/** Labels whose messages are not part of a thread's document. */
const HIDDEN_LABELS = new Set(["TRASH", "SPAM", "DRAFT"]);
/** Labels left out of the metadata: they change as the user reads, and would re-import the thread each time. */
const VOLATILE_LABELS = new Set(["UNREAD"]);
/** Longest metadata string kept (the ledger's limit is 2048). */
const METADATA_MAX = 2000;

export interface MailAddress {
  name?: string;
  email: string;
}

/** An attachment of a thread's message, as its MIME part describes it. */
export interface GmailAttachmentRef {
  messageId: string;
  partId: string;
  filename: string;
  mimeType: string;
  size: number;
  /** The handle to download it with (Gmail's change on every read: not an identity). */
  attachmentId?: string;
  /** Small parts carry their bytes inline (base64url). */
  data?: string;
  from?: string;
  date?: string;
}

export interface RenderedThread {
  title: string;
  markdown: string;
  metadata: ItemMetadata;
  /** A hash of what the document holds: a thread touched without a visible change is not imported again. */
  version: string;
}

export function header(part: Part | undefined | null, name: string): string | undefined {
  const lower = name.toLowerCase();
  const value = part?.headers?.find((h) => h.name?.toLowerCase() === lower)?.value ?? undefined;
  return value === undefined ? undefined : decodeWords(value);
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?iso-8859-1?Q?...?=`) a header may still carry, as text. */
export function decodeWords(value: string): string {
  if (!value.includes("=?")) return value;
  return value
    .replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g, (whole, charset: string, enc: string, text: string) => {
      try {
        const bytes =
          enc.toUpperCase() === "B"
            ? Buffer.from(text, "base64")
            : Buffer.from(
                text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
                "latin1",
              );
        return new TextDecoder(charset.split("*")[0]).decode(bytes);
      } catch {
        return whole;
      }
    });
}

/** Whether a message is part of the thread's document (not trashed, spam or a draft). */
export function isVisible(m: Message): boolean {
  return !(m.labelIds ?? []).some((l) => HIDDEN_LABELS.has(l));
}

/**
 * The addresses of a From/To/Cc header: `Name <a@b>`, `"Last, First" <a@b>`,
 * bare addresses, comments and groups (`undisclosed-recipients:;`).
 */
export function parseAddresses(value: string | undefined): MailAddress[] {
  if (!value) return [];
  const out: MailAddress[] = [];
  let cur = "";
  let quoted = false;
  let angle = 0;
  let paren = 0;
  const flush = () => {
    const a = parseOne(cur);
    if (a) out.push(a);
    cur = "";
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && quoted) {
      cur += c + (value[++i] ?? "");
      continue;
    }
    if (c === '"' && paren === 0) quoted = !quoted;
    else if (!quoted && c === "(") paren++;
    else if (!quoted && c === ")" && paren > 0) paren--;
    else if (!quoted && paren === 0 && c === "<") angle++;
    else if (!quoted && paren === 0 && c === ">" && angle > 0) angle--;
    if (!quoted && paren === 0 && angle === 0 && (c === "," || c === ";")) {
      flush();
      continue;
    }
    // A group's name ends with a colon: what precedes it is not an address.
    if (!quoted && paren === 0 && angle === 0 && c === ":") {
      cur = "";
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

function parseOne(raw: string): MailAddress | undefined {
  const s = raw.replace(/\([^()]*\)/g, " ").trim();
  if (!s) return undefined;
  const m = /^(.*)<([^<>]*)>\s*$/.exec(s);
  const email = (m ? m[2]! : s).trim();
  if (!email.includes("@")) return undefined;
  const name = m
    ? m[1]!
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/\\(.)/g, "$1")
        .trim()
    : "";
  return { email, ...(name && name.toLowerCase() !== email.toLowerCase() ? { name } : {}) };
}

const formatAddress = (a: MailAddress) => (a.name ? `${a.name} <${a.email}>` : a.email);

/** A part's body bytes as text, in the charset its Content-Type names (UTF-8 when unknown). */
function decodeBody(part: Part): string {
  const data = part.body?.data;
  if (!data) return "";
  const bytes = Buffer.from(data, "base64url");
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(header(part, "content-type") ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

function isAttachmentPart(p: Part): boolean {
  return !!p.filename || /^\s*attachment\b/i.test(header(p, "content-disposition") ?? "");
}

/** The message's text: the text/plain alternative when there is one, else its HTML as text. */
export function messageBody(payload: Part | undefined | null): { text: string; from: "plain" | "html" | "none" } {
  const found = pickText(payload);
  if (!found) return { text: "", from: "none" };
  return { text: found.kind === "plain" ? decodeBody(found.part) : htmlToText(decodeBody(found.part)), from: found.kind };
}

function pickText(p: Part | undefined | null): { kind: "plain" | "html"; part: Part } | undefined {
  if (!p || isAttachmentPart(p)) return undefined;
  const mime = (p.mimeType ?? "").toLowerCase();
  if (mime === "text/plain") return { kind: "plain", part: p };
  if (mime === "text/html") return { kind: "html", part: p };
  if (!mime.startsWith("multipart/")) return undefined;
  const found = (p.parts ?? []).map(pickText).filter((x) => x !== undefined);
  // Alternatives: the plain one; other multiparts (mixed, related, signed): the first body part.
  if (mime === "multipart/alternative") return found.find((f) => f.kind === "plain") ?? found[0];
  return found[0];
}

/** Attribution lines that start a reply's quoted history, in the languages mail clients commonly write them. */
const ATTRIBUTION = /^(On|Le|Am|El|Il|Op|Em|Dnia)\b.{0,400}\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|napisał)\s*:\s*$/i;

/** The message's own text: `>`-quoted lines dropped, and the quoted history after an attribution or separator line cut. */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    // "On Tue, 3 Mar 2026 at 10:00, Ada <ada@example.com> wrote:" — clients wrap it over up to three lines.
    if (
      /^\S+/.test(t) &&
      [1, 2, 3].some((n) =>
        ATTRIBUTION.test(
          lines
            .slice(i, i + n)
            .map((l) => l.trim())
            .join(" "),
        ),
      )
    )
      break;
    if (/^-{2,}\s*Original Message\s*-{2,}$/i.test(t)) break;
    if (/^_{10,}$/.test(t) && /^From:/i.test(lines[i + 1]?.trim() ?? "")) break;
    if (t.startsWith(">")) continue;
    // "Ada <ada@example.com> wrote:" right before quoted lines: part of the quote.
    if (
      /\bwrote:$/i.test(t) &&
      lines
        .slice(i + 1)
        .find((l) => l.trim() !== "")
        ?.trim()
        .startsWith(">")
    )
      continue;
    out.push(line.replace(/\s+$/, ""));
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const BLOCKS = new Set([
  "p",
  "div",
  "br",
  "tr",
  "table",
  "ul",
  "ol",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "section",
  "article",
  "header",
  "footer",
  "hr",
  "blockquote",
]);
const SKIPPED = new Set(["script", "style", "head", "title", "template"]);
/** Classes of quoted history: Gmail's, Yahoo's, Thunderbird's attribution line. */
const QUOTE_CLASSES = new Set(["gmail_quote", "gmail_quote_container", "yahoo_quoted", "moz-cite-prefix"]);

/** The text so far, ending a line (once). */
const lineEnd = (s: string) => (s === "" || s.endsWith("\n") ? s : `${s}\n`);

/** An HTML body as text: block structure kept as lines, quoted history left out. */
export function htmlToText(html: string): string {
  let out = "";
  let skip = 0;
  let cut = false;
  const stack: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (cut) return;
        // Outlook puts the quoted message after these markers, as siblings: everything after goes.
        if (attrs.id === "divRplyFwdMsg" || attrs.id === "appendonsend") {
          cut = true;
          return;
        }
        const classes = (attrs.class ?? "").split(/\s+/);
        const skipped = SKIPPED.has(name) || classes.some((c) => QUOTE_CLASSES.has(c)) || (name === "blockquote" && attrs.type === "cite");
        stack.push(skipped);
        if (skipped) skip++;
        else if (skip > 0) return;
        else if (name === "br") out += "\n";
        else if (name === "li") out = `${lineEnd(out)}- `;
        else if (BLOCKS.has(name)) out = lineEnd(out);
      },
      ontext(text) {
        if (!cut && skip === 0) out += text.replace(/[\s\u00a0]+/g, " ");
      },
      onclosetag(name) {
        if (cut) return;
        const skipped = stack.pop();
        if (skipped) skip--;
        else if (skip === 0 && BLOCKS.has(name) && name !== "br") out = lineEnd(out);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return stripQuoted(
    out
      .split("\n")
      .map((l) => l.trim())
      .join("\n"),
  );
}

/** The files attached to the messages (inline images of an HTML body are not files the user sent). */
export function attachmentsOf(messages: Message[]): GmailAttachmentRef[] {
  const out: GmailAttachmentRef[] = [];
  for (const m of messages) {
    const walk = (p: Part | undefined | null) => {
      if (!p) return;
      const body = p.body;
      if (p.filename && (body?.attachmentId || body?.data) && !isInlineImage(p)) {
        out.push({
          messageId: m.id ?? "",
          partId: p.partId ?? "",
          filename: p.filename,
          mimeType: (p.mimeType ?? "application/octet-stream").toLowerCase(),
          size: body.size ?? 0,
          ...(body.attachmentId ? { attachmentId: body.attachmentId } : {}),
          ...(body.data && !body.attachmentId ? { data: body.data } : {}),
          ...(header(m.payload, "from") ? { from: header(m.payload, "from") } : {}),
          ...(m.internalDate ? { date: new Date(Number(m.internalDate)).toISOString() } : {}),
        });
      }
      for (const c of p.parts ?? []) walk(c);
    };
    walk(m.payload);
  }
  return out;
}

function isInlineImage(p: Part): boolean {
  return (
    (p.mimeType ?? "").toLowerCase().startsWith("image/") &&
    /^\s*inline\b/i.test(header(p, "content-disposition") ?? "") &&
    header(p, "content-id") !== undefined
  );
}

const when = (m: Message) => (m.internalDate ? new Date(Number(m.internalDate)) : undefined);
const day = (d: Date | undefined) => (d ? `${d.toISOString().slice(0, 16).replace("T", " ")} UTC` : "unknown date");
const clip = (s: string) => (s.length > METADATA_MAX ? `${s.slice(0, METADATA_MAX - 1)}…` : s);

/**
 * The thread's document: the subject as title, its participants (From, To
 * and Cc of every message, once each), its dates, and each message's own
 * text in order, with the names of the files it carried.
 */
export function renderThread(messages: Message[], labelNames: ReadonlyMap<string, string> = new Map()): RenderedThread {
  const subject = (header(messages[0]?.payload, "subject") ?? "").trim() || "(no subject)";
  const participants = new Map<string, MailAddress>();
  for (const m of messages)
    for (const h of ["from", "to", "cc"])
      for (const a of parseAddresses(header(m.payload, h))) {
        const key = a.email.toLowerCase();
        const seen = participants.get(key);
        if (!seen || (!seen.name && a.name)) participants.set(key, a);
      }
  const labels = [...new Set(messages.flatMap((m) => m.labelIds ?? []))].filter((l) => !VOLATILE_LABELS.has(l)).map((l) => labelNames.get(l) ?? l);
  const first = when(messages[0]!);
  const last = when(messages.at(-1)!);
  const files = attachmentsOf(messages);
  const lines = [
    `# ${subject}`,
    "",
    `**Participants:** ${[...participants.values()].map(formatAddress).join(", ") || "unknown"}`,
    `**Date:** ${first && last && first.getTime() !== last.getTime() ? `${day(first)} – ${day(last)}` : day(last)}`,
    `**Messages:** ${messages.length}`,
    "",
  ];
  for (const m of messages) {
    const from = parseAddresses(header(m.payload, "from"))[0];
    const to = parseAddresses(header(m.payload, "to")).map(formatAddress).join(", ");
    const own = stripQuoted(messageBody(m.payload).text);
    const attached = files.filter((f) => f.messageId === m.id).map((f) => f.filename);
    lines.push(`## ${from ? formatAddress(from) : "Unknown sender"} — ${day(when(m))}`, "");
    if (to) lines.push(`To: ${to}`, "");
    lines.push(own || "(no new text)", "");
    if (attached.length) lines.push(`Attachments: ${attached.join(", ")}`, "");
  }
  const markdown = `${lines.join("\n").trimEnd()}\n`;
  const metadata: ItemMetadata = {
    subject: clip(subject),
    participants: clip([...participants.keys()].join(", ")),
    messageCount: messages.length,
    ...(labels.length ? { labels: clip(labels.join(", ")) } : {}),
    ...(last ? { lastMessageAt: last.toISOString() } : {}),
  };
  const version = createHash("sha256").update(markdown).update("\u0000").update(JSON.stringify(metadata)).digest("hex").slice(0, 40);
  return { title: subject, markdown, metadata, version };
}
