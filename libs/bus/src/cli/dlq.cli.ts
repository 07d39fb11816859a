import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "@engram/config";
import { rootLogger } from "@engram/observability";
import { replayDeadLetters } from "../dlq-replay";
import { TOPICS } from "../events";
import { kafkaConfigWithRules, kafkaOptionsFromConfig } from "../kafka-config";

const USAGE = `usage: pnpm dlq <list|replay> [--topic T] [--group G] [--limit N] [--json]

  list     show the dead letters not replayed yet (publishes and commits nothing)
  replay   publish them back to their topic, in order, and remember how far it got
  --topic  the original topic (default: every Engram topic: ${Object.values(TOPICS).join(", ")})
  --group  only dead letters of this consumer group (e.g. engram-memories)
  --limit  at most this many per topic
  --json   one JSON object per dead letter

The broker comes from KAFKA_BROKERS (and KAFKA_SSL, KAFKA_SASL_*), as for the services.`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** `pnpm dlq …`: returns the exit code (0 done, 1 failed, 2 usage or configuration). */
export async function runDlqCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        topic: { type: "string", multiple: true },
        group: { type: "string" },
        limit: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const command = args.positionals[0];
  if (args.values.help || (command !== "list" && command !== "replay") || args.positionals.length > 1) {
    io.err(USAGE);
    return args.values.help ? 0 : 2;
  }
  const limit = args.values.limit === undefined ? undefined : Number(args.values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    io.err("--limit must be a positive integer");
    return 2;
  }
  let config;
  try {
    config = loadConfig("dlq", kafkaConfigWithRules, env);
    if (config.KAFKA_BROKERS.length === 0) throw new ConfigError("dlq", ["KAFKA_BROKERS: is required"]);
  } catch (err) {
    io.err(err instanceof ConfigError ? err.message : String(err));
    return 2;
  }
  const conn = kafkaOptionsFromConfig(config);
  const logger = rootLogger({ level: env.LOG_LEVEL === "debug" ? "debug" : "warn" }).child({ component: "dlq" });
  const topics = args.values.topic?.length ? args.values.topic : Object.values(TOPICS);
  try {
    for (const topic of topics) {
      const { listed, replayed } = await replayDeadLetters({
        ...conn,
        clientId: `${conn.clientId}-dlq`,
        logger,
        topic,
        group: args.values.group,
        limit,
        dryRun: command === "list",
      });
      for (const d of listed) {
        if (args.values.json) io.out(JSON.stringify({ topic, ...d }));
        else
          io.out(
            `${topic}.dlq ${d.partition}:${d.offset}  ${d.eventType ?? "?"} key=${d.key} group=${d.group ?? "?"} attempts=${d.attempts ?? "?"}  ${d.error ?? ""}`,
          );
      }
      if (!args.values.json)
        io.out(command === "list" ? `${topic}: ${listed.length} dead letter(s) not replayed` : `${topic}: ${replayed} dead letter(s) replayed`);
    }
    return 0;
  } catch (err) {
    io.err(`dlq ${command} failed: ${(err as Error).message}`);
    return 1;
  }
}
