import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { runTsxCheck } from "@engram/testing";
import { modelFiles, SentenceEncoder } from "../src";

describe("the shipped sentence-embedding model", () => {
  const files = modelFiles();
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    encoder = await SentenceEncoder.load(files);
  });
  afterAll(() => encoder.close());

  it("is the file its manifest names (sha256), and the folder carries its licence and card", () => {
    const digest = createHash("sha256").update(fs.readFileSync(files.onnx)).digest("hex");
    expect(digest).toBe(files.manifest.sha256);
    expect(files.manifest.dimensions).toBe(384);
    expect(fs.readFileSync(path.join(files.dir, "MODEL_CARD.md"), "utf8")).toMatch(/license: apache-2.0/);
    expect(fs.existsSync(path.join(files.dir, "LICENSE"))).toBe(true);
  });

  it("tokenizes as BERT's uncased word pieces, [CLS] … [SEP], and cuts long texts keeping [SEP]", () => {
    expect(encoder.ids("A man is eating food.")).toEqual([101, 1037, 2158, 2003, 5983, 2833, 1012, 102]);
    const long = encoder.ids("word ".repeat(600));
    expect(long).toHaveLength(files.manifest.maxTokens);
    expect(long[0]).toBe(101);
    expect(long.at(-1)).toBe(102);
  });
});

/* onnxruntime's tensors check typed arrays against the realm they were made in, which jest's sandbox is not: the model runs in a child process under `node --import tsx`. */
describe("the model run (node --import tsx): the encoder, and LocalModelEmbedder on worker threads", () => {
  let r: {
    abort: string;
    closedMidBatch: string;
    same: boolean;
    count: number;
    dims: number;
    id: string;
    semantic: boolean;
    norms: number[];
    cos: Record<string, number>;
    batchIndependent: boolean;
  };
  beforeAll(async () => {
    r = await runTsxCheck(path.join(__dirname, "threaded-check.ts"));
  }, 120_000);

  it("gives unit vectors that carry meaning: a question is closer to the fact that answers it than to the person's other facts", () => {
    for (const n of r.norms) expect(Math.abs(n - 1)).toBeLessThan(1e-4);
    expect(r.cos.liveMoved).toBeGreaterThan(r.cos.liveVet!);
    expect(r.cos.animalsHens).toBeGreaterThan(r.cos.animalsMoved!);
    // Unrelated sentences sit near 0 (the reference model gives about -0.04 for this pair).
    expect(Math.abs(r.cos.foodMovie!)).toBeLessThan(0.15);
  });

  it("gives a text the same vector whatever it is embedded with", () => {
    expect(r.batchIndependent).toBe(true);
  });

  it("embeds on worker threads exactly what the encoder gives on the calling thread, for documents and queries", () => {
    expect({ same: r.same, count: r.count, dims: r.dims, id: r.id, semantic: r.semantic }).toEqual({
      same: true,
      count: 20,
      dims: 384,
      id: "local:all-minilm-l6-v2-int8",
      semantic: true,
    });
  });

  it("stops a long embedding between batches when its signal aborts, and closing mid-batch lets the batch end (the process survives)", () => {
    expect(r.abort).toBe("the process is stopping");
    // Reaching here at all means the process was not aborted by a thread cut off inside onnxruntime.
    expect(["finished", "rejected"]).toContain(r.closedMidBatch);
  });
});
