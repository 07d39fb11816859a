import type { DocumentStatus, Dreaming, JsonObject, TaskType } from "@engram/kernel";
import type { ChunkerOptions } from "../domain/chunker";
import type { PreparedDocument } from "../domain/prepare";

export interface DocumentSource {
  tenantId: string;
  namespace: string;
  documentId: string;
  generation: number;
  /** False when a newer generation replaced this one: skip the work. */
  current: boolean;
  kind: "text" | "url" | "file" | "connector" | "conversation";
  text?: string;
  url?: string;
  /** File sources: the stored original. */
  bytes?: Uint8Array;
  fileName?: string;
  mimeType?: string;
  fileType?: string;
  customId?: string;
  metadata?: JsonObject;
  filepath?: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
}

/** A document's filepath as its owner (ingestion) holds it: `found` false when the document is gone. */
export interface DocumentFilepathReader {
  filepath(tenantId: string, documentId: string): Promise<{ found: boolean; filepath?: string }>;
}

/** Reads a document's source from ingestion (gRPC in every topology). */
export interface DocumentSourceReader {
  read(tenantId: string, namespace: string, documentId: string, generation: number, traceparent?: string): Promise<DocumentSource | undefined>;
}

export interface ExtractedText {
  text: string;
  title?: string;
  contentType: string;
}

/** Turns a source (text, URL or file) into clean text. Throws UnprocessableDocumentError for input that can never work. */
export interface Extractor {
  /** `signal`: the process is stopping; the extraction is abandoned (its thread terminated) and rejects with its reason. */
  extract(source: DocumentSource, signal?: AbortSignal): Promise<ExtractedText>;
}

/**
 * Chunks a document's text and analyses each chunk (and embeds it when the
 * embedder runs locally), and summarises the text: work that grows with the document, so the adapter
 * runs it where it cannot stall serving (worker threads), under a time budget.
 * With `content`, the document's content the text was extracted from, chunk
 * offsets are positions in the content; without, in the text.
 * Throws UnprocessableDocumentError when the budget or memory is exhausted.
 */
export interface ChunkPreparer {
  /** `signal`: the process is stopping; the work is abandoned (its thread terminated) and rejects with its reason. */
  prepare(text: string, chunking: ChunkerOptions, content?: string, signal?: AbortSignal): Promise<PreparedDocument>;
}

export interface StateChange {
  tenantId: string;
  namespace: string;
  documentId: string;
  generation: number;
  status: DocumentStatus;
  sequence: number;
  reason?: string;
  title?: string;
  contentType?: string;
  /** The document's summary (summary.ts), with the final state of its processing. */
  summary?: string;
  /** Trace context of the request that queued the document. */
  traceparent?: string;
}

/** Publishes pipeline progress (DocumentStateChanged, DocumentIndexed). */
export interface PipelineEvents {
  /** Publishes a state; with `indexed`, DocumentIndexed follows in the same (atomic) publish. */
  stateChanged(change: StateChange, indexed?: IndexedInfo): Promise<void>;
}

export interface IndexedInfo {
  tenantId: string;
  namespace: string;
  documentId: string;
  generation: number;
  chunkCount: number;
  title?: string;
  contentType?: string;
  customId?: string;
  taskType: TaskType | undefined;
  dreaming: Dreaming | undefined;
  traceparent?: string;
}
