import Supermemory from "supermemory";
import { DEFAULT_CONTAINER_TAG, checkContainerTag, resolveConfig, type ResolvedConfig } from "./config";
import { UsageError } from "./exit-codes";
import { Printer, type CliIo } from "./io";

/** The options every command accepts (program-level) and the per-command --container-tag. */
export interface GlobalOptions {
  url?: string;
  apiKey?: string;
  json?: boolean;
  containerTag?: string;
}

/** What a command runs with: its printer, settings, and a client built on first use. */
export class CommandContext {
  readonly printer: Printer;
  private resolved?: ResolvedConfig;
  private sdk?: Supermemory;

  constructor(
    readonly io: CliIo,
    readonly opts: GlobalOptions,
  ) {
    this.printer = new Printer(io, Boolean(opts.json));
  }

  get config(): ResolvedConfig {
    this.resolved ??= resolveConfig({ url: this.opts.url, apiKey: this.opts.apiKey, containerTag: this.opts.containerTag }, this.io.env);
    return this.resolved;
  }

  /** The container tag of the command: --container-tag, ENGRAM_CONTAINER_TAG, the config file, else the server's default namespace. */
  get containerTag(): string {
    return this.config.containerTag ?? DEFAULT_CONTAINER_TAG;
  }

  /** The container tag only when one was chosen (lists then cover every tag). */
  get chosenContainerTag(): string | undefined {
    return this.config.containerTag === undefined ? undefined : checkContainerTag(this.config.containerTag);
  }

  get apiKey(): string {
    const key = this.config.apiKey;
    if (!key) throw new UsageError("no API key: pass --api-key, set ENGRAM_API_KEY, or run `engram config set api-key <key>`");
    return key;
  }

  /** The supermemory SDK pointed at the Engram server (two retries with backoff on 429, 5xx and connection errors). */
  get client(): Supermemory {
    this.sdk ??= new Supermemory({
      apiKey: this.apiKey,
      baseURL: this.config.url,
      maxRetries: Number(this.io.env.ENGRAM_MAX_RETRIES ?? 2),
      timeout: 120_000,
    });
    return this.sdk;
  }
}
