import { type ExtractedFact, OfflineFactExtractor, extractFacts, resolveDates, parseReference } from "../src";
import { assemble } from "../src/offline/document";
import { parseTranscript } from "../src/offline/transcript";

const REF = "2026-11-20T10:00:00Z"; // a Friday

function facts(content: string, extra: Partial<Parameters<typeof extractFacts>[0]> = {}): ExtractedFact[] {
  return extractFacts({ chunks: [{ position: 0, content }], referenceDate: REF, now: REF, ...extra });
}
const contents = (fs: ExtractedFact[]) => fs.map((f) => f.content);
const find = (fs: ExtractedFact[], content: string) => {
  const f = fs.find((x) => x.content === content);
  if (!f) throw new Error(`no fact "${content}" in:\n${contents(fs).join("\n")}`);
  return f;
};

describe("OfflineFactExtractor: conversations", () => {
  const chat = `User: Hi! I'm Sarah.
Assistant: Hi Sarah, nice to meet you! How can I help?
User: I'm a nurse and I live in Portland. My sister Amy moved to Seattle last month.
Assistant: That's great! Seattle is lovely.
User: She started working at Microsoft yesterday. I'm allergic to peanuts, by the way.
User: Can you suggest a recipe?
Assistant: Sure! How about a lentil curry? You live in Portland, so try the farmers market.
User: Thanks! We're going to Paris next Friday.`;

  it("names the speaker, splits compounds, resolves pronouns and dates, skips filler and the assistant; events keep their turn, who said it and when", () => {
    const fs = facts(chat);
    expect(contents(fs)).toEqual([
      "The user's name is Sarah.",
      "Sarah is a nurse.",
      "Sarah lives in Portland.",
      "Sarah's sister Amy lives in Seattle.",
      "Sarah's sister Amy moved to Seattle in October 2026. (Sarah, 20 November 2026)",
      "Amy works at Microsoft.",
      "Sarah is allergic to peanuts.",
      "Amy started working at Microsoft on 2026-11-19. (Sarah, 20 November 2026)",
      "Sarah is going to Paris on 2026-11-27. (Sarah, 20 November 2026)",
    ]);
    expect(find(fs, "Sarah is a nurse.")).toMatchObject({ isStatic: true, isInference: false, subject: "sarah", eventDates: [], chunkPositions: [0] });
    expect(find(fs, "Sarah's sister Amy moved to Seattle in October 2026. (Sarah, 20 November 2026)")).toMatchObject({
      isStatic: false,
      eventDates: ["2026-10"],
      subject: "sarah",
      chunkPositions: [0],
    });
    expect(find(fs, "Sarah's sister Amy lives in Seattle.")).toMatchObject({ isStatic: true, isInference: true });
    expect(find(fs, "Amy started working at Microsoft on 2026-11-19. (Sarah, 20 November 2026)")).toMatchObject({
      isStatic: false,
      eventDates: ["2026-11-19"],
    });
    expect(find(fs, "Sarah is going to Paris on 2026-11-27. (Sarah, 20 November 2026)")).toMatchObject({ isStatic: false, eventDates: ["2026-11-27"] });
  });

  it("uses 'The user' without a name, conjugates verbs, and skips hypotheticals", () => {
    const fs = facts(`user: i love hiking and i have two dogs
assistant: Nice! What are their names?
user: I adopted a puppy named Rex last week, too.
user: If I won the lottery I would buy a boat.
user: I might get a cat.
user: my husband and I moved to Denver in 2019`);
    expect(contents(fs)).toEqual([
      "The user loves hiking.",
      "The user has two dogs.",
      "The user has a puppy named Rex.",
      "The user adopted a puppy named Rex in the week of 2026-11-09. (The user, 20 November 2026)",
      "The user's husband and the user live in Denver.",
      "The user's husband and the user moved to Denver in 2019. (The user, 20 November 2026)",
    ]);
    expect(find(fs, "The user loves hiking.")).toMatchObject({ isStatic: true, subject: "the user" });
    expect(find(fs, "The user's husband and the user moved to Denver in 2019. (The user, 20 November 2026)")).toMatchObject({
      isStatic: false,
      eventDates: [],
    });
  });

  it("takes the name from supportingContext and uses pronouns after it within a fact", () => {
    const fs = facts("[user] I think I'm going to quit my job next month. My boss is a nightmare.\n[assistant] That sounds hard.", {
      supportingContext: "The user is Sarah Chen, a product manager",
    });
    expect(contents(fs)).toEqual(["Sarah Chen's boss is a nightmare.", "Sarah Chen is going to quit her job in December 2026. (Sarah Chen, 20 November 2026)"]);
    expect(fs[1]).toMatchObject({ isStatic: false, eventDates: ["2026-12"], subject: "sarah chen" });
  });

  it("treats named speakers as people, resolves 'you' between two of them, and skips advice", () => {
    const fs = facts(`Sarah: I just got married to Tom!
John: Congrats! I work at Google and I prefer dark mode.
Sarah: You should visit us. Tom and I bought a house in Austin.`);
    expect(contents(fs)).toEqual([
      "Sarah is married to Tom.",
      "Sarah just got married to Tom. (Sarah, 20 November 2026)",
      "John works at Google.",
      "John prefers dark mode.",
      "Tom and Sarah own a house in Austin.",
      "Tom and Sarah bought a house in Austin. (Sarah, 20 November 2026)",
    ]);
    expect(find(fs, "John prefers dark mode.")).toMatchObject({ isStatic: true, subject: "john" });
    expect(find(fs, "Sarah is married to Tom.")).toMatchObject({ isInference: true, isStatic: true });
  });

  it("keeps each informative chat turn whole: its sentences resolved, questions and greetings left out, who said it and when", () => {
    const fs = facts(`Nadia: We finally went to the coast last weekend. The lighthouse tour was the highlight, and the kids loved the tide pools.
Omar: Sounds great! What did you eat there?
Nadia: Mostly fish tacos. Sunflowers mean warmth and happiness, right? My sister grew some.
Omar: Hey Nadia! How have you been?`);
    expect(contents(fs)).toEqual([
      // The answer to "what was the highlight of Nadia's trip" needs the second sentence with the first.
      "Nadia finally went to the coast on 2026-11-15. The lighthouse tour was the highlight, and the kids loved the tide pools. (Nadia, 20 November 2026)",
      // No clause rule restructures these, and none is dropped; a tag question states something, a real question does not.
      "Mostly fish tacos. Sunflowers mean warmth and happiness, right? Nadia's sister grew some. (Nadia, 20 November 2026)",
    ]);
    expect(fs[0]).toMatchObject({ isStatic: false, eventDates: ["2026-11-15"], subject: "nadia", chunkPositions: [0] });
  });

  it("reads JSON message arrays and skips greetings, thanks and questions", () => {
    const fs = facts(
      JSON.stringify([
        { role: "user", content: "Hello!" },
        { role: "assistant", content: "Hi! How can I help?" },
        { role: "user", content: "My name is Priya Patel. I work as a data scientist at Stripe." },
        { role: "user", content: "What should I cook tonight?" },
        { role: "user", content: "Thanks so much!" },
      ]),
    );
    expect(contents(fs)).toEqual(["The user's name is Priya Patel.", "Priya Patel works as a data scientist at Stripe."]);
    expect(fs[1]).toMatchObject({ isStatic: true, subject: "priya patel" });
  });

  it("learns the name from the assistant's greeting when the user never states it", () => {
    const fs = facts("Me: I'm vegetarian.\nAssistant: Good to know, thanks Maria!\nMe: I don't drink coffee.");
    expect(contents(fs)).toEqual(["Maria is vegetarian.", "Maria doesn't drink coffee."]);
    expect(fs.every((f) => f.isStatic)).toBe(true);
  });

  it("keeps the chunk positions of each fact and merges facts repeated in overlapping chunks", () => {
    const c0 = "User: I live in Portland.\nAssistant: Nice.\nUser: I work at Intel.";
    const c1 = "User: I work at Intel.\nAssistant: Cool.\nUser: I have a cat named Miso.";
    const fs = extractFacts({
      chunks: [
        { position: 1, content: c1 },
        { position: 0, content: c0 },
      ],
      referenceDate: REF,
      now: REF,
    });
    expect(fs.map((f) => [f.content, f.chunkPositions])).toEqual([
      ["The user lives in Portland.", [0]],
      ["The user works at Intel.", [0, 1]],
      ["The user has a cat named Miso.", [1]],
    ]);
  });

  it("is deterministic", () => {
    expect(facts(chat)).toEqual(facts(chat));
  });

  it("leaves a self-introduction out of the turn it opens (no 'Sarah is Sarah')", () => {
    const fs = contents(facts("user: I am Sarah and I was just promoted to VP of Product."));
    expect(fs).toContain("The user's name is Sarah.");
    expect(fs).toContain("Sarah was just promoted to VP of Product. (Sarah, 20 November 2026)");
    expect(fs.join(" ")).not.toMatch(/Sarah is Sarah/);
  });
});

describe("OfflineFactExtractor: prose", () => {
  it("resolves pronouns to the title's subject and skips headings, tables and boilerplate", () => {
    const fs = facts(
      `# Marie Curie

Marie Curie was a Polish-born physicist and chemist. She was the first woman to win a Nobel Prize. Her husband Pierre Curie shared the 1903 prize with her.

| year | prize |
|---|---|
| 1903 | Physics |

Copyright 2024 All rights reserved.`,
      { title: "Marie Curie" },
    );
    expect(contents(fs)).toEqual([
      "Marie Curie was a Polish-born physicist and chemist.",
      "Marie Curie was the first woman to win a Nobel Prize.",
      "Marie Curie's husband Pierre Curie shared the 1903 prize with her.",
    ]);
    expect(fs[0]).toMatchObject({ subject: "marie curie", isStatic: true });
  });

  it("resolves 'it' to the previous subject, splits 'and it', drops calls to action", () => {
    const fs = facts(
      "The Eiffel Tower was completed in 1889. It is 330 metres tall and it attracts millions of visitors every year. Click here to buy tickets.",
    );
    expect(contents(fs)).toEqual([
      "The Eiffel Tower was completed in 1889.",
      "The Eiffel Tower is 330 metres tall.",
      "The Eiffel Tower attracts millions of visitors every year.",
    ]);
    expect(fs[0]!.subject).toBe("eiffel tower");
  });

  it("skips code blocks and questions; keeps a sentence whose pronoun has no antecedent as written, and a very long sentence whole", () => {
    const long = `The committee, which met in Geneva over several days and heard testimony from engineers, economists, historians and residents of the affected valleys, concluded that the dam should be rebuilt with a wider spillway, a new monitoring system, and a fund for the families who lost their homes in the flood, and it asked the regional government to report on progress every six months until the work is finished and the fund is fully paid out to every family that applied.`;
    const fs = facts(`Notes from the meeting.\n\n\`\`\`js\nconst x = 1;\n\`\`\`\n\nWhy did it fail? He said no.\n\n${long}`);
    expect(contents(fs)).toEqual(["He said no.", `${long.replace(/\.$/, "")}.`]);
  });

  it("makes first person in notes the user's and resolves dates", () => {
    const fs = facts("Met with the design team today. I decided to move the launch to next month. My manager Priya agreed.", {
      supportingContext: "Sarah Chen",
    });
    expect(contents(fs)).toEqual([
      "Sarah Chen met with the design team on 2026-11-20.",
      "Sarah Chen decided to move the launch to December 2026.",
      "Sarah Chen's manager Priya agreed.",
    ]);
    expect(fs[0]).toMatchObject({ eventDates: ["2026-11-20"], isStatic: false, subject: "sarah chen" });
    expect(fs[1]).toMatchObject({ eventDates: ["2026-12"], isStatic: false });
  });
});

describe("OfflineFactExtractor: relative dates anchored on the document's own date (issue #30)", () => {
  // Received (ingested) on Sunday 29 November 2026; no `date` given unless a test says so.
  const NOW = "2026-11-29T10:00:00Z";
  const undated = (content: string, extra: Partial<Parameters<typeof extractFacts>[0]> = {}) =>
    extractFacts({ chunks: [{ position: 0, content }], now: NOW, ...extra });
  const standup = "Dana will ship the mobile release on Friday. Omar is on holiday next week.";

  it("anchors a note on the date of its title line, not on the time it was received", () => {
    const fs = undated(`# Standup 3 Nov\n\n${standup}`);
    expect(contents(fs)).toEqual(["Dana will ship the mobile release on 2026-11-06.", "Omar is on holiday in the week of 2026-11-09."]);
    expect(fs.map((f) => [f.eventDates, f.isStatic])).toEqual([
      [["2026-11-06"], false],
      [["2026-11-09"], false],
    ]);
    // The same from a first line without markdown, and from the caller's title alone.
    expect(contents(undated(`Standup 3 Nov\n\n${standup}`))).toEqual(contents(fs));
    expect(contents(undated(standup, { title: "Standup 3 Nov" }))).toEqual(contents(fs));
  });

  it("takes a date without its year as the latest one not after the time received, and reads other title forms", () => {
    // 20 Dec, received 29 November 2026, is 2025-12-20 (a Saturday): "on Friday" in a plan is the next one.
    expect(contents(undated("# Notes 20 Dec\n\nThe team finished the audit yesterday. Dana will ship the fix on Friday."))).toEqual([
      "The team finished the audit on 2025-12-19.",
      "Dana will ship the fix on 2025-12-26.",
    ]);
    expect(contents(undated("# Notes — 2024-03-12\n\nThe team moved the launch to next month."))).toEqual(["The team moved the launch to April 2024."]);
    expect(contents(undated("Meeting, March 3rd 2025\n\nOmar will present the roadmap tomorrow."))).toEqual(["Omar will present the roadmap on 2025-03-04."]);
  });

  it("anchors an e-mail on its Date: header, in the header's own offset", () => {
    const mail = (date: string) =>
      `From: Dana Kim <dana@example.com>\nTo: Omar Haddad <omar@example.com>\nSubject: Mobile release\nDate: ${date}\n\nHi Omar,\n\nThe release candidate is ready. Priya will send the build to the testers tomorrow.\n\nDana`;
    const fs = undated(mail("Tue, 3 Nov 2026 09:12:00 +0000"));
    expect(find(fs, "Priya will send the build to the testers on 2026-11-04.")).toMatchObject({ eventDates: ["2026-11-04"], isStatic: false });
    // 23:30 on 3 November in California is already 4 November in UTC: "tomorrow" is still the 4th.
    expect(contents(undated(mail("Tue, 3 Nov 2026 23:30:00 -0800")))).toContain("Priya will send the build to the testers on 2026-11-04.");
  });

  it("anchors a transcript on its dated header line, and says when in each kept turn", () => {
    const fs = undated(
      "Weekly sync, 3 Nov 2026\n\nDana: I'm flying to Berlin tomorrow for the launch.\nOmar: I finished the payments migration yesterday, finally.",
    );
    expect(contents(fs)).toEqual([
      "Dana is flying to Berlin on 2026-11-04 for the launch. (Dana, 3 November 2026)",
      "Omar finished the payments migration on 2026-11-02, finally. (Omar, 3 November 2026)",
    ]);
    expect(fs.map((f) => f.eventDates)).toEqual([["2026-11-04"], ["2026-11-02"]]);
  });

  it("resolves the text under each dated heading against that heading, until the next one", () => {
    const journal = "# Journal\n\n## 2 Nov\n\nI finished the first draft of the report yesterday.\n\n## 5 Nov\n\nDana reviewed the draft yesterday.";
    expect(undated(journal).map((f) => [f.content, f.eventDates])).toEqual([
      ["The user finished the first draft of the report on 2026-11-01.", ["2026-11-01"]],
      ["Dana reviewed the draft on 2026-11-04.", ["2026-11-04"]],
    ]);
    // Lines that are only a date head their sections too; so do sessions of a chat.
    expect(
      contents(undated("Journal\n\nMonday, 2 November\nI finished the first draft yesterday.\n\nThursday, 5 November\nDana reviewed the draft yesterday.")),
    ).toEqual(["The user finished the first draft on 2026-11-01.", "Dana reviewed the draft on 2026-11-04."]);
    const sessions = undated(
      "## Session 1, 2 Nov 2026\n\nuser: I started a pottery class yesterday.\nassistant: Lovely!\n\n## Session 2, 9 Nov 2026\n\nuser: I finished my first bowl yesterday at the pottery class.",
    );
    expect(contents(sessions)).toEqual([
      "The user started a pottery class on 2026-11-01. (The user, 2 November 2026)",
      "The user finished their first bowl on 2026-11-08 at the pottery class. (The user, 9 November 2026)",
    ]);
  });

  it("keeps relative dates as written when neither the caller nor the document gives a date", () => {
    const fs = undated(`${standup} Priya moved to Leeds in March. Amy was born on 2 June 1990.`);
    expect(fs.map((f) => [f.content, f.eventDates, f.isStatic])).toEqual([
      ["Dana will ship the mobile release on Friday.", [], false],
      ["Omar is on holiday next week.", [], false],
      ["Priya moved to Leeds in March.", [], false],
      ["Priya lives in Leeds.", [], true],
      ["Amy was born on 2 June 1990.", ["1990-06-02"], false],
    ]);
    // A chat without a date says who, not when.
    expect(contents(undated("Dana: I'm flying to Berlin tomorrow for the launch.\nOmar: I finished the payments migration yesterday, finally."))).toEqual([
      "Dana is flying to Berlin tomorrow for the launch. (Dana)",
      "Omar finished the payments migration yesterday, finally. (Omar)",
    ]);
  });

  it("does not take a sentence, a speaker's words or digits without a year for the document's date", () => {
    expect(contents(undated("Dana will ship the release on 3 November. Omar is on holiday next week."))).toEqual([
      "Dana will ship the release on 3 November.",
      "Omar is on holiday next week.",
    ]);
    expect(contents(undated("Dana: Standup 3 Nov\nOmar: I finished the payments migration yesterday, finally."))).toEqual([
      "Omar finished the payments migration yesterday, finally. (Omar)",
    ]);
    expect(contents(undated(`## Section 3/4\n\n${standup}`))).toEqual(["Dana will ship the mobile release on Friday.", "Omar is on holiday next week."]);
  });

  it("lets the caller's date win over the date the text states", () => {
    // Wednesday 18 November 2026.
    expect(contents(undated(`# Standup 3 Nov\n\n${standup}`, { referenceDate: "2026-11-18T09:00:00Z" }))).toEqual([
      "Dana will ship the mobile release on 2026-11-20.",
      "Omar is on holiday in the week of 2026-11-23.",
    ]);
  });
});

describe("OfflineFactExtractor with buckets", () => {
  it("files facts into matching buckets", async () => {
    const fs = await new OfflineFactExtractor().extract({
      chunks: [{ position: 0, content: "User: I work at Google as an engineer.\nUser: I'm allergic to peanuts.\nUser: My sister lives in Boston." }],
      referenceDate: REF,
      now: REF,
      buckets: [
        { key: "work", description: "job, employer and career" },
        { key: "health", description: "allergies, conditions, diet" },
        { key: "family", description: "relatives" },
      ],
    });
    expect(fs.map((f) => [f.content, f.bucketKeys])).toEqual([
      ["The user works at Google as an engineer.", ["work"]],
      ["The user is allergic to peanuts.", ["health"]],
      ["The user's sister lives in Boston.", ["family"]],
    ]);
  });
});

describe("resolveDates", () => {
  const ref = parseReference(REF);
  it.each([
    ["I saw her yesterday", "I saw her on 2026-11-19", ["2026-11-19"]],
    ["We met 3 days ago", "We met on 2026-11-17", ["2026-11-17"]],
    ["She moved there last month", "She moved there in October 2026", ["2026-10"]],
    ["The trip is next Friday", "The trip is on 2026-11-27", ["2026-11-27"]],
    ["I start in two weeks", "I start on 2026-12-04", ["2026-12-04"]],
    ["We went there last year", "We went there in 2025", []],
    ["I visited them on Monday", "I visited them on 2026-11-16", ["2026-11-16"]],
    ["The party is on Monday", "The party is on 2026-11-23", ["2026-11-23"]],
    ["We go hiking every summer and went last summer", "We go hiking every summer and went in summer 2026", []],
    ["Her birthday is on 2024-05-01", "Her birthday is on 2024-05-01", ["2024-05-01"]],
    ["I was born in May 1990", "I was born in May 1990", ["1990-05"]],
    ["We march on and sat down at 3pm", "We march on and sat down at 3pm", []],
    // A month without its year: the past one in a past-tense sentence, the nearest one otherwise.
    ["I moved to Denver in March", "I moved to Denver in March 2026", ["2026-03"]],
    ["We got married in December", "We got married in December 2025", ["2025-12"]],
    ["I'm flying to Lisbon in March", "I'm flying to Lisbon in March 2027", ["2027-03"]],
    ["I finished the course and will graduate in March", "I finished the course and will graduate in March 2027", ["2027-03"]],
    ["She started the job in November", "She started the job in November 2026", ["2026-11"]],
  ])("%s", (input, text, dates) => {
    const r = resolveDates(input, ref);
    expect(r.text).toBe(text);
    expect(r.dates).toEqual(dates);
  });

  it("without a reference, keeps relative dates and dates without their year as written, and lists only dated ones", () => {
    expect(resolveDates("I saw her yesterday and we meet again next Friday", undefined)).toEqual({
      text: "I saw her yesterday and we meet again next Friday",
      dates: [],
      dated: true,
    });
    expect(resolveDates("We went there last summer and moved in March", undefined)).toMatchObject({
      text: "We went there last summer and moved in March",
      dates: [],
    });
    expect(resolveDates("She was born on 2 June 1990", undefined)).toMatchObject({ text: "She was born on 2 June 1990", dates: ["1990-06-02"] });
  });

  it("takes a bare weekday in a plan for the next one", () => {
    const saturday = parseReference("2026-11-21T10:00:00Z");
    expect(resolveDates("Dana will ship it on Friday", saturday).text).toBe("Dana will ship it on 2026-11-27");
    expect(resolveDates("Dana shipped it on Friday", saturday).text).toBe("Dana shipped it on 2026-11-20");
  });

  it("resolves in the reference's own time zone", () => {
    const late = parseReference("2026-11-20T23:30:00-05:00");
    expect(resolveDates("I ran yesterday", late).text).toBe("I ran on 2026-11-19");
  });
});

describe("transcript detection", () => {
  it("recognises labels, brackets, timestamps and markdown", () => {
    const t = parseTranscript("[10:32] Sarah: hi there\n[10:33] John: hello\n**User:** I like tea\n[assistant] ok");
    expect(t?.map((x) => [x.label, x.role, x.name])).toEqual([
      ["Sarah", "human", "Sarah"],
      ["John", "human", "John"],
      ["User", "human", undefined],
      ["assistant", "assistant", undefined],
    ]);
  });
  it("takes a single turn under a role label for a conversation, but not a single 'Name:' line", () => {
    expect(parseTranscript("user: Hi, I am Dana. I live in Seattle.")?.map((x) => [x.role, x.text])).toEqual([["human", "Hi, I am Dana. I live in Seattle."]]);
    expect(parseTranscript("Sarah: the report is due Monday.")).toBeUndefined();
    expect(parseTranscript("Intro line.\nuser: later label")).toBeUndefined();
  });
  it("resolves a one-turn conversation like a longer one, past opening interjections", () => {
    expect(contents(facts("user: Hi, I am Dana. I live in Seattle and I work as a nurse."))).toEqual([
      "The user's name is Dana.",
      "Dana lives in Seattle.",
      "Dana works as a nurse.",
    ]);
    expect(contents(facts("user: Big news: I moved to Portland last week!"))).toEqual([
      "The user lives in Portland.",
      "The user moved to Portland in the week of 2026-11-09. (The user, 20 November 2026)",
    ]);
  });
  it("ends a turn at a markdown heading", () => {
    expect(parseTranscript("Dana: I shipped it.\n## 5 Nov\nOmar: Thanks.\nmore from Omar")?.map((x) => [x.label, x.text])).toEqual([
      ["Dana", "I shipped it."],
      ["Omar", "Thanks.\nmore from Omar"],
    ]);
  });
  it("does not take prose with a 'Note:' line for a conversation", () => {
    expect(parseTranscript("Note: bring snacks.\nThe meeting is at noon.\nNote: call Bob.")).toBeUndefined();
  });
  it("assembles overlapping chunks once", () => {
    const a = assemble([
      { position: 0, content: "First sentence here. Second sentence here." },
      { position: 1, content: "Second sentence here. Third sentence here." },
    ]);
    expect(a.text).toBe("First sentence here. Second sentence here. Third sentence here.");
    expect(a.spans.map((s) => s.position)).toEqual([0, 1]);
  });
});
