import { TextExtractor } from "../../src/app/text.extractor";
import type { DocumentSource } from "../../src/app/ports";
import { UnprocessableDocumentError } from "../../src/domain/errors";

const base: DocumentSource = {
  tenantId: "t",
  namespace: "n",
  documentId: "d",
  generation: 1,
  current: true,
  kind: "text",
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:00.000Z",
};

describe("TextExtractor", () => {
  const ex = new TextExtractor();

  it("uses the first non-empty line without heading markup as the title and detects markdown", async () => {
    expect(await ex.extract({ ...base, text: "\n\n## Release notes\r\n\r\nBody text." })).toEqual({
      text: "\n\n## Release notes\n\nBody text.",
      title: "Release notes",
      contentType: "markdown",
    });
  });

  it("plain text stays text", async () => {
    expect(await ex.extract({ ...base, text: "Just a sentence.\nAnother one." })).toEqual({
      text: "Just a sentence.\nAnother one.",
      title: "Just a sentence.",
      contentType: "text",
    });
  });

  it("caps the title at 120 characters and has none for empty text", async () => {
    expect((await ex.extract({ ...base, text: "x".repeat(300) })).title).toHaveLength(120);
    expect((await ex.extract({ ...base, text: "" })).title).toBeUndefined();
  });

  it.each(["url", "file"] as const)("refuses %s sources as unprocessable", async (kind) => {
    await expect(ex.extract({ ...base, kind, url: "https://example.com" })).rejects.toBeInstanceOf(UnprocessableDocumentError);
  });
});
