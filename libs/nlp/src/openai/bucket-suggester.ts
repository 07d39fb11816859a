import { z } from "zod";
import type { BucketSuggester, BucketSuggestionInput } from "../ports";
import type { ChatClient } from "./chat-client";

const KEY = /^[a-z0-9][a-z0-9_-]*$/;

const answerSchema = z.strictObject({
  suggestions: z.array(z.strictObject({ key: z.string(), description: z.string() })),
});

const SYSTEM = `You design profile buckets for a memory service: named groups that each memory about a person or an account is filed into (for example "work", "health", "preferences"). From the organisation's description of its use case and a sample of its memories, propose 3 to 6 buckets that would organise its memories well. Each has a key (1-64 lowercase letters, digits, "_" or "-", starting with a letter or digit) and a one-sentence description of what belongs in it. Do not repeat existing buckets.`;

/** BucketSuggester through an OpenAI-compatible chat model. */
export class OpenAIBucketSuggester implements BucketSuggester {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async suggest(input: BucketSuggestionInput): Promise<{ key: string; description: string }[]> {
    const taken = new Set(input.existing.map((b) => b.key));
    const user = [
      "Use case:",
      (input.prompt ?? "(not described)").slice(0, 4000),
      "",
      "Existing buckets:",
      ...(input.existing.length ? input.existing.map((b) => `- ${b.key}: ${b.description}`) : ["(none)"]),
      "",
      "Sample memories:",
      ...(input.memories.length ? input.memories.slice(0, 50).map((m) => `- ${m.slice(0, 300).replace(/\s+/g, " ")}`) : ["(none yet)"]),
    ].join("\n");
    const answer = await this.client.json({
      name: "bucket_suggestions",
      system: SYSTEM,
      user,
      schema: answerSchema,
      check: (a) => {
        const problems: string[] = [];
        if (a.suggestions.length < 3 || a.suggestions.length > 6) problems.push(`give 3 to 6 suggestions (got ${a.suggestions.length})`);
        const seen = new Set<string>();
        for (const s of a.suggestions) {
          if (!KEY.test(s.key) || s.key.length > 64) problems.push(`key ${JSON.stringify(s.key)} is not 1-64 lowercase letters, digits, "_" or "-"`);
          if (seen.has(s.key) || taken.has(s.key)) problems.push(`key ${s.key} repeats a bucket`);
          seen.add(s.key);
        }
        return problems;
      },
    });
    return answer.suggestions.map((s) => ({ key: s.key, description: s.description.slice(0, 2000) }));
  }
}
