import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type EventBus, OutboxRelay, type Subscription, TOPICS } from "@engram/bus";
import { type Clock, systemClock } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ServiceModule } from "@engram/runtime";
import { SqliteDocumentRepository } from "./adapters/embedded/document.sqlite";
import { FsFileStore } from "./adapters/filesystem/file-store.fs";
import { DocumentArchiveUseCase } from "./app/document-archive.usecase";
import { AddDocumentBatchUseCase, AddDocumentUseCase } from "./app/add-document.usecase";
import { containerTagsGrpc } from "./grpc/container-tags.grpc";
import { ContainerTagsUseCase } from "./app/container-tags.usecase";
import { ContainerTagMergesUseCase } from "./app/container-tag-merges.usecase";
import { DeleteDocumentsUseCase } from "./app/delete-documents.usecase";
import { FileUrlUseCase } from "./app/file-url.usecase";
import { GetDocumentUseCase } from "./app/get-document.usecase";
import { ListDocumentsUseCase } from "./app/list-documents.usecase";
import { RecordStateUseCase } from "./app/record-state.usecase";
import { RequeueStaleUseCase } from "./app/requeue-stale.usecase";
import { stateEventsHandler } from "./app/state-events.consumer";
import { UpdateDocumentUseCase } from "./app/update-document.usecase";
import { UploadDocumentFileUseCase } from "./app/upload-document-file.usecase";
import type { IngestionConfig } from "./config";
import type { ContainerTagRepository, DocumentRepository, FileStore } from "./app/ports";
import { ingestionGrpc } from "./grpc/ingestion.grpc";
import { conversationGrpc } from "./grpc/conversation.grpc";
import { IngestConversationUseCase } from "./app/ingest-conversation.usecase";

export type OutboxPublisher = Pick<OutboxRelay<unknown>, "start" | "stop" | "notify">;

/** The service's stores, chosen by the composition root (embeddedIngestionStorage or @engram/ingestion/mongo). */
export interface IngestionStorage {
  /** Documents (with their outbox) and container-tag settings. */
  repo: DocumentRepository & ContainerTagRepository;
  files: FileStore;
  /** Publishes the repository's outbox to the bus. */
  relay(bus: EventBus, log: Logger): OutboxPublisher;
}

export interface IngestionDeps {
  config: IngestionConfig;
  bus: EventBus;
  logger: Logger;
  clock?: Clock;
  storage: IngestionStorage;
}

/** SQLite documents (with their outbox) and files on disk, under the data directory. */
export function embeddedIngestionStorage(config: IngestionConfig): IngestionStorage {
  const repo = new SqliteDocumentRepository(config.ENGRAM_DATA_DIR);
  return {
    repo,
    files: new FsFileStore(config.ENGRAM_DATA_DIR),
    relay: (bus, log) => new OutboxRelay("ingestion", repo.outbox, bus, log, { idleMs: 500 }),
  };
}

export const INGESTION_CONSUMER_GROUP = "ingestion";

/** The signing key of file links: configured, or generated once and kept (mode 0600) in the data directory. */
function fileUrlSecret(config: IngestionConfig): Buffer {
  if (config.ENGRAM_FILE_URL_SECRET) return Buffer.from(config.ENGRAM_FILE_URL_SECRET, "utf8");
  const file = path.join(config.ENGRAM_DATA_DIR, "file-url.secret");
  fs.mkdirSync(config.ENGRAM_DATA_DIR, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as { code?: string }).code !== "EEXIST") throw err;
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "utf8");
}

/** Builds the ingestion service. Nothing happens until start(). */
export function createIngestionModule(deps: IngestionDeps): ServiceModule {
  const { config } = deps;
  const log = deps.logger.child({ component: "ingestion" });
  const clock = deps.clock ?? systemClock;
  const { storage } = deps;
  const { repo, files } = storage;
  const relay = storage.relay(deps.bus, log.child({ component: "ingestion.outbox" }));
  const notify = () => relay.notify();
  const deleteDocuments = new DeleteDocumentsUseCase(repo, files, clock, notify);
  const getDocument = new GetDocumentUseCase(repo);
  const recordState = new RecordStateUseCase(repo);
  const requeueStale = new RequeueStaleUseCase(repo, clock, config.INGESTION_STALE_AFTER_MS, notify, config.INGESTION_STALE_MAX_REQUEUES);
  let subscription: Subscription | undefined;
  let sweep: NodeJS.Timeout | undefined;

  const addDocument = new AddDocumentUseCase(repo, clock, notify);
  const updateDocument = new UpdateDocumentUseCase(repo, files, getDocument, clock, notify);
  // Merge jobs are claimed under a name stable per replica (host and data directory), so a restarted replica resumes its own at once.
  const merges = new ContainerTagMergesUseCase({
    tags: repo,
    documents: repo,
    update: updateDocument,
    deleteDocuments,
    clock,
    logger: log.child({ component: "merges" }),
    holder: `ingestion@${os.hostname()}#${createHash("sha256").update(path.resolve(config.ENGRAM_DATA_DIR)).digest("hex").slice(0, 12)}`,
  });
  let mergeResume: NodeJS.Timeout | undefined;
  return {
    name: "ingestion",
    grpcServices: [
      conversationGrpc(new IngestConversationUseCase(addDocument)),
      ingestionGrpc({
        addDocument,
        addBatch: new AddDocumentBatchUseCase(repo, clock, notify),
        upload: new UploadDocumentFileUseCase(repo, files, clock, config.INGESTION_MAX_FILE_BYTES, notify),
        getDocument,
        updateDocument,
        listDocuments: new ListDocumentsUseCase(repo, { maxContentBytes: config.INGESTION_LIST_MAX_CONTENT_BYTES }),
        deleteDocuments,
        fileUrls: new FileUrlUseCase(repo, files, getDocument, fileUrlSecret(config), clock),
        files,
        archive: new DocumentArchiveUseCase(repo, files, clock, config.INGESTION_MAX_FILE_BYTES, notify),
      }),
      // Container tags, their merges and the tenant reset (their document side).
      containerTagsGrpc({ containerTags: new ContainerTagsUseCase({ tags: repo, deleteDocuments, clock }), merges }),
    ],
    async start() {
      relay.start();
      subscription = await deps.bus.subscribe({
        group: INGESTION_CONSUMER_GROUP,
        topics: [TOPICS.documentState],
        handler: stateEventsHandler(recordState, log),
        // A state change is one store write.
        maxHandlerMs: 30_000,
      });
      sweep = setInterval(() => {
        requeueStale.execute().then(
          (n) => n && log.warn({ requeued: n }, "re-queued documents without progress"),
          (err) => log.error({ err }, "stale document sweep failed"),
        );
      }, config.INGESTION_STALE_SWEEP_MS);
      sweep.unref();
      // Merge jobs left unfinished (a crash, another replica's lapsed claim) are taken up now and every minute.
      merges.kick();
      mergeResume = setInterval(() => merges.kick(), 60_000);
      mergeResume.unref();
    },
    // Shutdown: no sweep or merge starts any more, and the state consumer takes no new event.
    abort(reason) {
      if (sweep) clearInterval(sweep);
      if (mergeResume) clearInterval(mergeResume);
      subscription?.abort(reason);
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      if (mergeResume) clearInterval(mergeResume);
      await merges.stop();
      await subscription?.close();
      await relay.stop();
      await repo.close();
      await files.close();
    },
  };
}
