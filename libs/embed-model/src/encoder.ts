import fs from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import * as ort from "onnxruntime-node";
import type { ModelFiles } from "./model-files";

/**
 * One loaded copy of the model: the tokenizer (Hugging Face's own tokenizers.js, reading the model's
 * tokenizer.json) and an onnxruntime session. Runs on the thread that calls it, synchronously inside
 * onnxruntime, so only worker threads use it (embed.worker.ts).
 */
export class SentenceEncoder {
  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly session: ort.InferenceSession,
    private readonly files: ModelFiles,
  ) {}

  static async load(files: ModelFiles, intraOpThreads = 1): Promise<SentenceEncoder> {
    const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(files.tokenizer, "utf8")), JSON.parse(fs.readFileSync(files.tokenizerConfig, "utf8")));
    const session = await ort.InferenceSession.create(files.onnx, { intraOpNumThreads: intraOpThreads, interOpNumThreads: 1, graphOptimizationLevel: "all" });
    return new SentenceEncoder(tokenizer, session, files);
  }

  /** Word-piece ids of a text, [CLS] … [SEP], cut to the model's length (the cut keeps the closing [SEP]). */
  ids(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    const max = this.files.manifest.maxTokens;
    return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1]!];
  }

  /**
   * Unit-length sentence vectors, one text per model run: the int8 model quantises activations over the
   * whole input, so a batch would make a text's vector depend on its neighbours; one at a time, a text
   * always gets the same vector.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const { dimensions, output } = this.files.manifest;
    for (const text of texts) {
      const ids = this.ids(text);
      const n = ids.length;
      const feeds = {
        input_ids: new ort.Tensor(
          "int64",
          BigInt64Array.from(ids, (x) => BigInt(x)),
          [1, n],
        ),
        attention_mask: new ort.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]),
      };
      const result = await this.session.run(feeds);
      const data = result[output]!.data as Float32Array;
      out.push(Float32Array.from(data.subarray(0, dimensions)));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
