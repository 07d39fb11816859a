import { SERVICES, type ServiceName, type Topology, topologyProblems } from "../../src/topology";

const t = (targets: ServiceName[], rest: Partial<Omit<Topology, "targets">> = {}): Topology => ({
  targets: new Set(targets),
  bus: "embedded",
  store: "embedded",
  index: "embedded",
  ...rest,
});

describe("topologyProblems", () => {
  it("accepts every service in one process on embedded engines", () => {
    expect(topologyProblems(t([...SERVICES]))).toEqual([]);
  });

  it("accepts every service alone once the engines are servers", () => {
    for (const s of SERVICES) expect(topologyProblems(t([s], { bus: "kafka", store: "mongo", index: "qdrant" }))).toEqual([]);
  });

  it("accepts a gateway or connections process without a bus", () => {
    expect(topologyProblems(t(["gateway"]))).toEqual([]);
    expect(topologyProblems(t(["connections", "gateway"]))).toEqual([]);
  });

  it("refuses an in-process bus when event participants are split", () => {
    const p = topologyProblems(t(["ingestion", "gateway"], { index: "qdrant", store: "mongo" }));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/BUS=embedded .* ingestion run here and pipeline-worker, memories elsewhere/);
  });

  it("refuses an embedded chunk index read and written in different processes", () => {
    const p = topologyProblems(t(["pipeline-worker"], { bus: "kafka" }));
    expect(p.some((m) => /INDEX=embedded .* pipeline-worker runs here without recall/.test(m))).toBe(true);
  });

  it("refuses an embedded chunk index without memories, which reads a document's chunks from it", () => {
    const p = topologyProblems(t(["pipeline-worker", "recall"], { bus: "kafka", store: "mongo", index: "embedded" }));
    expect(p.some((m) => /INDEX=embedded .* pipeline-worker, recall run here without memories: .* set INDEX=qdrant/.test(m))).toBe(true);
    const q = topologyProblems(t(["memories"], { bus: "kafka", store: "mongo", index: "qdrant" }));
    expect(q).toEqual([]);
  });

  it("refuses an embedded memory store split between memories and recall", () => {
    const p = topologyProblems(t(["recall"], { bus: "kafka", index: "qdrant" }));
    expect(p.some((m) => /embedded memory store .* recall runs here without memories/.test(m))).toBe(true);
    expect(p.some((m) => /set both STORE=mongo and INDEX=qdrant/.test(m))).toBe(true);
  });

  it("refuses half a production memory store even in one process", () => {
    expect(topologyProblems(t([...SERVICES], { store: "mongo" }))).toEqual([expect.stringMatching(/got STORE=mongo, INDEX=embedded/)]);
    expect(topologyProblems(t([...SERVICES], { store: "mongo", index: "qdrant" }))).toEqual([]);
  });
});
