/**
 * `pnpm keys` (and `dist/keys-cli.js`): the key tool's process entry. Kept
 * apart from keys.cli.ts, which the gateway package exports: inside a bundle
 * every module shares one `module`, so a "run when main" check in an
 * exported module would run the tool in whatever process bundles it (the
 * all-in-one server exited with the tool's usage).
 */
import { runKeysCli } from "./keys.cli";
const env = process.env;
if (env.STORE === "mongo" && !env.MONGO_URL) {
  console.error("MONGO_URL is required when STORE=mongo");
  process.exit(2);
}
const mongo = env.STORE === "mongo" ? { url: env.MONGO_URL!, dbName: env.MONGO_DB || "engram" } : undefined;
runKeysCli(process.argv.slice(2), (s) => console.log(s), env.ENGRAM_DATA_DIR || "./.data", mongo).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
