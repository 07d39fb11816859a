import { z } from "zod";
import type { RerankItem, Reranker } from "../ports";
import type { ChatClient } from "./chat-client";

const answerSchema = z.strictObject({
  scores: z.array(z.strictObject({ id: z.string(), score: z.number().min(0).max(1) })),
});

const SYSTEM = `You rank search results. For each passage, judge how well it answers or matches the query and give a relevance score between 0 and 1:
1 = directly answers the query, 0.7 = clearly about the query's subject with useful detail, 0.4 = related but does not answer, 0.1 = barely related, 0 = unrelated.
Score every passage exactly once, using its id exactly as given. Judge the content only, not its length or style.`;

/** Longest passage text sent per item; the rest is cut. */
const MAX_ITEM_CHARS = 1500;
/** Items per request. */
const BATCH = 20;

/** Reranker through an OpenAI-compatible chat model (listwise scoring). */
export class OpenAIReranker implements Reranker {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async rerank(query: string, items: RerankItem[]): Promise<{ id: string; score: number }[]> {
    const out: { id: string; score: number; order: number }[] = [];
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH);
      const ids = new Set(batch.map((b) => b.id));
      const user = [
        `Query: ${query}`,
        "",
        "Passages:",
        ...batch.map((b) => `<passage id=${JSON.stringify(b.id)}>\n${b.text.slice(0, MAX_ITEM_CHARS)}\n</passage>`),
      ].join("\n");
      const answer = await this.client.json({
        name: "rerank_scores",
        system: SYSTEM,
        user,
        schema: answerSchema,
        check: (a) => {
          const problems: string[] = [];
          const seen = new Set<string>();
          for (const s of a.scores) {
            if (!ids.has(s.id)) problems.push(`"${s.id}" is not a passage id`);
            else if (seen.has(s.id)) problems.push(`"${s.id}" is scored twice`);
            seen.add(s.id);
          }
          const missing = [...ids].filter((id) => !seen.has(id));
          if (missing.length) problems.push(`missing scores for ${missing.map((m) => `"${m}"`).join(", ")}`);
          return problems;
        },
      });
      const score = new Map(answer.scores.map((s) => [s.id, s.score]));
      batch.forEach((b, j) => out.push({ id: b.id, score: score.get(b.id)!, order: i + j }));
    }
    // Stable: equal scores keep the incoming (search) order.
    return out.sort((a, b) => b.score - a.score || a.order - b.order).map(({ id, score }) => ({ id, score }));
  }
}
