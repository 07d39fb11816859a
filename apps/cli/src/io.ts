import { createColors } from "picocolors";

/** Colour functions: real ANSI styles, or the identity when colour is off. */
export type Colors = ReturnType<typeof createColors>;

/** Where a command writes, and what it knows of its terminal: process streams in main.ts, buffers in tests. */
export interface CliIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /** The working directory relative paths are resolved from. */
  cwd: string;
}

/**
 * Whether to colour what goes to `stream`, decided per stream from this
 * run's own environment (picocolors' default reads the process's, and
 * colours a pipe whenever CI is set): NO_COLOR (no-color.org) turns colour
 * off, FORCE_COLOR (other than 0 or false) on; otherwise only a terminal
 * that is not TERM=dumb is coloured.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR.toLowerCase() !== "false";
  return Boolean(stream.isTTY) && env.TERM !== "dumb";
}

/** The colours for `stream` in this run (see colorEnabled). */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  return createColors(colorEnabled(stream, env));
}

/** Human output or JSON, as the command was asked. */
export class Printer {
  /** Colours for stdout. */
  readonly color: Colors;

  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {
    this.color = colorsFor(io.stdout, io.env);
  }

  /** A line of human output on stdout (nothing with --json). */
  line(s = ""): void {
    if (!this.json) this.io.stdout.write(`${s}\n`);
  }

  /** Labelled lines (`  label         value`) of the values that are set: undefined, null and "" are left out. */
  fields(rows: [label: string, value: unknown][]): void {
    for (const [k, v] of rows) if (v !== undefined && v !== null && v !== "") this.line(`  ${k.padEnd(14)}${String(v)}`);
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
export function table(headers: string[], rows: Cell[][], pc: Colors): string[] {
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
