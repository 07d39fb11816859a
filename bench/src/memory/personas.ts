/**
 * The persona set of `pnpm bench:memory` (issue #30, item 5): people with short facts about them, one
 * container tag each, and the questions people ask about those facts, each with its gold fact.
 *
 *   node --import tsx bench/src/memory/personas.ts            # regenerate bench/data/personas.json
 *   node --import tsx bench/src/memory/personas.ts --check    # fail when the committed file differs from the generator's output
 *   node --import tsx bench/src/memory/personas.ts --seed 7 --out /tmp/personas.json   # another draw (the bench reads bench/data/personas.json)
 *
 * The set is made deterministically from a seed (mulberry32): 24 people of varied origins, each with
 * 8 to 10 facts from 20 domains (where they live, their job, animals, music, hobbies, drink, diet,
 * allergies, health, children, partner, siblings, education, travel, sport, transport, languages,
 * birthday, favourite food, fears), several wordings per domain, and 1 or 2 questions per fact drawn
 * from the wordings people use ("where does Aino live", "does Kwame have any pets"). A question names
 * the person by first name or by full name, never by a pronoun: it stands alone. Before them comes
 * the fixed container of the issue: Mirela Horvat's six facts and its six questions, word for word.
 *
 * Some questions share a content word with their fact; many share none but the person's name
 * (is-a links: hens → animals, jazz → music, son → child; derivations: allergic → allergies,
 * photographer → photography; paraphrases: moved to → live, gave up alcohol → drink). The generator
 * measures that with @engram/index's analyze() (tokens minus stop words, Porter2-stemmed): the share
 * of questions whose terms, the person's name terms removed, meet none of the fact's. It prints that
 * share and fails under 50 %. The figure depends on the analyzer of the day; the set itself does not.
 */
import fs from "node:fs";
import path from "node:path";
import { analyze } from "@engram/index";
import { prng, REPO_ROOT } from "@engram/testing";

// ---------------------------------------------------------------------------------------------
// The data's shape (bench/data/personas.json)

/** How a question reaches its fact when it shares no word with it (the template's intent; the word overlap is measured separately). */
export type Link = "is-a" | "derivation" | "paraphrase";
export interface PersonaQuestion {
  id: string;
  text: string;
  /** How the question names the person. */
  nameForm: "first" | "full";
  link?: Link;
}
export interface PersonaFact {
  /** The gold id: `<person>-<domain>`. */
  id: string;
  domain: string;
  text: string;
  questions: PersonaQuestion[];
}
export interface Persona {
  id: string;
  containerTag: string;
  name: string;
  firstName: string;
  origin: string;
  /** "issue-30" for the issue's fixed six-fact container. */
  fixed?: string;
  facts: PersonaFact[];
}
export interface PersonaSet {
  description: string;
  generator: string;
  seed: number;
  people: Persona[];
}

export const DEFAULT_SEED = 30;
export const PERSONAS_FILE = path.join(REPO_ROOT, "bench/data/personas.json");
/** The generator fails when fewer questions than this share no content word with their fact (the name aside). */
export const MIN_DISJOINT_SHARE = 0.5;

// ---------------------------------------------------------------------------------------------
// The issue's container, word for word

const MIRELA: Persona = {
  id: "p00",
  containerTag: "persona-p00",
  name: "Mirela Horvat",
  firstName: "Mirela",
  origin: "Slovenian",
  fixed: "issue-30",
  facts: [
    { domain: "residence", text: "Mirela Horvat moved to Ljubljana in March 2024.", q: "where does Mirela live", link: "paraphrase" as Link },
    { domain: "job", text: "Mirela Horvat is a veterinary surgeon.", q: "what does Mirela do for a living" },
    { domain: "pets", text: "Mirela Horvat keeps three hens in her garden.", q: "does Mirela have animals", link: "is-a" as Link },
    { domain: "music", text: "Mirela Horvat sings in a jazz choir.", q: "what music is Mirela into", link: "is-a" as Link },
    { domain: "drink", text: "Mirela Horvat gave up alcohol in 2021.", q: "does Mirela drink", link: "paraphrase" as Link },
    { domain: "children", text: "Mirela Horvat's son Luka turned nine in May.", q: "how old is Mirela's child", link: "is-a" as Link },
  ].map((f) => ({
    id: `p00-${f.domain}`,
    domain: f.domain,
    text: f.text,
    questions: [{ id: `p00-${f.domain}-q1`, text: f.q, nameForm: "first" as const, ...(f.link ? { link: f.link } : {}) }],
  })),
};

// ---------------------------------------------------------------------------------------------
// People

interface Dish {
  name: string;
  meat?: boolean;
  dairy?: boolean;
  gluten?: boolean;
}
interface Seed {
  first: string;
  last: string;
  g: "f" | "m";
  origin: string;
  /** Home town first, then other cities of the country. */
  cities: string[];
  country: string;
  sons: string[];
  daughters: string[];
  brothers: string[];
  sisters: string[];
  partners: { name: string; g: "f" | "m" }[];
  /** Native language(s) first. */
  langs: string[];
  dishes: Dish[];
}

const PEOPLE: Seed[] = [
  {
    first: "Tina",
    last: "Kovač",
    g: "f",
    origin: "Slovenian",
    cities: ["Maribor", "Celje", "Koper"],
    country: "Slovenia",
    sons: ["Jakob", "Žiga"],
    daughters: ["Ana", "Eva"],
    brothers: ["Rok", "Matej"],
    sisters: ["Nina", "Urška"],
    partners: [{ name: "Blaž", g: "m" }],
    langs: ["Slovene", "German", "Croatian"],
    dishes: [{ name: "štruklji with tarragon", dairy: true, gluten: true }, { name: "jota bean soup" }],
  },
  {
    first: "Chukwuemeka",
    last: "Okafor",
    g: "m",
    origin: "Nigerian",
    cities: ["Enugu", "Lagos", "Abuja"],
    country: "Nigeria",
    sons: ["Obinna", "Chidi"],
    daughters: ["Adaeze", "Chiamaka"],
    brothers: ["Ikenna", "Nnamdi"],
    sisters: ["Ngozi", "Ifeoma"],
    partners: [{ name: "Chioma", g: "f" }],
    langs: ["Igbo", "English", "Yoruba"],
    dishes: [{ name: "jollof rice" }, { name: "egusi soup with goat meat", meat: true }],
  },
  {
    first: "Seo-yeon",
    last: "Kim",
    g: "f",
    origin: "Korean",
    cities: ["Busan", "Seoul", "Daegu"],
    country: "South Korea",
    sons: ["Min-jun", "Ji-ho"],
    daughters: ["Ha-eun", "Seo-ah"],
    brothers: ["Hyun-woo", "Dong-hyun"],
    sisters: ["Su-bin", "Ye-jin"],
    partners: [{ name: "Jae-sung", g: "m" }],
    langs: ["Korean", "Japanese", "English"],
    dishes: [{ name: "kimchi jjigae", meat: true }, { name: "bibimbap" }],
  },
  {
    first: "Thiago",
    last: "Nascimento",
    g: "m",
    origin: "Brazilian",
    cities: ["Recife", "Curitiba", "Porto Alegre"],
    country: "Brazil",
    sons: ["Lucas", "Davi"],
    daughters: ["Beatriz", "Helena"],
    brothers: ["Rafael", "Gustavo"],
    sisters: ["Larissa", "Fernanda"],
    partners: [{ name: "Juliana", g: "f" }],
    langs: ["Portuguese", "Spanish", "English"],
    dishes: [
      { name: "feijoada", meat: true },
      { name: "pão de queijo", dairy: true },
    ],
  },
  {
    first: "Aino",
    last: "Virtanen",
    g: "f",
    origin: "Finnish",
    cities: ["Tampere", "Oulu", "Turku"],
    country: "Finland",
    sons: ["Eetu", "Onni"],
    daughters: ["Helmi", "Venla"],
    brothers: ["Mikko", "Janne"],
    sisters: ["Sanna", "Kaisa"],
    partners: [{ name: "Ville", g: "m" }],
    langs: ["Finnish", "Swedish", "English"],
    dishes: [
      { name: "Karelian pies with egg butter", dairy: true, gluten: true },
      { name: "salmon soup", dairy: true },
    ],
  },
  {
    first: "Priya",
    last: "Raghunathan",
    g: "f",
    origin: "Indian",
    cities: ["Chennai", "Pune", "Bengaluru"],
    country: "India",
    sons: ["Arjun", "Karthik"],
    daughters: ["Meera", "Ananya"],
    brothers: ["Suresh", "Vikram"],
    sisters: ["Lakshmi", "Divya"],
    partners: [{ name: "Anand", g: "m" }],
    langs: ["Tamil", "Hindi", "English"],
    dishes: [{ name: "masala dosa" }, { name: "chicken chettinad", meat: true }],
  },
  {
    first: "Tomasz",
    last: "Wiśniewski",
    g: "m",
    origin: "Polish",
    cities: ["Kraków", "Gdańsk", "Wrocław"],
    country: "Poland",
    sons: ["Kacper", "Jakub"],
    daughters: ["Zuzanna", "Julia"],
    brothers: ["Piotr", "Marek"],
    sisters: ["Agnieszka", "Magda"],
    partners: [{ name: "Katarzyna", g: "f" }],
    langs: ["Polish", "German", "English"],
    dishes: [
      { name: "pierogi with potato and cheese", dairy: true, gluten: true },
      { name: "bigos", meat: true },
    ],
  },
  {
    first: "Guadalupe",
    last: "Hernández",
    g: "f",
    origin: "Mexican",
    cities: ["Oaxaca", "Guadalajara", "Puebla"],
    country: "Mexico",
    sons: ["Diego", "Santiago"],
    daughters: ["Valentina", "Ximena"],
    brothers: ["Alejandro", "Ricardo"],
    sisters: ["Mariana", "Sofía"],
    partners: [{ name: "Rosa", g: "f" }],
    langs: ["Spanish", "Zapotec", "English"],
    dishes: [{ name: "mole negro with chicken", meat: true }, { name: "black bean tlayudas" }],
  },
  {
    first: "Haruto",
    last: "Takahashi",
    g: "m",
    origin: "Japanese",
    cities: ["Osaka", "Sapporo", "Fukuoka"],
    country: "Japan",
    sons: ["Sota", "Ren"],
    daughters: ["Yui", "Hina"],
    brothers: ["Kenji", "Daiki"],
    sisters: ["Aoi", "Sakura"],
    partners: [{ name: "Emi", g: "f" }],
    langs: ["Japanese", "English", "Korean"],
    dishes: [
      { name: "okonomiyaki", meat: true, gluten: true },
      { name: "cold soba noodles", gluten: true },
    ],
  },
  {
    first: "Siobhán",
    last: "O'Connor",
    g: "f",
    origin: "Irish",
    cities: ["Galway", "Cork", "Limerick"],
    country: "Ireland",
    sons: ["Cian", "Oisín"],
    daughters: ["Aoife", "Saoirse"],
    brothers: ["Padraig", "Declan"],
    sisters: ["Niamh", "Orla"],
    partners: [{ name: "Eoin", g: "m" }],
    langs: ["English", "Irish", "French"],
    dishes: [
      { name: "colcannon", dairy: true },
      { name: "beef and Guinness stew", meat: true },
    ],
  },
  {
    first: "Emre",
    last: "Yıldız",
    g: "m",
    origin: "Turkish",
    cities: ["İzmir", "Ankara", "Bursa"],
    country: "Turkey",
    sons: ["Kerem", "Mert"],
    daughters: ["Elif", "Zeynep"],
    brothers: ["Burak", "Murat"],
    sisters: ["Ayşe", "Selin"],
    partners: [{ name: "Deniz", g: "f" }],
    langs: ["Turkish", "German", "English"],
    dishes: [{ name: "lahmacun", meat: true, gluten: true }, { name: "stuffed vine leaves" }],
  },
  {
    first: "Linh",
    last: "Nguyen",
    g: "f",
    origin: "Vietnamese",
    cities: ["Da Nang", "Hanoi", "Hue"],
    country: "Vietnam",
    sons: ["Minh", "Bao"],
    daughters: ["Thu", "Lan"],
    brothers: ["Tuan", "Quang"],
    sisters: ["Hoa", "Mai"],
    partners: [{ name: "Duc", g: "m" }],
    langs: ["Vietnamese", "French", "English"],
    dishes: [{ name: "bún chả", meat: true }, { name: "fresh spring rolls" }],
  },
  {
    first: "Kwame",
    last: "Mensah",
    g: "m",
    origin: "Ghanaian",
    cities: ["Kumasi", "Accra", "Tamale"],
    country: "Ghana",
    sons: ["Kofi", "Kojo"],
    daughters: ["Ama", "Esi"],
    brothers: ["Yaw", "Kwabena"],
    sisters: ["Abena", "Akosua"],
    partners: [{ name: "Efua", g: "f" }],
    langs: ["Twi", "English", "Ewe"],
    dishes: [{ name: "waakye" }, { name: "light soup with fufu", meat: true }],
  },
  {
    first: "Astrid",
    last: "Lindqvist",
    g: "f",
    origin: "Swedish",
    cities: ["Uppsala", "Malmö", "Gothenburg"],
    country: "Sweden",
    sons: ["Oskar", "Nils"],
    daughters: ["Elsa", "Linnea"],
    brothers: ["Erik", "Johan"],
    sisters: ["Frida", "Maja"],
    partners: [{ name: "Henrik", g: "m" }],
    langs: ["Swedish", "Norwegian", "English"],
    dishes: [
      { name: "meatballs with lingonberries", meat: true },
      { name: "cinnamon buns", dairy: true, gluten: true },
    ],
  },
  {
    first: "Nikos",
    last: "Papadopoulos",
    g: "m",
    origin: "Greek",
    cities: ["Thessaloniki", "Patras", "Heraklion"],
    country: "Greece",
    sons: ["Giorgos", "Andreas"],
    daughters: ["Eleni", "Dimitra"],
    brothers: ["Kostas", "Yannis"],
    sisters: ["Maria", "Katerina"],
    partners: [{ name: "Stavros", g: "m" }],
    langs: ["Greek", "Italian", "English"],
    dishes: [
      { name: "moussaka", meat: true, dairy: true },
      { name: "spinach pie", dairy: true, gluten: true },
    ],
  },
  {
    first: "Yasmin",
    last: "Farouk",
    g: "f",
    origin: "Egyptian",
    cities: ["Alexandria", "Cairo", "Aswan"],
    country: "Egypt",
    sons: ["Omar", "Karim"],
    daughters: ["Nour", "Mariam"],
    brothers: ["Tarek", "Hassan"],
    sisters: ["Dina", "Salma"],
    partners: [{ name: "Mahmoud", g: "m" }],
    langs: ["Arabic", "French", "English"],
    dishes: [
      { name: "koshari", gluten: true },
      { name: "molokhia with rabbit", meat: true },
    ],
  },
  {
    first: "Lorenzo",
    last: "Bianchi",
    g: "m",
    origin: "Italian",
    cities: ["Bologna", "Turin", "Naples"],
    country: "Italy",
    sons: ["Matteo", "Luca"],
    daughters: ["Giulia", "Chiara"],
    brothers: ["Francesco", "Davide"],
    sisters: ["Federica", "Silvia"],
    partners: [{ name: "Elena", g: "f" }],
    langs: ["Italian", "Spanish", "English"],
    dishes: [
      { name: "tortellini in brodo", meat: true, gluten: true },
      { name: "risotto with porcini", dairy: true },
    ],
  },
  {
    first: "Xiaoling",
    last: "Chen",
    g: "f",
    origin: "Chinese",
    cities: ["Chengdu", "Hangzhou", "Xi'an"],
    country: "China",
    sons: ["Haoran", "Zihan"],
    daughters: ["Yutong", "Xinyi"],
    brothers: ["Wei", "Jun"],
    sisters: ["Fang", "Lili"],
    partners: [{ name: "Tao", g: "m" }],
    langs: ["Mandarin", "Cantonese", "English"],
    dishes: [
      { name: "mapo tofu", meat: true },
      { name: "dan dan noodles", meat: true, gluten: true },
    ],
  },
  {
    first: "Wanjiru",
    last: "Kamau",
    g: "f",
    origin: "Kenyan",
    cities: ["Nairobi", "Mombasa", "Kisumu"],
    country: "Kenya",
    sons: ["Baraka", "Jabari"],
    daughters: ["Njeri", "Wambui"],
    brothers: ["Otieno", "Mwangi"],
    sisters: ["Akinyi", "Nyambura"],
    partners: [{ name: "Kiprop", g: "m" }],
    langs: ["Kikuyu", "Swahili", "English"],
    dishes: [{ name: "ugali with sukuma wiki" }, { name: "nyama choma", meat: true }],
  },
  {
    first: "Callum",
    last: "MacLeod",
    g: "m",
    origin: "Scottish",
    cities: ["Inverness", "Aberdeen", "Dundee"],
    country: "Scotland",
    sons: ["Fraser", "Ruaridh"],
    daughters: ["Isla", "Eilidh"],
    brothers: ["Hamish", "Angus"],
    sisters: ["Morag", "Kirsty"],
    partners: [{ name: "Fiona", g: "f" }],
    langs: ["English", "Scottish Gaelic", "French"],
    dishes: [
      { name: "cullen skink", meat: true, dairy: true },
      { name: "cranachan", dairy: true },
    ],
  },
  {
    first: "Inês",
    last: "Carvalho",
    g: "f",
    origin: "Portuguese",
    cities: ["Braga", "Porto", "Coimbra"],
    country: "Portugal",
    sons: ["Tomás", "Afonso"],
    daughters: ["Leonor", "Matilde"],
    brothers: ["Duarte", "Rui"],
    sisters: ["Mariana", "Beatriz"],
    partners: [{ name: "Sara", g: "f" }],
    langs: ["Portuguese", "French", "English"],
    dishes: [{ name: "bacalhau à brás", meat: true }, { name: "caldo verde" }],
  },
  {
    first: "Ivan",
    last: "Babić",
    g: "m",
    origin: "Croatian",
    cities: ["Split", "Zadar", "Rijeka"],
    country: "Croatia",
    sons: ["Marko", "Filip"],
    daughters: ["Petra", "Lucija"],
    brothers: ["Ante", "Josip"],
    sisters: ["Ivana", "Marija"],
    partners: [{ name: "Maja", g: "f" }],
    langs: ["Croatian", "Italian", "English"],
    dishes: [{ name: "lamb peka", meat: true }, { name: "black risotto" }],
  },
  {
    first: "Dariush",
    last: "Karimi",
    g: "m",
    origin: "Iranian",
    cities: ["Isfahan", "Shiraz", "Tabriz"],
    country: "Iran",
    sons: ["Kian", "Arash"],
    daughters: ["Sara", "Parisa"],
    brothers: ["Reza", "Babak"],
    sisters: ["Shirin", "Leila"],
    partners: [{ name: "Nasrin", g: "f" }],
    langs: ["Persian", "Azerbaijani", "English"],
    dishes: [{ name: "ghormeh sabzi", meat: true }, { name: "saffron rice with barberries" }],
  },
  {
    first: "Camila",
    last: "Rojas",
    g: "f",
    origin: "Chilean",
    cities: ["Valparaíso", "Concepción", "Santiago"],
    country: "Chile",
    sons: ["Benjamín", "Agustín"],
    daughters: ["Josefa", "Florencia"],
    brothers: ["Matías", "Felipe"],
    sisters: ["Catalina", "Javiera"],
    partners: [{ name: "Sebastián", g: "m" }],
    langs: ["Spanish", "English", "Portuguese"],
    dishes: [
      { name: "pastel de choclo", meat: true },
      { name: "sopaipillas with pebre", gluten: true },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Facts and the questions people ask about them

type Q = [text: string, link?: Link];
interface Made {
  text: string;
  qs: Q[];
  /** What later domains must stay consistent with (a vegetarian's favourite dish has no meat). */
  traits?: string[];
}
interface Ctx {
  s: Seed;
  /** Full name. */
  N: string;
  pos: "her" | "his";
  born: number;
  traits: Set<string>;
  pick: <T>(xs: readonly T[]) => T;
  int: (lo: number, hi: number) => number;
}
interface Variant {
  when?: (c: Ctx) => boolean;
  make: (c: Ctx) => Made;
}

const MONTHS = "January February March April May June July August September October November December".split(" ");
const NUMBER_NAMES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen".split(" ");
/** The year the set is written in: ages and "since" years are consistent with it. */
const NOW = 2025;
const ABROAD = ["Lisbon", "Rotterdam", "Montreal", "Melbourne", "Glasgow", "Vienna", "Berlin", "Toronto", "Dublin", "Copenhagen"];

const JOBS: { title: string; extra?: Q }[] = [
  { title: "wedding photographer", extra: ["is {F} into photography", "derivation"] },
  { title: "primary school teacher", extra: ["does {F} teach", "derivation"] },
  { title: "civil engineer", extra: ["is {F} an engineer"] },
  { title: "nurse on a cardiology ward", extra: ["does {F} work in healthcare", "is-a"] },
  { title: "software developer at a bank", extra: ["does {F} write code", "is-a"] },
  { title: "bus driver", extra: ["does {F} drive for a living", "derivation"] },
  { title: "pastry chef", extra: ["does {F} cook professionally", "is-a"] },
  { title: "tax accountant", extra: ["is {F} good with numbers", "paraphrase"] },
  { title: "dentist", extra: ["is {F} a doctor of some kind", "is-a"] },
  { title: "architect", extra: ["does {F} design buildings", "paraphrase"] },
  { title: "pharmacist", extra: ["does {F} work in a pharmacy", "derivation"] },
  { title: "journalist at a local newspaper", extra: ["does {F} write for a living", "is-a"] },
  { title: "electrician" },
  { title: "physiotherapist", extra: ["is {F} some kind of therapist", "derivation"] },
  { title: "translator of crime novels", extra: ["does {F} translate books", "derivation"] },
  { title: "air traffic controller", extra: ["does {F} work at an airport", "is-a"] },
  { title: "social worker" },
  { title: "marine biologist", extra: ["is {F} a scientist", "is-a"] },
];
const GENRES = ["jazz", "punk rock", "Finnish tango", "Afrobeat", "K-pop", "bossa nova", "heavy metal", "fado", "reggae", "bluegrass", "highlife", "flamenco"];
const INSTRUMENTS = ["cello", "accordion", "violin", "trumpet", "piano", "tabla", "kantele", "oud", "bouzouki", "bagpipes", "saxophone", "drums"];
const PETS = ["Miso", "Pepper", "Biscuit", "Luna", "Tofu", "Rambo", "Kiki", "Bruno", "Zara", "Nacho"];
const SUBJECTS = ["chemistry", "urban planning", "medieval history", "mechanical engineering", "economics", "linguistics", "geology", "philosophy"];
const TRIPS: { country: string; continent: string }[] = [
  { country: "Vietnam", continent: "Asia" },
  { country: "Peru", continent: "South America" },
  { country: "Morocco", continent: "Africa" },
  { country: "Iceland", continent: "Europe" },
  { country: "New Zealand", continent: "Oceania" },
  { country: "Canada", continent: "North America" },
];
const CARS = ["a red 2009 Volvo estate", "a battered white Toyota Hilux", "an electric Renault Zoe", "a green Škoda Octavia", "a second-hand Fiat Panda"];
const PARTNER_JOBS = ["pilot", "midwife", "sound engineer", "police officer", "chef", "lawyer", "carpenter", "surgeon"];
const FOREIGN = ["Japanese", "Italian", "Arabic", "Mandarin", "Spanish", "German", "Swahili", "Russian"];

const spouseWord = (g: "f" | "m") => (g === "f" ? "wife" : "husband");

const DOMAINS: { name: string; variants: Variant[] }[] = [
  {
    name: "residence",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} moved to ${c.pick(c.s.cities.slice(1))} in ${c.pick(MONTHS)} ${c.int(2018, 2024)}.`,
          qs: [
            ["where does {F} live", "paraphrase"],
            ["which city is {F} based in"],
            ["where is {F}'s home these days"],
            ["what town does {F} live in now", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has lived in a flat in ${c.pick(c.s.cities)} since ${c.int(2010, 2022)}.`,
          qs: [["where does {F} live"], ["which city is {F}'s home"], ["what part of the world is {F} in"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} rents a small house on the edge of ${c.pick(c.s.cities)}.`,
          qs: [["where does {F} live", "paraphrase"], ["where is {F} staying at the moment"], ["does {F} own a home"], ["which city is {F} based in"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} relocated from ${c.s.cities[0]} to ${c.pick(ABROAD)} for work in ${c.int(2016, 2024)}.`,
          qs: [["where does {F} live now", "paraphrase"], ["which country did {F} move to", "paraphrase"], ["where is {F} originally from"]],
          traits: ["abroad"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} grew up in ${c.s.cities[0]} and still lives on the same street.`,
          qs: [["where is {F} from"], ["where did {F} grow up", "paraphrase"], ["where does {F} live"]],
        }),
      },
    ],
  },
  {
    name: "job",
    variants: [
      { make: (c) => job(c, (t) => `${c.N} is ${article(t)} ${t}.`) },
      { make: (c) => job(c, (t) => `${c.N} works as ${article(t)} ${t}.`) },
      { make: (c) => job(c, (t) => `${c.N} has been ${article(t)} ${t} for ${NUMBER_NAMES[c.int(3, 15)]} years.`) },
      { make: (c) => job(c, (t) => `${c.N} earns a living as ${article(t)} ${t}.`) },
      {
        make: (c) => {
          const [shop, extra] = c.pick<[string, Q]>([
            ["bakery in the old town", ["is {F} a baker", "derivation"]],
            ["bicycle repair shop", ["does {F} fix bikes", "paraphrase"]],
            ["small translation agency", ["does {F} have a business", "is-a"]],
            ["flower shop", ["does {F} sell flowers"]],
          ]);
          return { text: `${c.N} runs ${c.pos} own ${shop}.`, qs: [...JOB_QS, extra] };
        },
      },
    ],
  },
  {
    name: "pets",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} keeps ${c.pick(["three", "four", "five"])} hens in ${c.pos} garden.`,
          qs: [
            ["does {F} have animals", "is-a"],
            ["does {F} have chickens", "is-a"],
            ["does {F} have any pets", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has a ginger cat called ${c.pick(PETS)}.`,
          qs: [["does {F} have a pet", "is-a"], ["what's the name of {F}'s cat"], ["does {F} have any animals", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} owns two border collies.`,
          qs: [
            ["does {F} have a dog", "is-a"],
            ["what pets does {F} have", "is-a"],
            ["what breed are {F}'s dogs", "is-a"],
          ],
          traits: ["dogs"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} looks after a tortoise named ${c.pick(PETS)} that is ${NUMBER_NAMES[c.int(8, 17)]} years old.`,
          qs: [["does {F} have any pets", "is-a"], ["how old is {F}'s tortoise"], ["what reptile does {F} own", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} adopted a retired greyhound called ${c.pick(PETS)} in ${c.int(2017, 2024)}.`,
          qs: [
            ["does {F} have a dog", "is-a"],
            ["what is {F}'s dog called", "is-a"],
            ["does {F} have any animals", "is-a"],
          ],
          traits: ["dogs"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} keeps tropical fish in a 200-litre tank.`,
          qs: [
            ["does {F} have an aquarium", "paraphrase"],
            ["does {F} have pets", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has two rabbits that live in the kitchen.`,
          qs: [["does {F} have pets", "is-a"], ["where do {F}'s rabbits sleep"], ["does {F} have any animals", "is-a"]],
        }),
      },
    ],
  },
  {
    name: "music",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} sings alto in a ${c.pick(GENRES)} choir.`,
          qs: [["what music is {F} into", "is-a"], ["does {F} sing"], ["is {F} in a choir"], ["what kind of music does {F} like", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} plays bass guitar in a ${c.pick(GENRES)} band.`,
          qs: [["does {F} play an instrument"], ["is {F} musical", "is-a"], ["what music is {F} into", "is-a"], ["is {F} in a band"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} listens to ${c.pick(GENRES)} on the way to work every morning.`,
          qs: [["what music is {F} into", "is-a"], ["what kind of music does {F} like", "is-a"], ["what does {F} listen to"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} collects vinyl records of ${c.pick(GENRES)}.`,
          qs: [["what music does {F} like", "is-a"], ["does {F} collect anything"], ["what are {F}'s musical tastes", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has played the ${c.pick(INSTRUMENTS)} since childhood.`,
          qs: [["does {F} play an instrument"], ["is {F} musical", "is-a"], ["how long has {F} been making music", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} never misses a ${c.pick(GENRES)} festival in the summer.`,
          qs: [["what music is {F} into", "is-a"], ["does {F} go to festivals"], ["what kind of concerts does {F} like", "is-a"]],
        }),
      },
    ],
  },
  {
    name: "hobby",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} restores old bicycles in ${c.pos} spare time.`,
          qs: [
            ["what are {F}'s hobbies", "is-a"],
            ["what does {F} do for fun", "is-a"],
            ["is {F} handy with tools", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} knits socks for the whole family.`,
          qs: [
            ["does {F} do any crafts", "is-a"],
            ["what are {F}'s hobbies", "is-a"],
            ["does {F} make clothes", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} goes birdwatching most weekends.`,
          qs: [["what does {F} do at the weekend"], ["what are {F}'s hobbies", "is-a"], ["is {F} into nature", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} grows chillies and tomatoes on ${c.pos} balcony.`,
          qs: [["is {F} into gardening", "is-a"], ["does {F} grow vegetables"], ["what does {F} do for fun", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} paints watercolour landscapes.`,
          qs: [["is {F} artistic", "is-a"], ["does {F} paint"], ["what are {F}'s hobbies", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} builds model railways in the attic.`,
          qs: [
            ["what are {F}'s hobbies", "is-a"],
            ["does {F} like trains", "is-a"],
            ["what does {F} do in the evenings", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} plays chess online every evening.`,
          qs: [["does {F} play any board games"], ["what does {F} do for fun", "is-a"], ["is {F} good at chess"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} bakes sourdough bread every Sunday.`,
          qs: [["does {F} bake"], ["what are {F}'s hobbies", "is-a"], ["can {F} cook", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} does jigsaw puzzles of a thousand pieces.`,
          qs: [
            ["what are {F}'s hobbies", "is-a"],
            ["how does {F} relax", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "drink",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} gave up alcohol in ${c.int(2015, 2023)}.`,
          qs: [
            ["does {F} drink", "paraphrase"],
            ["is {F} sober", "paraphrase"],
            ["does {F} drink wine", "is-a"],
            ["would {F} like a beer", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has not had a drink since ${c.int(2012, 2022)}.`,
          qs: [["does {F} drink alcohol"], ["is {F} teetotal", "paraphrase"], ["can I offer {F} a glass of wine", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} drinks four cups of coffee a day.`,
          qs: [["how much coffee does {F} have"], ["does {F} like caffeine", "is-a"], ["is {F} a coffee person"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} only drinks green tea.`,
          qs: [["what does {F} drink"], ["does {F} drink coffee"], ["what's {F}'s favourite hot beverage", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} brews ${c.pos} own beer in the garage.`,
          qs: [["does {F} drink alcohol", "is-a"], ["does {F} make beer"], ["is {F} a home brewer", "derivation"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is a member of a whisky tasting club.`,
          qs: [
            ["does {F} drink", "is-a"],
            ["does {F} like spirits", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "diet",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} has been vegetarian since ${c.int(2008, 2022)}.`,
          qs: [["does {F} eat meat", "paraphrase"], ["is {F} vegetarian"], ["can I cook steak for {F}", "is-a"]],
          traits: ["noMeat"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is lactose intolerant.`,
          qs: [["can {F} have milk", "is-a"], ["does {F} eat cheese", "is-a"], ["does {F} have a food intolerance"]],
          traits: ["noDairy"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} follows a strict gluten-free diet.`,
          qs: [["any dietary restrictions for {F}", "derivation"], ["can {F} eat bread", "is-a"], ["does {F} avoid gluten"]],
          traits: ["noGluten"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} went vegan in ${c.pick(MONTHS)} ${c.int(2016, 2024)}.`,
          qs: [["does {F} eat meat", "paraphrase"], ["does {F} eat animal products", "paraphrase"], ["is {F} vegan"]],
          traits: ["noMeat", "noDairy"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} does not eat pork.`,
          qs: [["what won't {F} eat"], ["does {F} eat bacon", "is-a"], ["is there any meat {F} avoids", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is trying to cut down on sugar.`,
          qs: [
            ["is {F} on a diet", "paraphrase"],
            ["does {F} eat sweets", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "allergy",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} is allergic to peanuts.`,
          qs: [
            ["does {F} have any allergies", "derivation"],
            ["can {F} eat nuts", "is-a"],
            ["is there anything {F} can't eat", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} carries an EpiPen because of a shellfish allergy.`,
          qs: [["does {F} have any allergies"], ["can {F} eat prawns", "is-a"], ["is {F} allergic to anything", "derivation"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} gets hay fever every spring.`,
          qs: [
            ["does {F} suffer from allergies", "is-a"],
            ["does pollen bother {F}", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is allergic to penicillin.`,
          qs: [
            ["does {F} have any allergies", "derivation"],
            ["can {F} take antibiotics", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} reacts badly to bee stings.`,
          qs: [
            ["does {F} have any allergies", "paraphrase"],
            ["what is {F} allergic to", "paraphrase"],
          ],
        }),
      },
    ],
  },
  {
    name: "health",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} has type 1 diabetes.`,
          qs: [
            ["does {F} have any health problems", "is-a"],
            ["is {F} diabetic", "derivation"],
            ["does {F} need insulin", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} had knee surgery in ${c.int(2014, 2024)}.`,
          qs: [
            ["has {F} ever had an operation", "paraphrase"],
            ["has {F} been in hospital", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} wears hearing aids in both ears.`,
          qs: [["is {F} deaf", "paraphrase"], ["does {F} have trouble hearing"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has asthma and carries an inhaler.`,
          qs: [
            ["does {F} have any health issues", "is-a"],
            ["is {F} asthmatic", "derivation"],
            ["does {F} have breathing problems", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is short-sighted and wears contact lenses.`,
          qs: [["does {F} wear glasses"], ["how is {F}'s eyesight", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} broke ${c.pos} wrist skiing in ${c.int(2012, 2024)}.`,
          qs: [
            ["has {F} ever broken a bone", "is-a"],
            ["has {F} had any injuries", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} gets migraines after a short night.`,
          qs: [
            ["does {F} suffer from headaches", "is-a"],
            ["any health issues for {F}", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "children",
    variants: [
      {
        when: (c) => NOW - c.born >= 28,
        make: (c) => ({
          text: `${c.N}'s son ${c.pick(c.s.sons)} turned ${NUMBER_NAMES[c.int(3, Math.min(15, NOW - c.born - 24))]} in ${c.pick(MONTHS)}.`,
          qs: [["how old is {F}'s child", "is-a"], ["does {F} have kids", "is-a"], ["what's the name of {F}'s son"]],
        }),
      },
      {
        when: (c) => NOW - c.born >= 28,
        make: (c) => ({
          text: `${c.N}'s daughter ${c.pick(c.s.daughters)} is six and starts school in September.`,
          qs: [["how old is {F}'s kid", "is-a"], ["does {F} have children", "is-a"], ["when does {F}'s daughter start school"]],
        }),
      },
      {
        when: (c) => NOW - c.born >= 30,
        make: (c) => ({
          text: `${c.N} has twin boys, ${c.s.sons[0]} and ${c.s.sons[1]}, who are ${NUMBER_NAMES[c.int(4, Math.min(12, NOW - c.born - 25))]}.`,
          qs: [["how many children does {F} have", "is-a"], ["are {F}'s kids twins"], ["how old are {F}'s sons", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is expecting ${c.pos} first baby in ${c.pick(MONTHS)}.`,
          qs: [["does {F} have kids", "is-a"], ["is {F} going to be a parent", "paraphrase"], ["when is {F}'s baby due"]],
        }),
      },
      {
        when: (c) => NOW - c.born >= 38,
        make: (c) => ({
          text: `${c.N} has three children: ${c.s.sons[0]}, ${c.s.daughters[0]} and ${c.s.sons[1]}.`,
          qs: [["how many kids does {F} have", "is-a"], ["what are the names of {F}'s children"]],
        }),
      },
    ],
  },
  {
    name: "partner",
    variants: [
      {
        make: (c) => {
          const p = c.pick(c.s.partners);
          return {
            text: `${c.N} is married to ${p.name}, a ${c.pick(PARTNER_JOBS)}.`,
            qs: [["is {F} married"], [`who is {F}'s ${spouseWord(p.g)}`, "paraphrase"], ["what does {F}'s partner do", "paraphrase"]],
          };
        },
      },
      {
        make: (c) => {
          const p = c.pick(c.s.partners);
          return {
            text: `${c.N}'s ${spouseWord(p.g)} ${p.name} works as a ${c.pick(PARTNER_JOBS)}.`,
            qs: [["who is {F} married to", "paraphrase"], ["is {F} single", "paraphrase"], [`what does {F}'s ${spouseWord(p.g)} do`]],
          };
        },
      },
      {
        make: (c) => ({
          text: `${c.N} has been engaged to ${c.pick(c.s.partners).name} since last summer.`,
          qs: [
            ["is {F} in a relationship", "is-a"],
            ["is {F} getting married", "paraphrase"],
            ["who is {F}'s fiancé", "derivation"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has been divorced since ${c.int(2012, 2023)}.`,
          qs: [
            ["is {F} married", "paraphrase"],
            ["does {F} have a partner", "paraphrase"],
            ["is {F} single", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} met ${c.pos} partner ${c.pick(c.s.partners).name} at a salsa class in ${c.int(2010, 2023)}.`,
          qs: [
            ["who is {F} with", "paraphrase"],
            ["is {F} in a relationship", "is-a"],
            ["how did {F} find love", "paraphrase"],
          ],
        }),
      },
    ],
  },
  {
    name: "siblings",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} has two older brothers, ${c.s.brothers[0]} (${NOW - c.born + c.int(2, 5)}) and ${c.s.brothers[1]} (${NOW - c.born + c.int(6, 9)}).`,
          qs: [["does {F} have siblings", "is-a"], ["how old are {F}'s brothers"], ["is {F} the youngest in the family", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N}'s younger sister ${c.pick(c.s.sisters)} is ${NOW - c.born - c.int(2, 7)}.`,
          qs: [["does {F} have any siblings", "is-a"], ["how old is {F}'s sister"], ["does {F} have brothers or sisters"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is an only child.`,
          qs: [
            ["does {F} have siblings", "paraphrase"],
            ["does {F} have brothers or sisters", "paraphrase"],
            ["how many siblings does {F} have", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N}'s twin brother ${c.pick(c.s.brothers)} lives in ${c.pick(ABROAD)}.`,
          qs: [["does {F} have a sibling", "is-a"], ["is {F} a twin"], ["where does {F}'s brother live"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is the eldest of five children.`,
          qs: [
            ["does {F} have siblings", "paraphrase"],
            ["how big is {F}'s family", "paraphrase"],
            ["is {F} the oldest sibling", "paraphrase"],
          ],
        }),
      },
    ],
  },
  {
    name: "education",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} studied ${c.pick(SUBJECTS)} at the University of ${c.pick(c.s.cities)}.`,
          qs: [["what did {F} study"], ["where did {F} go to college", "paraphrase"], ["what is {F}'s degree in", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has a master's degree in ${c.pick(SUBJECTS)}.`,
          qs: [
            ["what did {F} study at university", "paraphrase"],
            ["how educated is {F}", "derivation"],
            ["is {F} a graduate", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} dropped out of law school after one year.`,
          qs: [["did {F} finish university", "paraphrase"], ["did {F} go to college", "paraphrase"], ["did {F} ever study law"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is doing a part-time PhD in ${c.pick(SUBJECTS)}.`,
          qs: [
            ["is {F} a student", "paraphrase"],
            ["what is {F} researching", "paraphrase"],
            ["is {F} still studying", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} trained as a carpenter through an apprenticeship.`,
          qs: [
            ["what qualifications does {F} have", "paraphrase"],
            ["did {F} go to university", "paraphrase"],
            ["can {F} make furniture", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} left school at sixteen to work on the family farm.`,
          qs: [["did {F} go to university", "paraphrase"], ["how far did {F} get in school"]],
        }),
      },
    ],
  },
  {
    name: "travel",
    variants: [
      {
        make: (c) => {
          const t = c.pick(TRIPS);
          return {
            text: `${c.N} spent three weeks backpacking through ${t.country} last year.`,
            qs: [[`has {F} been to ${t.continent}`, "is-a"], ["where did {F} go on holiday last year"], ["has {F} travelled much", "paraphrase"]],
          };
        },
      },
      {
        make: (c) => ({
          text: `${c.N} visits ${c.pos} grandmother in ${c.s.country} every August.`,
          qs: [
            ["where does {F} go in the summer", "is-a"],
            ["does {F} travel regularly", "paraphrase"],
            ["does {F} still have family back home", "is-a"],
          ],
        }),
      },
      {
        when: (c) => !c.traits.has("abroad"),
        make: (c) => ({
          text: `${c.N} has never been on a plane.`,
          qs: [
            ["has {F} ever flown", "paraphrase"],
            ["does {F} travel by air", "paraphrase"],
          ],
        }),
      },
      {
        when: (c) => NOW - c.born > 40,
        make: (c) => ({
          text: `${c.N} went on a cruise to the Norwegian fjords to celebrate turning forty.`,
          qs: [["where has {F} been on holiday", "paraphrase"], ["has {F} ever been on a cruise"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} hopes to visit ${c.pick(TRIPS.map((t) => t.country))} next spring.`,
          qs: [
            ["where does {F} want to travel", "paraphrase"],
            ["what trip is {F} planning", "paraphrase"],
          ],
        }),
      },
    ],
  },
  {
    name: "sport",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} runs a half marathon every spring.`,
          qs: [
            ["does {F} do any sport", "is-a"],
            ["is {F} a runner", "derivation"],
            ["how does {F} keep fit", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} plays in goal for a Sunday football team.`,
          qs: [["what sport does {F} play"], ["does {F} play soccer"], ["is {F} a goalkeeper", "derivation"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} swims two kilometres before work.`,
          qs: [["does {F} exercise", "is-a"], ["how does {F} stay in shape", "is-a"], ["can {F} swim"]],
          traits: ["swims"],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} climbs at a bouldering gym three times a week.`,
          qs: [["what does {F} do to keep fit", "is-a"], ["does {F} go to the gym"], ["is {F} a climber", "derivation"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} coaches an under-12 basketball team.`,
          qs: [["is {F} into sports", "is-a"], ["does {F} coach anything"], ["is {F} sporty", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has a black belt in judo.`,
          qs: [
            ["does {F} do martial arts", "is-a"],
            ["what sport does {F} do", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "transport",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} drives ${c.pick(CARS)}.`,
          qs: [["what car does {F} have", "is-a"], ["what does {F} drive"], ["does {F} own a car", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} cycles to work every day.`,
          qs: [
            ["how does {F} get to the office", "paraphrase"],
            ["does {F} ride a bike", "is-a"],
            ["how does {F} commute", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} sold ${c.pos} car and takes the tram everywhere.`,
          qs: [["does {F} have a car"], ["how does {F} get around", "paraphrase"], ["does {F} use public transport", "is-a"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} rides a Vespa scooter to work.`,
          qs: [
            ["how does {F} commute", "paraphrase"],
            ["does {F} have a motorbike", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has never learned to drive.`,
          qs: [["does {F} have a driving licence"], ["can {F} give me a lift", "paraphrase"], ["does {F} own a car", "is-a"]],
        }),
      },
    ],
  },
  {
    name: "languages",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} speaks ${c.s.langs[0]}, ${c.s.langs[1]} and ${c.s.langs[2]}.`,
          qs: [["what languages does {F} speak"], ["is {F} multilingual", "is-a"], ["how many languages does {F} know", "is-a"]],
        }),
      },
      {
        make: (c) => {
          const learning = c.pick(FOREIGN.filter((l) => !c.s.langs.includes(l)));
          return {
            text: `${c.N} is fluent in ${c.s.langs[0]} and learning ${learning}.`,
            qs: [["what languages does {F} know", "is-a"], ["is {F} bilingual", "paraphrase"], [`does {F} speak ${learning}`]],
          };
        },
      },
      {
        make: (c) => ({
          text: `${c.N} grew up speaking ${c.s.langs[0]} at home.`,
          qs: [
            ["what is {F}'s mother tongue", "paraphrase"],
            ["what's {F}'s first language", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} takes evening classes in ${c.pick(FOREIGN.filter((l) => !c.s.langs.includes(l)))}.`,
          qs: [
            ["is {F} learning a language", "is-a"],
            ["what language is {F} studying", "is-a"],
          ],
        }),
      },
    ],
  },
  {
    name: "birthday",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} was born on ${c.int(1, 28)} ${c.pick(MONTHS)} ${c.born}.`,
          qs: [["when is {F}'s birthday", "paraphrase"], ["how old is {F}", "paraphrase"], ["when was {F} born"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N}'s birthday is on ${c.int(1, 28)} ${c.pick(MONTHS)}.`,
          qs: [["when is {F}'s birthday"], ["when does {F} celebrate turning a year older", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} turns ${NOW - c.born} on ${c.int(1, 28)} ${c.pick(MONTHS)}.`,
          qs: [
            ["how old is {F}", "paraphrase"],
            ["when is {F}'s birthday", "paraphrase"],
            ["what age is {F}", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} celebrates ${c.pos} birthday on New Year's Eve.`,
          qs: [["when is {F}'s birthday"], ["when was {F} born", "paraphrase"]],
        }),
      },
    ],
  },
  {
    name: "food",
    variants: [
      {
        make: (c) => ({
          text: `${c.N}'s favourite dish is ${dish(c)}.`,
          qs: [["what food does {F} like best", "paraphrase"], ["what's {F}'s favourite meal"], ["what should I cook for {F}", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} could eat ${dish(c)} every day.`,
          qs: [["what does {F} like to eat"], ["what is {F}'s favourite food", "paraphrase"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} always orders ${dish(c)} at the same little restaurant.`,
          qs: [
            ["what is {F}'s favourite food", "paraphrase"],
            ["what does {F} like eating when out", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} makes the best ${dish(c)} in the family.`,
          qs: [
            ["what can {F} cook", "paraphrase"],
            ["what is {F}'s signature dish", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} loves ${dish(c)} more than any other food.`,
          qs: [["what food does {F} like best"], ["what's {F}'s favourite dish", "paraphrase"]],
        }),
      },
    ],
  },
  {
    name: "fears",
    variants: [
      {
        make: (c) => ({
          text: `${c.N} is terrified of spiders.`,
          qs: [
            ["what is {F} afraid of", "paraphrase"],
            ["does {F} have any phobias", "is-a"],
            ["what scares {F}", "paraphrase"],
          ],
        }),
      },
      {
        when: (c) => !c.traits.has("swims"),
        make: (c) => ({
          text: `${c.N} is scared of deep water.`,
          qs: [
            ["what is {F} afraid of", "paraphrase"],
            ["does {F} like swimming", "is-a"],
            ["what frightens {F}", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} has a fear of heights.`,
          qs: [
            ["what frightens {F}", "paraphrase"],
            ["is {F} afraid of anything", "paraphrase"],
            ["would {F} climb a tall tower", "is-a"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} panics in lifts and always takes the stairs.`,
          qs: [
            ["is {F} claustrophobic", "is-a"],
            ["what is {F} scared of", "paraphrase"],
            ["does {F} use the elevator", "paraphrase"],
          ],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} hates going to the dentist and has not been for six years.`,
          qs: [["what is {F} afraid of", "paraphrase"], ["when did {F} last see a dentist"]],
        }),
      },
      {
        make: (c) => ({
          text: `${c.N} is afraid of flying.`,
          qs: [["does {F} like planes", "is-a"], ["what is {F} afraid of"]],
        }),
      },
    ],
  },
];

const JOB_QS: Q[] = [
  ["what does {F} do for a living", "paraphrase"],
  ["what is {F}'s job", "is-a"],
  ["what's {F}'s profession", "is-a"],
  ["what does {F} do for work", "paraphrase"],
  ["where does {F} work"],
  ["what is {F}'s occupation", "is-a"],
];

function article(words: string): string {
  return /^[aeiou]/i.test(words) ? "an" : "a";
}

function job(c: Ctx, sentence: (title: string) => string): Made {
  const j = c.pick(JOBS);
  return { text: sentence(j.title), qs: j.extra ? [...JOB_QS, j.extra] : JOB_QS };
}

function dish(c: Ctx): string {
  const ok = c.s.dishes.filter((d) => !(d.meat && c.traits.has("noMeat")) && !(d.dairy && c.traits.has("noDairy")) && !(d.gluten && c.traits.has("noGluten")));
  return ok.length ? c.pick(ok).name : "lentil stew";
}

// ---------------------------------------------------------------------------------------------
// The generator

function slugTag(i: number): string {
  return `persona-p${String(i).padStart(2, "0")}`;
}

export function generatePersonas(seed = DEFAULT_SEED): PersonaSet {
  const rand = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => {
    if (xs.length === 0) throw new Error("pick from an empty list");
    return xs[Math.floor(rand() * xs.length)]!;
  };
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const domainUse = new Map<string, number>(DOMAINS.map((d) => [d.name, 0]));
  /** Each domain's variants in a seeded order, taken in turn, so every wording is used. */
  const variantOrder = new Map(DOMAINS.map((d) => [d.name, shuffle(d.variants.map((_, i) => i))]));
  const people: Persona[] = [MIRELA];
  PEOPLE.forEach((s, i) => {
    const id = `p${String(i + 1).padStart(2, "0")}`;
    const N = `${s.first} ${s.last}`;
    const c: Ctx = { s, N, pos: s.g === "f" ? "her" : "his", born: int(1968, 1997), traits: new Set(), pick, int };
    // 8 to 10 domains, the least used so far first (ties in seeded order): every domain is used about as often.
    const count = int(8, 10);
    const chosen = new Set(
      shuffle(DOMAINS.map((d) => d.name))
        .sort((a, b) => domainUse.get(a)! - domainUse.get(b)!)
        .slice(0, count),
    );
    const facts: PersonaFact[] = [];
    for (const d of DOMAINS) {
      if (!chosen.has(d.name)) continue;
      domainUse.set(d.name, domainUse.get(d.name)! + 1);
      const order = variantOrder.get(d.name)!;
      // The next variant in turn whose condition holds for this person.
      let made: Made | undefined;
      for (let k = 0; k < order.length && !made; k++) {
        const v = d.variants[order[(domainUse.get(d.name)! - 1 + k) % order.length]!]!;
        if (!v.when || v.when(c)) made = v.make(c);
      }
      if (!made) throw new Error(`${N}: no ${d.name} variant fits`);
      for (const t of made.traits ?? []) c.traits.add(t);
      const n = rand() < 0.5 ? 2 : 1;
      const questions = shuffle(made.qs)
        .slice(0, n)
        .map(([template, link], k): PersonaQuestion => {
          const full = rand() < 0.3;
          let text = template.replace(/\{F\}/g, full ? N : s.first);
          if (rand() < 0.25) text = text[0]!.toUpperCase() + text.slice(1);
          if (rand() < 0.4) text += "?";
          return { id: `${id}-${d.name}-q${k + 1}`, text, nameForm: full ? "full" : "first", ...(link ? { link } : {}) };
        });
      facts.push({ id: `${id}-${d.name}`, domain: d.name, text: made.text, questions });
    }
    // Facts in a seeded order: the order they are written in should not favour one domain.
    people.push({ id, containerTag: slugTag(i + 1), name: N, firstName: s.first, origin: s.origin, facts: shuffle(facts) });
  });
  return {
    description:
      "Persona set of pnpm bench:memory (issue #30): people with short facts, one container tag each; every question's gold is the fact it is listed under. p00 is the issue's fixed six-fact container. Generated by bench/src/memory/personas.ts; do not edit by hand.",
    generator: "bench/src/memory/personas.ts",
    seed,
    people,
  };
}

export function personasJson(set: PersonaSet): string {
  return JSON.stringify(set, null, 2) + "\n";
}

export function loadPersonas(file = PERSONAS_FILE): PersonaSet {
  if (!fs.existsSync(file)) throw new Error(`persona set not found: ${file} (node --import tsx bench/src/memory/personas.ts writes it)`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as PersonaSet;
}

// ---------------------------------------------------------------------------------------------
// Word overlap between a question and its fact (the person's name aside)

const set = (xs: readonly string[]) => new Set(xs);

/** The analyzed terms a question shares with its fact, the person's name terms left out. */
export function sharedTerms(question: string, fact: string, personName: string): string[] {
  const name = set(analyze(personName));
  const f = set(analyze(fact).filter((t) => !name.has(t)));
  return [...set(analyze(question).filter((t) => !name.has(t) && f.has(t)))];
}

export interface OverlapStats {
  questions: number;
  disjoint: number;
  share: number;
  byLink: Record<string, { questions: number; disjoint: number }>;
}

export function overlapStats(data: PersonaSet): OverlapStats {
  const out: OverlapStats = { questions: 0, disjoint: 0, share: 0, byLink: {} };
  for (const p of data.people)
    for (const f of p.facts)
      for (const q of f.questions) {
        const disjoint = sharedTerms(q.text, f.text, p.name).length === 0;
        out.questions++;
        if (disjoint) out.disjoint++;
        const b = (out.byLink[q.link ?? "none"] ??= { questions: 0, disjoint: 0 });
        b.questions++;
        if (disjoint) b.disjoint++;
      }
  out.share = out.questions ? out.disjoint / out.questions : 0;
  return out;
}

/** The set's own rules; a list of what breaks them (empty when the set is sound). */
export function validatePersonas(data: PersonaSet): string[] {
  const bad: string[] = [];
  const tags = new Set<string>();
  const ids = new Set<string>();
  const issue = data.people.filter((p) => p.fixed === "issue-30");
  if (issue.length !== 1 || issue[0]!.facts.length !== 6) bad.push("the issue's six-fact container is missing or changed");
  for (const p of data.people) {
    if (tags.has(p.containerTag)) bad.push(`container tag ${p.containerTag} twice`);
    tags.add(p.containerTag);
    if (!p.fixed && (p.facts.length < 8 || p.facts.length > 10)) bad.push(`${p.name}: ${p.facts.length} facts (8 to 10 wanted)`);
    if (new Set(p.facts.map((f) => f.text)).size !== p.facts.length) bad.push(`${p.name}: a fact twice`);
    for (const f of p.facts) {
      if (!f.text.startsWith(p.name)) bad.push(`${f.id}: the fact does not start with the person's name`);
      if (f.questions.length < 1 || f.questions.length > 2) bad.push(`${f.id}: ${f.questions.length} questions`);
      for (const q of [f, ...f.questions]) {
        if (ids.has(q.id)) bad.push(`id ${q.id} twice`);
        ids.add(q.id);
      }
      for (const q of f.questions) {
        if (/\b(she|he|her|his|him|they|them|their)\b/i.test(q.text)) bad.push(`${q.id}: a pronoun in "${q.text}" (questions must stand alone)`);
        if (!q.text.includes(q.nameForm === "full" ? p.name : p.firstName)) bad.push(`${q.id}: "${q.text}" does not name ${p.name}`);
        if (/\{F\}/.test(q.text)) bad.push(`${q.id}: an unfilled slot in "${q.text}"`);
      }
    }
  }
  if (data.people.length < 21) bad.push(`${data.people.length} people (at least 20 besides the issue's wanted)`);
  return bad;
}

// ---------------------------------------------------------------------------------------------
// Command line

function main(): void {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const seed = Number(arg("seed") ?? DEFAULT_SEED);
  const out = path.resolve(REPO_ROOT, arg("out") ?? PERSONAS_FILE);
  const data = generatePersonas(seed);
  const text = personasJson(data);
  const problems = validatePersonas(data);
  const stats = overlapStats(data);
  const facts = data.people.reduce((a, p) => a + p.facts.length, 0);
  const perDomain = new Map<string, number>();
  for (const p of data.people) for (const f of p.facts) perDomain.set(f.domain, (perDomain.get(f.domain) ?? 0) + 1);
  console.log(
    `persona set, seed ${seed}: ${data.people.length} people (the issue's container and ${data.people.length - 1} generated), ${facts} facts, ${stats.questions} questions`,
  );
  console.log(`  facts per domain: ${[...perDomain].map(([d, n]) => `${d} ${n}`).join(", ")}`);
  console.log(
    `  questions sharing no content word with their fact (analyze(): stop words out, Porter2 stems; the person's name aside): ` +
      `${stats.disjoint} of ${stats.questions} = ${(stats.share * 100).toFixed(1)} % (at least ${MIN_DISJOINT_SHARE * 100} % wanted)`,
  );
  console.log(
    `  by the template's link: ${Object.entries(stats.byLink)
      .map(([k, v]) => `${k} ${v.disjoint}/${v.questions}`)
      .join(", ")}`,
  );
  if (problems.length) {
    for (const p of problems) console.error(`  problem: ${p}`);
    process.exit(1);
  }
  if (stats.share < MIN_DISJOINT_SHARE) {
    console.error(`too few questions without a shared content word: ${(stats.share * 100).toFixed(1)} % < ${MIN_DISJOINT_SHARE * 100} %`);
    process.exit(1);
  }
  if (process.argv.includes("--check")) {
    const committed = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "";
    if (committed !== text) {
      console.error(
        `${path.relative(REPO_ROOT, out)} differs from the generator's output for seed ${seed}: run node --import tsx bench/src/memory/personas.ts`,
      );
      process.exit(1);
    }
    console.log(`  ${path.relative(REPO_ROOT, out)} is up to date`);
    return;
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  console.log(`  written to ${path.relative(REPO_ROOT, out)}`);
}

if (require.main === module) main();
