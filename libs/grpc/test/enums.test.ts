import { protoEnum } from "../src/enums";
import { Provider } from "../src/gen/engram/connections/v1/Provider";
import { SyncErrorCode } from "../src/gen/engram/connections/v1/SyncErrorCode";
import { SyncRunStatus } from "../src/gen/engram/connections/v1/SyncRunStatus";
import { DOCUMENT_STATUSES, DREAMING_MODES, isFinalStatus, MEMORY_RELATIONS, SOURCE_KINDS, statusRank, TASK_TYPES } from "@engram/kernel";

describe("protoEnum.status", () => {
  it.each(DOCUMENT_STATUSES)("round-trips %s", (s) => {
    const proto = protoEnum.status.to(s);
    expect(proto).toBe(`DOCUMENT_STATUS_${s.toUpperCase()}`);
    expect(protoEnum.status.from(proto)).toBe(s);
  });

  it("maps missing, unspecified and foreign values to unknown", () => {
    expect(protoEnum.status.from(undefined)).toBe("unknown");
    expect(protoEnum.status.from("")).toBe("unknown");
    expect(protoEnum.status.from("DOCUMENT_STATUS_UNSPECIFIED")).toBe("unknown");
    expect(protoEnum.status.from("DOCUMENT_STATUS_EXPLODED")).toBe("unknown");
    expect(protoEnum.status.from("TASK_TYPE_MEMORY")).toBe("unknown");
    expect(protoEnum.status.from("done")).toBe("unknown");
  });
});

describe("protoEnum.taskType", () => {
  it.each(TASK_TYPES)("round-trips %s", (t) => {
    expect(protoEnum.taskType.from(protoEnum.taskType.to(t))).toBe(t);
  });

  it("uses UNSPECIFIED for an absent value and reads it back as undefined", () => {
    expect(protoEnum.taskType.to(undefined)).toBe("TASK_TYPE_UNSPECIFIED");
    expect(protoEnum.taskType.from("TASK_TYPE_UNSPECIFIED")).toBeUndefined();
    expect(protoEnum.taskType.from("DREAMING_DYNAMIC")).toBeUndefined();
  });
});

describe("protoEnum.dreaming", () => {
  it.each(DREAMING_MODES)("round-trips %s", (d) => {
    expect(protoEnum.dreaming.to(d)).toBe(`DREAMING_${d.toUpperCase()}`);
    expect(protoEnum.dreaming.from(protoEnum.dreaming.to(d))).toBe(d);
  });

  it("uses UNSPECIFIED for an absent value and reads it back as undefined", () => {
    expect(protoEnum.dreaming.to(undefined)).toBe("DREAMING_UNSPECIFIED");
    expect(protoEnum.dreaming.from("DREAMING_UNSPECIFIED")).toBeUndefined();
    expect(protoEnum.dreaming.from(undefined)).toBeUndefined();
  });
});

describe("protoEnum.sourceKind and memoryRelation", () => {
  it.each(SOURCE_KINDS)("round-trips source kind %s", (k) => {
    expect(protoEnum.sourceKind.to(k)).toBe(`SOURCE_KIND_${k.toUpperCase()}`);
    expect(protoEnum.sourceKind.from(protoEnum.sourceKind.to(k))).toBe(k);
  });

  it.each(MEMORY_RELATIONS)("round-trips relation %s", (r) => {
    expect(protoEnum.memoryRelation.from(protoEnum.memoryRelation.to(r))).toBe(r);
  });

  it("reads numbers, unspecified and foreign names as undefined", () => {
    expect(protoEnum.sourceKind.from(2)).toBeUndefined();
    expect(protoEnum.sourceKind.from("SOURCE_KIND_UNSPECIFIED")).toBeUndefined();
    expect(protoEnum.memoryRelation.from("DOCUMENT_STATUS_DONE")).toBeUndefined();
  });
});

describe("connection enums", () => {
  it.each([
    ["provider", Provider, protoEnum.provider],
    ["sync run status", SyncRunStatus, protoEnum.syncRunStatus],
    ["sync error code", SyncErrorCode, protoEnum.syncErrorCode],
  ] as const)("every %s of the protos has its API value and back", (_name, names, map) => {
    for (const name of Object.keys(names).filter((n) => !n.endsWith("_UNSPECIFIED"))) {
      const value = map.from(name);
      expect(value).toBeDefined();
      expect(map.to(value as never)).toBe(name);
    }
  });

  it("spells hyphenated providers with underscores in the protos", () => {
    expect(protoEnum.provider.to("google-drive")).toBe("PROVIDER_GOOGLE_DRIVE");
    expect(protoEnum.provider.from("PROVIDER_WEB_CRAWLER")).toBe("web-crawler");
    expect(protoEnum.provider.from("PROVIDER_UNSPECIFIED")).toBeUndefined();
  });
});

describe("status helpers", () => {
  it("only done and failed are final", () => {
    expect(DOCUMENT_STATUSES.filter(isFinalStatus)).toEqual(["done", "failed"]);
  });

  it("ranks pipeline states in order", () => {
    const order = ["queued", "extracting", "chunking", "embedding", "indexing", "done"] as const;
    for (let i = 1; i < order.length; i++) expect(statusRank(order[i]!)).toBeGreaterThan(statusRank(order[i - 1]!));
  });
});
