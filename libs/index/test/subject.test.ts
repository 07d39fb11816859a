import { analyze, partitionKey, SearchEngine, subjectRuns } from "../src";
import { SubjectProjection } from "../src/engine/subject";

const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(v.map((x) => x / n));
};

describe("subject runs", () => {
  it("are the capitalised runs of a query, stop words and possessives left out", () => {
    expect(subjectRuns("where does Mirela Horvat live")).toEqual([{ text: "Mirela Horvat", terms: analyze("Mirela Horvat") }]);
    expect(subjectRuns("Did Caroline meet Melanie's sister?").map((r) => r.text)).toEqual(["Caroline", "Melanie"]);
    expect(subjectRuns("What does she do for a living")).toEqual([]);
    expect(subjectRuns("Is Xiaoling teetotal").map((r) => r.text)).toEqual(["Xiaoling"]);
  });
});

describe("SubjectProjection", () => {
  it("measures the cosine of what the query and the record say beside the subject", () => {
    // Axis 0: the subject (a name); axes 1 and 2: two topics.
    const subject = unit([1, 0, 0]);
    const query = unit([0.95, 0.31, 0]); // mostly the name, and topic 1
    const p = SubjectProjection.of(query, [subject])!;
    const onTopic = unit([0.5, 0.866, 0]);
    const shortOffTopic = unit([0.99, 0, 0.14]); // mostly name: the raw cosine prefers it
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(dot(query, shortOffTopic)).toBeGreaterThan(dot(query, onTopic));
    expect(p.cosineAt(onTopic, 0)).toBeCloseTo(1, 6);
    expect(p.cosineAt(shortOffTopic, 0)).toBeCloseTo(0, 6);
  });

  it("removes nothing when the query is all subject, and reads a record at an offset", () => {
    expect(SubjectProjection.of(unit([1, 0, 0]), [unit([1, 0, 0])])).toBeUndefined();
    expect(SubjectProjection.of(unit([1, 1, 0]), [])).toBeUndefined();
    const p = SubjectProjection.of(unit([1, 1, 0]), [unit([1, 0, 0]), unit([1, 0.0000001, 0])])!; // a second, dependent subject adds nothing
    const data = Float32Array.from([9, 9, 9, ...unit([0, 1, 0])]);
    expect(p.cosineAt(data, 3)).toBeCloseTo(1, 5);
  });
});

describe("SearchEngine with subjects", () => {
  // Toy model: axis 0 = the person's name, 1 = residence, 2 = work, 3 = music.
  const records = [
    { rid: 1, text: "Ana Silva is a nurse.", vector: unit([0.9, 0, 0.44, 0]) },
    { rid: 2, text: "Ana Silva moved to Porto in 2020 with her partner and two cats.", vector: unit([0.4, 0.6, 0, 0.69]) },
    { rid: 3, text: "Ana Silva sings in a choir every Thursday evening.", vector: unit([0.5, 0, 0, 0.85]) },
  ];
  const key = partitionKey("t", "ana");
  const engine = new SearchEngine({ load: () => records.map((r) => ({ ...r, model: "toy" })) });
  const calibration = { floor: 0.05, full: 0.25 };
  const ask = (text: string, vector: Float32Array, subjects?: { terms: string[]; vector: Float32Array }[]) =>
    engine.search({ partitions: [key], text, vector, model: "toy", denseWeight: 0.5, calibration, limit: 3, ...(subjects ? { subjects } : {}) });

  it("ranks by what the question asks once the scope's subject is taken out", () => {
    const q = unit([0.85, 0.5, 0, 0]); // "where does Ana live": mostly the name
    const name = unit([1, 0, 0, 0]);
    // Without the subject, the shortest record (mostly name) has the highest raw cosine.
    expect(ask("where does Ana live", q)[0]!.rid).toBe(1);
    const subjects = subjectRuns("where does Ana live").map((r) => ({ terms: r.terms, vector: name }));
    expect(ask("where does Ana live", q, subjects)[0]!.rid).toBe(2);
  });

  it("keeps a subject the scope does not share (a name only one record holds)", () => {
    const q = unit([0.3, 0, 0, 0.95]);
    const porto = unit([0, 1, 0, 0]);
    // "Porto" is in one record of three (below SUBJECT_SHARE): not the scope's subject, nothing is removed.
    const withPorto = ask("does Ana sing in Porto", q, [{ terms: analyze("Porto"), vector: porto }]);
    const without = ask("does Ana sing in Porto", q);
    expect(withPorto.map((h) => [h.rid, h.similarity])).toEqual(without.map((h) => [h.rid, h.similarity]));
  });
});
