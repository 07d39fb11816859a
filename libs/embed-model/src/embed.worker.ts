import { SentenceEncoder } from "./encoder";
import { modelFiles } from "./model-files";

export interface EmbedTask {
  /** The model folder (the pool resolved it once; every thread loads the same files). */
  dir: string;
  texts: string[];
}

let encoder: Promise<SentenceEncoder> | undefined;
let loadedFrom: string | undefined;

/** Piscina task: embeds texts with the thread's copy of the model (loaded on the thread's first task). */
export default async function embed(task: EmbedTask): Promise<Float32Array[]> {
  if (!encoder || loadedFrom !== task.dir) {
    loadedFrom = task.dir;
    encoder = SentenceEncoder.load(modelFiles(task.dir));
  }
  return (await encoder).embed(task.texts);
}
