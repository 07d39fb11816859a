import path from "node:path";
import { type GuardedFetcher, UrlFetchError, UrlRefusedError } from "@engram/fetch";
import { UnprocessableDocumentError } from "../domain/errors";
import type { DocumentSource, ExtractedText, Extractor } from "../app/ports";
import type { ExtractionPool } from "./extract/pool";

/**
 * The worker's Extractor: turns every kind of source into text through the
 * extraction pool (worker threads). URL sources are fetched through the one
 * guarded fetcher (private addresses refused unless configured); a refused
 * URL fails the document with the reason, a transient fetch error is thrown
 * so the bus retries it.
 */
export class SourceExtractor implements Extractor {
  constructor(
    private readonly pool: ExtractionPool,
    private readonly fetcher: GuardedFetcher,
  ) {}

  async extract(source: DocumentSource, signal?: AbortSignal): Promise<ExtractedText> {
    switch (source.kind) {
      case "url":
        return this.fromUrl(source.url ?? source.text ?? "", signal);
      case "file":
        if (!source.bytes?.byteLength) throw new UnprocessableDocumentError("the stored file is empty");
        return this.pool.run({ bytes: source.bytes, fileName: source.fileName, mimeType: source.mimeType, fileType: source.fileType }, signal);
      default: {
        const text = source.text ?? "";
        if (!text.trim()) throw new UnprocessableDocumentError("the document has no content");
        // Text content is sniffed like a file: HTML, Markdown (front matter) and JSON are recognised.
        return this.pool.run({ bytes: new TextEncoder().encode(text) }, signal);
      }
    }
  }

  private async fromUrl(url: string, signal?: AbortSignal): Promise<ExtractedText> {
    let fetched;
    try {
      fetched = await this.fetcher.fetch(url, signal ? { signal } : {});
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof UrlRefusedError) throw new UnprocessableDocumentError(`the URL could not be used: ${err.reason}`);
      if (err instanceof UrlFetchError && !err.retryable) throw new UnprocessableDocumentError(`the URL could not be fetched: ${err.message}`);
      throw err;
    }
    const name = decodeURIComponent(path.posix.basename(new URL(fetched.url).pathname)) || undefined;
    const out = await this.pool.run({ bytes: fetched.bytes, mimeType: fetched.contentType, fileName: name, sourceUrl: fetched.url }, signal);
    // A fetched HTML page is a web page, whatever its markup looked like.
    return out.contentType === "html" ? { ...out, contentType: "webpage" } : out;
  }
}
