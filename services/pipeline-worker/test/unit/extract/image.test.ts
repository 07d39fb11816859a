import fs from "node:fs";
import path from "node:path";
import { extractDocument } from "../../../src/adapters/extract";
import { ocrPaths } from "../../../src/adapters/extract/formats/image";

describe("image OCR (tesseract.js, offline)", () => {
  it("uses the model, worker script and core from installed packages", () => {
    const paths = ocrPaths();
    expect(paths).toBeDefined();
    // A local folder, not a URL: tesseract reads the file instead of fetching it.
    expect(path.isAbsolute(paths!.langPath)).toBe(true);
    expect(fs.existsSync(path.join(paths!.langPath, "eng.traineddata.gz"))).toBe(true);
    expect(fs.existsSync(paths!.workerPath)).toBe(true);
    // The worker script require()s its WebAssembly core from this package.
    const core = require.resolve("tesseract.js-core/package.json", { paths: [path.dirname(require.resolve("tesseract.js"))] });
    expect(fs.existsSync(core)).toBe(true);
  });

  it("reads the text of a PNG", async () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(__dirname, "fixtures/memo.png")));
    const out = await extractDocument({ bytes, fileName: "memo.png" });
    expect(out.contentType).toBe("image");
    expect(out.text.replace(/\s+/g, " ")).toContain("There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on January 23");
  }, 60_000);
});
