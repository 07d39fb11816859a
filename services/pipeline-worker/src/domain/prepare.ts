import { analyzeForStorage, HashingEmbedder } from "@engram/index";
import { chunkText, type ChunkerOptions, type TextChunk } from "./chunker";
import { spansInContent } from "./source-offsets";
import { summarize } from "./summary";

/**
 * The CPU-bound part of indexing a document, as one pure step: chunk the
 * text, place the chunks in the document's content (see source-offsets.ts),
 * analyse each chunk's terms (tokenise, stem: the stored analysis the chunk
 * index keeps), and, when the embedder is the offline hashing one, compute
 * its vectors too. It runs on a worker thread (the extraction pool), so its
 * cost, which grows with the document, never stalls the thread that serves
 * requests; the main thread only writes the result.
 */
export interface PrepareInput {
  text: string;
  /**
   * The document's content when `text` was extracted from it (text, conversation and connector documents):
   * chunk offsets are then positions in it. Without it (files, URLs: the content is not their text) they are positions in `text`.
   */
  content?: string;
  chunking: ChunkerOptions;
  /** Dimensions of the offline hashing embedder when it is the configured one: vectors are made here. */
  hashingDimensions?: number;
}

export interface PreparedChunk extends TextChunk {
  /** `analyzeForStorage(content)`: the chunk's stems in order, space-separated. */
  analyzed: string;
  /** The chunk's vector when the embedder runs locally (hashing); absent for a remote embedder. */
  vector?: Float32Array;
}

/** A document's chunks and its summary (summary.ts), when it has a sentence worth keeping. */
export interface PreparedDocument {
  chunks: PreparedChunk[];
  summary?: string;
}

/** The chunks and the summary of a document's text: the whole CPU-bound step the worker thread runs. */
export function prepareDocument(input: PrepareInput): PreparedDocument {
  const summary = summarize(input.text);
  return { chunks: prepareChunks(input), ...(summary !== undefined ? { summary } : {}) };
}

export function prepareChunks(input: PrepareInput): PreparedChunk[] {
  const embedder = input.hashingDimensions ? new HashingEmbedder(input.hashingDimensions) : undefined;
  let chunks = chunkText(input.text, input.chunking);
  if (input.content !== undefined && input.content !== input.text) {
    const spans = spansInContent(
      input.content,
      input.text,
      chunks.map((c) => ({ start: c.startOffset, end: c.endOffset })),
    );
    chunks = chunks.map((c, i) => ({ ...c, startOffset: spans[i]!.start, endOffset: spans[i]!.end }));
  }
  return chunks.map((c) => ({
    ...c,
    analyzed: analyzeForStorage(c.content),
    ...(embedder ? { vector: embedder.embedOne(c.content) } : {}),
  }));
}
