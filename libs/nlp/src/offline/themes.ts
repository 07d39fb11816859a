/**
 * Common profile-bucket themes: the bucket key Engram suggests for each, what
 * belongs in it, and its related words (the first names the theme). The
 * offline classifier widens a bucket that names a theme with its words; the
 * offline bucket suggester proposes the themes a workspace's prompt and
 * memories talk about.
 */
export interface BucketTheme {
  key: string;
  description: string;
  words: string;
}

export const BUCKET_THEMES: readonly BucketTheme[] = [
  {
    key: "work",
    description: "Job, role, employer, projects, colleagues and career",
    words:
      "work job career employer employ company office colleague coworker boss manager salary promotion promoted hired team project profession occupation business client meeting role position",
  },
  {
    key: "family",
    description: "Family members, their names and what is going on with them",
    words:
      "family sister brother mother mom father dad wife husband partner son daughter kid child children parent parents grandmother grandfather cousin aunt uncle sibling married spouse",
  },
  {
    key: "health",
    description: "Health conditions, allergies, medication, diet and fitness",
    words:
      "health allergy allergic doctor diet medication medical illness disease symptom therapy exercise workout gym fitness sleep pain injury hospital diagnosis vegan vegetarian",
  },
  {
    key: "food",
    description: "Food and drink: favourite dishes, restaurants, cooking and dietary choices",
    words: "food eat eating cook cooking recipe restaurant meal dish cuisine coffee tea drink favourite favorite vegan vegetarian breakfast dinner lunch",
  },
  {
    key: "hobbies",
    description: "Hobbies, sports and free-time interests",
    words:
      "hobby hobbies interest interests enjoy enjoys likes love loves play plays music sport sports hiking reading reads game games painting guitar piano travel photography",
  },
  {
    key: "preferences",
    description: "Likes, dislikes and how they want things done",
    words: "preference preferences prefer prefers favorite favourite likes dislikes love hate style mode setting",
  },
  {
    key: "location",
    description: "Where they live, have lived and come from",
    words: "location live lives living home city town country moved address neighborhood neighbourhood hometown born",
  },
  {
    key: "travel",
    description: "Trips taken and planned, destinations and travel habits",
    words: "travel trip trips flight flights fly flew flying vacation holiday visit visited visiting hotel abroad journey conference tour",
  },
  {
    key: "education",
    description: "Schools, studies, degrees and courses",
    words: "education school university college degree study studied student class course graduated major teacher",
  },
  {
    key: "goals",
    description: "Goals, plans and progress toward them",
    words: "goal goals plan plans planning want wants hope hopes dream aim objective intend learning",
  },
  { key: "pets", description: "Pets, their names and care", words: "pet pets dog dogs cat cats puppy kitten animal" },
  {
    key: "relationships",
    description: "Friends, partners and the people close to them",
    words: "relationship relationships friend friends partner dating boyfriend girlfriend married engaged",
  },
  {
    key: "finances",
    description: "Money matters: budget, income, spending and investments",
    words: "finance money budget savings invest investment income expense expenses bank loan mortgage rent salary",
  },
  {
    key: "schedule",
    description: "Appointments, meetings, deadlines and routines",
    words: "schedule appointment appointments meeting deadline calendar event events date dates reminder",
  },
  {
    key: "technology",
    description: "Devices, software, tools and technical setup",
    words: "technology tech software computer phone laptop app programming code coding developer language",
  },
  {
    key: "customers",
    description: "Customers and accounts: who they are, their plan, history and needs",
    words: "customer customers client clients account accounts buyer subscriber subscription crm lead churn renewal",
  },
  {
    key: "support",
    description: "Problems reported, tickets and how they were resolved",
    words: "support ticket tickets issue issues bug bugs problem problems complaint incident outage resolve resolved troubleshoot",
  },
  {
    key: "products",
    description: "Products and features used or asked about, versions and pricing",
    words: "product products feature features pricing price release version catalog sku order orders purchase purchased",
  },
];
