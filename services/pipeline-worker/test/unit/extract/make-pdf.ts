/**
 * Writes a simple text PDF (Helvetica, one text line per row, A4 pages) for
 * tests and timings: no dependency, valid cross-reference table.
 */
export function makePdf(pages: string[][], opts: { title?: string; fontSize?: number } = {}): Uint8Array {
  const size = opts.fontSize ?? 11;
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const catalog = add("");
  const pagesObj = add("");
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = lines.map((l, i) => `BT /F1 ${size} Tf 72 ${770 - i * size * 1.25} Td (${escape(l)}) Tj ET`).join("\n");
    const content = add(`<< /Length ${Buffer.byteLength(ops, "latin1")} >>\nstream\n${ops}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  const info = opts.title ? add(`<< /Title (${escape(opts.title)}) >>`) : 0;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ""} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

/** A long text PDF: `pages` pages of 45 lines of prose each (for timings and the pool's responsiveness check). */
export function bigPdf(pages: number): Uint8Array {
  const sentence = "Extraction runs in a worker thread so that the event loop keeps serving requests while a large document is parsed.";
  return makePdf(
    Array.from({ length: pages }, (_, p) => [
      `Section ${p + 1}`,
      ...Array.from({ length: 45 }, (_, l) => `${sentence.slice(0, 60 + ((p + l) % 40))} (${p + 1}.${l + 1})`),
    ]),
  );
}
