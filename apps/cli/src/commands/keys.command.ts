import fs from "node:fs";
import path from "node:path";
import type { CommandContext } from "../context";
import { ExitCode } from "../exit-codes";

/**
 * `engram keys …`: API keys are not managed over the REST API. They live in
 * the server's key store (SQLite under ENGRAM_DATA_DIR, or MongoDB with
 * STORE=mongo), so this command runs the server's own key tool, the one behind
 * `pnpm keys` (services/gateway/src/cli/keys.cli.ts), on the host where it
 * runs: inside the repository only. Elsewhere it says so and exits 2.
 */
export async function keysCommand(ctx: CommandContext, args: string[]): Promise<number> {
  const tool = path.resolve(__dirname, "../../../../services/gateway/src/cli/keys.cli.ts");
  const p = ctx.printer;
  if (!fs.existsSync(tool)) {
    p.note("API keys are created on the server host, in its key store: run `pnpm keys create --tenant <t>` there (see the README, API keys).");
    return ExitCode.Usage;
  }
  const env = ctx.io.env;
  if (env.STORE === "mongo" && !env.MONGO_URL) {
    p.note("MONGO_URL is required when STORE=mongo");
    return ExitCode.Usage;
  }
  const dataDir = path.resolve(ctx.io.cwd, env.ENGRAM_DATA_DIR || "./.data");
  p.note(`(keys act on the server's key store: ${env.STORE === "mongo" ? `MongoDB ${env.MONGO_DB || "engram"}` : dataDir}, not over the API)`);
  const { runKeysCli } = (await import(tool)) as typeof import("../../../../services/gateway/src/cli/keys.cli");
  const mongo = env.STORE === "mongo" ? { url: env.MONGO_URL!, dbName: env.MONGO_DB || "engram" } : undefined;
  return runKeysCli(args, (s) => ctx.io.stdout.write(`${s}\n`), dataDir, mongo);
}
