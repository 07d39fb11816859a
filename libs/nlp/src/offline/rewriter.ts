import { analyze } from "@engram/index";
import type { QueryRewriter } from "../ports";

const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/gi, "cannot"],
  [/\bwon't\b/gi, "will not"],
  [/\bshan't\b/gi, "shall not"],
  [/\blet's\b/gi, "let us"],
  [/\b(i)'m\b/gi, "$1 am"],
  [/\b(\w+)n't\b/gi, "$1 not"],
  [/\b(\w+)'re\b/gi, "$1 are"],
  [/\b(\w+)'ve\b/gi, "$1 have"],
  [/\b(\w+)'ll\b/gi, "$1 will"],
  [/\b(\w+)'d\b/gi, "$1 would"],
  [/\b(what|where|who|when|why|how|that|there|it|he|she)'s\b/gi, "$1 is"],
];

/** Conversational openings and closings that carry no search terms (applied repeatedly, start and end). */
const LEADING: RegExp[] = [
  /^(?:hey|hi|hello|ok|okay|so|um|uh|well|yo|please|pls|quick question)\b[,!:]?\s*/i,
  /^(?:can|could|would|will) you (?:please )?(?:tell me|remind me|let me know|show me|find|look up|search for|help me (?:find|remember|figure out|recall)|check|give me|recall)\b\s*/i,
  /^(?:can|could|would|will) you (?:please )?/i,
  /^(?:do|did) you (?:know|remember|recall|have any (?:info|information|idea))\b\s*/i,
  /^(?:what|whatever) do (?:i|we|you) know about\s+/i,
  /^what (?:do|did) (?:i|we) (?:say|tell you|mention|write|note) about\s+/i,
  /^(?:tell me|remind me|show me|give me|find me|find|look up|search for|search|lookup)\b(?: (?:about|of|what|everything about|anything about|all about|info (?:about|on)|information (?:about|on)|more about))?\s*/i,
  /^(?:i (?:want|need|would like) to know|i am (?:wondering|curious)|i was wondering|i wonder|any idea|i forgot|i cannot remember|i do not remember)\b(?: (?:about|if|whether|what))?\s*/i,
  /^(?:everything|anything|something|info|information|details|notes|memories|stuff) (?:about|on|regarding|related to)\s+/i,
  /^(?:about|regarding|re)\s*:?\s+/i,
];
const TRAILING =
  /(?:[\s,]+(?:please|pls|thanks|thank you|for me|again|real quick|if you can|if you know|if you remember|thx|by any chance))+[.!?\s]*$|[?.!\s]+$/i;

/** Stems of the filler words the rules drop on purpose; any other stem of the query must survive. */
const FILLER_STEMS = new Set(
  analyze(
    "tell remind show give find look search know remember recall help figure check want need like wonder wondering curious idea forgot info information details notes memories stuff everything anything something please thanks thank quick question hey hi hello okay ok um uh well let mention say write note real chance",
  ),
);

/**
 * Offline query rewriting: expands contractions, drops conversational filler
 * ("can you tell me", "what do I know about", "please", a trailing "?") and
 * keeps every entity and content word. Deterministic; if a rule ever removed
 * a content word (a stem outside the filler list), the word is appended back.
 * A query that would become empty is returned cleaned of contractions only.
 */
export class OfflineQueryRewriter implements QueryRewriter {
  readonly id = "offline-v1";

  async rewrite(query: string): Promise<string> {
    return this.rewriteSync(query);
  }

  rewriteSync(query: string): string {
    let q = query
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, " ")
      .trim();
    for (const [re, to] of CONTRACTIONS) q = q.replace(re, to);
    const expanded = q;
    for (let changed = true; changed;) {
      changed = false;
      for (const re of LEADING) {
        const next = q.replace(re, "");
        if (next !== q && next.trim()) {
          q = next.trim();
          changed = true;
        }
      }
      const next = q.replace(TRAILING, "").trim();
      if (next !== q && next) {
        q = next;
        changed = true;
      }
    }
    if (!q) q = expanded.replace(/[?.!\s]+$/, "");
    const kept = new Set(analyze(q));
    const lost = [...new Set(analyze(expanded))].filter((s) => !kept.has(s) && !FILLER_STEMS.has(s));
    if (lost.length) {
      // Put back the original words whose stems went missing.
      const words = expanded.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
      const back = words.filter((w) => lost.includes(analyze(w)[0] ?? ""));
      q = `${q} ${[...new Set(back)].join(" ")}`.trim();
    }
    return q;
  }
}
