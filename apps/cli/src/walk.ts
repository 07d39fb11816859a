import fs from "node:fs";
import path from "node:path";

/**
 * What the server accepts as a file upload (docs/configuration.md: uploads up
 * to GATEWAY_UPLOAD_LIMIT_BYTES, 50 MiB by default; the formats of
 * services/pipeline-worker/src/adapters/extract/README.md). Other files are
 * skipped with a reason instead of being sent to fail on the server.
 */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

// prettier-ignore
const DOCUMENT_EXTENSIONS = [
  // documents
  "pdf", "docx", "docm", "dotx", "pptx", "pptm", "ppsx", "potx", "xlsx", "xlsm", "xltx", "odt", "ott", "epub", "rtf",
  // images (OCR)
  "png", "jpg", "jpeg", "gif", "webp", "tif", "tiff", "bmp",
  // text
  "csv", "tsv", "tab", "md", "markdown", "mdx", "mkd", "mdown", "html", "htm", "xhtml", "shtml", "json", "jsonl", "ndjson", "geojson", "txt", "text", "log",
  // source code
  "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "py", "pyi", "go", "rs", "java", "kt", "kts", "scala", "groovy", "gradle", "c", "h", "cc", "cpp", "cxx",
  "hpp", "hh", "cs", "fs", "rb", "php", "swift", "m", "mm", "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "sql", "yaml", "yml", "toml", "ini", "cfg", "conf",
  "properties", "xml", "xsd", "xsl", "svg", "css", "scss", "sass", "less", "vue", "svelte", "lua", "pl", "pm", "r", "dart", "ex", "exs", "erl", "hs", "clj", "ml",
  "jl", "zig", "nim", "sol", "graphql", "gql", "proto", "tf", "hcl", "tex", "diff", "patch", "ipynb",
];
const ACCEPTED = new Set(DOCUMENT_EXTENSIONS);
const ACCEPTED_NAMES = new Set(["dockerfile", "makefile", "jenkinsfile", "gemfile", "rakefile"]);

/** Formats the server refuses by name, with its advice. */
const REFUSED: Record<string, string> = {
  doc: "legacy Word files (.doc) are not supported: save as .docx or PDF",
  xls: "legacy Excel files (.xls) are not supported: save as .xlsx or CSV",
  ppt: "legacy PowerPoint files (.ppt) are not supported: save as .pptx or PDF",
  ods: "OpenDocument spreadsheets are not supported: save as .xlsx or CSV",
  odp: "OpenDocument presentations are not supported: save as .pptx or PDF",
  heic: "HEIC images are not supported: convert to PNG or JPEG",
  avif: "AVIF images are not supported: convert to PNG or JPEG",
  zip: "archives are not supported: extract the documents first",
  gz: "archives are not supported: extract the documents first",
  tgz: "archives are not supported: extract the documents first",
  tar: "archives are not supported: extract the documents first",
  "7z": "archives are not supported: extract the documents first",
  rar: "archives are not supported: extract the documents first",
  mp3: "audio files are not supported: send a transcript as text",
  wav: "audio files are not supported: send a transcript as text",
  m4a: "audio files are not supported: send a transcript as text",
  mp4: "video files are not supported: send a transcript as text",
  mov: "video files are not supported: send a transcript as text",
  webm: "video files are not supported: send a transcript as text",
};

/** Why the server would not take this file, or undefined when it would. */
export function skipReason(fileName: string, size: number, maxBytes = MAX_FILE_BYTES): string | undefined {
  const base = path.basename(fileName).toLowerCase();
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot + 1) : "";
  if (REFUSED[ext]) return REFUSED[ext];
  if (!ACCEPTED.has(ext) && !ACCEPTED_NAMES.has(base)) return ext ? `unsupported file type .${ext}` : "no file extension: type unknown";
  if (size === 0) return "empty file";
  if (size > maxBytes) return `larger than the upload limit (${size} > ${maxBytes} bytes)`;
  return undefined;
}

/** Directories never entered: dot-directories (.git, .venv, …) and these. */
const SKIPPED_DIRS = new Set(["node_modules"]);

export interface WalkedFile {
  /** Absolute path. */
  path: string;
  size: number;
}

/**
 * Every regular file under `root` (or `root` itself when it is a file), in a
 * stable order (names sorted, depth first). Dot-files, dot-directories and
 * node_modules are left out; symbolic links are not followed.
 */
export function walkFiles(root: string): WalkedFile[] {
  const out: WalkedFile[] = [];
  const abs = path.resolve(root);
  const st = fs.statSync(abs);
  if (st.isFile()) return [{ path: abs, size: st.size }];
  const visit = (dir: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) visit(p);
      } else if (e.isFile()) {
        out.push({ path: p, size: fs.statSync(p).size });
      }
    }
  };
  visit(abs);
  return out;
}
