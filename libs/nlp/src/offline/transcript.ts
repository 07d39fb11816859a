/**
 * Transcript detection: turns "user: ...", "Sarah: ...", "**Assistant:**",
 * "[user] ...", "[10:32] Sarah: ...", JSON message arrays and
 * `{"role": ..., "content": ...}` lines into speaker turns with offsets into
 * the text.
 */

export type Role = "human" | "assistant";

export interface Turn {
  /** The label as written ("Sarah", "user"). */
  label: string;
  role: Role;
  /** A person's name when the label is one (not a role word). */
  name?: string;
  text: string;
  /** Offsets of `text` in the whole document. */
  start: number;
  end: number;
}

const HUMAN_ROLES = new Set(["user", "human", "me", "customer", "client", "patient", "student", "caller", "person", "you", "i"]);
const ASSISTANT_ROLES = new Set([
  "assistant",
  "ai",
  "bot",
  "chatbot",
  "system",
  "gpt",
  "chatgpt",
  "claude",
  "model",
  "agent",
  "gemini",
  "copilot",
  "llm",
  "support",
  "tool",
  "function",
  "developer",
  "engram",
  "supermemory",
]);
/** Labels that start "Label: text" lines without being speakers. */
const NOT_SPEAKERS = new Set(
  "note notes warning tip title date time subject summary source update edit ps re fwd from to cc bcc tags tag topic location agenda question answer q a example step todo status result output input error http https url link email phone address name description category type id version ingredients directions price total author published updated".split(
    " ",
  ),
);

const TIMESTAMP = String.raw`(?:\[?\(?\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4},?\s*\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp][Mm])?\)?\]?\s*[-–]?\s*|\[?\(?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp][Mm])?\)?\]?\s*[-–]?\s*)?`;
const LABEL_LINE = new RegExp(
  String.raw`^[ \t>*-]*${TIMESTAMP}(?:\*\*|__)?([A-Za-z][\w .'-]{0,30}?)(?:\*\*|__)?\s*(?:\(\d[^)]*\))?\s*[:：](?:\*\*|__)?[ \t]+(\S.*)$`,
);
const BRACKET_LINE = new RegExp(String.raw`^[ \t]*${TIMESTAMP}\[([A-Za-z][\w .'-]{0,30}?)\][ \t]*[:：]?[ \t]*(\S.*)$`);
const JSON_LINE = /"role"\s*:\s*"([^"]+)"[\s\S]*?"content"\s*:\s*("(?:[^"\\]|\\.)*")/;

function classify(label: string): { role: Role; name?: string } | undefined {
  const l = label.trim().toLowerCase();
  if (NOT_SPEAKERS.has(l)) return undefined;
  if (HUMAN_ROLES.has(l)) return { role: "human" };
  if (ASSISTANT_ROLES.has(l) || /\b(assistant|bot|ai)$/.test(l)) return { role: "assistant" };
  // A name: one to three capitalised words.
  if (/^[A-Z][\p{L}'-]*(?: [A-Z][\p{L}'-]*){0,2}$/u.test(label.trim())) return { role: "human", name: label.trim() };
  return undefined;
}

interface RawLine {
  label?: string;
  text: string;
  start: number;
  end: number;
}

/** Message arrays (`[{role, content}]` or `{messages: [...]}`) as turns; offsets locate each content in the text where possible. */
function fromJson(text: string): Turn[] | undefined {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    return undefined;
  }
  const list = Array.isArray(data) ? data : data && typeof data === "object" ? (data as Record<string, unknown>).messages : undefined;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const turns: Turn[] = [];
  let cursor = 0;
  for (const m of list) {
    if (!m || typeof m !== "object") return undefined;
    const o = m as Record<string, unknown>;
    const label = typeof o.role === "string" ? o.role : typeof o.speaker === "string" ? o.speaker : typeof o.name === "string" ? o.name : undefined;
    const content = typeof o.content === "string" ? o.content : typeof o.text === "string" ? o.text : undefined;
    if (!label || content === undefined) return undefined;
    const c = classify(label);
    if (!c) return undefined;
    const probe = JSON.stringify(content).slice(1, 41);
    const at = text.indexOf(probe, cursor);
    const start = at >= 0 ? at : cursor;
    cursor = at >= 0 ? at + probe.length : cursor;
    turns.push({ label, ...c, text: content, start, end: start + Math.min(content.length, Math.max(0, text.length - start)) });
  }
  return turns;
}

/**
 * The turns of a transcript, or undefined when the text is not one: at least
 * two labelled lines, and either two different speakers or a role label; or a
 * single turn opening the text under a role label ("user: …").
 * Unlabelled lines continue the current turn; a markdown heading ends it (a
 * section of the transcript, such as a dated "## 5 Nov", is no one's words).
 */
export function parseTranscript(text: string): Turn[] | undefined {
  const json = fromJson(text);
  if (json) return json;

  const lines: RawLine[] = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const j = JSON_LINE.exec(line);
    if (j) {
      let content: string;
      try {
        content = JSON.parse(j[2]!) as string;
      } catch {
        content = j[2]!.slice(1, -1);
      }
      lines.push({ label: j[1]!, text: content, start: start + j.index, end: start + line.length });
      continue;
    }
    const m = LABEL_LINE.exec(line) ?? BRACKET_LINE.exec(line);
    if (m && classify(m[1]!)) {
      const body = m[2]!;
      const at = line.lastIndexOf(body);
      lines.push({ label: m[1]!.trim(), text: body, start: start + at, end: start + line.length });
    } else lines.push({ text: line, start, end: start + line.length });
  }
  const labelled = lines.filter((l) => l.label !== undefined);
  // One turn is a transcript too when it opens the text with a role label ("user: I live in Seattle.").
  const firstText = lines.find((l) => l.text.trim());
  const loneRoleTurn = labelled.length === 1 && firstText === labelled[0] && classify(labelled[0]!.label!)?.name === undefined;
  if (labelled.length < 2 && !loneRoleTurn) return undefined;
  const labels = new Set(labelled.map((l) => l.label!.toLowerCase()));
  const hasRole = labelled.some((l) => {
    const c = classify(l.label!);
    return c !== undefined && c.name === undefined;
  });
  if (labels.size < 2 && !hasRole) return undefined;
  // A few "Name: value" lines in a long document are a form, not a conversation.
  const nonEmpty = lines.filter((l) => l.text.trim()).length;
  if (!hasRole && labelled.length * 3 < nonEmpty) return undefined;

  const turns: Turn[] = [];
  let cur: Turn | undefined;
  for (const l of lines) {
    if (l.label !== undefined) {
      const c = classify(l.label)!;
      cur = { label: l.label, ...c, text: l.text, start: l.start, end: l.end };
      turns.push(cur);
    } else if (/^\s{0,3}#{1,6}\s/.test(l.text)) cur = undefined;
    else if (cur && l.text.trim()) {
      cur.text += `\n${l.text}`;
      cur.end = l.end;
    }
  }
  return turns;
}
