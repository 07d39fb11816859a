import { prng } from "./random";

const PEOPLE = ["Ada Brandt", "Tomasz Weber", "Priya Raman", "Lena Sørensen", "Omar Haddad", "Mei Tanaka", "Jonas Keller", "Inés Ortega"];
const CITIES = ["Lyon", "Leipzig", "Porto", "Tallinn", "Kyoto", "Bergen", "Valencia", "Gdansk"];
const THINGS = ["the telescope", "the harbour survey", "the migration notes", "the ferry timetable", "the lighthouse log", "the tide tables"];
const VERBS = ["reviewed", "rewrote", "archived", "summarised", "translated", "checked"];
const HOBBIES = ["the cello", "chess", "bouldering", "sourdough baking", "birdwatching", "sailing"];

/**
 * A large prose document (about `bytes` UTF-8 bytes) for load tests and
 * benches: seeded, so the same on every run; headed paragraphs of plain
 * sentences about people, places and dates, the kind of text extraction,
 * chunking and memory formation spend real work on.
 */
export function largeDocument(bytes: number, seed = 1): string {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const parts: string[] = [`# Field notes, volume ${seed}`, ""];
  let size = parts[0]!.length + 2;
  for (let section = 1; size < bytes; section++) {
    const head = `## Section ${section}`;
    const sentences: string[] = [];
    for (let i = 0; i < 12; i++) {
      const who = pick(PEOPLE);
      const day = 1 + Math.floor(rand() * 28);
      switch (i % 4) {
        case 0:
          sentences.push(`${who} moved to ${pick(CITIES)} on ${day} March 2025 and works on ${pick(THINGS)}.`);
          break;
        case 1:
          sentences.push(`On ${day} April 2025 ${who} ${pick(VERBS)} ${pick(THINGS)} with the team in ${pick(CITIES)}.`);
          break;
        case 2:
          sentences.push(`${who} plays ${pick(HOBBIES)} and prefers meetings before ${7 + Math.floor(rand() * 4)}am.`);
          break;
        default:
          sentences.push(`The section ${section} record ${Math.floor(rand() * 1e6)} notes that ${pick(THINGS)} was ${pick(VERBS)} twice.`);
      }
    }
    const paragraph = sentences.join(" ");
    parts.push(head, "", paragraph, "");
    size += head.length + paragraph.length + 4;
  }
  return parts.join("\n");
}
