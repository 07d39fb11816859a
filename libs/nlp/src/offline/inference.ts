/**
 * Safe inferences from a fact's predicate ("moved to Denver" ⇒ "lives in
 * Denver"). Each rule needs a specific event phrase and a capitalised target
 * where the target is a place, employer or person, so it rarely fires wrongly.
 */

/** Ends a target phrase: a date, a reason, another clause. */
const END = String.raw`(?=\s+(?:on|in|at|last|next|this|with|because|after|before|since|for|from|to|and|but|when|while|around|during|about|so)\b|[,.;!]|$)`;
const NAME_CHARS = String.raw`(?:[\p{L}\p{N}'&-]|\.(?=\p{L}))*`;
const PROPER = String.raw`((?:the\s+)?\p{Lu}${NAME_CHARS}(?:\s+(?:of\s+|de\s+|the\s+)?\p{Lu}${NAME_CHARS}){0,4})`;
const ADV = String.raw`(?:(?:recently|just|finally|also|officially|eventually|already)\s+)?`;

interface Rule {
  re: RegExp;
  make: (subject: string, m: RegExpExecArray) => string;
}

const RULES: Rule[] = [
  { re: new RegExp(String.raw`^${ADV}(?:moved|relocated)\s+(?:back\s+)?to\s+${PROPER}${END}`, "u"), make: (s, m) => `${s} lives in ${m[1]}.` },
  {
    re: new RegExp(String.raw`^${ADV}(?:started|began)\s+(?:working|a new job|a job|work)\s+(?:at|for|with)\s+${PROPER}${END}`, "u"),
    make: (s, m) => `${s} works at ${m[1]}.`,
  },
  {
    re: new RegExp(String.raw`^${ADV}(?:got|landed|accepted)\s+(?:a\s+|the\s+|an?\s+new\s+)?(?:job|position|role|offer)\s+(?:at|with)\s+${PROPER}${END}`, "u"),
    make: (s, m) => `${s} works at ${m[1]}.`,
  },
  { re: new RegExp(String.raw`^${ADV}(?:was|got)\s+hired\s+(?:at|by)\s+${PROPER}${END}`, "u"), make: (s, m) => `${s} works at ${m[1]}.` },
  { re: new RegExp(String.raw`^${ADV}(?:got\s+married\s+to|married|wed)\s+${PROPER}${END}`, "u"), make: (s, m) => `${s} is married to ${m[1]}.` },
  { re: new RegExp(String.raw`^${ADV}got\s+engaged\s+to\s+${PROPER}${END}`, "u"), make: (s, m) => `${s} is engaged to ${m[1]}.` },
  { re: new RegExp(String.raw`^${ADV}graduated\s+from\s+${PROPER}${END}`, "u"), make: (s, m) => `${s} studied at ${m[1]}.` },
  {
    re: /^(?:(?:recently|just|finally|also)\s+)?(?:adopted|got)\s+(a|an)\s+((?:[a-z]+\s+)?(?:dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|bird|horse|turtle|fish))(\s+(?:named|called)\s+\p{Lu}[\p{L}'-]*)?(?=[\s,.;!]|$)/u,
    make: (s, m) => `${s} has ${m[1]} ${m[2]}${m[3] ?? ""}.`,
  },
  { re: /^(?:(?:recently|just|finally)\s+)?retired(?=[\s,.;!]|$)(?!\s+(?:the|a|an|from\s+the\s+team)\b)/u, make: (s) => `${s} is retired.` },
  {
    re: new RegExp(String.raw`^${ADV}(?:quit|left)\s+(?:\S+'s|his|her|their)\s+job\s+(?:at|with)\s+${PROPER}${END}`, "u"),
    make: (s, m) => `${s} no longer works at ${m[1]}.`,
  },
  {
    re: /^(?:(?:recently|just|finally|officially)\s+)?became\s+(a|an)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)(?=[,.;!]|$)/u,
    make: (s, m) => `${s} is ${m[1]} ${m[2]}.`,
  },
  {
    re: new RegExp(String.raw`^${ADV}bought\s+(a|an)\s+(house|home|apartment|flat|condo)\s+in\s+${PROPER}${END}`, "u"),
    make: (s, m) => `${s} owns ${m[1]} ${m[2]} in ${m[3]}.`,
  },
];

/** Inferred facts for a subject ("Sarah") and the rest of its fact ("moved to Denver on 2026-10-05."). */
export function inferFacts(subject: string, predicate: string): string[] {
  const out: string[] = [];
  const plural = /\band\b/i.test(subject);
  for (const r of RULES) {
    const m = r.re.exec(predicate);
    if (m) out.push(plural ? pluralVerb(r.make(subject, m), subject) : r.make(subject, m));
  }
  return out;
}

const PLURAL_FORMS: Record<string, string> = { lives: "live", works: "work", is: "are", has: "have", owns: "own", studied: "studied" };

/** "Tom and Sarah owns" → "Tom and Sarah own". */
function pluralVerb(sentence: string, subject: string): string {
  const rest = sentence.slice(subject.length);
  return subject + rest.replace(/^(\s+(?:no longer\s+)?)(\w+)/, (_all, pre: string, verb: string) => pre + (PLURAL_FORMS[verb] ?? verb));
}
