import { z } from "zod";
import type { QueryRewriter } from "../ports";
import type { ChatClient } from "./chat-client";

const answerSchema = z.strictObject({ query: z.string().trim().min(1).max(1000) });

const SYSTEM = `You rewrite a conversational question into a search query for a personal memory store (keyword and semantic search).
Keep every name, entity, number, date and content word of the question; drop conversational filler ("can you tell me", "what do I know about", "please"); expand contractions; you may add a few close synonyms that help retrieval. Do not answer the question. Do not add facts.`;

/** QueryRewriter through an OpenAI-compatible chat model. */
export class OpenAIQueryRewriter implements QueryRewriter {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async rewrite(query: string): Promise<string> {
    if (!query.trim()) return query;
    const answer = await this.client.json({ name: "search_query", system: SYSTEM, user: `Question: ${query}`, schema: answerSchema });
    return answer.query;
  }
}
