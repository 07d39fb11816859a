import JSZip from "jszip";
import { UnprocessableDocumentError } from "../../domain/errors";
import { sniffDelimiter } from "./formats/csv";
import { decodeText } from "./normalize";
import type { ContentType, ExtractInput } from "./types";

/** What the detector found: the type, and what it already read to find it. */
export interface Detection {
  type: ContentType;
  /** The decoded text of text-based types. */
  text?: string;
  encoding?: string;
  /** The opened archive of ZIP-based types (docx, pptx, xlsx, odt, epub). */
  zip?: JSZip;
  /** Language of a source-code file (the fence's info string). */
  language?: string;
}

/** Types whose bytes are binary and have a signature: a text file can never be one of them. */
const BINARY_TYPES = new Set<ContentType>(["pdf", "docx", "pptx", "xlsx", "odt", "epub", "image"]);

const LABEL: Partial<Record<ContentType, string>> = {
  pdf: "PDF",
  docx: "Word document (.docx)",
  pptx: "PowerPoint presentation (.pptx)",
  xlsx: "Excel workbook (.xlsx)",
  odt: "OpenDocument text (.odt)",
  epub: "EPUB book",
  rtf: "RTF document",
  image: "image (PNG, JPEG, GIF, WebP, TIFF or BMP)",
};

const CODE_LANGUAGES: Record<string, string> = {
  ts: "typescript",
  tsx: "tsx",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "jsx",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  scala: "scala",
  groovy: "groovy",
  gradle: "groovy",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  cs: "csharp",
  fs: "fsharp",
  rb: "ruby",
  php: "php",
  swift: "swift",
  m: "objectivec",
  mm: "objectivec",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  fish: "fish",
  ps1: "powershell",
  bat: "batch",
  cmd: "batch",
  sql: "sql",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  ini: "ini",
  cfg: "ini",
  conf: "ini",
  properties: "properties",
  env: "dotenv",
  xml: "xml",
  xsd: "xml",
  xsl: "xml",
  svg: "xml",
  css: "css",
  scss: "scss",
  sass: "sass",
  less: "less",
  vue: "vue",
  svelte: "svelte",
  lua: "lua",
  pl: "perl",
  pm: "perl",
  r: "r",
  dart: "dart",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hs: "haskell",
  clj: "clojure",
  ml: "ocaml",
  jl: "julia",
  zig: "zig",
  nim: "nim",
  sol: "solidity",
  graphql: "graphql",
  gql: "graphql",
  proto: "protobuf",
  tf: "hcl",
  hcl: "hcl",
  tex: "latex",
  diff: "diff",
  patch: "diff",
  ipynb: "json",
};

const CODE_FILE_NAMES: Record<string, string> = { dockerfile: "dockerfile", makefile: "makefile", jenkinsfile: "groovy", gemfile: "ruby", rakefile: "ruby" };

const EXTENSIONS: Record<string, ContentType> = {
  pdf: "pdf",
  docx: "docx",
  docm: "docx",
  dotx: "docx",
  pptx: "pptx",
  pptm: "pptx",
  ppsx: "pptx",
  potx: "pptx",
  xlsx: "xlsx",
  xlsm: "xlsx",
  xltx: "xlsx",
  odt: "odt",
  ott: "odt",
  epub: "epub",
  rtf: "rtf",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  tif: "image",
  tiff: "image",
  bmp: "image",
  csv: "csv",
  tsv: "csv",
  tab: "csv",
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  mkd: "markdown",
  mdown: "markdown",
  html: "html",
  htm: "html",
  xhtml: "html",
  shtml: "html",
  json: "json",
  jsonl: "json",
  ndjson: "json",
  geojson: "json",
  txt: "text",
  text: "text",
  log: "text",
};

const UNSUPPORTED_EXTENSIONS: Record<string, string> = {
  doc: "legacy Word files (.doc) are not supported; save the document as .docx or PDF and send it again",
  xls: "legacy Excel files (.xls) are not supported; save the workbook as .xlsx or CSV and send it again",
  ppt: "legacy PowerPoint files (.ppt) are not supported; save the presentation as .pptx or PDF and send it again",
  ods: "OpenDocument spreadsheets (.ods) are not supported; save the spreadsheet as .xlsx or CSV and send it again",
  odp: "OpenDocument presentations (.odp) are not supported; save the presentation as .pptx or PDF and send it again",
  heic: "HEIC images are not supported; convert the image to PNG or JPEG and send it again",
  avif: "AVIF images are not supported; convert the image to PNG or JPEG and send it again",
};

const MIME_TYPES: Record<string, ContentType> = {
  "application/pdf": "pdf",
  "application/x-pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/epub+zip": "epub",
  "application/rtf": "rtf",
  "text/rtf": "rtf",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/tab-separated-values": "csv",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/json": "json",
  "application/ld+json": "json",
  "application/x-ndjson": "json",
  "text/plain": "text",
};

const FILE_TYPE_HINTS: Record<string, ContentType> = {
  pdf: "pdf",
  docx: "docx",
  doc: "docx",
  google_doc: "html",
  pptx: "pptx",
  xlsx: "xlsx",
  odt: "odt",
  epub: "epub",
  rtf: "rtf",
  image: "image",
  csv: "csv",
  markdown: "markdown",
  md: "markdown",
  html: "html",
  webpage: "html",
  json: "json",
  text: "text",
  txt: "text",
  code: "code",
};

function extensionOf(fileName: string | undefined): string {
  const base = (fileName ?? "").split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** What the name, mime type and fileType hint claim, in that order. */
function declaredType(input: ExtractInput): ContentType | undefined {
  const ext = extensionOf(input.fileName);
  if (EXTENSIONS[ext]) return EXTENSIONS[ext];
  if (CODE_LANGUAGES[ext]) return "code";
  const mime = (input.mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  if (MIME_TYPES[mime]) return MIME_TYPES[mime];
  if (mime.startsWith("image/")) return "image";
  const hint = (input.fileType ?? "").trim().toLowerCase();
  return FILE_TYPE_HINTS[hint];
}

function unprocessable(reason: string): never {
  throw new UnprocessableDocumentError(reason);
}

function notValid(type: ContentType | undefined, what = "it may be truncated or renamed"): never {
  const label = type ? LABEL[type] : undefined;
  if (label) unprocessable(`the file is not a valid ${label} (${what})`);
  unprocessable(
    "the file type is not supported: its content is binary and not a recognised document (PDF, Word, PowerPoint, Excel, OpenDocument text, EPUB, RTF, image or text)",
  );
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** Signatures of binary formats: a type, or a reason the format is refused. */
function magic(b: Uint8Array): ContentType | "zip" | { refuse: string } | undefined {
  const head = ascii(b, 0, Math.min(b.length, 1024));
  if (head.startsWith("%PDF-") || head.indexOf("%PDF-") > 0) return "pdf";
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return "zip";
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return {
      refuse:
        "legacy or password-protected Microsoft Office files (.doc, .xls, .ppt, encrypted .docx) are not supported; save the file without a password as .docx, .xlsx, .pptx or PDF and send it again",
    };
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image";
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image";
  if (head.startsWith("RIFF") && ascii(b, 8, 12) === "WEBP") return "image";
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return "image";
  if (head.startsWith("BM") && b.length > 26 && [12, 40, 52, 56, 108, 124].includes(b[14]! | (b[15]! << 8)) && b[16] === 0 && b[17] === 0) return "image";
  if (ascii(b, 4, 8) === "ftyp") {
    const brand = ascii(b, 8, 12);
    if (/^(heic|heix|mif1|msf1|avif)/.test(brand))
      return { refuse: "HEIC and AVIF images are not supported; convert the image to PNG or JPEG and send it again" };
    return { refuse: "audio and video files are not supported; send a transcript as text instead" };
  }
  if (head.startsWith("ID3") || head.startsWith("OggS") || head.startsWith("fLaC") || (head.startsWith("RIFF") && ascii(b, 8, 12) === "WAVE"))
    return { refuse: "audio files are not supported; send a transcript as text instead" };
  if (startsWith(b, [0x1f, 0x8b]) || head.startsWith("7z\xBC\xAF\x27\x1C") || head.startsWith("Rar!"))
    return { refuse: "compressed archives are not supported; extract the documents and send them one at a time" };
  return undefined;
}

async function zipType(bytes: Uint8Array, declared: ContentType | undefined): Promise<Detection> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch {
    notValid(declared && BINARY_TYPES.has(declared) ? declared : "docx", "the archive is damaged or truncated");
  }
  const mimetype = (await zip.file("mimetype")?.async("string"))?.trim();
  if (mimetype === "application/epub+zip") return { type: "epub", zip };
  if (mimetype?.startsWith("application/vnd.oasis.opendocument.text")) return { type: "odt", zip };
  if (mimetype?.startsWith("application/vnd.oasis.opendocument.spreadsheet")) unprocessable(UNSUPPORTED_EXTENSIONS.ods!);
  if (mimetype?.startsWith("application/vnd.oasis.opendocument.presentation")) unprocessable(UNSUPPORTED_EXTENSIONS.odp!);
  if (zip.file("word/document.xml")) return { type: "docx", zip };
  if (zip.file("ppt/presentation.xml")) return { type: "pptx", zip };
  if (zip.file("xl/workbook.xml")) return { type: "xlsx", zip };
  const contentTypes = (await zip.file("[Content_Types].xml")?.async("string")) ?? "";
  if (contentTypes.includes("wordprocessingml.document.main")) return { type: "docx", zip };
  if (/presentationml\.(presentation|slideshow)\.main/.test(contentTypes)) return { type: "pptx", zip };
  if (contentTypes.includes("spreadsheetml.sheet.main")) return { type: "xlsx", zip };
  if (declared && BINARY_TYPES.has(declared) && declared !== "image") notValid(declared, "it is a ZIP archive without the parts of one");
  return unprocessable("ZIP archives are not supported; extract the documents and send them one at a time");
}

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    const lines = t.split("\n").filter((l) => l.trim());
    if (lines.length < 2 || !lines.every((l) => /^\s*[[{]/.test(l))) return false;
    try {
      lines.forEach((l) => JSON.parse(l));
      return true;
    } catch {
      return false;
    }
  }
}

/** Strips an XML declaration, comments and whitespace before the first element. */
function leadingMarkup(text: string): string {
  return text.slice(0, 4096).replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->)+/i, "");
}

function looksLikeHtml(text: string, strict: boolean): boolean {
  const head = leadingMarkup(text);
  if (/^<!doctype\s+html/i.test(head) || /^<(html|head|body)[\s>]/i.test(head)) return true;
  if (strict) return false;
  return /^<[a-z][a-z0-9]*[\s>]/i.test(head) && /<\/(p|div|span|h[1-6]|li|table|a|section|article|body)>/i.test(text);
}

function looksLikeMarkdown(text: string): boolean {
  const strong = /^\s{0,3}#{1,6}\s+\S|^\s{0,3}(```|~~~)|^\s*\|.*\|\s*$\n^\s*\|?\s*:?-{3,}/m.test(text);
  const weak = [/^\s{0,3}[-*+]\s+\S/m, /^\s{0,3}\d+\.\s+\S/m, /\[[^\]]+\]\([^)]+\)/, /\*\*[^*\n]+\*\*/, /^>\s/m].filter((r) => r.test(text)).length;
  return strong || weak >= 2;
}

function codeLanguage(input: ExtractInput): string | undefined {
  const ext = extensionOf(input.fileName);
  const base = (input.fileName ?? "").split(/[\\/]/).pop()?.toLowerCase() ?? "";
  return CODE_LANGUAGES[ext] ?? CODE_FILE_NAMES[base];
}

/**
 * Detects the type: by content first (signatures, ZIP parts, RTF, JSON, HTML
 * markup), then by extension, then by the declared mime type / fileType hint,
 * then by the shape of the text. A declared binary type that the bytes do not
 * have fails with a reason instead of extracting garbage.
 */
export async function detect(input: ExtractInput): Promise<Detection> {
  const bytes = input.bytes;
  if (!bytes || bytes.length === 0) unprocessable("the file is empty");
  const ext = extensionOf(input.fileName);
  const declared = declaredType(input);
  const found = magic(bytes);
  if (found && typeof found === "object") unprocessable(found.refuse);
  if (found === "zip") return zipType(bytes, declared);
  if (found) return { type: found };

  const decoded = decodeText(bytes);
  if (!decoded) {
    if (UNSUPPORTED_EXTENSIONS[ext]) unprocessable(UNSUPPORTED_EXTENSIONS[ext]);
    notValid(declared && (BINARY_TYPES.has(declared) || declared === "rtf") ? declared : undefined);
  }
  const { text, encoding } = decoded;
  if (!text.trim()) unprocessable("the file contains only whitespace: there is no text to extract");
  const base: Pick<Detection, "text" | "encoding"> = { text, encoding };

  const trimmed = text.trimStart();
  if (trimmed.startsWith("{\\rtf")) return { type: "rtf", ...base };
  if (declared && BINARY_TYPES.has(declared)) notValid(declared, "it contains plain text; it may be renamed");
  if (declared === "rtf") notValid("rtf", "it does not start with {\\rtf; it may be renamed");
  if (looksLikeJson(trimmed)) return { type: "json", ...base };
  if (looksLikeHtml(trimmed, true)) return { type: "html", ...base };

  const language = codeLanguage(input);
  if (declared === "code" || (language && declared !== "csv" && declared !== "json" && declared !== "markdown"))
    return { type: "code", ...base, language: language ?? "" };
  if (declared) return { type: declared, ...base };

  if (looksLikeHtml(trimmed, false)) return { type: "html", ...base };
  if (sniffDelimiter(text).confident) return { type: "csv", ...base };
  if (looksLikeMarkdown(text)) return { type: "markdown", ...base };
  return { type: "text", ...base };
}
