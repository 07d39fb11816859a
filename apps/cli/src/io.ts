import pc from "picocolors";

/** Where a command writes, and what it knows of its terminal: process streams in main.ts, buffers in tests. */
export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /** The working directory relative paths are resolved from. */
  cwd: string;
}

/** Human output or JSON, as the command was asked. */
export class Printer {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** A line of human output on stdout (nothing with --json). */
  line(s = ""): void {
    if (!this.json) this.io.stdout.write(`${s}\n`);
  }

  /** The JSON document of a --json run, on stdout. */
  data(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Prints `value` as JSON with --json, else calls `human`. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.data(value);
    else human();
  }

  /** A diagnostic on stderr (also with --json: stdout stays parseable). */
  note(s: string): void {
    this.io.stderr.write(`${s}\n`);
  }
}

/** A table cell: its text, or its text and how to colour it (widths are measured on the text alone). */
export type Cell = string | [text: string, paint: (s: string) => string];

/** The lines of a table for people: a dim header, then the rows, columns padded to their widest cell (the last one is not padded). */
export function table(headers: string[], rows: Cell[][]): string[] {
  const text = (c: Cell) => (typeof c === "string" ? c : c[0]);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] === undefined ? 0 : text(r[i]!).length))));
  const render = (cells: Cell[], paintAll?: (s: string) => string) =>
    cells
      .map((c, i) => {
        const t = text(c);
        const padded = i === cells.length - 1 ? t : t.padEnd(widths[i]!);
        const paint = paintAll ?? (typeof c === "string" ? undefined : c[1]);
        // paint the text only, so that colour codes never count towards the width
        return paint ? paint(t) + padded.slice(t.length) : padded;
      })
      .join("  ")
      .trimEnd();
  return [render(headers, (s) => pc.dim(s)), ...rows.map((r) => render(r))];
}
