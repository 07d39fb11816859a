import type { AggregateInput, MemoryAggregator } from "../ports";
import { analyzeStatement } from "./statement";

/**
 * Offline aggregation for search `aggregate=true`: memories are grouped by
 * their normalised subject (the words before the main verb: "Sarah",
 * "Sarah's sister", "The Eiffel Tower"); each group of two or more becomes
 * one statement "Subject: predicate; predicate; ..." in input (relevance)
 * order, without repeated predicates. Memories without a recognisable
 * subject are not aggregated.
 */
export class OfflineAggregator implements MemoryAggregator {
  readonly id = "offline-v1";

  async aggregate(_query: string, memories: AggregateInput[]): Promise<{ content: string; sourceIds: string[] }[]> {
    return this.aggregateSync(memories);
  }

  aggregateSync(memories: AggregateInput[]): { content: string; sourceIds: string[] }[] {
    const groups = new Map<string, { subject: string; predicates: string[]; ids: string[] }>();
    for (const m of memories) {
      const sentence = m.content.trim().split(/(?<=[.!?])\s+/)[0] ?? "";
      const st = analyzeStatement(sentence);
      if (!st.subject || !st.verb || st.subjectText.split(/\s+/).length > 6) continue;
      const predicate = st.predicate.replace(/[.!?\s]+$/, "").trim();
      if (!predicate) continue;
      const g = groups.get(st.subject) ?? { subject: st.subjectText, predicates: [], ids: [] };
      if (!g.predicates.some((p) => p.toLowerCase() === predicate.toLowerCase())) g.predicates.push(predicate);
      g.ids.push(m.id);
      groups.set(st.subject, g);
    }
    const out: { content: string; sourceIds: string[] }[] = [];
    for (const g of groups.values()) {
      if (g.ids.length < 2 || g.predicates.length < 2) continue;
      out.push({ content: `${g.subject}: ${g.predicates.join("; ")}`, sourceIds: g.ids });
    }
    return out;
  }
}
