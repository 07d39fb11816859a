/**
 * Which services share this process, and which backing engines they use.
 * Embedded engines live inside one process; services that must share one
 * (a bus, the chunk index, the memory store) can only be split across
 * processes once that engine is a server. `topologyProblems` names every
 * impossible mix at start-up instead of letting events or reads go missing.
 */
export const SERVICES = ["ingestion", "pipeline-worker", "memories", "recall", "connections", "gateway"] as const;
export type ServiceName = (typeof SERVICES)[number];

export type BusKind = "embedded" | "kafka";
export type StoreKind = "embedded" | "mongo";
export type IndexKind = "embedded" | "qdrant";

export interface Topology {
  targets: ReadonlySet<ServiceName>;
  bus: BusKind;
  store: StoreKind;
  index: IndexKind;
}

/** Services that publish or consume document-state events. */
export const BUS_PARTICIPANTS: readonly ServiceName[] = ["ingestion", "pipeline-worker", "memories"];
/** The chunk index: pipeline-worker writes it, recall and memories (memory formation reads a document's chunks) read it. */
export const CHUNK_INDEX_USERS: readonly ServiceName[] = ["pipeline-worker", "recall", "memories"];
/** The chunk index's writer, which owns its collection; the other users only read it (and open it read-only). */
export const CHUNK_INDEX_WRITERS: readonly ServiceName[] = ["pipeline-worker"];
/** The memory store: memories writes it, recall reads it. */
export const MEMORY_STORE_USERS: readonly ServiceName[] = ["memories", "recall"];

/** The memory store is production (records in MongoDB, search in Qdrant) only with both engines. */
export function memoryStoreKind(t: Pick<Topology, "store" | "index">): "embedded" | "production" {
  return t.store === "mongo" && t.index === "qdrant" ? "production" : "embedded";
}

function split(targets: ReadonlySet<ServiceName>, users: readonly ServiceName[]): { here: ServiceName[]; elsewhere: ServiceName[] } {
  return { here: users.filter((s) => targets.has(s)), elsewhere: users.filter((s) => !targets.has(s)) };
}

export function topologyProblems(t: Topology): string[] {
  const problems: string[] = [];
  const bus = split(t.targets, BUS_PARTICIPANTS);
  if (t.bus === "embedded" && bus.here.length > 0 && bus.elsewhere.length > 0) {
    problems.push(
      `BUS=embedded delivers events only inside one process, but ${bus.here.join(", ")} run here and ${bus.elsewhere.join(", ")} elsewhere: ` +
        `run them together (TARGETS=all) or set BUS=kafka`,
    );
  }
  const chunks = split(t.targets, CHUNK_INDEX_USERS);
  if (t.index === "embedded" && chunks.here.length > 0 && chunks.elsewhere.length > 0) {
    problems.push(
      `INDEX=embedded keeps the chunk index inside one process, but ${chunks.here.join(", ")} ${chunks.here.length === 1 ? "runs" : "run"} here ` +
        `without ${chunks.elsewhere.join(", ")}: run ${CHUNK_INDEX_USERS.join(", ")} together or set INDEX=qdrant`,
    );
  }
  const memories = split(t.targets, MEMORY_STORE_USERS);
  if (memoryStoreKind(t) === "embedded" && memories.here.length === 1) {
    problems.push(
      `the embedded memory store lives inside one process, but ${memories.here[0]} runs here without ${memories.elsewhere[0]}: ` +
        `run memories and recall together or set STORE=mongo and INDEX=qdrant`,
    );
  }
  if (memories.here.length > 0 && (t.store === "mongo") !== (t.index === "qdrant")) {
    problems.push(
      `the production memory store keeps records in MongoDB and searches them in Qdrant: set both STORE=mongo and INDEX=qdrant, or neither ` +
        `(got STORE=${t.store}, INDEX=${t.index})`,
    );
  }
  return problems;
}
