import { z } from "zod";
import type { AggregateInput, MemoryAggregator } from "../ports";
import type { ChatClient } from "./chat-client";

const answerSchema = z.strictObject({
  memories: z.array(z.strictObject({ content: z.string().trim().min(1).max(4000), sourceIds: z.array(z.string()) })),
});

const SYSTEM = `You consolidate memories found for a search query. Group memories about the same subject and topic and write, for each group of two or more, one new combined statement that keeps every detail of its sources and adds nothing else (e.g. "Sarah lives in Portland, works as a nurse and has a sister named Amy").
Only combine what is relevant to the query. Give sourceIds: the ids (exactly as given) of the memories each statement combines, at least two. Memories that combine with nothing are left out. No groups is a valid answer.`;

/** MemoryAggregator through an OpenAI-compatible chat model. */
export class OpenAIAggregator implements MemoryAggregator {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async aggregate(query: string, memories: AggregateInput[]): Promise<{ content: string; sourceIds: string[] }[]> {
    if (memories.length < 2) return [];
    const ids = new Set(memories.map((m) => m.id));
    const user = [`Query: ${query}`, "", "Memories:", ...memories.map((m) => `- id=${JSON.stringify(m.id)}: ${m.content}`)].join("\n");
    const answer = await this.client.json({
      name: "aggregated_memories",
      system: SYSTEM,
      user,
      schema: answerSchema,
      check: (a) => {
        const problems: string[] = [];
        a.memories.forEach((m, i) => {
          const unique = new Set(m.sourceIds);
          if (unique.size < 2) problems.push(`memories.${i} combines fewer than two sources`);
          for (const id of unique) if (!ids.has(id)) problems.push(`memories.${i}.sourceIds: "${id}" is not a memory id`);
        });
        return problems;
      },
    });
    return answer.memories.map((m) => ({ content: m.content, sourceIds: [...new Set(m.sourceIds)] }));
  }
}
