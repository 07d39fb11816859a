/** `pnpm secrets`: the secret tool's process entry (kept apart from secrets.cli.ts, which tests import). */
import { runSecretsCli } from "./secrets.cli";

runSecretsCli(process.argv.slice(2), (s) => console.log(s)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
