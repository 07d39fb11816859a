import { Command, CommanderError, Option } from "commander";
import { addCommand } from "./commands/add.command";
import { exportCommand, importArchiveCommand } from "./commands/archive.command";
import { backupCommand, restoreCommand } from "./commands/backup.command";
import { configSet, configShow, configUnset } from "./commands/config.command";
import { connectionsCreate, connectionsDelete, connectionsGet, connectionsList, connectionsRuns, connectionsSync } from "./commands/connections.command";
import { documentsDelete, documentsGet, documentsList } from "./commands/documents.command";
import { importCommand } from "./commands/import.command";
import { keysCommand } from "./commands/keys.command";
import { migrateCommand, type MigrateOptions } from "./commands/migrate.command";
import { memoriesAdd, memoriesForget, memoriesList } from "./commands/memories.command";
import { profileCommand } from "./commands/profile.command";
import { searchCommand } from "./commands/search.command";
import { CommandContext, type GlobalOptions } from "./context";
import { ExitCode, UsageError, describeError, exitCodeFor } from "./exit-codes";
import { colorsFor, type CliIo } from "./io";

const EXIT_CODES_HELP = `
Settings: --url/--api-key flags, then ENGRAM_URL/ENGRAM_API_KEY/ENGRAM_CONTAINER_TAG,
then the config file (ENGRAM_CONFIG, default ~/.config/engram/config.json; see \`engram config\`).

Exit codes: 0 success, 1 partial failure (some items failed), 2 usage error,
3 authentication refused, 4 server unreachable, 5 other API error.`;

/** Builds the program; each action stores its exit code in `result.code`. */
export function buildProgram(io: CliIo, result: { code: number }): Command {
  const errColor = colorsFor(io.stderr, io.env);
  const program = new Command("engram")
    .description("Command-line client of an Engram server (the supermemory-compatible REST API)")
    .version("0.1.0")
    .option("--url <url>", "server base URL (default http://localhost:8787)")
    .option("--api-key <key>", "API key (Bearer)")
    .option("--json", "print JSON for scripts instead of human output")
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText("after", EXIT_CODES_HELP)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: (s, write) => write(errColor.red(s)) })
    .exitOverride();

  const tagOption = () =>
    new Option("-t, --container-tag <tag>", "container tag (namespace); default from the environment, the config file, else the server's default");
  // `--tag` (connections commands) is another name of --container-tag
  const tagAlias = () => new Option("--tag <tag>", "same as --container-tag").hideHelp();
  const ctxOf = (cmd: Command) => {
    const { tag, ...opts } = cmd.optsWithGlobals<GlobalOptions & { tag?: string }>();
    if (tag !== undefined) {
      if (opts.containerTag !== undefined && opts.containerTag !== tag) throw new UsageError("--tag and --container-tag name the same setting: give one");
      opts.containerTag = tag;
    }
    return new CommandContext(io, opts);
  };
  const run =
    <A extends unknown[]>(fn: (ctx: CommandContext, ...args: A) => number | Promise<number>) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      // commander passes the declared arguments, then the options, then the command
      result.code = await fn(ctxOf(cmd), ...(args.slice(0, -1) as A));
    };
  const collect = (v: string, prev: string[] = []) => [...prev, v];

  program
    .command("add")
    .description("add files, folders (recursively), URLs or text; files already added are skipped (resumable)")
    .argument("[inputs...]", "files, folders, http(s) URLs, or quoted text")
    .option("--text <text>", "add this text (repeatable)", collect)
    .option("-c, --concurrency <n>", "uploads in flight", "4")
    .option("--metadata <json>", "metadata for every document, a JSON object of strings, numbers and booleans")
    .option("--force", "send files again even when unchanged")
    .option("--state <file>", "state file of added files (default: under the config directory, per server, key and tag)")
    .option("--wait", "wait until the documents are processed (a document that fails counts as a failure)")
    .option("--wait-timeout <seconds>", "how long --wait waits", "120")
    .addOption(tagOption())
    .action(run((ctx, inputs: string[], o: Parameters<typeof addCommand>[2]) => addCommand(ctx, inputs, o)));

  program
    .command("search")
    .description("search memories, document chunks, or both")
    .argument("<query...>", "what to look for")
    .addOption(new Option("-m, --mode <mode>", "what to search").choices(["memories", "documents", "hybrid"]).default("memories"))
    .option("--threshold <n>", "minimum similarity, 0 to 1 (server default 0.6)")
    .option("-l, --limit <n>", "most results")
    .addOption(tagOption())
    .action(run((ctx, words: string[], o: Parameters<typeof searchCommand>[2]) => searchCommand(ctx, words, o)));

  const memories = program.command("memories").description("list, add and forget memories");
  memories
    .command("list")
    .description("list the latest version of each memory")
    .option("-l, --limit <n>", "memories per page", "20")
    .option("--page <n>", "page", "1")
    .option("--include-forgotten", "also list forgotten memories")
    .addOption(tagOption())
    .action(run((ctx, o: Parameters<typeof memoriesList>[1]) => memoriesList(ctx, o)));
  memories
    .command("add")
    .description("write a memory directly (searchable at once)")
    .argument("<content...>", "the memory")
    .option("--static", "a lasting fact of the profile")
    .addOption(tagOption())
    .action(run((ctx, words: string[], o: Parameters<typeof memoriesAdd>[2]) => memoriesAdd(ctx, words, o)));
  memories
    .command("forget")
    .description("forget a memory by id, or the memories matching --query (a dry run unless --yes)")
    .argument("[id]", "memory id")
    .option("-q, --query <text>", 'forget what matches this (e.g. "everything about Project Titan")')
    .option("-y, --yes", "really forget what --query matches")
    .option("--threshold <n>", "minimum similarity for --query, 0 to 1")
    .option("--reason <text>", "why (kept with the memory)")
    .addOption(tagOption())
    .action(run((ctx, id: string | undefined, o: Parameters<typeof memoriesForget>[2]) => memoriesForget(ctx, id, o)));

  program
    .command("backup")
    .description("operator, on the server's host: online backup of the all-in-one data directory while it serves (every tenant; not an API call)")
    .argument("<dir>", "backup directory: new or empty")
    .option("--data-dir <path>", "the data directory (default ENGRAM_DATA_DIR, else ./.data)")
    .option("--include-secrets", "also copy secret.key and file-url.secret (default: keep the secret key apart from the backup)")
    .action(run((ctx, dir: string, o: Parameters<typeof backupCommand>[2]) => backupCommand(ctx, dir, o)));

  program
    .command("restore")
    .description("operator: restore a backup made by `engram backup` into an empty data directory (checksums verified first)")
    .argument("<dir>", "backup directory (with its manifest.json)")
    .option("--data-dir <path>", "the data directory to fill, new or empty (default ENGRAM_DATA_DIR, else ./.data)")
    .option("--secret-key-file <file>", "the data directory's secret.key kept apart from the backup (checked against the manifest)")
    .action(run((ctx, dir: string, o: Parameters<typeof restoreCommand>[2]) => restoreCommand(ctx, dir, o)));

  program
    .command("profile")
    .description("the profile of a container tag: static and dynamic facts")
    .option("-q, --query <text>", "also search memories for this")
    .option("--threshold <n>", "minimum similarity of the search results")
    .addOption(tagOption())
    .action(run((ctx, o: Parameters<typeof profileCommand>[1]) => profileCommand(ctx, o)));

  const documents = program.command("documents").description("list, show and delete documents");
  documents
    .command("list")
    .description("list documents (of the container tag when one is set, else of every tag)")
    .option("-l, --limit <n>", "documents per page", "20")
    .option("--page <n>", "page", "1")
    .addOption(tagOption())
    .action(run((ctx, o: Parameters<typeof documentsList>[1]) => documentsList(ctx, o)));
  documents
    .command("get")
    .description("show a document (service id or customId)")
    .argument("<id>")
    .action(run((ctx, id: string) => documentsGet(ctx, id)));
  documents
    .command("delete")
    .description("delete documents by id (service id or customId)")
    .argument("<ids...>")
    .action(run((ctx, ids: string[]) => documentsDelete(ctx, ids)));

  const connections = program
    .command("connections")
    .description("connections that import and keep in step an external source (web-crawler, github, notion, s3, …): create, list, sync, delete");
  connections
    .command("list")
    .description("list connections (of the container tag when one is set, else every one) with their status and last sync")
    .addOption(tagOption())
    .addOption(tagAlias())
    .action(run((ctx) => connectionsList(ctx)));
  connections
    .command("get")
    .description("show a connection and its last sync run")
    .argument("<id>", "connection id (n_…)")
    .action(run((ctx, id: string) => connectionsGet(ctx, id)));
  connections
    .command("runs")
    .description("a connection's sync runs, newest first (the last 100 are kept)")
    .argument("<id>", "connection id (n_…)")
    .option("-l, --limit <n>", "runs to show, 1 to 100", "20")
    .action(run((ctx, id: string, o: Parameters<typeof connectionsRuns>[2]) => connectionsRuns(ctx, id, o)));
  connections
    .command("create")
    .description("create a connection; an OAuth provider answers the link to open, a direct one (web-crawler, s3, granola) starts its first sync")
    .argument("<provider>", "web-crawler | github | notion | google-drive | gmail | onedrive | s3 | granola")
    .option("--metadata <json>", 'the connection\'s settings, a flat JSON object (web-crawler: {"startUrl":"https://…"})')
    .option("--document-limit <n>", "most documents to import, 1 to 10000")
    .option("--redirect-url <url>", "where the browser goes after the OAuth consent")
    .addOption(tagOption())
    .addOption(tagAlias())
    .action(run((ctx, provider: string, o: Parameters<typeof connectionsCreate>[2]) => connectionsCreate(ctx, provider, o)));
  connections
    .command("sync")
    .description("start a sync of the provider's connections (of the container tag when one is set, else all of them)")
    .argument("<provider>", "web-crawler | github | notion | …")
    .addOption(tagOption())
    .addOption(tagAlias())
    .action(run((ctx, provider: string) => connectionsSync(ctx, provider)));
  connections
    .command("delete")
    .description("delete a connection and, unless --keep-documents, the documents it imported")
    .argument("<id>", "connection id (n_…)")
    .option("--keep-documents", "keep the documents it imported")
    .action(run((ctx, id: string, o: Parameters<typeof connectionsDelete>[2]) => connectionsDelete(ctx, id, o)));

  program
    .command("import")
    .description("import a JSON Lines file ({content, containerTag?, customId?, metadata?} per line) or a folder (like add)")
    .argument("<source>", "file.jsonl or folder")
    .option("-c, --concurrency <n>", "requests in flight", "4")
    .option("--force", "send records again even when imported before")
    .option("--state <file>", "state file (as for add)")
    .addOption(tagOption())
    .action(run((ctx, source: string, o: Parameters<typeof importCommand>[2]) => importCommand(ctx, source, o)));

  program
    .command("migrate")
    .description(
      "copy documents and memories from another server that speaks the API (another Engram, the hosted service) into this one; resumable, and a second run adds nothing",
    )
    .option("--from-url <url>", "base URL of the source server (e.g. https://api.supermemory.ai)")
    .option("--from-key <key>", "API key of the source server (or ENGRAM_MIGRATE_FROM_KEY)")
    .option("-t, --container-tag <tag>", "migrate only this container tag of the source (repeatable; default every tag)", collect)
    .option("-c, --concurrency <n>", "batches in flight, 1 to 16", "2")
    .option("--batch-size <n>", "documents per listing page and per batch add, 1 to 600", "100")
    .option("--retries <n>", "retries of a request refused with 429 or 5xx or cut off, with exponential backoff (both servers)", "5")
    .option("--state <file>", "state file of what was migrated (default: under the config directory, per target, key and source)")
    .action(async (o: MigrateOptions, cmd: Command) => {
      // --container-tag here filters the source; the target's tags are the source's own.
      const { containerTag: _tags, ...globals } = cmd.optsWithGlobals<GlobalOptions & MigrateOptions>();
      result.code = await migrateCommand(new CommandContext(io, { url: globals.url, apiKey: globals.apiKey, json: globals.json }), o);
    });

  program
    .command("export")
    .description("download the key's whole tenant as one archive (admin scope): documents, files, memories with history, settings")
    .argument("[file]", "archive to write (default engram-export-<time>.tar); never overwritten")
    .action(run((ctx, file: string | undefined) => exportCommand(ctx, file)));

  program
    .command("import-archive")
    .description("load an archive made by `engram export` into the key's tenant (admin scope); running it again adds nothing")
    .argument("<file>", "the archive (.tar)")
    .action(run((ctx, file: string) => importArchiveCommand(ctx, file)));

  program
    .command("keys")
    .description("manage API keys in the server's key store (on the server host, from the repository: same as `pnpm keys`)")
    .argument("[args...]", "create --tenant <t> [--name <n>] [--scopes read,write,admin] [--container-tags <tag>,…] | list | revoke <key-id>")
    .allowUnknownOption()
    .helpOption(false)
    .action(run((ctx, args: string[]) => keysCommand(ctx, args)));

  const config = program.command("config").description("show or change the config file");
  config
    .command("set")
    .description("set url, api-key or container-tag in the config file (mode 0600)")
    .argument("<key>", "url | api-key | container-tag")
    .argument("<value>")
    .action(run((ctx, key: string, value: string) => configSet(ctx, key, value)));
  config
    .command("unset")
    .description("remove a setting from the config file")
    .argument("<key>", "url | api-key | container-tag")
    .action(run((ctx, key: string) => configUnset(ctx, key)));
  config
    .command("show", { isDefault: true })
    .description("the settings in effect and where each comes from")
    .action(run((ctx) => configShow(ctx)));

  return program;
}

/** Runs the CLI on `argv` (without node and the script) and returns the exit code; never calls process.exit. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const result = { code: 0 };
  const program = buildProgram(io, result);
  try {
    await program.parseAsync(argv, { from: "user" });
    return result.code;
  } catch (err) {
    if (err instanceof CommanderError) return exitCodeFor(err);
    const code = exitCodeFor(err);
    io.stderr.write(
      `${colorsFor(io.stderr, io.env).red("error:")} ${describeError(err)}${code === ExitCode.Auth ? " (check the API key: --api-key, ENGRAM_API_KEY or `engram config set api-key`)" : ""}\n`,
    );
    return code;
  }
}
