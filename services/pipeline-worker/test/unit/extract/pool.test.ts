import { execFile } from "node:child_process";
import path from "node:path";
import { ExtractionPool } from "../../../src/adapters/extract/pool";

/*
 * jest compiles TypeScript itself (swc) and worker threads cannot load .ts
 * files here, so the pool is exercised the way the service runs it: a child
 * process `node --import tsx runtime-check.ts`, with every network access
 * refused (no-network.cjs, loaded by the worker threads too).
 */
const root = path.resolve(__dirname, "../../../../..");

function runCheck(): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--require", path.join(__dirname, "no-network.cjs"), "--import", "tsx", path.join(__dirname, "runtime-check.ts")],
      { cwd: root, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve({ stdout, stderr })),
    );
  });
}

describe("ExtractionPool (worker threads under node --import tsx)", () => {
  let result: {
    pdf: { title: string; pages: number; text: string };
    invalid: { failed: boolean; unprocessable: boolean; name: string; reason: string };
    image: { contentType: string; text: string };
    pooled: { pages: number; chars: number; maxLoopGapMs: number };
    timeout: { failed: boolean; unprocessable: boolean; reason: string; afterMs: number };
    prepare: {
      chunks: number;
      sameAsInline: boolean;
      summary?: string;
      withVectors: boolean;
      oneWord: { chunks: number; maxChars: number; vectors: boolean };
      timeout: { failed: boolean; unprocessable: boolean; reason: string };
    };
  };
  let stderr = "";

  beforeAll(async () => {
    const out = await runCheck();
    stderr = out.stderr;
    result = JSON.parse(out.stdout.trim().split("\n").pop()!);
  }, 120_000);

  it("extracts in a worker thread", () => {
    expect(result.pdf.pages).toBe(1);
    expect(result.pdf.text).toContain("There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on January 23, 2023.");
  });

  it("returns the worker's UnprocessableDocumentError with its reason", () => {
    expect(result.invalid).toEqual({
      failed: true,
      unprocessable: true,
      name: "UnprocessableDocumentError",
      reason: "the file is not a valid PDF (it may be truncated or renamed)",
    });
  });

  it("keeps the event loop free while a 100-page PDF is extracted", () => {
    expect(result.pooled.pages).toBe(100);
    expect(result.pooled.maxLoopGapMs).toBeLessThan(250);
  });

  it("stops a task over its time limit and fails it with a reason", () => {
    expect(result.timeout).toMatchObject({ failed: true, unprocessable: true });
    expect(result.timeout.reason).toMatch(/^extraction took longer than 150 ms and was stopped/);
    expect(result.timeout.afterMs).toBeLessThan(5_000);
  });

  it("chunks, analyses and embeds in a worker thread exactly as on the calling thread", () => {
    expect(result.prepare.chunks).toBeGreaterThan(10);
    expect(result.prepare.sameAsInline).toBe(true);
    // the summary is made on the worker thread too: one of the paragraphs, which all say the same
    expect(result.prepare.summary).toMatch(/^Paragraph \d+: the committee reviewed running costs and agreed on storage budgets\.$/);
    expect(result.prepare.withVectors).toBe(true);
  });

  it("prepares a megabyte of one word as bounded chunks, without vectors when none were asked for", () => {
    expect(result.prepare.oneWord).toEqual({ chunks: Math.ceil(1_000_000 / 3072), maxChars: 3072, vectors: false });
  });

  it("stops a preparation over the time limit and fails it with a reason", () => {
    expect(result.prepare.timeout).toMatchObject({ failed: true, unprocessable: true });
    expect(result.prepare.timeout.reason).toMatch(/^indexing took longer than 150 ms and was stopped; split the document/);
  });

  it("runs OCR in a worker thread without any network access", () => {
    expect(result.image.contentType).toBe("image");
    expect(result.image.text.replace(/\s+/g, " ")).toContain("There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on January 23");
    expect(stderr).not.toContain("NETWORK ATTEMPT");
  });

  it("refuses a pool without threads", () => {
    expect(() => new ExtractionPool({ threads: 0, timeoutMs: 1000 })).toThrow(/at least one thread/);
  });
});
