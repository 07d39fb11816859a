import { z } from "zod";
import type { ChatClient } from "./chat-client";

/** What the judge sees of an item a connector is about to import. */
export interface ImportCandidate {
  title?: string;
  filepath?: string;
  url?: string;
  /** The beginning of its text, when it is text (binary files are judged by their names). */
  text?: string;
}

/** Decides whether an item belongs in the knowledge base, by the organisation's filter prompt (PATCH /v3/settings filterPrompt). */
export interface ImportJudge {
  readonly id: string;
  judge(filterPrompt: string, item: ImportCandidate): Promise<{ admit: boolean; reason: string }>;
}

const answerSchema = z.strictObject({ include: z.boolean(), reason: z.string() });

const SYSTEM = `You decide whether an item from a connected source (a file, a page, an email thread) belongs in an organisation's knowledge base. The organisation states what it wants kept in its filter instructions. Judge only by those instructions and the item shown; when the instructions do not speak to the item, include it. Answer with include (true or false) and a short reason.`;

/** Most characters of an item's text shown to the model. */
export const IMPORT_JUDGE_TEXT_CHARS = 4000;

/** ImportJudge through an OpenAI-compatible chat model. */
export class OpenAIImportJudge implements ImportJudge {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async judge(filterPrompt: string, item: ImportCandidate): Promise<{ admit: boolean; reason: string }> {
    const user = [
      "Filter instructions:",
      filterPrompt.slice(0, 20_000),
      "",
      "Item:",
      ...(item.title ? [`title: ${item.title}`] : []),
      ...(item.filepath ? [`path: ${item.filepath}`] : []),
      ...(item.url ? [`url: ${item.url}`] : []),
      ...(item.text ? ["text:", item.text.slice(0, IMPORT_JUDGE_TEXT_CHARS)] : ["(binary content: judge by its names)"]),
    ].join("\n");
    const answer = await this.client.json({ name: "import_decision", system: SYSTEM, user, schema: answerSchema });
    return { admit: answer.include, reason: answer.reason.slice(0, 300) };
  }
}
