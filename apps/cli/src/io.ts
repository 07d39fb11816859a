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
