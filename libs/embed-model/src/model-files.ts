import fs from "node:fs";
import path from "node:path";

/** What `model/model.json` says of the shipped model (written by convert/convert_minilm.py). */
export interface ModelManifest {
  id: string;
  dimensions: number;
  /** Word pieces the model reads, [CLS] and [SEP] included; longer texts are cut. */
  maxTokens: number;
  inputs: string[];
  output: string;
  sha256: string;
  bytes: number;
}

export interface ModelFiles {
  dir: string;
  manifest: ModelManifest;
  onnx: string;
  tokenizer: string;
  tokenizerConfig: string;
}

const MANIFEST = "model.json";

/**
 * The model's folder: `ENGRAM_EMBED_MODEL_DIR` when set, else `libs/embed-model/model` found by walking
 * up from this module (the sources under tsx, and the bundle in dist/, whose image copies the folder
 * beside it). Throws naming where it looked: the model ships with Engram and is never downloaded.
 */
export function modelFiles(dir = process.env.ENGRAM_EMBED_MODEL_DIR): ModelFiles {
  const found = dir ? path.resolve(dir) : findUp(__dirname);
  if (!found || !fs.existsSync(path.join(found, MANIFEST))) {
    throw new Error(
      `the embedding model was not found (${dir ? `ENGRAM_EMBED_MODEL_DIR=${dir}` : "libs/embed-model/model above " + __dirname}); it ships with Engram in libs/embed-model/model`,
    );
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(found, MANIFEST), "utf8")) as ModelManifest;
  return {
    dir: found,
    manifest,
    onnx: path.join(found, "model.int8.onnx"),
    tokenizer: path.join(found, "tokenizer.json"),
    tokenizerConfig: path.join(found, "tokenizer_config.json"),
  };
}

function findUp(start: string): string | undefined {
  let d = start;
  for (;;) {
    for (const candidate of [path.join(d, "model"), path.join(d, "libs", "embed-model", "model")]) {
      if (fs.existsSync(path.join(candidate, MANIFEST))) return candidate;
    }
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}
