import { type EventBus, OutboxRelay, type Subscription, TOPICS } from "@engram/bus";
import { type Clock, systemClock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { SqliteDocumentRepository } from "./adapters/embedded/document.sqlite";
import { AddDocumentUseCase } from "./app/add-document.usecase";
import { GetDocumentUseCase } from "./app/get-document.usecase";
import { RecordStateUseCase } from "./app/record-state.usecase";
import { RequeueStaleUseCase } from "./app/requeue-stale.usecase";
import { stateEventsHandler } from "./app/state-events.consumer";
import type { IngestionConfig } from "./config";
import { ingestionGrpc } from "./grpc/ingestion.grpc";

export interface IngestionDeps {
  config: IngestionConfig;
  bus: EventBus;
  logger: Logger;
  clock?: Clock;
}

export const INGESTION_CONSUMER_GROUP = "ingestion";

/** Builds the ingestion service. Nothing happens until start(). */
export function createIngestionModule(deps: IngestionDeps): ServiceModule {
  const log = deps.logger.child({ component: "ingestion" });
  const clock = deps.clock ?? systemClock;
  const repo = new SqliteDocumentRepository(deps.config.ENGRAM_DATA_DIR);
  const relay = new OutboxRelay("ingestion", repo.outbox, deps.bus, log.child({ component: "ingestion.outbox" }), { idleMs: 500 });
  const notify = () => relay.notify();
  const addDocument = new AddDocumentUseCase(repo, clock, notify);
  const getDocument = new GetDocumentUseCase(repo);
  const recordState = new RecordStateUseCase(repo);
  const requeueStale = new RequeueStaleUseCase(repo, clock, deps.config.INGESTION_STALE_AFTER_MS, notify);
  let subscription: Subscription | undefined;
  let sweep: NodeJS.Timeout | undefined;

  return {
    name: "ingestion",
    grpcServices: {
      "engram.ingestion.v1.IngestionService": ingestionGrpc({ addDocument, getDocument }),
      // Contracts designed; the operations arrive with the documents release (UNIMPLEMENTED until then).
      "engram.ingestion.v1.ContainerTagService": {},
      "engram.ingestion.v1.ConversationService": {},
    },
    async start() {
      relay.start();
      subscription = await deps.bus.subscribe({
        group: INGESTION_CONSUMER_GROUP,
        topics: [TOPICS.documentState],
        handler: stateEventsHandler(recordState, log),
      });
      sweep = setInterval(() => {
        requeueStale.execute().then(
          (n) => n && log.warn({ requeued: n }, "re-queued documents without progress"),
          (err) => log.error({ err }, "stale document sweep failed"),
        );
      }, deps.config.INGESTION_STALE_SWEEP_MS);
      sweep.unref();
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await subscription?.close();
      await relay.stop();
      await repo.close();
    },
  };
}
