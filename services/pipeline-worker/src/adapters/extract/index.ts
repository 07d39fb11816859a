import { UnprocessableDocumentError } from "../../domain/errors";
import { detect, type Detection } from "./detect";
import type { ExtractInput, Extracted } from "./types";

export type { ContentType, ExtractInput, Extracted } from "./types";
export { UnprocessableDocumentError };

/*
 * Bytes -> clean text. The type is detected from the content first (see
 * detect.ts), then one extractor per format turns it into Markdown-flavoured
 * text. Format modules are loaded on first use, so a worker that never sees a
 * spreadsheet never loads exceljs. They are loaded with require(): under tsx,
 * import() of a TypeScript file fails inside worker threads (the pool's).
 */

type Extractor = (d: Detection, input: ExtractInput) => Promise<Extracted> | Extracted;

type Formats = {
  text: typeof import("./formats/text");
  markdown: typeof import("./formats/markdown");
  html: typeof import("./formats/html");
  pdf: typeof import("./formats/pdf");
  docx: typeof import("./formats/docx");
  pptx: typeof import("./formats/pptx");
  xlsx: typeof import("./formats/xlsx");
  csv: typeof import("./formats/csv");
  odt: typeof import("./formats/odt");
  rtf: typeof import("./formats/rtf");
  epub: typeof import("./formats/epub");
  json: typeof import("./formats/json");
  code: typeof import("./formats/code");
  image: typeof import("./formats/image");
};
/* eslint-disable @typescript-eslint/no-require-imports -- static require() paths: lazy, and bundlers can still follow them */
const LOADERS: { [K in keyof Formats]: () => Formats[K] } = {
  text: () => require("./formats/text"),
  markdown: () => require("./formats/markdown"),
  html: () => require("./formats/html"),
  pdf: () => require("./formats/pdf"),
  docx: () => require("./formats/docx"),
  pptx: () => require("./formats/pptx"),
  xlsx: () => require("./formats/xlsx"),
  csv: () => require("./formats/csv"),
  odt: () => require("./formats/odt"),
  rtf: () => require("./formats/rtf"),
  epub: () => require("./formats/epub"),
  json: () => require("./formats/json"),
  code: () => require("./formats/code"),
  image: () => require("./formats/image"),
};
/* eslint-enable @typescript-eslint/no-require-imports */
const format = <K extends keyof Formats>(name: K): Formats[K] => LOADERS[name]();

const text = (d: Detection) => d.text ?? "";

/** Per type: loads the format module (outside the error mapping: a missing module is a bug, not a bad file) and returns its extractor. */
const EXTRACTORS: Record<Detection["type"], () => Extractor> = {
  text: () => {
    const { extractPlainText } = format("text");
    return (d) => extractPlainText(text(d));
  },
  markdown: () => {
    const { extractMarkdown } = format("markdown");
    return (d) => extractMarkdown(text(d));
  },
  html: () => {
    const { extractHtml } = format("html");
    return (d, i) => extractHtml(text(d), { bytes: i.bytes, encoding: d.encoding, sourceUrl: i.sourceUrl, fileType: i.fileType });
  },
  webpage: () => {
    const { extractHtml } = format("html");
    return (d, i) => extractHtml(text(d), { bytes: i.bytes, encoding: d.encoding, sourceUrl: i.sourceUrl, fileType: "webpage" });
  },
  pdf: () => {
    const { extractPdf } = format("pdf");
    return (_d, i) => extractPdf(i.bytes);
  },
  docx: () => {
    const { extractDocx } = format("docx");
    return (d, i) => extractDocx(i.bytes, d.zip!);
  },
  pptx: () => {
    const { extractPptx } = format("pptx");
    return (d) => extractPptx(d.zip!);
  },
  xlsx: () => {
    const { extractXlsx } = format("xlsx");
    return (d, i) => extractXlsx(i.bytes, d.zip!);
  },
  csv: () => {
    const { extractCsv } = format("csv");
    return (d) => extractCsv(text(d));
  },
  odt: () => {
    const { extractOdt } = format("odt");
    return (d) => extractOdt(d.zip!);
  },
  rtf: () => {
    const { extractRtf } = format("rtf");
    return (_d, i) => extractRtf(i.bytes);
  },
  epub: () => {
    const { extractEpub } = format("epub");
    return (d) => extractEpub(d.zip!);
  },
  json: () => {
    const { extractJson } = format("json");
    return (d) => extractJson(text(d));
  },
  code: () => {
    const { extractCode } = format("code");
    return (d, i) => extractCode(text(d), d.language ?? "", i.fileName);
  },
  image: () => {
    const { extractImage } = format("image");
    return (_d, i) => extractImage(i.bytes);
  },
};

const LABELS: Record<string, string> = {
  pdf: "PDF",
  docx: "Word document",
  pptx: "presentation",
  xlsx: "workbook",
  odt: "OpenDocument text",
  epub: "EPUB book",
  rtf: "RTF document",
};

/**
 * Extracts the text of a document. Throws UnprocessableDocumentError, with a
 * reason a user can act on, for empty, unsupported, corrupt or text-less input:
 * it never returns empty text.
 */
export async function extractDocument(input: ExtractInput): Promise<Extracted> {
  const detection = await detect(input);
  const extractor = EXTRACTORS[detection.type]();
  let extracted: Extracted;
  try {
    extracted = await extractor(detection, input);
  } catch (err) {
    if (err instanceof UnprocessableDocumentError) throw err;
    const what = LABELS[detection.type] ?? `${detection.type} file`;
    throw new UnprocessableDocumentError(`the ${what} could not be read (${(err as Error)?.message ?? String(err)}); it may be damaged or truncated`);
  }
  if (!extracted.text.trim()) {
    const what = LABELS[detection.type] ?? `${detection.type} file`;
    throw new UnprocessableDocumentError(`no text could be extracted from the ${what}: it has no text content`);
  }
  return extracted;
}
