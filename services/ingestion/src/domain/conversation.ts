import { createHash } from "node:crypto";
import { InvalidArgumentError } from "@engram/kernel";

/**
 * Conversations (POST /v4/conversations): a chat thread kept as one document
 * of the conversation's container, re-sent whole as it grows. Pure.
 *
 * - The document's text is the transcript, one "speaker: text" line per
 *   message (the name when the message has one, else its role), which the
 *   memory extractor reads as chat turns. Image parts are written as
 *   "[image: url]"; tool calls are not part of the text.
 * - Its caller id derives from the conversation id, so each call with the
 *   same id updates that one document: new messages make new content (a new
 *   generation; memory formation adds what it had not formed, as for any
 *   re-added document), an unchanged resend changes nothing.
 */

export const CONVERSATION_ROLES = ["user", "assistant", "system", "tool"] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

export type ConversationContentPart = { type: "text"; text: string } | { type: "image_url"; url: string };

export interface ConversationMessage {
  role: ConversationRole;
  content: string | ConversationContentPart[];
  name?: string;
}

export const CONVERSATION_LIMITS = { idMax: 255, messagesMax: 10_000, nameMax: 100 } as const;

/** The caller id of a conversation's document: readable when the id allows it, a digest otherwise. */
export function conversationCustomId(conversationId: string): string {
  const readable = `conversation:${conversationId}`;
  if (/^[A-Za-z0-9._:-]{1,100}$/.test(readable)) return readable;
  return `conversation:${createHash("sha256").update(conversationId).digest("hex").slice(0, 40)}`;
}

/** InvalidArgumentError unless the conversation can become a document. */
export function validateConversation(conversationId: string, messages: ConversationMessage[]): void {
  const L = CONVERSATION_LIMITS;
  if (typeof conversationId !== "string" || conversationId.length === 0 || conversationId.length > L.idMax)
    throw new InvalidArgumentError(`conversationId must be 1-${L.idMax} characters`);
  if (!Array.isArray(messages) || messages.length === 0) throw new InvalidArgumentError("messages must hold at least one message");
  if (messages.length > L.messagesMax) throw new InvalidArgumentError(`messages: at most ${L.messagesMax}`);
  messages.forEach((m, i) => {
    if (!(CONVERSATION_ROLES as readonly string[]).includes(m.role))
      throw new InvalidArgumentError(`messages[${i}].role must be one of ${CONVERSATION_ROLES.join(", ")}`);
    if (m.name !== undefined && (m.name.length > L.nameMax || /[\r\n:]/.test(m.name)))
      throw new InvalidArgumentError(`messages[${i}].name must be at most ${L.nameMax} characters, on one line, without ':'`);
  });
  if (renderConversation(messages).trim().length === 0) throw new InvalidArgumentError("the conversation has no text");
}

/** The transcript: one "speaker: text" line per message with text. */
export function renderConversation(messages: ConversationMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    const text = (typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : `[image: ${p.url}]`)).join(" "))
      .replace(/\s*\n\s*/g, " ")
      .trim();
    if (text) lines.push(`${m.name?.trim() || m.role}: ${text}`);
  }
  return lines.join("\n");
}
