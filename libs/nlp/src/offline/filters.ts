/**
 * What is not a fact, shared by the clause rules and the chat turn memories:
 * filler, thanks, requests and questions, hypotheticals, speculation, advice,
 * hedges, small talk, boilerplate and code; and the clean-up of a sentence
 * before the rules read it (markup, links, emoji, leading interjections).
 */

const INTERJECTION =
  /^(?:(?:oh|ah|well|so|yeah|yes|yep|yup|no|nope|ok|okay|hey|hi|hello|um|uh|hmm|honestly|actually|anyway|anyways|btw|by the way|also|and|but|haha|lol|wow|right|sure|great|cool|nice|alright|all right|oh well|fun fact|big news|good news|bad news|guess what|news|update)\b[,!.:]*\s+)+/i;
export const FILLER =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: so much| a lot)?|thx|ty|ok|okay|sure|yes|no|yeah|yep|nope|cool|great|awesome|perfect|nice|wow|lol|haha|bye|goodbye|see you|sounds good|got it|no problem|you're welcome|of course|i see|makes sense|that's (?:great|cool|nice|awesome|helpful|interesting|it|all|fine|right|true)|that helps|good to know|i agree|agreed|exactly|right|same|me too|not really|i don't know|i'm not sure|never mind|nevermind|cheers|welcome back)[!.\s]*$/i;
export const THANKS = /^(?:thanks|thank you|thx|ty|many thanks|much appreciated|appreciate it)\b/i;
export const REQUEST =
  /^(?:please|pls|can you|could you|would you|will you|can u|could u|help me|tell me|show me|give me|let me know|let's|lets|remind me|write|explain|suggest|recommend|find|make|create|list|summarize|summarise|translate|describe|generate|draft|plan|book|check|compare|calculate|send|add|set|schedule|do you|did you|are you|have you|what|who|where|when|why|how|which|is there|are there|should i|could i|can i|may i|shall i|do i|am i|would it|is it)\b/i;
export const HYPOTHETICAL =
  /^(?:if|suppose|supposing|imagine|what if|let's say|lets say|assuming|hypothetically|in case|unless|say we|say i|maybe|perhaps|i wish|i wonder|wondering|i was wondering)\b/i;
export const SPECULATIVE = /^(?:i|we)\s+(?:might|may|could|would)\b(?!\s+(?:like|love|prefer)\b)/i;
export const HEDGE =
  /^(?:i (?:think|guess|believe|suppose|feel like|mean|reckon|know)|i'd say|to be honest|tbh|honestly|basically|apparently|as i said|as i mentioned|like i said)(?:\s+that)?[,\s]+/i;
export const QUESTION_START =
  /^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|would|will|should|shall|may|might|have|has|had|am)\s+(?:i|you|we|he|she|they|it|there|my|your|the|this|that|a|an)\b/i;
export const ASSISTANT_DIRECTED =
  /\b(?:a question|quick question|help with|help me|want(?:s)? to know|wants? to ask|need(?:s)? (?:some )?(?:help|advice|ideas|suggestions|tips)|looking for (?:advice|ideas|suggestions|tips|recommendations))\b/i;
export const SMALL_TALK_STATE =
  /^\S+(?:\s\S+)?\s(?:is|was)\s(?:(?:so|very|really|pretty|a bit|kind of)\s)?(?:fine|good|ok|okay|great|well|tired|sorry|glad|happy|here|back|ready|sure|not sure|excited|bored|busy|curious|confused|doing well|doing good|doing great|thankful|grateful)[.!]*$/i;
export const BOILERPLATE =
  /(?:all rights reserved|copyright|©|cookies?\b|privacy policy|terms of (?:service|use)|subscribe|sign up|log ?in\b|click here|read more|share this|follow us|newsletter|advertisement|table of contents|skip to (?:main )?content|powered by|back to top|previous post|next post|related posts|leave a (?:comment|reply)|posted (?:on|by)|^\s*(?:tags|categories|filed under)\s*:)/i;

/** Advice and speculation, not facts: "Sarah should see a doctor", "John might move". */
export const ADVICE_MODALS = new Set(["should", "shouldn't", "could", "might", "may", "must", "ought"]);
export const TRAILING_FILLER =
  /(?:,?\s+(?:by the way|btw|too|as well|lol|haha|though|actually|honestly|anyway|i guess|i think|you know|i mean|right|ok|okay))+$/i;
export const CODE_LIKE = /[{}<>]|=>|\(\)|;\s*$|^\s*(?:import|export|const|let|var|function|def|class|return|public|private)\b|\w+\.\w+\(|[=!]==?/;

export function stripInterjections(s: string): string {
  let out = s.replace(INTERJECTION, "");
  // "Oh, and I ..." leaves "and": strip again.
  out = out.replace(INTERJECTION, "");
  return out.trim();
}

export function clean(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .replace(/\p{Extended_Pictographic}/gu, "")
    .replace(/https?:\/\/\S+/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.!?;:])/g, "$1")
    .trim();
}
