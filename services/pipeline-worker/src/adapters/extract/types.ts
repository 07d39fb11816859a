export interface ExtractInput {
  bytes: Uint8Array;
  fileName?: string;
  mimeType?: string;
  /** the API's fileType hint: pdf, docx, image, ... */
  fileType?: string;
  sourceUrl?: string;
}

/** A detected document type (also the `contentType` reported for it). */
export type ContentType =
  "text" | "markdown" | "html" | "webpage" | "pdf" | "docx" | "pptx" | "xlsx" | "csv" | "odt" | "rtf" | "epub" | "json" | "code" | "image";

export interface Extracted {
  text: string;
  title?: string;
  /** detected type: text, markdown, html, webpage, pdf, docx, pptx, xlsx, csv, odt, rtf, epub, json, code, image */
  contentType: string;
  /** PDF pages, presentation slides. */
  pages?: number;
}
