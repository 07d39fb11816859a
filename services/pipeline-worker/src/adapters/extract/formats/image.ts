import path from "node:path";
import { UnprocessableDocumentError } from "../../../domain/errors";
import { tidy } from "../normalize";
import type { Extracted } from "../types";

/*
 * Image OCR with tesseract.js, fully offline: the WebAssembly core is
 * require()d from the tesseract.js-core package by tesseract's own Node worker
 * script, and the English LSTM model is read from the @tesseract.js-data/eng
 * package (langPath is a local folder, so tesseract reads the file instead of
 * fetching it; cacheMethod "none" keeps it from writing a copy into the working
 * directory). Nothing is downloaded at run time. A tesseract worker is started
 * per image and terminated after it (about a second of start-up, no idle
 * thread left behind).
 */

const UNAVAILABLE = "image text extraction (OCR) is not available in this build; send the text of the image, or a PDF with selectable text";

type Tesseract = typeof import("tesseract.js");

/** Where the local model and worker script are, or undefined when the OCR packages are not installed. */
export function ocrPaths(): { langPath: string; workerPath: string } | undefined {
  try {
    const langPath = path.join(path.dirname(require.resolve("@tesseract.js-data/eng")), "4.0.0_best_int");
    const workerPath = path.join(path.dirname(require.resolve("tesseract.js")), "worker-script", "node", "index.js");
    return { langPath, workerPath };
  } catch {
    return undefined;
  }
}

async function loadTesseract(): Promise<Tesseract | undefined> {
  try {
    return await import("tesseract.js");
  } catch {
    return undefined;
  }
}

const UNREADABLE = "the image could not be read; it may be damaged or in an unsupported variant of its format";

/** A PNG must start with its IHDR chunk: checked here so that a damaged file does not reach the decoder. */
const damagedPng = (b: Uint8Array) => b[0] === 0x89 && (b.length < 33 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR");

/** OCR of PNG, JPEG, GIF, WebP, TIFF and BMP images (English). */
export async function extractImage(bytes: Uint8Array): Promise<Extracted> {
  if (damagedPng(bytes)) throw new UnprocessableDocumentError(UNREADABLE);
  const paths = ocrPaths();
  const tesseract = paths && (await loadTesseract());
  if (!paths || !tesseract) throw new UnprocessableDocumentError(UNAVAILABLE);
  const worker = await tesseract
    .createWorker("eng", tesseract.OEM.LSTM_ONLY, {
      langPath: paths.langPath,
      workerPath: paths.workerPath,
      gzip: true,
      cacheMethod: "none",
      logger: () => undefined,
      errorHandler: () => undefined,
    })
    .catch((err: unknown) => {
      throw new UnprocessableDocumentError(`${UNAVAILABLE} (the OCR engine failed to start: ${String((err as Error)?.message ?? err)})`);
    });
  try {
    const result = await worker.recognize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).catch(() => {
      throw new UnprocessableDocumentError(UNREADABLE);
    });
    const text = tidy(result.data.text ?? "");
    if (!text.replace(/\W+/g, "")) throw new UnprocessableDocumentError("no text was found in the image");
    return { text, contentType: "image" };
  } finally {
    await worker.terminate().catch(() => undefined);
  }
}
