/**
 * Static (lasting trait) vs dynamic (event, plan, recent state) for a fact's
 * text. Dated facts are dynamic (the caller checks that); otherwise a fact is
 * static when it states identity, origin, residence, work, family, health
 * traits or long-standing preferences, and no marker of an event, a plan or
 * a temporary state overrides it.
 */
const STATIC_CUES: RegExp[] = [
  /\b(?:lives|resides|is based|is located) in\b/i,
  /\b(?:is|comes|come) (?:originally )?from\b/i,
  /\b(?:grew up|was raised) in\b/i,
  /\bwas born\b|\bborn (?:in|on)\b/i,
  /\bname is\b|\bis (?:called|named)\b|\bgoes by\b/i,
  /\bbirthday is\b/i,
  /\bworks? (?:as|at|for|in|on)\b|\bis employed\b|\bis (?:a|an) [\p{L}-]+(?: [\p{L}-]+){0,3} (?:at|for|in)\b/iu,
  /\b(?:is|are|was|were) (?:a|an) (?!(?:bit|little|lot|few|couple|moment|while|great|good|bad|nice|big|huge)\b)[\p{L}-]+/iu,
  /\ballergic\b|\ballergy\b|\bintolerant\b|\bdiabetic\b|\bhas (?:asthma|diabetes|celiac|adhd|autism|epilepsy|migraines)\b/i,
  /\b(?:prefers?|favou?rite|likes|loves|enjoys|hates|dislikes|adores|can't stand|cannot stand|is (?:a )?(?:big |huge )?fan of|is into|is passionate about)\b/i,
  /\bis (?:vegan|vegetarian|pescatarian|married|single|divorced|engaged|widowed|retired|gay|straight|bisexual|christian|muslim|jewish|hindu|buddhist|atheist|left-handed|right-handed|an introvert|an extrovert|introverted|extroverted|colou?r ?blind|deaf|blind)\b/i,
  /\bis (?:married|engaged) to\b/i,
  /\bhas (?:a|an|one|two|three|four|five|six|\d+) (?:[\p{L}-]+ )?(?:sisters?|brothers?|siblings?|sons?|daughters?|kids?|children|child|wife|husband|partner|boyfriend|girlfriend|dogs?|cats?|pets?|pupp(?:y|ies)|kittens?|twins?|grandchildren|degree|phd|master'?s|bachelor'?s)\b/iu,
  /\b(?:speaks|is fluent in|studied|majored in|graduated from|has a degree)\b/i,
  /\bis \d+ years old\b|\bis in (?:his|her|their) (?:twenties|thirties|forties|fifties|sixties)\b/i,
  /\b(?:drives|owns?|plays (?:the )?[\p{L}]+|does not eat|doesn't eat|never eats|does not drink|doesn't drink|never drinks|eats no)\b/iu,
  /'s (?:sister|brother|mother|mom|father|dad|wife|husband|partner|son|daughter|dog|cat|boss|best friend)\b.* (?:is|lives|works|named)\b/i,
];

const DYNAMIC_CUES =
  /\b(?:going to|gonna|will|plans? to|planning|intends? to|is about to|just|recently|right now|today|tonight|tomorrow|yesterday|this (?:week|month|year|weekend|morning)|at the moment|lately|these days|started|starting|trying|tried|wants to|would like to|hopes to|needs to|has to|is (?:[\p{L}]+ing)\b(?<!\bis (?:living|working|being)\b)|had|did|went|visited|moved|bought|met|finished|attended|celebrated|got (?!married to)|ago|last|next|upcoming|soon|currently (?:reading|watching|learning|working on|training))\b/iu;

export function isStaticStatement(text: string): boolean {
  if (!STATIC_CUES.some((re) => re.test(text))) return false;
  if (/\bwas born\b|\bgrew up\b|\bwas raised\b|\bgraduated from\b|\bstudied\b/i.test(text) && !/\b(?:going to|will)\b/i.test(text)) return true;
  return !DYNAMIC_CUES.test(text);
}
