/**
 * `pnpm dlq` (and `node dist/dlq.js` in the image): the dead-letter tool's
 * process entry, kept apart from dlq.cli.ts for the reason keys.main.ts gives.
 */
import { runDlqCli } from "./dlq.cli";

runDlqCli(process.argv.slice(2), process.env, { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
