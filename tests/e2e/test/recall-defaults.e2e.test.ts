import { apiClient, type EngramProcess, startEngram } from "@engram/testing";
import { type Api, MIRELA_MEMORIES, MIRELA_QUESTIONS, stopQuietly, waitDone } from "./helpers";

/**
 * Issue #15's examples, through the REST API at the default settings a new
 * client gets (no threshold sent: 0.6; memories mode; offline embedder and
 * extractor): the memory that answers a plain question comes back, a
 * question about someone else returns nothing, and notes form the memories
 * (and the update) a later question needs.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are arbitrary JSON here */
type Body = Record<string, any>;

const KEY = "recall-defaults-key-0123456789abcdef";

async function search(api: Api, body: Body): Promise<Body[]> {
  const res = await api("POST", "/v4/search", body);
  expect(res.status).toBe(200);
  for (const r of res.body.results) {
    expect(r.similarity).toBeGreaterThanOrEqual(0.6);
    expect(r.similarity).toBeLessThanOrEqual(1);
  }
  return res.body.results;
}

describe("recall at the default settings", () => {
  let engram: EngramProcess;
  let api: Api;

  beforeAll(async () => {
    engram = await startEngram({ apiKey: KEY });
    api = apiClient(engram.url, KEY);
    const res = await api("POST", "/v4/memories", {
      containerTag: "t1",
      memories: [
        { content: "Ilse Marr is allergic to penicillin." },
        { content: "Ilse Marr is training for the Lisbon half marathon in March." },
        { content: "Ilse Marr drinks her coffee black." },
      ],
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => stopQuietly(engram));

  it.each([
    ["what medicine is Ilse allergic to", "penicillin"],
    ["which race is Ilse training for", "marathon"],
    ["how does Ilse take her coffee", "coffee"],
  ])("%p answers with the memory that holds %p, first", async (q, word) => {
    const results = await search(api, { q, containerTag: "t1" });
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.memory).toContain(word);
  });

  describe("recall by meaning in a container about one person (issue #30)", () => {
    beforeAll(async () => {
      const res = await api("POST", "/v4/memories", {
        containerTag: "mirela",
        memories: MIRELA_MEMORIES,
      });
      expect(res.status).toBe(201);
    });

    it.each(MIRELA_QUESTIONS)("%p answers first with the memory about %p", async (q, word) => {
      const results = await search(api, { q, containerTag: "mirela" });
      expect(results[0]?.memory).toContain(word);
    });

    it("a question that matches only the person's name finds nothing, and one about someone else neither", async () => {
      expect(await search(api, { q: "what is Mirela's favourite colour", containerTag: "mirela" })).toEqual([]);
      expect(await search(api, { q: "where does Caroline live", containerTag: "mirela" })).toEqual([]);
    });
  });

  it("a question about someone the container never mentions returns nothing", async () => {
    expect(await search(api, { q: "what medicine is Tomasz Weber allergic to", containerTag: "t1" })).toEqual([]);
    expect(await search(api, { q: "where does Caroline paint on weekends", containerTag: "t1" })).toEqual([]);
  });

  it("semantic forgetting selects the memory the topic is about, not every memory that shares a name with it", async () => {
    for (const query of ["forget that Ilse is allergic to penicillin", "forget Ilse's coffee"]) {
      const res = await api("POST", "/v4/memories/forget-matching", { containerTag: "t1", query, dryRun: true });
      expect(res.status).toBe(200);
      const picked = (res.body.candidates as Body[]).map((c) => c.memory ?? c.content);
      expect(picked).toHaveLength(1);
      expect(picked[0]).toContain(query.includes("coffee") ? "coffee" : "penicillin");
    }
  });

  it("hybrid and documents modes answer at the default threshold too", async () => {
    const add = await api("POST", "/ns/t2/document?taskType=superrag", {
      id: "travel",
      content:
        "Travel notes. The ferry to Hvar leaves Split at 9:15 every morning and takes two hours. Book the return ticket at the harbour office.\n\nThe museum in Split is closed on Mondays.",
    });
    expect(add.status).toBeLessThan(300);
    await waitDone(api, "t2", "travel");
    for (const searchMode of ["hybrid", "documents"]) {
      const results = await search(api, { q: "when does the ferry to Hvar leave", containerTag: "t2", searchMode });
      expect(results.length).toBeGreaterThan(0);
      expect(JSON.stringify(results[0])).toContain("9:15");
    }
  });

  it("a conversation added session by session answers plain questions in memories mode, dates included", async () => {
    const sessions = [
      {
        id: "s1",
        date: "2024-03-02T18:30:00.000Z",
        content: `Ana: Guess what, I went to a pottery class yesterday! The teacher showed us how to glaze a bowl.
Ben: That sounds fun. Did you make anything?
Ana: A small blue bowl for my mum. It cracked in the kiln though, so I'll try again next week.
Ben: I've been busy too, I started volunteering at the animal shelter on Saturdays.`,
      },
      {
        id: "s2",
        date: "2024-04-14T09:00:00.000Z",
        content: `Ben: How did the second try go?
Ana: Much better, the new bowl survived the kiln and my mum loved it.
Ben: Nice! The shelter asked me to train the new volunteers.`,
      },
    ];
    for (const s of sessions) {
      const res = await api("POST", "/ns/chat1/document?taskType=memory", s);
      expect(res.status).toBeLessThan(300);
      expect((await waitDone(api, "chat1", s.id)).system.status).toBe("done");
    }
    const top = async (q: string) => (await search(api, { q, containerTag: "chat1" })).map((r) => r.memory as string);
    expect((await top("When did Ana go to the pottery class?"))[0]).toContain("2024-03-01");
    expect((await top("What did the pottery teacher show Ana?"))[0]).toContain("glaze a bowl");
    expect((await top("Where does Ben volunteer?")).join(" ")).toContain("animal shelter");
    expect((await top("Did Ana's mum like the bowl?")).join(" ")).toContain("loved it");
    // A question about people this conversation never mentions.
    expect(await top("What did Priya and Tomasz cook for the wedding?")).toEqual([]);
  });

  it("notes form the memories a question needs; a later update is the latest version of the earlier fact", async () => {
    const notes = [
      {
        id: "call-1",
        date: "2025-05-03T00:00:00.000Z",
        content:
          "Call notes, 3 May 2025. Tomasz Weber said he is moving from Gdansk to Leipzig in August to join a robotics start-up. He prefers meetings before 10am.",
      },
      {
        id: "call-2",
        date: "2025-09-02T00:00:00.000Z",
        content: "Update, 2 September 2025: Tomasz Weber has moved to Dresden, not Leipzig; the start-up relocated.",
      },
    ];
    for (const n of notes) {
      const res = await api("POST", "/ns/t3/document?taskType=memory", n);
      expect(res.status).toBeLessThan(300);
      expect((await waitDone(api, "t3", n.id)).system.status).toBe("done");
    }
    const when = await search(api, { q: "when does Tomasz like to have meetings", containerTag: "t3" });
    expect(when[0]?.memory).toContain("before 10am");

    const where = await search(api, { q: "which city did Tomasz Weber move to", containerTag: "t3", include: { relatedMemories: true } });
    expect(where[0]?.memory).toContain("Dresden");
    expect(where[0]?.version).toBe(2);
    const parents = (where[0]?.context?.parents ?? []) as Body[];
    expect(parents.map((p) => p.memory).join(" ")).toContain("Leipzig");
    // The earlier version is not a result of its own: only latest versions are searched.
    expect(where.filter((r) => r.memory.includes("Leipzig") && !r.memory.includes("Dresden"))).toEqual([]);
  });
});
