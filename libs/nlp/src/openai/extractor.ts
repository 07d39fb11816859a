import { z } from "zod";
import type { ExtractedFact, ExtractionInput, FactExtractor } from "../ports";
import type { ChatClient } from "./chat-client";

const DATE = /^\d{4}-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?$/;

const answerSchema = z.strictObject({
  facts: z.array(
    z.strictObject({
      content: z.string().trim().min(1).max(2000),
      isStatic: z.boolean(),
      eventDates: z.array(z.string().regex(DATE, "must be YYYY-MM-DD, YYYY-MM or an ISO date-time")),
      isInference: z.boolean(),
      chunkPositions: z.array(z.number().int().min(0)),
      subject: z.string().nullable(),
      bucketKeys: z.array(z.string()),
    }),
  ),
});

const SYSTEM = `You turn a document or a conversation into long-term memories: atomic, self-contained facts worth remembering about the people in it (above all the user) and the things they care about.

Rules:
- One fact per statement. Split compound statements ("I'm a nurse and I live in Portland" gives two facts).
- Keep every informative statement: what you cannot split into atomic facts, keep as one self-contained sentence (resolved as below). Never drop information a later question could need.
- Keep together what belongs together: an event and its details from the same turn or paragraph stay in one fact ("The lighthouse tour was the highlight of Nadia's trip to the coast"), not two facts that lose the link.
- In a conversation, end each fact with who said it and the conversation's date (its anchor date, below) in parentheses: "Sarah is going to Paris on 2026-11-27. (Sarah, 20 November 2026)"; only who said it ("(Sarah)") when no anchor date is known.
- Self-contained: resolve every pronoun and first-person reference. In a conversation "I" is the speaker: use the speaker's name when the label, the conversation or the supporting context gives it, else "The user". Write "Sarah's sister", never "my sister". Make verbs agree ("Sarah lives", "Sarah is").
- Resolve relative dates ("yesterday", "last month", "next Friday", "in two weeks") against the anchor date, and write the absolute date in the fact ("on 2026-11-19", "in October 2026"). List the dates of the events in eventDates as YYYY-MM-DD (or YYYY-MM when only the month is known).
- The anchor date: the reference date when one is given. Otherwise the document's own date: a dated title or first line ("Standup 3 Nov"), an e-mail's Date: header, a transcript's dated header line; text under a dated heading ("## 5 Nov") takes that heading's date until the next dated heading. A date written without its year is the latest such date not after the ingestion time ("3 Nov" ingested on 29 November 2026 is 2026-11-03). The ingestion time is never an anchor: when neither is known, keep relative dates as written ("on Friday", "next week") and leave them out of eventDates.
- Conversations: take facts from what the human participants say. Assistant replies, greetings, thanks, small talk, questions, requests to the assistant and hypotheticals are not facts; an assistant repeating what the user said adds nothing.
- Documents: take informative declarative statements; skip headings, navigation, code, tables of numbers and boilerplate.
- isStatic is true for lasting traits: name, profession, employer, where someone lives or comes from, birth date, family, allergies, long-standing preferences. It is false for events, plans, recent actions and anything tied to a date.
- isInference is true only for a fact you infer rather than read (e.g. "Sarah lives in Denver" from "Sarah moved to Denver"); keep inferences few and safe.
- subject: the normalised (lower-case) name of who or what the fact is about ("sarah chen", "the user"), or null.
- chunkPositions: the positions of the chunks the fact comes from (only positions shown in the input).
- bucketKeys: the keys of the listed profile buckets the fact belongs to (none when no bucket fits or none are listed).
- Do not invent anything that is not stated or safely implied. No facts is a valid answer.`;

/** Characters of chunk text per request; longer documents are extracted in several sequential requests. */
const MAX_CHARS_PER_REQUEST = 24_000;

/** FactExtractor through an OpenAI-compatible chat model. */
export class OpenAIFactExtractor implements FactExtractor {
  readonly id: string;

  constructor(private readonly client: ChatClient) {
    this.id = `openai:${client.model}`;
  }

  async extract(input: ExtractionInput): Promise<ExtractedFact[]> {
    const chunks = input.chunks.filter((c) => c.content.trim());
    if (chunks.length === 0) return [];
    const batches: (typeof chunks)[] = [];
    let cur: typeof chunks = [];
    let size = 0;
    for (const c of chunks) {
      if (cur.length && size + c.content.length > MAX_CHARS_PER_REQUEST) {
        batches.push(cur);
        cur = [];
        size = 0;
      }
      cur.push(c);
      size += c.content.length;
    }
    if (cur.length) batches.push(cur);

    const out: ExtractedFact[] = [];
    const seen = new Set<string>();
    for (const batch of batches) {
      for (const f of await this.extractBatch(input, batch)) {
        const key = f.content.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(f);
      }
    }
    return out;
  }

  private async extractBatch(input: ExtractionInput, chunks: ExtractionInput["chunks"]): Promise<ExtractedFact[]> {
    const positions = new Set(chunks.map((c) => c.position));
    const bucketKeys = new Set((input.buckets ?? []).map((b) => b.key));
    const lines = [
      input.referenceDate
        ? `Reference date: ${input.referenceDate} (given with the document: the anchor date, whatever the text says)`
        : "Reference date: none given (anchor relative dates on the document's own date; keep them as written if it states none)",
      `Ingestion time: ${input.now} (only for the year of a date written without one)`,
    ];
    if (input.title) lines.push(`Title: ${input.title}`);
    if (input.supportingContext) lines.push(`Supporting context: ${input.supportingContext}`);
    if (input.buckets?.length) lines.push(`Profile buckets:\n${input.buckets.map((b) => `- ${b.key}: ${b.description}`).join("\n")}`);
    else lines.push("Profile buckets: none (bucketKeys must be empty).");
    lines.push("Content:");
    for (const c of chunks) lines.push(`<chunk position="${c.position}">\n${c.content}\n</chunk>`);

    const answer = await this.client.json({
      name: "extracted_facts",
      system: SYSTEM,
      user: lines.join("\n"),
      schema: answerSchema,
      check: (a) => {
        const problems: string[] = [];
        a.facts.forEach((f, i) => {
          if (f.chunkPositions.length === 0) problems.push(`facts.${i}.chunkPositions is empty`);
          for (const p of f.chunkPositions) if (!positions.has(p)) problems.push(`facts.${i}.chunkPositions: ${p} is not a chunk position of the input`);
          for (const k of f.bucketKeys) if (!bucketKeys.has(k)) problems.push(`facts.${i}.bucketKeys: "${k}" is not a listed bucket`);
        });
        return problems;
      },
    });
    return answer.facts.map((f) => {
      const fact: ExtractedFact = {
        content: f.content,
        isStatic: f.isStatic,
        eventDates: [...new Set(f.eventDates)],
        isInference: f.isInference,
        chunkPositions: [...new Set(f.chunkPositions)].sort((a, b) => a - b),
      };
      if (f.subject?.trim()) fact.subject = f.subject.trim().toLowerCase();
      if (input.buckets?.length) fact.bucketKeys = [...new Set(f.bucketKeys)];
      return fact;
    });
  }
}
