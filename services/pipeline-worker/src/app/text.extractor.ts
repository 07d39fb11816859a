import { UnprocessableDocumentError } from "../domain/errors";
import type { DocumentSource, ExtractedText, Extractor } from "./ports";

/** Text sources: the content is the text; the first non-empty line (without markup) is the title. */
export class TextExtractor implements Extractor {
  async extract(source: DocumentSource): Promise<ExtractedText> {
    if (source.kind === "url") {
      throw new UnprocessableDocumentError("fetching URL content is not enabled in this build of Engram; send the page text as content instead");
    }
    if (source.kind === "file") {
      throw new UnprocessableDocumentError("file extraction is not enabled in this build of Engram");
    }
    const text = (source.text ?? "").replace(/\r\n?/g, "\n");
    const first = text.split("\n").find((l) => l.trim()) ?? "";
    const title =
      first
        .replace(/^#+\s*/, "")
        .trim()
        .slice(0, 120) || undefined;
    const markdown = /^#{1,6}\s|\n#{1,6}\s|```|\n[-*]\s/.test(text);
    return { text, title, contentType: markdown ? "markdown" : "text" };
  }
}
