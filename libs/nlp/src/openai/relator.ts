import { z } from "zod";
import type { ExtractedFact, MemoryRelator, RelationCandidate, RelationDecision } from "../ports";
import type { ChatClient } from "./chat-client";

const answerSchema = z.strictObject({
  kind: z.enum(["duplicate", "updates", "extends", "derives", "unrelated"]),
  targetId: z.string().nullable(),
});

const SYSTEM = `You maintain a long-term memory. Decide how a NEW fact relates to EXISTING memories of the same person or project.

Kinds (choose exactly one):
- "duplicate": the new fact says the same thing as an existing memory (wording may differ, nothing new).
- "updates": the new fact changes a value the existing memory states about the same subject and attribute, so the old one is no longer current ("Sarah lives in Seattle" -> "Sarah lives in Portland"; "John prefers dark mode" -> "John now prefers light mode").
- "extends": the new fact adds detail about the same subject and topic without contradicting the existing memory ("Sarah is a nurse" -> "Sarah is a pediatric nurse at St. Mary's").
- "derives": the new fact is an inference drawn from the existing memory ("Sarah moved to Denver" -> "Sarah lives in Denver").
- "unrelated": none of the above for any existing memory.

Pick the single best existing memory as targetId (its id exactly as given); targetId is null exactly when kind is "unrelated". Prefer duplicate over updates over extends over derives when several apply.`;

/** MemoryRelator through an OpenAI-compatible chat model. */
export class OpenAIMemoryRelator implements MemoryRelator {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async relate(fact: ExtractedFact, candidates: RelationCandidate[]): Promise<RelationDecision> {
    if (candidates.length === 0) return { kind: "unrelated" };
    const ids = new Set(candidates.map((c) => c.id));
    const user = [
      `NEW fact${fact.isInference ? " (an inference)" : ""}${fact.subject ? ` about "${fact.subject}"` : ""}: ${fact.content}`,
      "",
      "EXISTING memories (most similar first):",
      ...candidates.map(
        (c) =>
          `- id=${JSON.stringify(c.id)}${c.subject ? ` subject="${c.subject}"` : ""} ${c.isStatic ? "static" : "dynamic"} similarity=${c.similarity.toFixed(2)}: ${c.content}`,
      ),
    ].join("\n");
    const answer = await this.client.json({
      name: "memory_relation",
      system: SYSTEM,
      user,
      schema: answerSchema,
      check: (a) => {
        if (a.kind === "unrelated") return a.targetId === null ? [] : ['targetId must be null when kind is "unrelated"'];
        if (a.targetId === null) return [`targetId is required when kind is "${a.kind}"`];
        return ids.has(a.targetId) ? [] : [`targetId "${a.targetId}" is not one of the existing memories' ids`];
      },
    });
    return answer.kind === "unrelated" ? { kind: "unrelated" } : { kind: answer.kind, targetId: answer.targetId! };
  }
}
