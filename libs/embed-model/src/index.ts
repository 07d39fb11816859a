export { LocalModelEmbedder, MINILM_CALIBRATION, type LocalEmbedderOptions } from "./local-embedder";
export { modelFiles, type ModelFiles, type ModelManifest } from "./model-files";
export { SentenceEncoder } from "./encoder";
