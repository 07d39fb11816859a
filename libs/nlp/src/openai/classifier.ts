import { z } from "zod";
import type { BucketClassifier } from "../ports";
import type { ChatClient } from "./chat-client";

const answerSchema = z.strictObject({
  results: z.array(z.strictObject({ index: z.number().int().min(0), bucketKeys: z.array(z.string()) })),
});

const SYSTEM = `You file memories into profile buckets. For each numbered text, list the keys of every bucket whose description it fits; a text may fit several buckets or none. Use the bucket keys exactly as given and answer once for every index.`;

/** Texts per request. */
const BATCH = 50;

/** BucketClassifier through an OpenAI-compatible chat model. */
export class OpenAIBucketClassifier implements BucketClassifier {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async classify(texts: string[], buckets: { key: string; description: string }[]): Promise<string[][]> {
    if (buckets.length === 0) return texts.map(() => []);
    const keys = new Set(buckets.map((b) => b.key));
    const out: string[][] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      const batch = texts.slice(start, start + BATCH);
      const user = [
        "Buckets:",
        ...buckets.map((b) => `- ${b.key}: ${b.description}`),
        "",
        "Texts:",
        ...batch.map((t, i) => `${i}. ${t.slice(0, 2000).replace(/\s+/g, " ")}`),
      ].join("\n");
      const answer = await this.client.json({
        name: "bucket_assignments",
        system: SYSTEM,
        user,
        schema: answerSchema,
        check: (a) => {
          const problems: string[] = [];
          const seen = new Set<number>();
          for (const r of a.results) {
            if (r.index >= batch.length) problems.push(`index ${r.index} does not exist`);
            else if (seen.has(r.index)) problems.push(`index ${r.index} answered twice`);
            seen.add(r.index);
            for (const k of r.bucketKeys) if (!keys.has(k)) problems.push(`"${k}" is not a bucket key`);
          }
          for (let i = 0; i < batch.length; i++) if (!seen.has(i)) problems.push(`index ${i} is missing`);
          return problems;
        },
      });
      const byIndex = new Map(answer.results.map((r) => [r.index, [...new Set(r.bucketKeys)]]));
      for (let i = 0; i < batch.length; i++) out.push(byIndex.get(i)!);
    }
    return out;
  }
}
