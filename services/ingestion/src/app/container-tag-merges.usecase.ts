import { type Clock, ConflictError, newId, NotFoundError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import { type ContainerTagMerge, mergeKeeps, mergeSources } from "../domain/container-tag";
import type { DeleteDocumentsUseCase } from "./delete-documents.usecase";
import type { ContainerTagRepository, DocumentRepository } from "./ports";
import type { UpdateDocumentUseCase } from "./update-document.usecase";

/** Documents moved per listing page. */
const PAGE = 100;

/**
 * Container-tag merges (POST /v3/container-tags/merge): a durable job per
 * merge, run in the background by whichever replica claims it. The gateway
 * has moved the source tags' memories into the target before queueing it
 * (memories are the memories service's), so that re-processing a moved
 * document finds its facts already in the target and only adds its source
 * to them. The job moves each source document into the target the way
 * PATCH /v3/documents/{id} moves one (re-processed under the target: chunks
 * and memories follow), settles caller-id clashes (the more recently
 * changed document stays, the other is deleted), then removes the sources'
 * settings. Everything it does is idempotent, so a job a crash interrupted
 * is claimed again (on start, or once its lease lapses) and finishes.
 */
export class ContainerTagMergesUseCase {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      tags: ContainerTagRepository;
      documents: DocumentRepository;
      update: UpdateDocumentUseCase;
      deleteDocuments: DeleteDocumentsUseCase;
      clock: Clock;
      logger: Logger;
      /** This replica's name in job claims. */
      holder: string;
      leaseMs?: number;
    },
  ) {}

  async queue(tenantId: string, containerTags: unknown, target: unknown, movedMemories: number): Promise<ContainerTagMerge> {
    const plan = mergeSources(containerTags, target);
    const involved = new Set([...plan.sources, plan.target]);
    const busy = (await this.deps.tags.unfinishedMerges(1000)).find((m) => m.tenantId === tenantId && [...m.sources, m.target].some((t) => involved.has(t)));
    if (busy) throw new ConflictError(`merge ${busy.id} of these container tags is not finished`, `follow it at GET /v3/container-tags/merge/${busy.id}`);
    const now = this.deps.clock.now().toISOString();
    const job: ContainerTagMerge = {
      id: newId("merge"),
      tenantId,
      target: plan.target,
      sources: plan.sources,
      status: "queued",
      movedDocuments: 0,
      movedMemories: Math.max(0, movedMemories),
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.tags.putMerge(job);
    this.kick();
    return job;
  }

  async get(tenantId: string, id: string): Promise<ContainerTagMerge> {
    const m = await this.deps.tags.getMerge(tenantId, id);
    if (!m) throw new NotFoundError(`merge ${id} not found`);
    return m;
  }

  /** Runs the unfinished jobs (those queued here, and those an earlier run or another replica left). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.deps.logger.error({ err }, "container-tag merges failed to run"))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits for the job under way (shutdown, tests). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (const pending of await this.deps.tags.unfinishedMerges(20)) {
      if (this.stopped) return;
      const job = await this.claim(pending);
      if (job) await this.run(job);
    }
  }

  private claim(job: ContainerTagMerge): Promise<ContainerTagMerge | undefined> {
    const now = this.deps.clock.now();
    return this.deps.tags.claimMerge(
      job.tenantId,
      job.id,
      this.deps.holder,
      now.toISOString(),
      new Date(now.getTime() + (this.deps.leaseMs ?? 5 * 60_000)).toISOString(),
    );
  }

  private async run(claimed: ContainerTagMerge): Promise<void> {
    let job = claimed;
    const { tenantId, target } = job;
    const log = this.deps.logger.child({ mergeId: job.id, tenantId });
    try {
      for (const source of job.sources) {
        for (;;) {
          const { items } = await this.deps.documents.list({ tenantId, namespaces: [source], sort: "createdAt", order: "asc", offset: 0, limit: PAGE });
          if (items.length === 0) break;
          for (const doc of items) {
            const clash = doc.customId ? await this.deps.documents.findByCustomId(tenantId, target, doc.customId) : undefined;
            if (clash && mergeKeeps(doc, clash) === "target") {
              await this.deps.deleteDocuments.byIds(tenantId, source, [doc.id]);
              continue;
            }
            if (clash) await this.deps.deleteDocuments.byIds(tenantId, target, [clash.id]);
            await this.deps.update.execute({ tenantId, namespace: source, id: doc.id, patch: { namespace: target } });
            job = { ...job, movedDocuments: job.movedDocuments + 1 };
          }
          // Progress is kept, and the claim renewed, page by page.
          const renewed = await this.claim(job);
          if (!renewed) throw new Error("another replica took the merge over");
          job = { ...renewed, movedDocuments: job.movedDocuments };
          await this.deps.tags.putMerge(job);
        }
      }
      for (const source of job.sources) await this.deps.tags.deleteTag(tenantId, source);
      const now = this.deps.clock.now().toISOString();
      await this.deps.tags.putMerge({ ...job, status: "completed", updatedAt: now, completedAt: now, leaseHolder: undefined, leaseUntil: undefined });
      log.info({ moved: job.movedDocuments }, "container-tag merge completed");
    } catch (err) {
      const now = this.deps.clock.now().toISOString();
      log.error({ err }, "container-tag merge failed");
      await this.deps.tags.putMerge({
        ...job,
        status: "failed",
        error: err instanceof Error ? err.message.slice(0, 500) : String(err),
        updatedAt: now,
        completedAt: now,
        leaseHolder: undefined,
        leaseUntil: undefined,
      });
    }
  }
}
